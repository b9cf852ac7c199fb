import '../../lib/zod-config.js';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminGet } from '../api/admin-api.js';
import { AdminUpcomingResponse } from './subscription-schemas.js';
import { SUBSCRIPTIONS_KEY } from './get-subscriptions.js';

/** The CSV of the same rows (GET /api/admin/subscriptions/upcoming.csv), for the panel's link. */
export const UPCOMING_CSV_URL = '/api/admin/subscriptions/upcoming.csv';

/** GET /api/admin/subscriptions/upcoming: each variant's units due in 7, 30 and 90 days against stock. */
export function getUpcomingQueryOptions() {
  return queryOptions({
    // Under the tab's key: a cancellation (which refreshes the list) refreshes this too.
    queryKey: [...SUBSCRIPTIONS_KEY, 'upcoming'] as const,
    queryFn: ({ signal }) => adminGet('/api/admin/subscriptions/upcoming', AdminUpcomingResponse, undefined, signal),
    staleTime: 0,
  });
}

export function useUpcoming() {
  return useQuery(getUpcomingQueryOptions());
}
