import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { releaseCouponHold } from '../coupons/service.js';

/** The session is over (paid, cancelled or expired): what it held is released. */
export async function releaseHolds(db: Kysely<Database>, orderId: string): Promise<void> {
  await db.deleteFrom('stock_holds').where('order_id', '=', orderId).execute();
  await releaseCouponHold(db, orderId);
}
