import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { releaseCouponHold } from '../coupons/service.js';
import { releaseReservations, type GiveBack } from '../inventory/reservations.js';

/**
 * The session is over: what it held is released. Paid: its reservations go (the units left as
 * `sold`); cancelled or expired: they stop counting (kept a while for the holder's window).
 */
export async function releaseHolds(db: Kysely<Database>, orderId: string, how: 'sold' | 'ended', giveBack?: GiveBack): Promise<void> {
  await releaseReservations(db, orderId, how, new Date(), giveBack);
  await releaseCouponHold(db, orderId);
}
