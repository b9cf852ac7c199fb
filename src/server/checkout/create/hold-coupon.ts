import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { writeTogether, type PendingWrite } from '../../db/query-helpers.js';
import type { PricedCart } from '../../cart/service.js';
import { holdCouponUse } from '../../coupons/service.js';
import type { Holder } from './types.js';

/**
 * The checkout holds one use of its coupon until `expiresAt`, in the holder's name (the coupon's
 * max_uses and one-per-customer checks ran under its row lock in priceCart). The hold names the
 * order, so the order's writes in `writes` run first (and `writes` is emptied). Nothing without a coupon.
 */
export async function holdCoupon(
  trx: Kysely<Database>,
  o: { orderId: string; priced: PricedCart; who: Holder; expiresAt: Date },
  writes: PendingWrite[],
): Promise<void> {
  const { coupon } = o.priced;
  if (!coupon) return;
  await writeTogether(trx, writes.splice(0));
  await holdCouponUse(trx, {
    orderId: o.orderId,
    couponCode: coupon.code,
    expiresAt: o.expiresAt.toISOString(),
    email: o.who.email,
    deviceId: o.who.deviceId,
    userId: o.who.userId,
  });
}
