import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { recordShortfall, takeForOrder } from '../../inventory/order-stock.js';
import { CUSTOMER_ACTOR, STRIPE_ACTOR } from '../../orders/events.js';
import type { LockedOrderRows } from './lock-order-rows.js';
import { variantOfLine } from '../../../shared/variants.js';

const unitsOf = (items: LockedOrderRows['items']) =>
  items.map((i) => ({
    productId: i.product_id,
    variantId: variantOfLine(i.product_id, i.variant_id),
    name: i.product_name,
    quantity: i.quantity,
  }));

/**
 * Takes the order's units (inventory/order-stock.ts), the last step of a payment so the stock rows
 * are locked only until its commit: all of them from what other checkouts do not keep, or, when a
 * payment came after its reservation lapsed and a unit is gone, it answers what fell short ("Cloth:
 * 2 ordered, 1 in stock"). Then the transaction must be rolled back and `stockShortfall` recorded
 * in a new one (checkout/service.ts).
 */
export async function takeStock(
  trx: Kysely<Database>,
  { order, items }: Pick<LockedOrderRows, 'order' | 'items'>,
  now: Date,
  /** PostgreSQL: the take goes with the COMMIT, guarded (inventory/order-stock.ts, takeForOrder). */
  atCommit = false,
): Promise<string[]> {
  return takeForOrder(trx, {
    orderId: order.id,
    orderNumber: order.order_number,
    units: unitsOf(items),
    now,
    actor: order.payment_provider === 'stripe' ? STRIPE_ACTOR : CUSTOMER_ACTOR,
    atCommit,
  });
}

/** The order's reservations go and what fell short is answered (empty: the units are there after all). */
export async function stockShortfall(
  trx: Kysely<Database>,
  { order, items }: Pick<LockedOrderRows, 'order' | 'items'>,
  now: Date,
): Promise<string[]> {
  return recordShortfall(trx, { orderId: order.id, units: unitsOf(items), now });
}
