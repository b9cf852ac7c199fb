/**
 * Coupons for shoppers: looking a coupon up, checking it against a cart, holding a use while a
 * checkout waits for payment, and counting the use when it is paid. The rules themselves (which
 * check comes first, the texts shoppers read) are pure and shared with the browser in
 * src/shared/coupons.ts; the back office's coupon queries are in ./admin-coupons.ts, its routes in
 * ./admin-routes.ts.
 *
 * Where `max_uses` is enforced (docs/decisions/0005, lock order: products by id, the coupon, the
 * order, the session, the user):
 * - At checkout, counted before the work: priceCart (cart/service.ts) locks the coupon row
 *   (lockCoupon), then validateCouponForCart counts uses taken as `current_uses` plus the uses open
 *   checkouts hold (heldCouponUses) and refuses at `max_uses`; only then does createCheckout
 *   (checkout/service.ts) write the order and hold the use (holdCouponUse). Two checkouts at once
 *   queue on the coupon row lock (SQLite runs write transactions one at a time), so the second
 *   counts the first one's hold.
 * - At payment: redeemCouponUse (the fulfilment step checkout/fulfilment/redeem-coupon.ts), under
 *   the same coupon row lock (lockOrderRows), adds the use, never past `max_uses`.
 * The quote (cart page) checks the same rule without locks, and leaves out the shopper's own holds
 * from the one-per-customer check.
 */
import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { CouponsTable, Database, OrdersTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate } from '../db/locks.js';
import { newId, randomString } from '../lib/ids.js';
import { couponProblem, normalizeCouponEmail } from '../../shared/coupons.js';
import { LOYALTY_REWARD_PERCENT, LOYALTY_REWARD_VALID_DAYS } from '../../shared/pricing.js';

type CouponRow = Selectable<CouponsTable>;

/** Who is using the coupon, for the one-per-customer rule. */
export type CouponCustomer = {
  userId: string | null;
  deviceHash: string | null;
  now: Date;
  /** At checkout: the order's e-mail, normalized (normalizeCouponEmail). */
  email?: string | null;
};

function selectCoupon(db: Kysely<Database>, code: string) {
  return db.selectFrom('coupons').selectAll().where('code', '=', code);
}

/** The coupon with this code, read without a lock (the quote, or checkout learning the free gift). */
export function findCoupon(db: Kysely<Database>, code: string): Promise<CouponRow | undefined> {
  return selectCoupon(db, code).executeTakeFirst();
}

/** The coupon with this code, locked for the rest of the transaction (after the products, in the shop's one lock order). */
export function lockCoupon(trx: Kysely<Database>, dialect: Dialect, code: string): Promise<CouponRow | undefined> {
  return forUpdate(selectCoupon(trx, code), dialect).executeTakeFirst();
}

/**
 * Whether this customer has used the coupon (a redemption) or, at checkout, holds it in another
 * open checkout: by account, else by browser, and (at checkout) by normalized e-mail either way,
 * so a guest who drops the browser cookie is still one customer. A quote leaves the holds out: the
 * cart page of a shopper back from the payment page must not call their own checkout a prior use
 * (their new checkout ends the old one first, see createCheckout).
 */
async function couponUsedBefore(
  db: Kysely<Database>,
  coupon: { id: string; code: string },
  ctx: CouponCustomer,
  { countHolds }: { countHolds: boolean },
): Promise<boolean> {
  const { userId, deviceHash, email } = ctx;
  if (!userId && !deviceHash && !email) return false;
  const who = (eb: ExpressionBuilder<{ r: { user_id: string | null; device_id: string | null; email_normalized: string | null } }, 'r'>) =>
    eb.or([
      ...(userId ? [eb('r.user_id', '=', userId)] : deviceHash ? [eb('r.device_id', '=', deviceHash)] : []),
      ...(email ? [eb('r.email_normalized', '=', email)] : []),
    ]);
  const [redeemed, held] = await Promise.all([
    db.selectFrom('coupon_redemptions as r').select('r.id').where('r.coupon_id', '=', coupon.id).where(who).limit(1).executeTakeFirst(),
    countHolds
      ? db
          .selectFrom('coupon_holds as r')
          .select('r.order_id')
          .where('r.coupon_code', '=', coupon.code)
          .where('r.expires_at', '>', ctx.now.toISOString())
          .where(who)
          .limit(1)
          .executeTakeFirst()
      : undefined,
  ]);
  return Boolean(redeemed ?? held);
}

