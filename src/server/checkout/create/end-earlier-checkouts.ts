import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Dialect } from '../../db/database.js';
import type { GiveBack } from '../../inventory/reservations.js';
import { endOpenSession } from '../../orders/end-open-session.js';
import type { SupersededSession } from './types.js';

/**
 * A browser has one unpaid checkout at a time: a new one ends the browser's earlier open ones
 * (locking each order, then its session, in id order), so a shopper back from the payment page is
 * not refused by their own holds (stock, the unit cap, or the one-per-customer coupon). Their units
 * are given back with this checkout's reservation (`giveBack`).
 */
export async function endEarlierCheckouts(
  trx: Kysely<Database>,
  dialect: Dialect,
  held: readonly string[],
  giveBack: GiveBack,
): Promise<SupersededSession[]> {
  const ended: SupersededSession[] = [];
  for (const order_id of held) {
    const session = await trx
      .selectFrom('payment_sessions')
      .select(['id', 'provider'])
      .where('order_id', '=', order_id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (session && (await endOpenSession(trx, dialect, order_id, session.id, 'expired', giveBack))) {
      ended.push({ sessionId: session.id, provider: session.provider, orderId: order_id });
    }
  }
  return ended;
}
