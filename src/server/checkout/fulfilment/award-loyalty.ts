import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { queueEmail } from '../../email/outbox.js';
import { LOYALTY_REWARD_PERCENT, pointsForOrder, rewardsEarned } from '../../../shared/pricing.js';
import { createRewardCoupon } from '../../coupons/service.js';
import type { LockedOrderRows } from './lock-order-rows.js';
import { recordOrderEvent, SYSTEM_ACTOR } from '../../orders/events.js';

/**
 * A signed-up customer earns the order's loyalty points; every 300-point mark crossed gives a
 * one-use reward coupon of their own and its e-mail. Guests earn nothing. The user must be locked
 * (lockOrderRows), so two payments at once cannot both cross the same mark.
 */
export async function awardLoyalty(
  trx: Kysely<Database>,
  { user, order }: Pick<LockedOrderRows, 'user' | 'order'>,
  now: Date,
): Promise<void> {
  if (!user) return;
  const at = now.toISOString();
  const points = pointsForOrder(order.total_cents);
  const after = user.loyalty_points + points;
  await trx
    .updateTable('users')
    .set({ loyalty_points: after, total_points_earned: user.total_points_earned + points, updated_at: at })
    .where('id', '=', user.id)
    .execute();
  // What the order earned, so a full refund or a cancel takes back exactly that, once (orders/give-back.ts).
  await recordOrderEvent(trx, order.id, 'points.earned', SYSTEM_ACTOR, { points, userId: user.id }, now);
  const rewards = rewardsEarned(user.loyalty_points, after);
  for (let i = 0; i < rewards; i++) {
    const { code, validUntil } = await createRewardCoupon(trx, user.id, now);
    await queueEmail(trx, {
      to: user.email,
      orderId: order.id,
      templateId: 'loyalty-reward',
      variables: {
        customerName: user.full_name,
        couponCode: code,
        discountPercent: LOYALTY_REWARD_PERCENT,
        expiresAt: validUntil.slice(0, 10),
        points: after,
      },
    });
  }
}