/** Uses of a coupon held by open payment sessions (counted for real only when paid). */
async function heldCouponUses(db: Kysely<Database>, code: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('coupon_holds')
    .select(sql<number | string>`count(*)`.as('n'))
    .where('coupon_code', '=', code)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Why the coupon cannot be applied to this cart (src/shared/coupons.ts's texts), or null when it
 * can. Uses taken are `current_uses` plus the uses open checkouts hold, against `max_uses`. With
 * `countHolds` (checkout, the coupon row locked) another open checkout of the same customer counts
 * as a use; the quote leaves it out.
 */
export async function validateCouponForCart(
  db: Kysely<Database>,
  coupon: CouponRow | undefined,
  ctx: CouponCustomer,
  { subtotalCents, countHolds }: { subtotalCents: number; countHolds: boolean },
): Promise<string | null> {
  const usedBefore = coupon ? await couponUsedBefore(db, coupon, ctx, { countHolds }) : false;
  return couponProblem(
    coupon
      ? {
          isActive: Boolean(coupon.is_active),
          validFrom: coupon.valid_from,
          validUntil: coupon.valid_until,
          minOrderCents: coupon.min_order_cents,
          maxUses: coupon.max_uses,
          usesTaken: coupon.current_uses + (coupon.max_uses != null ? await heldCouponUses(db, coupon.code, ctx.now) : 0),
          ownerUserId: coupon.owner_user_id,
        }
      : null,
    { subtotalCents, now: ctx.now, userId: ctx.userId, usedBefore },
  );
}

/**
 * Holds one use of the coupon for a checkout until it is paid, cancelled or expires, in the
 * holder's name (browser, account, normalized e-mail). Call it only after validateCouponForCart
 * passed with the coupon row locked, so the hold is counted before any other checkout's check.
 */
export async function holdCouponUse(
  trx: Kysely<Database>,
  hold: { orderId: string; couponCode: string; expiresAt: string; email: string; deviceId: string; userId: string | null },
): Promise<void> {
  await trx
    .insertInto('coupon_holds')
    .values({
      order_id: hold.orderId,
      coupon_code: hold.couponCode,
      expires_at: hold.expiresAt,
      email_normalized: hold.email,
      device_id: hold.deviceId,
      user_id: hold.userId,
    })
    .execute();
}

/** The checkout is over (paid, cancelled or expired): its coupon use is no longer held. */
export async function releaseCouponHold(db: Kysely<Database>, orderId: string): Promise<void> {
  await db.deleteFrom('coupon_holds').where('order_id', '=', orderId).execute();
}

/**
 * Counts the order's coupon use (never past `max_uses`) and records the redemption: per account,
 * or per browser for guests, and the normalized e-mail, so a one-per-customer coupon stays one.
 * The coupon must be locked (lockOrderRows).
 */
export async function redeemCouponUse(
  trx: Kysely<Database>,
  coupon: Pick<CouponRow, 'id'>,
  order: Pick<Selectable<OrdersTable>, 'id' | 'user_id' | 'guest_token_hash' | 'email'>,
  now: Date,
): Promise<void> {
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

/**
 * Gives back the coupon use an order redeemed (its sale was refunded in full or cancelled): the
 * redemption goes, so the one-per-customer rule lets the customer use the code again, and the
 * count comes down by one. Answers the codes given back (none when already given back).
 */
export async function releaseCouponUse(trx: Kysely<Database>, orderId: string, now: Date): Promise<number> {
  const redemptions = await trx.deleteFrom('coupon_redemptions').where('order_id', '=', orderId).returning('coupon_id').execute();
  for (const r of redemptions) {
    await trx
      .updateTable('coupons')
      .set({ current_uses: sql`case when current_uses > 0 then current_uses - 1 else 0 end`, updated_at: now.toISOString() })
      .where('id', '=', r.coupon_id)
      .execute();
  }
  return redemptions.length;
}

/** A one-use loyalty reward coupon (LOYALTY_REWARD_PERCENT off, LOYALTY_REWARD_VALID_DAYS) that only its owner can use. */
export async function createRewardCoupon(
  trx: Kysely<Database>,
  ownerUserId: string,
  now: Date,
): Promise<{ code: string; validUntil: string }> {
  const at = now.toISOString();
  const code = `REWARD-${randomString(8).toUpperCase()}`;
  const validUntil = new Date(now.getTime() + LOYALTY_REWARD_VALID_DAYS * 86_400_000).toISOString();
  await trx
    .insertInto('coupons')
    .values({
      id: `coupon-${Date.now()}-${randomString(6)}`,
      code,
      description: `Loyalty reward: ${LOYALTY_REWARD_PERCENT}% off`,
      discount_type: 'percentage',
      discount_value: LOYALTY_REWARD_PERCENT,
      min_order_cents: null,
      max_uses: 1,
      current_uses: 0,
      valid_from: at,
      valid_until: validUntil,
      is_active: 1,
      free_product_id: null,
      stripe_coupon_id: null,
      owner_user_id: ownerUserId,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return { code, validUntil };
}

/**
 * An account's own (loyalty reward) coupons, newest first: the latest 50 for the account page, or
 * every one (ties in id order) for the "Download My Data" file.
 */
export function rewardCouponsOf(db: Kysely<Database>, userId: string, { all }: { all: boolean }) {
  const query = db
    .selectFrom('coupons')
    .select(['code', 'discount_value', 'valid_until', 'current_uses', 'max_uses'])
    .where('owner_user_id', '=', userId)
    .orderBy('created_at', 'desc');
  return all ? query.orderBy('id').execute() : query.limit(50).execute();
}
