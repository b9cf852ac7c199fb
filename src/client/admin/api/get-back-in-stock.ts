import '../../lib/zod-config.js';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { BackInStockWaitingList } from '../../../shared/schemas/inventory.js';
import { adminGet } from './admin-api.js';

function getBackInStockWaiting(page: number, pageSize: number, signal?: AbortSignal): Promise<BackInStockWaitingList> {
  return adminGet('/api/admin/back-in-stock', BackInStockWaitingList, { page, pageSize }, signal);
}

export function getBackInStockWaitingQueryOptions(page: number, pageSize: number) {
  return queryOptions({
    queryKey: ['admin', 'back-in-stock', { page, pageSize }] as const,
    queryFn: ({ signal }) => getBackInStockWaiting(page, pageSize, signal),
    placeholderData: keepPreviousData,
    // Shoppers ask and restocks answer at any time: always read it afresh.
    staleTime: 0,
  });
}

/** What shoppers wait for ("Notify me when it's back"), one row per product or variant, most awaited first. */
export function useBackInStockWaiting(page: number, pageSize: number) {
  return useQuery(getBackInStockWaitingQueryOptions(page, pageSize));
}
