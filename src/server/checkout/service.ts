import { indexOrderSearch } from '../orders/search-terms.js';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate } from '../db/locks.js';
import { HttpError } from '../http/errors.js';
import { newId, nowIso, randomString } from '../lib/ids.js';
import { queueEmail } from '../email/outbox.js';
import { formatCents } from '../../shared/money.js';
import {
  LOYALTY_REWARD_PERCENT,
  LOYALTY_REWARD_VALID_DAYS,
  pointsForOrder,
  rewardsEarned,
} from '../../shared/pricing.js';
import { CHECKOUT_MESSAGES, type CreateCheckoutSessionInput } from '../../shared/schemas/checkout.js';
import { priceCart, type PricedCart } from '../cart/service.js';
import { escapeHtml } from '../seo/html.js';

export const PAYMENT_SESSION_TTL_MS = 30 * 60_000;

export type CheckoutContext = {
  userId: string | null;
  deviceHash: string;
  now: Date;
  provider: string;
  /** Builds the provider's payment page address for a new session id. */
  sessionUrl: (sessionId: string) => string;
};

export type CreatedCheckout = { orderId: string; sessionId: string; url: string; amountCents: number };

export function newOrderId(): string {
  return `order_${Date.now()}_${randomString(9)}`;
}

/** The session holds its units and its coupon use until it is paid, cancelled or expires. */
async function holdForSession(db: Kysely<Database>, orderId: string, priced: PricedCart, expiresAt: string): Promise<void> {
  const units = new Map<string, number>();
  for (const l of priced.lines) units.set(l.productId, (units.get(l.productId) ?? 0) + l.quantity);
  await db
    .insertInto('stock_holds')
    .values([...units].map(([product_id, quantity]) => ({ order_id: orderId, product_id, quantity, expires_at: expiresAt })))
    .execute();
  if (priced.coupon) {
    await db.insertInto('coupon_holds').values({ order_id: orderId, coupon_code: priced.coupon.code, expires_at: expiresAt }).execute();
  }
}

/** The session is over (paid, cancelled or expired): what it held is released. */
async function releaseHolds(db: Kysely<Database>, orderId: string): Promise<void> {
  await db.deleteFrom('stock_holds').where('order_id', '=', orderId).execute();
  await db.deleteFrom('coupon_holds').where('order_id', '=', orderId).execute();
}

/**
 * Re-prices the cart from the database, checks stock and the coupon, and creates a pending
 * order with a payment session that holds its stock and coupon use for 30 minutes. Products and
 * the coupon are locked for the duration, so concurrent checkouts cannot both take the last unit.
 */
