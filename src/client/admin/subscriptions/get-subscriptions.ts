import '../../lib/zod-config.js';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminGet } from '../api/admin-api.js';
import { AdminSubscriptionPage, type SubscriptionStatus } from './subscription-schemas.js';

export const SUBSCRIPTIONS_PAGE_SIZE = 20;
export const SUBSCRIPTIONS_KEY = ['admin', 'subscriptions'] as const;

export type SubscriptionFilters = { status: SubscriptionStatus | ''; q: string; page: number };

/** GET /api/admin/subscriptions: a page, newest first, with the count of each status (empty filters are left out). */
export function getSubscriptionsQueryOptions(filters: SubscriptionFilters) {
  return queryOptions({
    queryKey: [...SUBSCRIPTIONS_KEY, 'list', filters] as const,
    queryFn: ({ signal }) =>
      adminGet(
        '/api/admin/subscriptions',
        AdminSubscriptionPage,
        { status: filters.status, q: filters.q, page: filters.page, pageSize: SUBSCRIPTIONS_PAGE_SIZE },
        signal,
      ),
    // Renewals and customers change subscriptions behind the owner's back: a fresh page each visit.
    staleTime: 0,
  });
}

export function useSubscriptions(filters: SubscriptionFilters) {
  return useQuery({ ...getSubscriptionsQueryOptions(filters), placeholderData: keepPreviousData });
}
