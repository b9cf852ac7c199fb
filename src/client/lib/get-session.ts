import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { SessionResponse } from '../../shared/schemas/auth.js';
import { apiRequest } from './api-client.js';
import { loadAuthSchemas } from './load-auth-schemas.js';

/** The one cache entry for "who is signed in"; the server may pre-fill it in the page's HTML. */
export const sessionQueryKey = ['session'] as const;

const FIVE_MINUTES = 5 * 60 * 1000;

export const SIGNED_OUT: SessionResponse = { user: null, impersonatorEmail: null };

async function getSession(signal?: AbortSignal): Promise<SessionResponse> {
  const schemas = await loadAuthSchemas();
  return apiRequest('/api/session', () => schemas.SessionResponse, { signal });
}

function getSessionQueryOptions() {
  return queryOptions({
    queryKey: sessionQueryKey,
    queryFn: ({ signal }) => getSession(signal),
    staleTime: FIVE_MINUTES,
  });
}

/**
 * The signed-in user (null for a guest or while unknown). `isLoading` is true until the first
 * answer; pages that depend on the user wait for it, the header shows the guest view meanwhile.
 */
export function useSession() {
  const { data, isPending, isError, isFetching, refetch } = useQuery(getSessionQueryOptions());
  return {
    user: data?.user ?? null,
    impersonatorEmail: data?.impersonatorEmail ?? null,
    isLoading: isPending && !isError,
    isError: isError && !data,
    isFetching,
    refetch,
  };
}

/** Query roots holding public catalogue data; everything else may belong to the signed-in user. */
const PUBLIC_QUERY_ROOTS: readonly unknown[] = ['session', 'settings', 'categories', 'products', 'faqs'];

/** Drops cached data of the previous user (orders, admin lists, …) when who is signed in changes. */
export function forgetUserData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (q) => !PUBLIC_QUERY_ROOTS.includes(q.queryKey[0]) });
}

/** Stores the session an auth call answered, then checks it against the server in the background. */
export function applySession(queryClient: QueryClient, session: SessionResponse): void {
  forgetUserData(queryClient);
  queryClient.setQueryData(sessionQueryKey, session);
  void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
}
