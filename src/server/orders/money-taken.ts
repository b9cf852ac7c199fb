import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { OrdersTable } from '../db/schema.js';

/*
 * The one rule of "this order took money" (issue [4/6]), and what every figure of money received
 * is made of: the Store Statistics' revenue, the Orders overview, the orders CSV's net, an order's
 * own net. Money is received when a payment is taken (the order is `paid`, or `refunded` after it
 * was); an order typed in by the owner takes money only once its payment is recorded, and an
 * abandoned checkout never did. Revenue is money received less what was refunded of it, counted on
 * the order's day. A cancelled order keeps what was not refunded: the shop still has that money.
 */

/** The payment statuses of an order that took money. */
export const TOOK_MONEY_STATUSES = ['paid', 'refunded'] as const;

/** A payment was taken for the order (so its units left stock and money may be refunded). */
export function tookMoney(order: { payment_status: OrdersTable['payment_status'] }): boolean {
  return order.payment_status === 'paid' || order.payment_status === 'refunded';
}

/** What the order brought in, net of refunds (0 for one that took no money). */
export function netReceivedCents(order: {
  payment_status: OrdersTable['payment_status'];
  total_cents: number | string;
  refunded_cents: number | string;
}): number {
  return tookMoney(order) ? Number(order.total_cents) - Number(order.refunded_cents) : 0;
}

/** The same in SQL, per row of `orders` (named `alias` in the query, if given), for sums. */
export function netReceivedSql(alias?: string): RawBuilder<number> {
  const col = (name: string) => sql.ref(alias ? `${alias}.${name}` : name);
  return sql<number>`case when ${col('payment_status')} in ('paid', 'refunded') then ${col('total_cents')} - ${col('refunded_cents')} else 0 end`;
}

/**
 * Paid and not yet shipped: the owner's pile (the dashboard's "To ship", the order list's filter).
 * `completed` is the status a paid checkout gets (the spec's); `processing` is the owner's "being
 * packed". An order refunded in full is not to ship; one refunded in part still is.
 */
export function toShipSql(alias?: string): RawBuilder<SqlBool> {
  const col = (name: string) => sql.ref(alias ? `${alias}.${name}` : name);
  return sql<SqlBool>`${col('status')} in ('completed', 'processing') and ${col('payment_status')} = 'paid'`;
}
