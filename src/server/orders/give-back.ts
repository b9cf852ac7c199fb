import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, OrdersTable } from '../db/schema.js';
import { parseJson } from '../lib/json.js';
import { releaseCouponUse } from '../coupons/service.js';
import { recordOrderEvent, type OrderEventActor } from './events.js';

/*
 * What a payment gave besides the goods, given back when the sale is undone (issue [4/6]): a full
 * refund or a cancel returns the order's coupon use (the code may be used again) and takes back
 * the loyalty points the order earned. Each is said on the timeline, and each happens once: the
 * coupon's redemption row and the `points.reversed` event are the markers, read and written under
 * the order's row lock that every caller holds, so a refund then a cancel, a replay, or two tabs at
 * once give back once.
 */

/**
 * Gives back the coupon use and takes back the points of `order`, when not done before. Call it
 * inside the transaction that refunds the order in full or cancels it, with the order row locked.
 */
export async function giveBackCouponAndPoints(
  trx: Kysely<Database>,
  order: Pick<Selectable<OrdersTable>, 'id' | 'coupon_code' | 'user_id'>,
  actor: OrderEventActor,
  cause: 'refunded' | 'cancelled',
): Promise<void> {
  const at = new Date();
  const released = await releaseCouponUse(trx, order.id, at);
  if (released > 0) await recordOrderEvent(trx, order.id, 'coupon.released', actor, { code: order.coupon_code, cause }, at);

  const events = await trx
    .selectFrom('order_events')
    .select(['type', 'data'])
    .where('order_id', '=', order.id)
    .where('type', 'in', ['points.earned', 'points.reversed'])
    .execute();
  if (events.some((e) => e.type === 'points.reversed')) return;
  const earned = events.find((e) => e.type === 'points.earned');
  if (!earned) return;
  const { points, userId } = parseJson<{ points?: number; userId?: string }>(earned.data, {});
  if (!points || !userId) return;
  // Never below zero: points already spent on a reward stay spent.
  const user = await trx
    .updateTable('users')
    .set({
      loyalty_points: sql`case when loyalty_points > ${points} then loyalty_points - ${points} else 0 end`,
      total_points_earned: sql`case when total_points_earned > ${points} then total_points_earned - ${points} else 0 end`,
      updated_at: at.toISOString(),
    })
    .where('id', '=', userId)
    .returning('loyalty_points')
    .executeTakeFirst();
  await recordOrderEvent(trx, order.id, 'points.reversed', actor, { points, userId, cause, balance: user?.loyalty_points ?? null }, at);
}
