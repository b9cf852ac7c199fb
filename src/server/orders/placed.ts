import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { OrderOrigin, OrdersTable } from '../db/schema.js';
import { tookMoney } from './money-taken.js';

/*
 * "Placed", written once (decision 0048): an order that took money (paid, or refunded after it
 * was) or one the owner entered, whatever its payment state. An unpaid or abandoned checkout is
 * not placed: it is only an attempt. The order list, the figures, the exports, the customer's
 * "My orders" and the stock rules all count placed orders.
 */

type PlacedFacts = { payment_status: OrdersTable['payment_status']; origin: OrderOrigin };

/** The order is placed: it took money, or the owner entered it. */
export function isPlaced(order: PlacedFacts): boolean {
  return tookMoney(order) || order.origin === 'owner';
}

/** The same in SQL, per row of `orders` (named `alias` in the query, if given). */
export function placedSql(alias?: string): RawBuilder<SqlBool> {
  const col = (name: string) => sql.ref(alias ? `${alias}.${name}` : name);
  return sql<SqlBool>`(${col('payment_status')} in ('paid', 'refunded') or ${col('origin')} = 'owner')`;
}

/** The owner entered it and no money has come yet (recorded by hand or paid through a link). */
export function awaitsOwnerPayment(order: PlacedFacts): boolean {
  return order.origin === 'owner' && order.payment_status === 'unpaid';
}

/**
 * May be given a label or marked shipped: a paid order (partly refunded still is), or one the owner
 * entered and has not been paid yet (the owner vouches for it). In SQL, per row of `orders`.
 */
export function shippableSql(alias?: string): RawBuilder<SqlBool> {
  const col = (name: string) => sql.ref(alias ? `${alias}.${name}` : name);
  return sql<SqlBool>`(${col('payment_status')} = 'paid' or (${col('origin')} = 'owner' and ${col('payment_status')} = 'unpaid'))`;
}