export async function createCheckout(
  db: Kysely<Database>,
  dialect: Dialect,
  input: CreateCheckoutSessionInput & { appliedCouponCode: string | null },
  ctx: CheckoutContext,
): Promise<CreatedCheckout> {
  return db.transaction().execute(async (trx) => {
    const priced = await priceCart(
      trx,
      dialect,
      { lines: input.items, couponCode: input.appliedCouponCode, shippingOptionId: input.shippingOptionId },
      { userId: ctx.userId, deviceHash: ctx.deviceHash, now: ctx.now },
      { lock: true },
    );
    if (priced.couponError) throw new HttpError(400, priced.couponError);
    if (priced.lines.some((l) => l.missing)) throw new HttpError(400, CHECKOUT_MESSAGES.missingProduct);
    const short = priced.lines.find((l) => l.insufficientStock);
    if (short) throw new HttpError(409, CHECKOUT_MESSAGES.outOfStock(short.name, short.inventory));
    if (priced.shippingOptions.length > 0 && !priced.selectedShippingOptionId) {
      throw new HttpError(400, CHECKOUT_MESSAGES.noShipping);
    }

    const orderId = newOrderId();
    const at = ctx.now.toISOString();
    const address = { ...input.shippingAddress, country: 'US', email: input.customerEmail };
    await trx
      .insertInto('orders')
      .values({
        id: orderId,
        order_number: orderId.slice(-8).toUpperCase(),
        user_id: ctx.userId,
        email: input.customerEmail.toLowerCase(),
        status: 'pending',
        payment_status: 'unpaid',
        payment_provider: ctx.provider,
        payment_session_id: null,
        shipping_address: JSON.stringify(address),
        billing_address: null,
        subtotal_cents: priced.subtotalCents,
        discount_cents: priced.discountCents,
        shipping_cents: priced.shippingCents,
        tax_cents: priced.taxCents,
        total_cents: priced.totalCents,
        coupon_code: priced.coupon?.code ?? null,
        shipping_option_id: priced.selectedShippingOptionId,
        shipstation_data: null,
        shipstation_tracking_number: null,
        guest_token_hash: ctx.deviceHash,
        created_at: at,
        updated_at: at,
        paid_at: null,
      })
      .execute();
    await indexOrderSearch(trx, orderId);
    await trx
      .insertInto('order_items')
      .values(
        priced.lines.map((l, i) => ({
          id: `${orderId}_item${i + 1}`,
          order_id: orderId,
          product_id: l.productId,
          product_name: l.name,
          product_image: l.image,
          sku: null,
          quantity: l.quantity,
          price_cents: l.priceCents,
          size: l.size,
          color: l.color,
          is_free_gift: l.isFreeGift ? 1 : 0,
        })),
      )
      .execute();
    await trx
      .updateTable('order_items')
      .set({ sku: sql`(select sku from products where products.id = order_items.product_id)` })
      .where('order_id', '=', orderId)
      .execute();

    const expiresAt = new Date(ctx.now.getTime() + PAYMENT_SESSION_TTL_MS).toISOString();
    const sessionId = `cs_${ctx.provider === 'stripe' ? 'live' : 'test'}_${randomString(24)}`;
    const url = ctx.sessionUrl(sessionId);
    await trx
      .insertInto('payment_sessions')
      .values({
        id: sessionId,
        order_id: orderId,
        provider: ctx.provider,
        status: 'open',
        amount_cents: priced.totalCents,
        url,
        created_at: at,
        expires_at: expiresAt,
        completed_at: null,
      })
      .execute();
    await trx.updateTable('orders').set({ payment_session_id: sessionId }).where('id', '=', orderId).execute();
    await holdForSession(trx, orderId, priced, expiresAt);
    return { orderId, sessionId, url, amountCents: priced.totalCents };
  });
}

export type FulfilResult = { fulfilled: boolean; orderId: string };

/**
 * The one step that turns a payment into an order, for every provider: mark the order paid, take
 * the stock, count the coupon use, award loyalty points, queue the e-mails. It runs in one
 * transaction and locks the order first, so running it twice, or twice at once, changes nothing
 * the second time.
 */
