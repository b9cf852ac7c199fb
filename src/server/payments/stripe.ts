import { lineTitle } from '../../shared/variants.js';
import type Stripe from 'stripe';
import { isStripeError, stripeSdk } from './stripe-sdk.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Config } from '../config.js';
import type { CheckoutProvider } from '../../shared/payment-provider.js';
import { TAX_RATE_PERCENT } from '../../shared/pricing.js';
import { STRIPE_PROMOTIONS_CONSENT_KEY } from '../../shared/schemas/payments.js';
import type { ProviderPayment } from './provider.js';

/** The card payment provider checkouts go to: Stripe when its key is set, else the built-in test card page. */
export function checkoutProviderOf(config: Config): CheckoutProvider {
  return config.stripeSecretKey ? 'stripe' : 'test';
}

export function createStripeClient(config: Config): Stripe | null {
  if (!config.stripeSecretKey) return null;
  const base = config.stripeApiBase ? new URL(config.stripeApiBase) : null;
  const Sdk = stripeSdk();
  return new Sdk(config.stripeSecretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/**
 * Creates the Stripe Checkout Session for an order the server has already priced: one line per
 * product (in cents; a free gift at $0), the sales tax as its own line, the shipping as a fixed
 * rate, and the coupon discount as a one-off amount-off coupon. The order id is the idempotency
 * key, so a retried request never makes a second session.
 */
export async function createStripeCheckoutSession(
  stripe: Stripe,
  db: Kysely<Database>,
  orderId: string,
  publicUrl: string,
  /** When Stripe's page closes (a checkout's: PROVIDER_SESSION_TTL_MS from now; a link's: its own life). */
  expiresAt: Date,
  /** A payment link the owner sends (orders/owner-payments.ts): its own key (one per link). */
  link?: { idempotencyKey: string },
  /** Keep the card for charges with the customer away (subscriptions): asked, or the order has subscription lines. */
  keep: { keepMethod?: boolean; customerRef?: string | null } = {},
): Promise<{ id: string; url: string }> {
  const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  const items = await db.selectFrom('order_items').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
  const keepMethod = keep.keepMethod === true || items.some((i) => i.every_weeks !== null);
  let discounts: Stripe.Checkout.SessionCreateParams.Discount[] | undefined;
  if (order.discount_cents > 0) {
    const coupon = await stripe.coupons.create(
      { amount_off: order.discount_cents, currency: 'usd', duration: 'once', name: order.coupon_code ?? 'Discount' },
      // What the coupon says is part of its key: an owner's order edited to another discount asks
      // for another coupon (Stripe refuses a key reused with other parameters).
      { idempotencyKey: `coupon-${orderId}-${order.discount_cents}-${order.coupon_code ?? ''}` },
    );
    discounts = [{ coupon: coupon.id }];
  }
  const lineItems: Stripe.Checkout.SessionCreateParams.LineItem[] = items.map((i) => ({
    quantity: i.quantity,
    price_data: {
      currency: 'usd',
      unit_amount: i.price_cents,
      product_data: {
        name: i.is_free_gift ? `${lineTitle(i.product_name, i.variant_label)} (Free Gift)` : lineTitle(i.product_name, i.variant_label),
        metadata: { productId: i.product_id, variantId: i.variant_id ?? '' },
      },
    },
  }));
  // An order the owner entered as a total only has no lines: its goods are one line of its subtotal.
  if (items.length === 0 && order.subtotal_cents > 0) {
    lineItems.push({
      quantity: 1,
      price_data: { currency: 'usd', unit_amount: order.subtotal_cents, product_data: { name: `Order #${order.order_number}` } },
    });
  }
  if (order.tax_cents > 0) {
    lineItems.push({
      quantity: 1,
      price_data: { currency: 'usd', unit_amount: order.tax_cents, product_data: { name: `Sales tax (${TAX_RATE_PERCENT}%)` } },
    });
  }
  // Stripe charges what it is sent, so that must be the order's total to the cent, or no page is made.
  const charged =
    lineItems.reduce((sum, l) => sum + (l.quantity ?? 1) * (l.price_data?.unit_amount ?? 0), 0) +
    order.shipping_cents -
    order.discount_cents;
  if (charged !== order.total_cents) throw new Error(`Stripe would charge ${charged} cents for an order of ${order.total_cents}`);
  const askOffers = !link && (await asksOffersConsent(db, order));
  const session = await stripe.checkout.sessions.create(
    {
      mode: 'payment',
      line_items: lineItems,
      ...(discounts ? { discounts } : {}),
      shipping_options: [
        {
          shipping_rate_data: {
            type: 'fixed_amount',
            display_name: 'Shipping',
            fixed_amount: { amount: order.shipping_cents, currency: 'usd' },
          },
        },
      ],
      ...customerOf(order.email, keepMethod ? (keep.customerRef ?? null) : undefined),
      metadata: { orderId },
      // Stripe's own unticked offers box, where the owner turned it on (issue [7/8]): a tick comes
      // back on the completed session (consent.promotions) and is recorded as marketing consent.
      ...(askOffers ? { consent_collection: { promotions: 'auto' as const } } : {}),
      // Kept for renewals: Stripe attaches the card to the session's customer for off-session charges
      // (and says so on its page); the webhook then names the customer (stripePaymentOf).
      payment_intent_data: keepMethod ? { metadata: { orderId }, setup_future_usage: 'off_session' } : { metadata: { orderId } },
      // A link the shop e-mailed is paid by someone who may have no account nor this order's
      // checkout in their browser: they come back to the shop's thanks for that payment, not to an
      // order page they could not open, and leaving Stripe's page goes to the shop.
      success_url: link
        ? `${publicUrl}/pay/{CHECKOUT_SESSION_ID}/done`
        : `${publicUrl}/order-confirmation?session_id={CHECKOUT_SESSION_ID}&orderId=${encodeURIComponent(orderId)}`,
      cancel_url: link ? `${publicUrl}/` : `${publicUrl}/checkout?canceled=true`,
      // Stripe's shortest allowed life is 30 minutes; a minute more keeps clear of clock skew. The
      // order's holds outlive this by HOLD_MARGIN_MS, so a payment Stripe accepts finds its units held.
      expires_at: Math.floor(expiresAt.getTime() / 1000),
    },
    { idempotencyKey: link?.idempotencyKey ?? `checkout-${orderId}` },
  );
  if (!session.url) throw new Error('Stripe answered without a checkout URL');
  return { id: session.id, url: session.url };
}

/**
 * Whether Stripe's page asks for the shop's offers consent: the owner's setting is on, and the
 * shopper placed this checkout themselves. Never on a payment link (its payer may not be the
 * order's address), a renewal, nor a checkout an admin placed acting as the customer (the shop's
 * own box refuses their yes too).
 */
async function asksOffersConsent(db: Kysely<Database>, order: { id: string; origin: string }): Promise<boolean> {
  if (order.origin !== 'checkout') return false;
  const setting = await db.selectFrom('settings').select('value').where('key', '=', STRIPE_PROMOTIONS_CONSENT_KEY).executeTakeFirst();
  if (setting?.value.trim() !== 'true') return false;
  const placed = await db
    .selectFrom('order_events')
    .select('actor_user_id')
    .where('order_id', '=', order.id)
    .where('type', '=', 'placed')
    .executeTakeFirst();
  return placed !== undefined && placed.actor_user_id === null;
}

/**
 * Who pays, as Checkout Session parameters: the order's e-mail; for a card kept for renewals
 * (`customerRef` not undefined), a customer Stripe attaches it to: the one known (Stripe refuses
 * an e-mail beside it), else a new one Stripe makes when the page is paid.
 */
function customerOf(
  email: string | null,
  customerRef: string | null | undefined,
): Pick<Stripe.Checkout.SessionCreateParams, 'customer' | 'customer_email' | 'customer_creation'> {
  if (customerRef) return { customer: customerRef };
  return { ...(email ? { customer_email: email } : {}), ...(customerRef === null ? { customer_creation: 'always' as const } : {}) };
}

type StripeCouponSource = { id: string; code: string; discountType: 'percentage' | 'fixed'; discountValue: number };

/**
 * Creates the Stripe copy of a shop coupon: percent off, or an amount off in cents (USD), used once
 * per redemption. The shop coupon's id is the idempotency key, so a retry never makes a second one.
 */
export async function createStripeCoupon(stripe: Stripe, coupon: StripeCouponSource): Promise<string> {
  const created = await stripe.coupons.create(
    {
      ...(coupon.discountType === 'percentage'
        ? { percent_off: coupon.discountValue }
        : { amount_off: coupon.discountValue, currency: 'usd' }),
      duration: 'once',
      // Stripe caps a coupon's name at 40 characters; the full code is in the metadata.
      name: coupon.code.slice(0, 40),
      metadata: { code: coupon.code, couponId: coupon.id },
    },
    { idempotencyKey: `admin-coupon-${coupon.id}` },
  );
  return created.id;
}

/** Deletes a coupon in Stripe; one Stripe no longer knows counts as deleted. */
export async function deleteStripeCoupon(stripe: Stripe, stripeCouponId: string): Promise<void> {
  try {
    await stripe.coupons.del(stripeCouponId);
  } catch (err) {
    if (isStripeError(err, 'StripeError') && err.code === 'resource_missing') return;
    throw err;
  }
}

/**
 * What a Stripe Checkout Session says it took: its total and its payment intent (for a refund); with
 * a customer (a session that kept the card for renewals), the customer as the saved method's holder.
 * The method itself is named by the payment intent, read when first charged (stripe-off-session.ts).
 */
export function stripePaymentOf(
  s: Pick<Stripe.Checkout.Session, 'amount_total' | 'payment_intent'> & { customer?: Stripe.Checkout.Session['customer'] },
): ProviderPayment {
  const customerRef = typeof s.customer === 'string' ? s.customer : (s.customer?.id ?? null);
  return {
    amountCents: typeof s.amount_total === 'number' ? s.amount_total : null,
    reference: typeof s.payment_intent === 'string' ? s.payment_intent : (s.payment_intent?.id ?? null),
    ...(customerRef ? { saved: { customerRef, paymentMethodRef: null } } : {}),
  };
}

/** The text to show for a failed Stripe call: Stripe's own message, never another fault's internals. */
export function stripeFailureMessage(err: unknown): string {
  return isStripeError(err, 'StripeError') && err.message ? err.message : 'Stripe could not be reached';
}
