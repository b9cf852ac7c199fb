/**
 * Data for the dashboard and My Orders pages. These pages are lazy chunks, so zod (and this
 * module) stay out of the first-load bundle; zod-config must run before any schema is created.
 */
import '../../lib/zod-config.js';
import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { AccountSummary, type AddressInput, type ContactInfoInput } from '../../../shared/schemas/account.js';
import { SessionUser, type SessionResponse } from '../../../shared/schemas/auth.js';
import { OrderView } from '../../../shared/schemas/orders.js';
import { apiRequest } from '../../lib/api-client.js';
import { sessionQueryKey } from '../../lib/get-session.js';

/** The spec: server orders refresh every 30 s. */
const ORDERS_REFETCH_MS = 30_000;
/** The dashboard lists up to 10 recent orders; /orders pages through them 10 at a time. */
export const RECENT_ORDERS = 10;
export const ORDERS_PAGE_SIZE = 10;

const OrdersPage = z.object({
  items: z.array(OrderView),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
});
export type OrdersPage = z.infer<typeof OrdersPage>;

const AdminStatsResponse = z.object({
  stats: z.object({
    totalOrders: z.number().int(),
    latestOrderAt: z.string().nullable(),
    pendingOrders: z.number().int(),
    processingOrders: z.number().int(),
    shippedOrders: z.number().int(),
    deliveredOrders: z.number().int(),
    cancelledOrders: z.number().int(),
    completedOrders: z.number().int(),
    toShipOrders: z.number().int(),
    revenueCents: z.number().int(),
    totalUsers: z.number().int(),
  }),
  recentUsers: z.array(z.object({ id: z.string(), email: z.string(), fullName: z.string(), role: z.string(), createdAt: z.string() })),
});
export type AdminStatsResponse = z.infer<typeof AdminStatsResponse>;

const UserResponse = z.object({ user: SessionUser });
const OkResponse = z.object({ ok: z.literal(true) });

// ---- Orders ----

function ordersQueryOptions(page: number, pageSize: number) {
  return queryOptions({
    // 'mine': the signed-in user's own orders (all orders for an admin), as GET /api/orders answers.
    queryKey: ['orders', 'mine', { page, pageSize }] as const,
    queryFn: ({ signal }) => apiRequest('/api/orders', () => OrdersPage, { query: { page, pageSize }, signal }),
    staleTime: 0,
    refetchInterval: ORDERS_REFETCH_MS,
  });
}

export function useOrders(page: number, pageSize: number) {
  return useQuery({ ...ordersQueryOptions(page, pageSize), placeholderData: keepPreviousData });
}

// ---- Summary and admin stats ----

export function useAccountSummary(enabled: boolean) {
  return useQuery({
    queryKey: ['account', 'summary'] as const,
    queryFn: ({ signal }) => apiRequest('/api/account/summary', () => AccountSummary, { signal }),
    staleTime: 0,
    enabled,
  });
}

export function useAdminStats(enabled: boolean) {
  return useQuery({
    // Not under 'admin': the back office keeps its own cache entries there.
    queryKey: ['dashboard', 'admin-stats'] as const,
    queryFn: ({ signal }) => apiRequest('/api/admin/stats', () => AdminStatsResponse, { signal }),
    staleTime: 0,
    enabled,
  });
}

// ---- Account edits ----

/** Puts the user the server answered into the session cache, so the header and checkout prefill see it at once. */
function storeUser(queryClient: QueryClient, user: SessionUser): void {
  queryClient.setQueryData<SessionResponse>(sessionQueryKey, (prev) => ({
    user,
    impersonatorEmail: prev?.impersonatorEmail ?? null,
  }));
}

export async function updateContactInfo(queryClient: QueryClient, input: ContactInfoInput): Promise<void> {
  const { user } = await apiRequest('/api/account/contact', () => UserResponse, { method: 'PUT', body: input });
  storeUser(queryClient, user);
}

export type AddressKind = 'shipping' | 'billing';

export async function saveAddress(queryClient: QueryClient, kind: AddressKind, input: AddressInput): Promise<void> {
  const { user } = await apiRequest(`/api/account/addresses/${kind}`, () => UserResponse, { method: 'PUT', body: input });
  storeUser(queryClient, user);
}

// ---- Impersonation ----

export async function startImpersonation(userId: string): Promise<void> {
  await apiRequest('/api/impersonation', () => OkResponse, { method: 'POST', body: { userId } });
}
