import type { Kysely } from 'kysely';
import type { Database, OrderOrigin, OrdersTable } from '../db/schema.js';
import { nowIso } from '../lib/ids.js';

/*
 * What a checkout's payment changes on its order, written here because orders/ owns the table
 * (decision 0048): checkout and payments call these, in their own transactions.
 */

/** The hosted payment page exists: the order points at the provider's session id. */
export async function pointOrderAtSession(trx: Kysely<Database>, orderId: string, sessionId: string): Promise<void> {
  await trx.updateTable('orders').set({ payment_session_id: sessionId }).where('id', '=', orderId).execute();
}

/** A declined card: the unpaid order is touched (its list position and "last change"), nothing else. */
export async function touchUnpaidOrder(db: Kysely<Database>, orderId: string): Promise<void> {
  await db.updateTable('orders').set({ updated_at: nowIso() }).where('id', '=', orderId).where('payment_status', '=', 'unpaid').execute();
}

/** A checkout's session ended unpaid: the order is expired (pending) or, cancelled by the shopper, cancelled. */
export async function expireUnpaidOrder(trx: Kysely<Database>, orderId: string, reason: 'cancelled' | 'expired'): Promise<void> {
  await trx
    .updateTable('orders')
    .set({ payment_status: 'expired', status: reason === 'cancelled' ? 'cancelled' : 'pending', updated_at: nowIso() })
    .where('id', '=', orderId)
    .where('payment_status', '=', 'unpaid')
    .execute();
}

/**
 * The order's write when a payment is taken, not run yet (for writeTogether): paid, `completed`
 * (an owner's order keeps a status the owner already moved it on to, and takes the link's
 * provider so it can be refunded through it), flagged with any stock shortfall.
 */
export function markPaidWrite(
  trx: Kysely<Database>,
  order: { id: string; origin: OrderOrigin; status: OrdersTable['status'] },
  provider: string,
  shortfall: string[],
  at: string,
) {
  const ownerEntered = order.origin === 'owner';
  return trx
    .updateTable('orders')
    .set({
      payment_status: 'paid',
      ...(ownerEntered ? { payment_provider: provider } : {}),
      status: ownerEntered && order.status !== 'pending' ? order.status : 'completed',
      paid_at: at,
      updated_at: at,
      stock_shortfall: shortfall.length ? shortfall.join('; ') : null,
    })
    .where('id', '=', order.id);
}
