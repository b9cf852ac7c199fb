import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { createOrder } from '../../orders/create-order.js';
import { CUSTOMER_ACTOR, SYSTEM_ACTOR } from '../../lib/actors.js';
import { computeTotals } from '../../../shared/pricing.js';
import { addWeeks, discountedCents, renewalDateText, SUBSCRIPTION_LIMITS, subscriptionLineText } from '../../../shared/subscriptions.js';
import { formatCents } from '../../../shared/money.js';
import { recordSubscriptionEvent } from '../../subscriptions/events.js';
import { DEMO_CUSTOMER } from './demo-accounts.js';

/**
 * Subscribe and save in the seed (issue [4/8] item 1): the refills offer it, and the demo
 * customer has one active subscription with two past deliveries.
 */

/** The seeded plans: refills bought again and again. Laundry powder 10% off; the cleaner 10%, then 15% from the 4th delivery. */
export const SEED_SUBSCRIPTION_PLANS = [
  { productId: 'laundry-powder', intervals: [2, 4, 6, 8], discountPercent: 10, laterDiscountPercent: null, laterFromDelivery: null },
  { productId: 'concentrated-cleaner', intervals: [2, 4, 6, 8], discountPercent: 10, laterDiscountPercent: 15, laterFromDelivery: 4 },
] as const;

/**
 * The seeded products' plans, each written once: a plan already there (the owner may have changed
 * it or switched it off) is left as it is, and a product the catalogue no longer has gets none.
 */
export async function seedSubscriptionPlans(db: Kysely<Database>, at = new Date().toISOString()): Promise<void> {
  const present = new Set(
    (
      await db
        .selectFrom('products')
        .select('id')
        .where(
          'id',
          'in',
          SEED_SUBSCRIPTION_PLANS.map((p) => p.productId),
        )
        .execute()
    ).map((r) => r.id),
  );
  const rows = SEED_SUBSCRIPTION_PLANS.filter((p) => present.has(p.productId)).map((p) => ({
    product_id: p.productId,
    variant_id: '',
    enabled: 1,
    intervals: JSON.stringify(p.intervals),
    discount_percent: p.discountPercent,
    later_discount_percent: p.laterDiscountPercent,
    later_from_delivery: p.laterFromDelivery,
    created_at: at,
    updated_at: at,
  }));
  if (rows.length === 0) return;
  await db
    .insertInto('subscription_plans')
    .values(rows)
    .onConflict((oc) => oc.columns(['product_id', 'variant_id']).doNothing())
    .execute();
}

/** The demo customer's subscription: fixed ids, so every start finds and resets the same rows. */
export const DEMO_SUBSCRIPTION = {
  id: 'sub_demo_laundry',
  productId: 'laundry-powder',
  variantId: 'var_laundry-powder',
  quantity: 1,
  everyWeeks: 4,
  discountPercent: 10,
  /** Order numbers are an id's last 8 characters: #DEMOSUB1 and #DEMOSUB2. */
  orderIds: ['order_seed_DEMOSUB1', 'order_seed_DEMOSUB2'] as const,
  paymentMethodId: 'pm_test_demo4242',
  shippingOptionId: 'standard',
  /** The second delivery was this many days before the start; the next is due a full interval after it. */
  secondDeliveryDaysAgo: 10,
  address: { name: 'Test Customer', address: '12 Refill Lane', city: 'Portland', state: 'OR', zip: '97201', country: 'US' },
} as const;

const DAY_MS = 86_400_000;

/** The dates of the fixture, anchored on the start: two deliveries in the past, the next one in the future. */
export function demoSubscriptionDates(now: Date): { deliveries: [string, string]; nextRenewalAt: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 10);
  const second = new Date(today - DEMO_SUBSCRIPTION.secondDeliveryDaysAgo * DAY_MS).toISOString();
  const first = addWeeks(second, -DEMO_SUBSCRIPTION.everyWeeks);
  return { deliveries: [first, second], nextRenewalAt: addWeeks(second, DEMO_SUBSCRIPTION.everyWeeks) };
}

/** What the demo customer agreed to next to Pay, as the checkout words it. */
function demoConsentText(productName: string, unitCents: number, firstRenewalAt: string): string {
  const every = subscriptionLineText(DEMO_SUBSCRIPTION.everyWeeks, DEMO_SUBSCRIPTION.discountPercent).toLowerCase();
  return (
    `I agree to be charged ${formatCents(unitCents)} plus shipping and tax for ${productName}, ${every}, ` +
    `with my saved card, starting ${renewalDateText(firstRenewalAt)}, until I cancel. ` +
    'I can cancel online at any time from My subscriptions or the link in my e-mails.'
  );
}

