import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { redeemCouponUse } from '../../coupons/service.js';
import type { LockedOrderRows } from './lock-order-rows.js';

/**
 * The fulfilment step that counts the order's coupon use at payment (coupons/service.ts,
 * redeemCouponUse: never past `max_uses`, and the redemption recorded for the one-per-customer
 * rule). Nothing without a coupon. The coupon must be locked (lockOrderRows).
 */
export async function redeemCoupon(
  trx: Kysely<Database>,
  { coupon, order }: Pick<LockedOrderRows, 'coupon' | 'order'>,
  now: Date,
): Promise<void> {
  if (!coupon) return;
  await redeemCouponUse(trx, coupon, order, now);
}
