import '../../lib/zod-config.js';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { OrderStockLine } from '../../../shared/schemas/inventory.js';
import { adminGet } from './admin-api.js';

const OrderStockLinesResponse = z.object({ items: z.array(OrderStockLine) });

function getOrderStockLines(orderId: string, signal?: AbortSignal): Promise<OrderStockLine[]> {
  return adminGet(`/api/admin/orders/${encodeURIComponent(orderId)}/stock-lines`, OrderStockLinesResponse, undefined, signal).then(
    (r) => r.items,
  );
}

/** Under the order's key, so every order mutation (a refund, a status change) reads it again. */
export function getOrderStockLinesQueryOptions(orderId: string) {
  return queryOptions({
    queryKey: ['admin', 'orders', 'stock-lines', orderId] as const,
    queryFn: ({ signal }) => getOrderStockLines(orderId, signal),
    staleTime: 0,
  });
}

/** The order's lines with what each has out of stock (the most that can go back) and returned so far. */
export function useOrderStockLines(orderId: string) {
  return useQuery(getOrderStockLinesQueryOptions(orderId));
}