/**
 * The demo customer's subscription to the laundry powder every 4 weeks, reset at every start as the
 * demo accounts are: two paid, delivered orders (the checkout's, then the first renewal), each with
 * its subscription line; the subscription active on a stored test card (Visa ending 4242) with
 * its consent; cycle 2 paid; the next renewal a full interval after the second delivery. The two
 * orders keep their ids and are moved to the new dates; the subscription, its item and cycles are
 * written afresh. Nothing without the demo customer or the product.
 */
export async function seedDemoSubscription(db: Kysely<Database>, now = new Date()): Promise<boolean> {
  const d = DEMO_SUBSCRIPTION;
  const [customer, variant, shipping] = await Promise.all([
    db.selectFrom('users').select(['id', 'email', 'full_name']).where('email', '=', DEMO_CUSTOMER.email).executeTakeFirst(),
    db
      .selectFrom('product_variants as v')
      .innerJoin('products as p', 'p.id', 'v.product_id')
      .select(['v.price_cents', 'v.sku', 'p.name', 'p.images'])
      .where('v.id', '=', d.variantId)
      .where('v.product_id', '=', d.productId)
      .executeTakeFirst(),
    db.selectFrom('shipping_options').select(['id', 'price_cents', 'minimum_order_cents', 'enabled']).execute(),
  ]);
  if (!customer || !variant) return false;

  const { deliveries, nextRenewalAt } = demoSubscriptionDates(now);
  const unitCents = discountedCents(Number(variant.price_cents), d.discountPercent);
  const money = computeTotals({
    lines: [{ priceCents: unitCents, quantity: d.quantity, isFreeGift: false }],
    coupon: null,
    shippingOptions: shipping.map((o) => ({
      id: o.id,
      priceCents: Number(o.price_cents),
      minimumOrderCents: o.minimum_order_cents === null ? null : Number(o.minimum_order_cents),
      enabled: Number(o.enabled) === 1,
    })),
    shippingOptionId: d.shippingOptionId,
  });
  const address = JSON.stringify({ ...d.address, name: customer.full_name ?? d.address.name, email: customer.email });
  const consentText = demoConsentText(variant.name, unitCents, deliveries[1]);
  const image = (JSON.parse(variant.images) as string[])[0] ?? null;

  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('test_payment_methods')
      .values({ id: d.paymentMethodId, behaviour: 'succeed', brand: 'visa', last4: '4242', created_at: deliveries[0] })
      .onConflict((oc) => oc.column('id').doUpdateSet({ behaviour: 'succeed', brand: 'visa', last4: '4242' }))
      .execute();

    for (const [i, orderId] of d.orderIds.entries()) {
      const at = deliveries[i]!;
      const exists = await trx.selectFrom('orders').select('id').where('id', '=', orderId).executeTakeFirst();
      if (!exists) {
        await createOrder(trx, {
          id: orderId,
          origin: i === 0 ? 'checkout' : 'renewal',
          status: 'delivered',
          lines: [
            {
              productId: d.productId,
              variantId: d.variantId,
              productName: variant.name,
              variantLabel: '',
              image,
              sku: variant.sku,
              quantity: d.quantity,
              priceCents: unitCents,
              size: 'One Size',
              color: 'Default',
              isFreeGift: false,
              everyWeeks: d.everyWeeks,
              planDiscountPercent: d.discountPercent,
            },
          ],
          money,
          customer: { userId: customer.id, email: customer.email, shippingAddress: address },
          session: null,
          shippingOptionId: money.shippingOptionId,
          placed: { actor: i === 0 ? CUSTOMER_ACTOR : SYSTEM_ACTOR, data: { totalCents: money.totalCents, provider: 'test' } },
          at: new Date(at),
        });
        await trx
          .insertInto('order_events')
          .values({
            id: `evt_seed_${orderId}_paid`,
            order_id: orderId,
            type: 'paid',
            actor_user_id: null,
            actor_label: i === 0 ? CUSTOMER_ACTOR.label : SYSTEM_ACTOR.label,
            data: JSON.stringify({ amountCents: money.totalCents, provider: 'test' }),
            customer_visible: 1,
            created_at: at,
          })
          .execute();
      }
      // Paid and delivered on the fixture's dates (moved to this start's dates when it already existed).
      await trx
        .updateTable('orders')
        .set({ payment_status: 'paid', payment_provider: 'test', paid_at: at, shipped_at: at, created_at: at, updated_at: at })
        .where('id', '=', orderId)
        .execute();
      await trx
        .updateTable('order_events')
        .set({ created_at: at })
        .where('order_id', '=', orderId)
        .where('type', 'in', ['placed', 'paid'])
        .execute();
    }

    await trx
      .insertInto('subscription_consents')
      .values({ order_id: d.orderIds[0], text: consentText, accepted_at: deliveries[0] })
      .onConflict((oc) => oc.column('order_id').doUpdateSet({ text: consentText, accepted_at: deliveries[0] }))
      .execute();

    const subscription = {
      user_id: customer.id,
      email: customer.email,
      status: 'active' as const,
      every_weeks: d.everyWeeks,
      discount_percent: d.discountPercent,
      later_discount_percent: null,
      later_from_delivery: null,
      deliveries: 2,
      cycles_started: 2,
      next_renewal_at: nextRenewalAt,
      shipping_address: address,
      shipping_option_id: money.shippingOptionId,
      provider: 'test',
      customer_ref: null,
      payment_method_ref: d.paymentMethodId,
      payment_ref: null,
      first_order_id: d.orderIds[0],
      consent_text: consentText,
      consent_at: deliveries[0],
      manage_token_hash: null,
      failing_since: null,
      cancelled_at: null,
      cancel_reason: null,
      created_at: deliveries[0],
      updated_at: deliveries[1],
    };
    await trx
      .insertInto('subscriptions')
      .values({ id: d.id, ...subscription })
      .onConflict((oc) => oc.column('id').doUpdateSet(subscription))
      .execute();
    await trx.deleteFrom('subscription_items').where('subscription_id', '=', d.id).execute();
    await trx
      .insertInto('subscription_items')
      .values({
        subscription_id: d.id,
        product_id: d.productId,
        variant_id: d.variantId,
        quantity: d.quantity,
        agreed_price_cents: Number(variant.price_cents),
      })
      .execute();
    // Cycle 1 is the checkout's order; cycle 2 the first renewal, paid. Later cycles the engine made go with the reset.
    await trx.deleteFrom('subscription_cycles').where('subscription_id', '=', d.id).execute();
    await trx
      .insertInto('subscription_cycles')
      .values({
        subscription_id: d.id,
        cycle: 2,
        due_at: deliveries[1],
        status: 'paid',
        order_id: d.orderIds[1],
        amount_cents: money.totalCents,
        attempts: 1,
        next_attempt_at: deliveries[1],
        lease_until: null,
        waiting_since: null,
        reminded_at: new Date(Date.parse(deliveries[1]) - SUBSCRIPTION_LIMITS.reminderDays * DAY_MS).toISOString(),
        message: null,
        created_at: deliveries[1],
        updated_at: deliveries[1],
      })
      .execute();
    // Its timeline: started with the checkout, renewed once (reset with the rest).
    await trx.deleteFrom('subscription_events').where('subscription_id', '=', d.id).execute();
    await trx.deleteFrom('subscription_extras').where('subscription_id', '=', d.id).execute();
    await recordSubscriptionEvent(trx, d.id, 'started', SYSTEM_ACTOR, { orderId: d.orderIds[0] }, new Date(deliveries[0]));
    await recordSubscriptionEvent(
      trx,
      d.id,
      'renewed',
      SYSTEM_ACTOR,
      { cycle: 2, orderId: d.orderIds[1], delivery: deliveries[1] },
      new Date(deliveries[1]),
    );
  });
  return true;
}

/** Production keeps no demo accounts: their subscriptions go first (a subscription names its account). */
export async function removeDemoSubscriptions(db: Kysely<Database>, demoEmails: readonly string[]): Promise<void> {
  const users = await db
    .selectFrom('users')
    .select('id')
    .where('email', 'in', [...demoEmails])
    .execute();
  if (users.length === 0) return;
  const subs = await db
    .selectFrom('subscriptions')
    .select('id')
    .where(
      'user_id',
      'in',
      users.map((u) => u.id),
    )
    .execute();
  if (subs.length === 0) return;
  const ids = subs.map((s) => s.id);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('subscription_cycles').where('subscription_id', 'in', ids).execute();
    await trx.deleteFrom('subscription_events').where('subscription_id', 'in', ids).execute();
    await trx.deleteFrom('subscription_extras').where('subscription_id', 'in', ids).execute();
    await trx.deleteFrom('subscription_items').where('subscription_id', 'in', ids).execute();
    await trx.deleteFrom('subscriptions').where('id', 'in', ids).execute();
  });
}
