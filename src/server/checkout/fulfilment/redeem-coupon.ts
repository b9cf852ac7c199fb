import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { normalizeCouponEmail } from '../../../shared/coupons.js';
import type { LockedOrderRows } from './lock-order-rows.js';

/**
 * Counts the order's coupon use (never past `max_uses`) and records the redemption: per account,
 * or per browser for guests, and the normalized e-mail, so a one-per-customer coupon stays one.
 * Nothing without a coupon. The coupon must be locked (lockOrderRows).
 */
export async function redeemCoupon(
  trx: Kysely<Database>,
  { coupon, order }: Pick<LockedOrderRows, 'coupon' | 'order'>,
  now: Date,
): Promise<void> {
  if (!coupon) return;
  const at = now.toISOString();
  await trx
    .updateTable('coupons')
    .set({ current_uses: sql`current_uses + 1`, updated_at: at })
    .where('id', '=', coupon.id)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('current_uses', '<', eb.ref('max_uses'))]))
    .execute();
  await trx
    .insertInto('coupon_redemptions')
    .values({
      id: newId('red'),
      coupon_id: coupon.id,
      user_id: order.user_id,
      order_id: order.id,
      device_id: order.guest_token_hash,
      email_normalized: order.email ? normalizeCouponEmail(order.email) : null,
      created_at: at,
    })
    .execute();
}