export async function fulfilPaymentSession(
  db: Kysely<Database>,
  dialect: Dialect,
  sessionId: string,
  ctx: { publicUrl: string; now?: Date },
): Promise<FulfilResult> {
  const now = ctx.now ?? new Date();
  return db.transaction().execute(async (trx) => {
    const session = await forUpdate(trx.selectFrom('payment_sessions').selectAll().where('id', '=', sessionId), dialect).executeTakeFirst();
    if (!session) throw new HttpError(404, 'Payment session not found');
    const order = await forUpdate(trx.selectFrom('orders').selectAll().where('id', '=', session.order_id), dialect).executeTakeFirstOrThrow();
    if (order.payment_status === 'paid') return { fulfilled: false, orderId: order.id };
    const at = now.toISOString();

    await trx
      .updateTable('orders')
      .set({ payment_status: 'paid', status: 'completed', paid_at: at, updated_at: at })
      .where('id', '=', order.id)
      .execute();
    await trx
      .updateTable('payment_sessions')
      .set({ status: 'complete', completed_at: at })
      .where('id', '=', session.id)
      .execute();
    await releaseHolds(trx, order.id);

    const items = await trx.selectFrom('order_items').selectAll().where('order_id', '=', order.id).orderBy('product_id').execute();
    // Stable id order, so two fulfilments never wait on each other's rows in opposite orders.
    for (const item of items) {
      await trx
        .updateTable('products')
        .set({
          inventory: sql`case when inventory >= ${item.quantity} then inventory - ${item.quantity} else 0 end`,
          updated_at: at,
        })
        .where('id', '=', item.product_id)
        .execute();
    }

    if (order.coupon_code) {
      const coupon = await forUpdate(trx.selectFrom('coupons').selectAll().where('code', '=', order.coupon_code), dialect).executeTakeFirst();
      if (coupon) {
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
            created_at: at,
          })
          .execute();
      }
    }

    const user = order.user_id
      ? await forUpdate(trx.selectFrom('users').selectAll().where('id', '=', order.user_id), dialect).executeTakeFirst()
      : undefined;
    if (user) {
      const points = pointsForOrder(order.total_cents);
      const after = user.loyalty_points + points;
      await trx
        .updateTable('users')
        .set({ loyalty_points: after, total_points_earned: user.total_points_earned + points, updated_at: at })
        .where('id', '=', user.id)
        .execute();
      const rewards = rewardsEarned(user.loyalty_points, after);
      for (let i = 0; i < rewards; i++) {
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
            owner_user_id: user.id,
            created_at: at,
            updated_at: at,
          })
          .execute();
        await queueEmail(trx, {
          to: user.email,
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

    if (order.email) {
      const address = JSON.parse(order.shipping_address ?? '{}') as Record<string, string>;
      const addressText = [address.name, address.address, `${address.city ?? ''}, ${address.state ?? ''} ${address.zip ?? ''}`, address.country]
        .filter(Boolean)
        .join('\n');
      const itemsHtml = `<table role="presentation" width="100%" cellpadding="6" style="border-collapse:collapse">${items
        .map(
          (i) =>
            `<tr><td>${escapeHtml(i.product_name)}${i.is_free_gift ? ' (Free Gift)' : ''} &times; ${i.quantity}</td><td align="right">${escapeHtml(
              formatCents(i.price_cents * i.quantity),
            )}</td></tr>`,
        )
        .join('')}</table>`;
      const itemsText = items.map((i) => `${i.product_name} x ${i.quantity}  ${formatCents(i.price_cents * i.quantity)}`).join('\n');
      await queueEmail(trx, {
        to: order.email,
        templateId: 'order-confirmation',
        variables: {
          orderNumber: order.order_number,
          customerName: address.name ?? 'Customer',
          itemsList: itemsHtml,
          subtotal: formatCents(order.subtotal_cents),
          discount: formatCents(order.discount_cents),
          shipping: order.shipping_cents === 0 ? 'FREE' : formatCents(order.shipping_cents),
          tax: formatCents(order.tax_cents),
          total: formatCents(order.total_cents),
          shippingAddress: addressText,
          orderUrl: `${ctx.publicUrl}/order-confirmation?orderId=${order.id}`,
        },
        textVariables: { itemsList: itemsText },
      });
    }
    return { fulfilled: true, orderId: order.id };
  });
}

/** A declined card leaves the order unpaid and the session open, so the shopper may try again. */
export async function recordDeclinedPayment(db: Kysely<Database>, sessionId: string): Promise<void> {
  const session = await db.selectFrom('payment_sessions').select('order_id').where('id', '=', sessionId).executeTakeFirst();
  if (!session) return;
  await db
    .updateTable('orders')
    .set({ updated_at: nowIso() })
    .where('id', '=', session.order_id)
    .where('payment_status', '=', 'unpaid')
    .execute();
}

/** Ends an unpaid session (cancelled by the shopper or run out): its stock and coupon hold end. */
export async function expirePaymentSession(db: Kysely<Database>, sessionId: string, reason: 'cancelled' | 'expired'): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('payment_sessions')
      .set({ status: 'expired' })
      .where('id', '=', sessionId)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return;
    const session = await trx.selectFrom('payment_sessions').select('order_id').where('id', '=', sessionId).executeTakeFirstOrThrow();
    await releaseHolds(trx, session.order_id);
    await trx
      .updateTable('orders')
      .set({ payment_status: 'expired', status: reason === 'cancelled' ? 'cancelled' : 'pending', updated_at: nowIso() })
      .where('id', '=', session.order_id)
      .where('payment_status', '=', 'unpaid')
      .execute();
  });
}

/** Housekeeping: sessions past their 30 minutes are closed (their holds already stopped counting). */
export async function expireStaleSessions(db: Kysely<Database>, now = new Date()): Promise<number> {
  const stale = await db
    .selectFrom('payment_sessions')
    .select('id')
    .where('status', '=', 'open')
    .where('expires_at', '<=', now.toISOString())
    .limit(500)
    .execute();
  for (const s of stale) await expirePaymentSession(db, s.id, 'expired');
  return stale.length;
}
