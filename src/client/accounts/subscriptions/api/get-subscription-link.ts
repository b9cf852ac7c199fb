import '../../../lib/zod-config.js';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { SubscriptionView } from '../../../../shared/subscriptions.js';
import { apiRequestWith, ApiError } from '../../../lib/api-client.js';

const LinkResponse = z.object({ subscription: SubscriptionView });

/** The subscription an e-mail's manage link names, without signing in (GET /api/subscriptions/manage/:token); 404 for an unknown link. */
export function getSubscriptionLink(token: string, signal?: AbortSignal): Promise<SubscriptionView> {
  return apiRequestWith(`/api/subscriptions/manage/${encodeURIComponent(token)}`, () => Promise.resolve(LinkResponse), { signal }).then(
    (r) => r.subscription,
  );
}

export const subscriptionLinkQueryKey = (token: string) => ['subscription-link', token] as const;

export function isUnknownLink(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

export function getSubscriptionLinkQueryOptions(token: string) {
  return queryOptions({
    queryKey: subscriptionLinkQueryKey(token),
    queryFn: ({ signal }) => getSubscriptionLink(token, signal),
    staleTime: 0,
    // An unknown link stays unknown; a network blip is worth one more try.
    retry: (failureCount, error) => !isUnknownLink(error) && failureCount < 2,
  });
}

export function useSubscriptionLink(token: string) {
  return useQuery({ ...getSubscriptionLinkQueryOptions(token), enabled: token !== '' });
}
