import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { takeForOrder } from '../../inventory/order-stock.js';
import { CUSTOMER_ACTOR, STRIPE_ACTOR } from '../../orders/events.js';
import type { LockedOrderRows } from './lock-order-rows.js';

/**
 * Takes the order's units (inventory/order-stock.ts): all of them from what other checkouts do not
 * keep, or, when a payment came after its reservation lapsed and a unit is gone, none, answering
 * what fell short ("Cloth: 2 ordered, 1 in stock") so the payment is refunded. The stock must be
 * locked (lockOrderRows).
 */
export async function takeStock(
  trx: Kysely<Database>,
  { order, items, stock }: Pick<LockedOrderRows, 'order' | 'items' | 'stock'>,
  now: Date,
): Promise<string[]> {
  return takeForOrder(trx, {
    orderId: order.id,
    orderNumber: order.order_number,
    units: items.map((i) => ({ productId: i.product_id, name: i.product_name, quantity: i.quantity })),
    stock,
    now,
    actor: order.payment_provider === 'stripe' ? STRIPE_ACTOR : CUSTOMER_ACTOR,
  });
}
