import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { CUSTOMER_ACTOR, orderEventInsert, STRIPE_ACTOR } from '../../orders/events.js';
import { writeTogether, type PendingWrite } from '../../db/query-helpers.js';
import { releaseCouponHold } from '../../coupons/service.js';
import { markPaidWrite } from '../../orders/checkout-state.js';
import type { LockedOrderRows } from './lock-order-rows.js';
import { completePaymentSessionWrite } from '../../payments/sessions.js';
import { settleRecoveriesWrites } from '../../marketing/close-recoveries.js';

/**
 * The order is paid (`completed`, payment `paid`, flagged with any stock shortfall), its payment
 * session complete, its coupon hold released, and the timeline says who took the money. Its stock
 * reservations go with the units (takeStock) or with the shortfall (stockShortfall).
 */
export async function markOrderPaid(
  trx: Kysely<Database>,
  rows: Pick<LockedOrderRows, 'order' | 'session' | 'recoveries'>,
  shortfall: string[],
  now: Date,
): Promise<void> {
  // The order, its session and its timeline: one round trip on PostgreSQL.
  await writeTogether(trx, await markOrderPaidWrites(trx, rows, shortfall, now));
}

/** markOrderPaid's writes of the order, its session and its timeline, not run yet (the coupon hold is released at once). */
export async function markOrderPaidWrites(
  trx: Kysely<Database>,
  { order, session, recoveries }: Pick<LockedOrderRows, 'order' | 'session' | 'recoveries'>,
  shortfall: string[],
  now: Date,
): Promise<PendingWrite[]> {
  const at = now.toISOString();
  if (order.coupon_code) await releaseCouponHold(trx, order.id);
  // An order the owner typed in, paid through the link they sent: it takes the link's provider (so
  // it can be refunded through it) and keeps a status the owner already moved on from pending.
  const ownerEntered = order.origin === 'owner';
  return [
    markPaidWrite(trx, order, session.provider, shortfall, at),
    completePaymentSessionWrite(trx, session.id, at),
    orderEventInsert(
      trx,
      order.id,
      'paid',
      (order.payment_provider ?? session.provider) === 'stripe' ? STRIPE_ACTOR : CUSTOMER_ACTOR,
      {
        amountCents: order.total_cents,
        provider: order.payment_provider ?? session.provider,
        ...(ownerEntered ? { paymentLink: true } : {}),
        sessionId: session.id,
        ...(shortfall.length ? { stockShortfall: shortfall.join('; ') } : {}),
      },
      now,
    ),
    // A recovery e-mail still queued for this address is stopped; one sent counts this order as recovered.
    ...settleRecoveriesWrites(trx, order, now, recoveries),
  ];
}
