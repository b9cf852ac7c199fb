import '../../lib/zod-config.js';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { StockHistoryPage } from '../../../shared/schemas/inventory.js';
import { adminGet } from './admin-api.js';
import { stockKey, stockPath, type StockTarget } from './stock-target.js';

function getStockHistory(target: StockTarget, page: number, pageSize: number, signal?: AbortSignal): Promise<StockHistoryPage> {
  return adminGet(stockPath(target), StockHistoryPage, { page, pageSize }, signal);
}

export function getStockHistoryQueryOptions(target: StockTarget, page: number, pageSize: number) {
  return queryOptions({
    queryKey: [...stockKey(target), { page, pageSize }] as const,
    queryFn: ({ signal }) => getStockHistory(target, page, pageSize, signal),
    placeholderData: keepPreviousData,
    // Sales move stock at any time: always read it afresh.
    staleTime: 0,
  });
}

/** A product's (or one of its variants') stock now and a page of its ledger, newest first. */
export function useStockHistory(target: StockTarget, page: number, pageSize: number) {
  return useQuery(getStockHistoryQueryOptions(target, page, pageSize));
}
