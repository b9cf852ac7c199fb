import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { OrderEventsResponse, type OrderStatus } from '../../../shared/schemas/orders.js';
import type { AdminOrderInput } from '../../../shared/schemas/admin/orders.js';
import type { ReturnLine } from '../../../shared/schemas/inventory.js';
import type { z } from 'zod';
import { adminGet, adminSend, logUnexpected } from '../api/admin-api.js';
import {
  AdminOrderPage,
  OkResponse,
  OrderResponse,
  OrderSaveResponse,
  OrdersOverview,
  ShipStationResponse,
  TrackingResponse,
} from '../api/admin-schemas.js';

export type Status = z.infer<typeof OrderStatus>;
const ORDERS_PAGE_SIZE = 20;
/** 'Server orders refresh 30000 ms' (spec section 9). */
export const ORDERS_REFRESH_MS = 30_000;

/** `payment`: '' shows placed orders; the rest as the server's PAYMENT_FILTERS (shared/schemas/admin/orders.ts). */
type OrderListFilter = { page: number; search: string; status: Status | 'to_ship' | ''; payment?: string; from?: string; to?: string };

export function useAdminOrders(f: OrderListFilter) {
  return useQuery({
    queryKey: ['admin', 'orders', 'list', f] as const,
    queryFn: ({ signal }) =>
      adminGet(
        '/api/admin/orders',
        AdminOrderPage,
        {
          page: f.page,
          pageSize: ORDERS_PAGE_SIZE,
          search: f.search,
          status: f.status,
          payment: f.payment ?? '',
          from: f.from ?? '',
          to: f.to ?? '',
        },
        signal,
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
    // The specification's order list refreshes every 30 s: new orders reach the open list.
    refetchInterval: ORDERS_REFRESH_MS,
  });
}

export function useAdminOrder(id: string) {
  return useQuery({
    queryKey: ['admin', 'orders', 'detail', id] as const,
    queryFn: ({ signal }) => adminGet(`/api/admin/orders/${encodeURIComponent(id)}`, OrderResponse, undefined, signal),
    staleTime: 0,
  });
}

/** The overview's period: the last 7, 30 or 90 of the shop's days (today last), or its days from one date to another. */
export type OverviewPeriod = { days: number } | { from: string; to: string };

/**
 * Per-day orders and revenue, orders by status and sales by product. Its key sits under
 * ['admin', 'orders'], so every order mutation below (create, edit, status, delete, ShipStation)
 * refetches it with the list.
 */
export function useOrdersOverview(period: OverviewPeriod) {
  return useQuery({
    queryKey: ['admin', 'orders', 'overview', period] as const,
    queryFn: ({ signal }) => adminGet('/api/admin/orders/overview', OrdersOverview, period, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** Refetches every admin order query: the list pages, open details and the overview. */
function useInvalidateOrders() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: ['admin', 'orders'] });
}

/**
 * Refetches what an order's stock change touches besides the order: the Products tab's list and
 * stock histories, and the shop's products.
 */
export function useInvalidateStock() {
  const qc = useQueryClient();
  return () => Promise.all([qc.invalidateQueries({ queryKey: ['admin', 'products'] }), qc.invalidateQueries({ queryKey: ['products'] })]);
}

/** A status change; cancelling a paid order says which units go back to stock (`returnLines`) and may refund it (`refund`). */
export function useSetOrderStatus() {
  const invalidate = useInvalidateOrders();
  const invalidateStock = useInvalidateStock();
  return useMutation({
    onError: logUnexpected,
    mutationFn: ({
      id,
      ...body
    }: {
      id: string;
      status: Status;
      returnLines?: ReturnLine[];
      notify?: boolean;
      refund?: { amountCents: number; reason?: string | undefined };
    }) => adminSend('PATCH', `/api/admin/orders/${encodeURIComponent(id)}/status`, OrderResponse, body),
    onSettled: () => Promise.all([invalidate(), invalidateStock()]),
  });
}

export function useDeleteOrder() {
  const invalidate = useInvalidateOrders();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (id: string) => adminSend('DELETE', `/api/admin/orders/${encodeURIComponent(id)}`, OkResponse),
    onSettled: invalidate,
  });
}

/** The body of POST and PUT /api/admin/orders, as the server's schema gives it (total only for orders without items). */
type OrderFormBody = z.output<typeof AdminOrderInput>;

export function useSaveOrder(id: string | null) {
  const invalidate = useInvalidateOrders();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (body: OrderFormBody) =>
      id
        ? adminSend('PUT', `/api/admin/orders/${encodeURIComponent(id)}`, OrderSaveResponse, body)
        : adminSend('POST', '/api/admin/orders', OrderSaveResponse, body),
    onSuccess: invalidate,
  });
}

export function useSendToShipStation() {
  const invalidate = useInvalidateOrders();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (id: string) => adminSend('POST', `/api/admin/orders/${encodeURIComponent(id)}/shipstation`, ShipStationResponse),
    onSuccess: invalidate,
  });
}

export function useGetTracking() {
  return useMutation({
    onError: logUnexpected,
    mutationFn: (id: string) => adminGet(`/api/admin/orders/${encodeURIComponent(id)}/tracking`, TrackingResponse),
  });
}

/** The order's timeline, newest first (under the order's key, so every order mutation refetches it). */
export function useOrderEvents(id: string) {
  return useQuery({
    queryKey: ['admin', 'orders', 'events', id] as const,
    queryFn: ({ signal }) => adminGet(`/api/admin/orders/${encodeURIComponent(id)}/events`, OrderEventsResponse, undefined, signal),
    staleTime: 0,
  });
}

export function useAddOrderNote(id: string) {
  const invalidate = useInvalidateOrders();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (text: string) => adminSend('POST', `/api/admin/orders/${encodeURIComponent(id)}/notes`, OrderEventsResponse, { text }),
    onSuccess: invalidate,
  });
}

/** Voids the order's label at ShipStation: the only way to buy another. */
export function useVoidLabel() {
  const invalidate = useInvalidateOrders();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (id: string) => adminSend('POST', `/api/admin/orders/${encodeURIComponent(id)}/label/void`, OrderResponse),
    onSuccess: invalidate,
  });
}
