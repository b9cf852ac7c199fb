import '../../lib/zod-config.js';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { OrderView } from '../../../shared/schemas/orders.js';
import { apiRequest } from '../../lib/api-client.js';
import { isNotFound } from './get-checkout-session.js';

const OrderResponse = z.object({ order: OrderView });

/** One order; the server answers only its owner (404 'Order not found' for anyone else). */
function getOrder(id: string, signal?: AbortSignal): Promise<OrderView> {
  return apiRequest(`/api/orders/${encodeURIComponent(id)}`, () => OrderResponse, { signal }).then((r) => r.order);
}

function getOrderQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['orders', 'detail', id] as const,
    queryFn: ({ signal }) => getOrder(id, signal),
    staleTime: 0,
    retry: (failureCount, error) => !isNotFound(error) && failureCount < 2,
  });
}

export function useOrder(id: string | null) {
  return useQuery({ ...getOrderQueryOptions(id ?? ''), enabled: Boolean(id) });
}
