import type { Kysely, Selectable } from 'kysely';
import type { Database, OrdersTable, UsersTable } from '../../db/schema.js';
import { queueEmail } from '../../email/outbox.js';
import { LOYALTY_REWARD_PERCENT, pointsForOrder, rewardsEarned } from '../../../shared/pricing.js';
import { createRewardCoupon } from '../../coupons/service.js';
import { emailOnTimeline, recordOrderEvent, SYSTEM_ACTOR } from '../events.js';

/**
 * A signed-up customer earns the order's loyalty points; every 300-point mark crossed gives a
 * one-use reward coupon of their own and its e-mail. Guests earn nothing. The user must be locked
 * (checkout's lockOrderRows, or the owner's recorded payment), so two payments at once cannot both cross the same mark.
 */
export async function awardLoyalty(
  trx: Kysely<Database>,
  { user, order }: { user: Selectable<UsersTable> | undefined; order: Selectable<OrdersTable> },
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
      order: emailOnTimeline(order.id),
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
