import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ProviderPayment } from '../payments/provider.js';
import { newId } from '../lib/ids.js';
import { plansForVariants } from '../lib/subscription-plans.js';
import { addWeeks } from '../../shared/subscription-words.js';
import { orderConsent } from './consents.js';
import { recordSubscriptionEvent } from './events.js';
import { SYSTEM_ACTOR } from '../lib/actors.js';
import { newManageLink } from './manage-links.js';
import { agreeToFirstOrderPrices } from './price-notices.js';
import { testPaymentMethodCard } from '../payments/test-payment-methods.js';
import { cardBrandName } from '../../shared/subscription-card.js';

/** A subscription started by a paid checkout: what its confirmation e-mail needs. */
export type StartedSubscription = {
  id: string;
  everyWeeks: number;
  discountPercent: number;
  nextRenewalAt: string;
  /** The page that manages (and cancels) it without signing in: its token is in clear only here and in the e-mail. */
  manageUrl: string;
  /** The terms the shopper ticked, as kept with the consent (the e-mail repeats them). */
  consentText: string;
};

export type StartSubscriptionsInput = {
  orderId: string;
  /** The buyer's account (a guest's is made at payment, before this: accounts/subscriber-accounts.ts). */
  userId: string;
  email: string;
  /** The order's stored address (JSON text, as the order keeps it). */
  shippingAddress: string;
  shippingOptionId: string | null;
  /** The provider that took the first payment ('test' or 'stripe'): the renewals charge through it. */
  provider: string;
  /** What the provider says it took and kept (`saved`: its customer and payment method); null when it said nothing. */
  payment: ProviderPayment | null;
  now: Date;
  publicUrl: string;
};

type SubscribedLine = { product_id: string; variant_id: string; quantity: number; every_weeks: number; plan_discount_percent: number };

/**
 * The subscriptions a paid checkout starts (issue [4/8]), in the transaction that marks its order
 * paid: one per group of the order's subscription lines with the same interval and the same
 * discounts (each renewal is one order at one discount, so lines whose plans differ renew apart,
 * as the terms said). Each is active, its first delivery this order (deliveries 1, cycles_started
 * 1), its discounts a snapshot (the line's, and the plan's later one as it is now), its first
 * renewal the interval after the consent was given (the date the terms showed), its shipping the
 * order's, its payment method what the provider kept, its consent the text and time the checkout
 * kept. Each gets its own manage link (manage-links.ts). Nothing when the order has no subscription
 * lines or no consent (an order that never asked for one).
 */
export async function startSubscriptions(trx: Kysely<Database>, o: StartSubscriptionsInput): Promise<StartedSubscription[]> {
  const [rawLines, consent] = await Promise.all([
    trx
      .selectFrom('order_items')
      .select(['product_id', 'variant_id', 'quantity', 'every_weeks', 'plan_discount_percent'])
      .where('order_id', '=', o.orderId)
      .where('every_weeks', 'is not', null)
      .where('is_free_gift', '=', 0)
      .orderBy('id')
      .execute(),
    orderConsent(trx, o.orderId),
  ]);
  const lines = rawLines.flatMap((l): SubscribedLine[] =>
    l.every_weeks === null || l.variant_id === null
      ? []
      : [{ ...l, variant_id: l.variant_id, every_weeks: l.every_weeks, plan_discount_percent: l.plan_discount_percent ?? 0 }],
  );
  if (lines.length === 0 || !consent) return [];
  const plans = await plansForVariants(
    trx,
    lines.map((l) => ({ productId: l.product_id, variantId: l.variant_id })),
  );
  const groups = new Map<
    string,
    { everyWeeks: number; discountPercent: number; later: number | null; from: number | null; lines: SubscribedLine[] }
  >();
  for (const l of lines) {
    const plan = plans.get(l.variant_id);
    const hasLater = plan?.enabled && plan.laterDiscountPercent !== null && plan.laterFromDelivery !== null;
    const later = hasLater ? plan.laterDiscountPercent : null;
    const from = hasLater ? plan.laterFromDelivery : null;
    const key = JSON.stringify([l.every_weeks, l.plan_discount_percent, later, from]);
    const group = groups.get(key) ?? { everyWeeks: l.every_weeks, discountPercent: l.plan_discount_percent, later, from, lines: [] };
    group.lines.push(l);
    groups.set(key, group);
  }
  const at = o.now.toISOString();
  // The card the customer knows (brand, last four): the test page's kept card now; Stripe's once its method is read (renewals.ts).
  const methodRef = o.payment?.saved?.paymentMethodRef ?? null;
  const known = o.provider === 'test' && methodRef ? await testPaymentMethodCard(trx, methodRef) : null;
  const card = known ? { card_brand: cardBrandName(known.brand), card_last4: known.last4 } : {};
  const started: StartedSubscription[] = [];
  for (const g of [...groups.values()].sort((a, b) => a.everyWeeks - b.everyWeeks || a.discountPercent - b.discountPercent)) {
    const id = newId('sub');
    const nextRenewalAt = addWeeks(consent.accepted_at, g.everyWeeks);
    await trx
      .insertInto('subscriptions')
      .values({
        id,
        user_id: o.userId,
        email: o.email.toLowerCase(),
        status: 'active',
        every_weeks: g.everyWeeks,
        discount_percent: g.discountPercent,
        later_discount_percent: g.later,
        later_from_delivery: g.from,
        deliveries: 1,
        cycles_started: 1,
        next_renewal_at: nextRenewalAt,
        shipping_address: o.shippingAddress,
        shipping_option_id: o.shippingOptionId,
        provider: o.provider,
        customer_ref: o.payment?.saved?.customerRef ?? null,
        payment_method_ref: o.payment?.saved?.paymentMethodRef ?? null,
        ...card,
        payment_ref: o.payment?.reference ?? null,
        first_order_id: o.orderId,
        consent_text: consent.text,
        consent_at: consent.accepted_at,
        manage_token_hash: null,
        failing_since: null,
        cancelled_at: null,
        cancel_reason: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    // One row per variant (the table's key): two lines of one variant (a size or colour of the cart's own) add up.
    const byVariant = new Map<string, { product_id: string; variant_id: string; quantity: number }>();
    for (const l of g.lines) {
      const seen = byVariant.get(l.variant_id);
      if (seen) seen.quantity += l.quantity;
      else byVariant.set(l.variant_id, { product_id: l.product_id, variant_id: l.variant_id, quantity: l.quantity });
    }
    await trx
      .insertInto('subscription_items')
      .values([...byVariant.values()].map((i) => ({ subscription_id: id, ...i })))
      .execute();
    // The price each item was sold at is the price it renews at, until the customer is told another (decision 0058).
    await agreeToFirstOrderPrices(trx, id, o.orderId);
    await recordSubscriptionEvent(
      trx,
      id,
      'started',
      SYSTEM_ACTOR,
      { orderId: o.orderId, everyWeeks: g.everyWeeks, discountPercent: g.discountPercent },
      o.now,
    );
    const manageUrl = await newManageLink(trx, id, o.now, o.publicUrl);
    started.push({ id, everyWeeks: g.everyWeeks, discountPercent: g.discountPercent, nextRenewalAt, manageUrl, consentText: consent.text });
  }
  return started;
}
