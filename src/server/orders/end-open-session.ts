import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate } from '../db/locks.js';
import type { GiveBack } from '../inventory/reservations.js';
import { expireUnpaidOrder } from './checkout-state.js';
import { endPaymentSessions } from '../payments/service.js';
import { releaseHolds } from './release-holds.js';

/**
 * Ends an open session of an unpaid order, the order locked first and the session second (the
 * shop's one lock order): the session is expired, its holds released, the order marked expired
 * (or cancelled). False when there was nothing to end (already paid, or already ended).
 */
export async function endOpenSession(
  trx: Kysely<Database>,
  dialect: Dialect,
  orderId: string,
  sessionId: string,
  reason: 'cancelled' | 'expired',
  giveBack?: GiveBack,
): Promise<boolean> {
  const order = await forUpdate(
    trx.selectFrom('orders').select(['id', 'payment_status', 'origin']).where('id', '=', orderId),
    dialect,
  ).executeTakeFirst();
  if (!order || order.payment_status === 'paid') return false;
  const ended = (await endPaymentSessions(trx, orderId, sessionId)) === 1;
  // A payment link the owner sent for an order they typed in: only the link ends; the order
  // stays as it was (unpaid, its units out for it, its status the owner's).
  if (order.origin === 'owner' || !ended) return ended;
  await releaseHolds(trx, orderId, 'ended', giveBack);
  // A renewal's order stays unpaid and pending between its tries (subscriptions/renewals.ts): the
  // schedule, not the session, decides when it is given up.
  if (order.origin === 'renewal') return true;
  await expireUnpaidOrder(trx, orderId, reason);
  return true;
}
