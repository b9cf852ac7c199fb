import '../../lib/zod-config.js';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EndHoldResult, HoldsPage } from '../../../shared/schemas/holds.js';
import { adminGet, adminSend, logUnexpected } from './admin-api.js';

const holdsKey = ['admin', 'holds'] as const;

export function getHoldsQueryOptions(page: number, pageSize: number) {
  return queryOptions({
    queryKey: [...holdsKey, { page, pageSize }] as const,
    queryFn: ({ signal }) => adminGet('/api/admin/holds', HoldsPage, { page, pageSize }, signal),
    placeholderData: keepPreviousData,
    // Checkouts take and end holds at any time: always read them afresh.
    staleTime: 0,
  });
}

/** What unpaid checkouts hold now, a page at a time (by product and variant). */
export function useHolds(page: number, pageSize: number) {
  return useQuery(getHoldsQueryOptions(page, pageSize));
}

/** Ends a checkout's hold (the checkout ends); the holds, the product list and the shop's products are read again. */
export function useEndHold() {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (orderId: string) => adminSend('POST', `/api/admin/holds/${encodeURIComponent(orderId)}/end`, EndHoldResult, {}),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: holdsKey }),
        qc.invalidateQueries({ queryKey: ['admin', 'products'] }),
        qc.invalidateQueries({ queryKey: ['admin', 'orders'] }),
        qc.invalidateQueries({ queryKey: ['products'] }),
      ]),
  });
}
