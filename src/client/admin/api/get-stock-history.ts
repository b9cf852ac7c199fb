import '../../lib/zod-config.js';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { StockHistoryPage } from '../../../shared/schemas/inventory.js';
import { adminGet } from './admin-api.js';

/** Under the Products tab's key: whatever refreshes the product list refreshes the stock too. */
export const stockKey = (productId: string) => ['admin', 'products', 'stock', productId] as const;

function getStockHistory(productId: string, page: number, pageSize: number, signal?: AbortSignal): Promise<StockHistoryPage> {
  return adminGet(`/api/admin/products/${encodeURIComponent(productId)}/stock`, StockHistoryPage, { page, pageSize }, signal);
}

export function getStockHistoryQueryOptions(productId: string, page: number, pageSize: number) {
  return queryOptions({
    queryKey: [...stockKey(productId), { page, pageSize }] as const,
    queryFn: ({ signal }) => getStockHistory(productId, page, pageSize, signal),
    placeholderData: keepPreviousData,
    // Sales move stock at any time: always read it afresh.
    staleTime: 0,
  });
}

/** A product's stock now and a page of its ledger, newest first. */
export function useStockHistory(productId: string, page: number, pageSize: number) {
  return useQuery(getStockHistoryQueryOptions(productId, page, pageSize));
}
