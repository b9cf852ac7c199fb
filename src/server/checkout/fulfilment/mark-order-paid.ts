import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { CUSTOMER_ACTOR, recordOrderEvent, STRIPE_ACTOR } from '../../orders/events.js';
import { releaseCouponHold } from '../../coupons/service.js';
import type { LockedOrderRows } from './lock-order-rows.js';

/**
 * The order is paid (`completed`, payment `paid`, flagged with any stock shortfall), its payment
 * session complete, its coupon hold released, and the timeline says who took the money. Its stock
 * reservations go with the units (takeStock) or with the shortfall (stockShortfall).
 */
export async function markOrderPaid(
  trx: Kysely<Database>,
  { order, session }: Pick<LockedOrderRows, 'order' | 'session'>,
  shortfall: string[],
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  await trx
    .updateTable('orders')
    .set({
      payment_status: 'paid',
      status: 'completed',
      paid_at: at,
      updated_at: at,
      stock_shortfall: shortfall.length ? shortfall.join('; ') : null,
    })
    .where('id', '=', order.id)
    .execute();
  await trx.updateTable('payment_sessions').set({ status: 'complete', completed_at: at }).where('id', '=', session.id).execute();
  if (order.coupon_code) await releaseCouponHold(trx, order.id);
  await recordOrderEvent(
    trx,
    order.id,
    'paid',
    order.payment_provider === 'stripe' ? STRIPE_ACTOR : CUSTOMER_ACTOR,
    {
      amountCents: order.total_cents,
      provider: order.payment_provider,
      sessionId: session.id,
      ...(shortfall.length ? { stockShortfall: shortfall.join('; ') } : {}),
    },
    now,
  );
}
