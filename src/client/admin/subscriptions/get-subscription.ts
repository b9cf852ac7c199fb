import '../../lib/zod-config.js';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminGet } from '../api/admin-api.js';
import { AdminSubscriptionDetailResponse } from './subscription-schemas.js';
import { SUBSCRIPTIONS_KEY } from './get-subscriptions.js';

/** GET /api/admin/subscriptions/:id: one subscription with its items, cycles (newest first) and consent. */
export function getSubscriptionQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...SUBSCRIPTIONS_KEY, 'detail', id] as const,
    queryFn: async ({ signal }) =>
      (await adminGet(`/api/admin/subscriptions/${encodeURIComponent(id)}`, AdminSubscriptionDetailResponse, undefined, signal))
        .subscription,
    staleTime: 0,
  });
}

export function useSubscription(id: string | null) {
  return useQuery({ ...getSubscriptionQueryOptions(id ?? ''), enabled: Boolean(id) });
}
