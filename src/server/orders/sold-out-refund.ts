import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { recordOrderEvent, SYSTEM_ACTOR } from './events.js';
import { refundOrder, type RefundDeps } from './refunds.js';

/**
 * A payment came after its reservation lapsed and the units were gone (decision 0022): the order
 * is refunded in full, cancelled, and the shopper gets the `order-sold-out` apology instead of a
 * confirmation. Nothing was taken from stock, so nothing returns.
 */
export async function refundSoldOutOrder(db: Kysely<Database>, deps: RefundDeps, orderId: string, shortfall: string[]): Promise<void> {
  const order = await db
    .selectFrom('orders')
    .select(['total_cents', 'refunded_cents', 'status'])
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order) return;
  const left = Number(order.total_cents) - Number(order.refunded_cents);
  if (left > 0) {
    await refundOrder(
      db,
      deps,
      orderId,
      { amountCents: left, reason: `Sold out while the customer was paying: ${shortfall.join('; ')}` },
      SYSTEM_ACTOR,
      {
        cancelUnshipped: false,
        templateId: 'order-sold-out',
        variables: { soldOutItems: shortfall.join('; ') },
      },
    );
  }
  const at = new Date().toISOString();
  const r = await db
    .updateTable('orders')
    .set({ status: 'cancelled', updated_at: at })
    .where('id', '=', orderId)
    .where('status', '<>', 'cancelled')
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 1)
    await recordOrderEvent(db, orderId, 'cancelled', SYSTEM_ACTOR, { from: order.status, cause: 'sold out' });
}
