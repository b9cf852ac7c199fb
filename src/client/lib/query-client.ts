import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.js';

const FIVE_MINUTES = 5 * 60 * 1000;
/** How long data written into the HTML by the server counts as fresh for "always fresh" queries. */
const SERVER_DATA_GRACE_MS = 10_000;

/**
 * Timestamp given to every query pre-filled from the server's HTML. Queries whose spec says
 * "always refetch" (settings, FAQs, the shop list) stay fresh for a few seconds only while they
 * still hold exactly that server data, so the first paint does not trigger a duplicate request.
 */
export const serverDataUpdatedAt = Date.now();

/** staleTime for queries the spec wants always fresh, except right after the server handed us the data. */
export function freshUnlessFromServer(query: { state: { dataUpdatedAt: number } }): number {
  return query.state.dataUpdatedAt === serverDataUpdatedAt ? SERVER_DATA_GRACE_MS : 0;
}

function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: FIVE_MINUTES,
        refetchOnWindowFocus: false,
        retry: shouldRetry,
      },
      mutations: {
        onError: (error) => console.error(error),
      },
    },
  });
}
