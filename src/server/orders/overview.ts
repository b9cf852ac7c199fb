import { sql, type Kysely } from 'kysely';
import type { Database, OrdersTable } from '../db/schema.js';
import { ORDER_STATUSES } from '../../shared/schemas/orders.js';
import { netReceivedSql } from './money-taken.js';

type OrdersOverview = {
  days: { date: string; orders: number; revenueCents: number }[];
  byStatus: { status: OrdersTable['status']; count: number }[];
  totals: { orders: number; revenueCents: number };
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** 'YYYY-MM-DD' of a UTC day. */
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The UTC calendar day of `created_at` (ISO text in SQLite and PostgreSQL alike). */
const dayOf = sql<string>`substr(created_at, 1, 10)`;

/**
 * The orders tab's overview: orders and revenue per UTC day for the last `days` days (oldest
 * first, today last, days without orders filled with zeros) and the window's orders by status.
 *
 * Which orders count: placed ones, as on the dashboard (adminStats) and in My Orders — paid or
 * refunded, or entered by the shop (no payment provider). A checkout that was never paid is an
 * abandoned attempt, not an order, so it counts nowhere here.
 *
 * Revenue: money received net of refunds (orders/money-taken.ts, the rule every figure uses),
 * counted on the order's day. An order the owner typed in and has not been paid for counts as an
 * order but brings in no money; a cancelled one keeps what was not refunded.
 *
 * One aggregate query reads only the window's rows (a range on orders_created_at_idx), grouped by
 * day and status; the per-day and per-status sums are folded together here.
 */
export async function ordersOverview(db: Kysely<Database>, days: number, now: Date = new Date()): Promise<OrdersOverview> {
  const todayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const firstDay = todayStart - (days - 1) * DAY_MS;
  const start = new Date(firstDay).toISOString();
  const end = new Date(todayStart + DAY_MS).toISOString();

  const rows = await db
    .selectFrom('orders')
    .select([
      dayOf.as('day'),
      'status',
      sql<number | string>`count(*)`.as('orders'),
      sql<number | string | null>`sum(${netReceivedSql()})`.as('revenue'),
    ])
    .where('created_at', '>=', start)
    .where('created_at', '<', end)
    .where((eb) => eb.or([eb('payment_status', 'in', ['paid', 'refunded']), eb('payment_provider', 'is', null)]))
    .groupBy([dayOf, 'status'])
    .execute();

  const perDay = new Map<string, { orders: number; revenueCents: number }>();
  const perStatus = new Map<OrdersTable['status'], number>();
  for (const r of rows) {
    const orders = Number(r.orders);
    const revenueCents = Number(r.revenue ?? 0);
    const d = perDay.get(r.day) ?? { orders: 0, revenueCents: 0 };
    d.orders += orders;
    d.revenueCents += revenueCents;
    perDay.set(r.day, d);
    perStatus.set(r.status, (perStatus.get(r.status) ?? 0) + orders);
  }

  const series = Array.from({ length: days }, (_, i) => {
    const date = utcDate(firstDay + i * DAY_MS);
    return { date, ...(perDay.get(date) ?? { orders: 0, revenueCents: 0 }) };
  });
  return {
    days: series,
    // Every status, in the usual order, so the chart's bars and colours never shift.
    byStatus: ORDER_STATUSES.map((status) => ({ status, count: perStatus.get(status) ?? 0 })),
    totals: {
      orders: series.reduce((n, d) => n + d.orders, 0),
      revenueCents: series.reduce((n, d) => n + d.revenueCents, 0),
    },
  };
}
