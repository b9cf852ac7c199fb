import '../../../lib/zod-config.js';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { SubscriptionView } from '../../../../shared/subscriptions.js';
import { apiRequestWith } from '../../../lib/api-client.js';

const SubscriptionsResponse = z.object({ subscriptions: z.array(SubscriptionView) });

/** The signed-in customer's subscriptions, newest first (GET /api/account/subscriptions). */
export function getSubscriptions(signal?: AbortSignal): Promise<SubscriptionView[]> {
  return apiRequestWith('/api/account/subscriptions', () => Promise.resolve(SubscriptionsResponse), { signal }).then(
    (r) => r.subscriptions,
  );
}

/** Under 'account', which signing in, out and verifying an address refresh. */
export const subscriptionsQueryKey = ['account', 'subscriptions'] as const;

export function getSubscriptionsQueryOptions() {
  return queryOptions({
    queryKey: subscriptionsQueryKey,
    queryFn: ({ signal }) => getSubscriptions(signal),
    staleTime: 0,
  });
}

export function useSubscriptions() {
  return useQuery(getSubscriptionsQueryOptions());
}
