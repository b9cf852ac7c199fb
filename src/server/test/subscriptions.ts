import type { Insertable, Kysely } from 'kysely';
import type { Database, SubscriptionsTable } from '../db/schema.js';
import type { TestApp } from './harness.js';
import { buildPaymentProviders } from '../payments/providers.js';
import { checkoutPaymentOutcomes } from '../checkout/payment-outcomes.js';
import type { RenewalDeps } from '../subscriptions/renewals.js';
import { keepTestPaymentMethod } from '../payments/test-payment-methods.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { randomString } from '../lib/ids.js';
import { newCustomerRow } from '../accounts/users.js';

const silent = { warn: () => {}, error: () => {}, info: () => {} };

/** The renewal schedule's dependencies for a test app: its own providers (the test card page's, or Stripe's fake) and fulfilment. */
export function renewalDeps(t: TestApp, log: RenewalDeps['log'] = silent): RenewalDeps {
  const payments = buildPaymentProviders(t.config, t.db);
  return {
    db: t.db,
    dialect: t.dialect,
    payments,
    outcomes: checkoutPaymentOutcomes({ config: t.config, db: t.db, dialect: t.dialect, payments, files: t.files }),
    publicUrl: t.config.publicUrl,
    log,
  };
}

export type TestSubscription = { id: string; userId: string; email: string; productId: string; variantId: string; methodId: string };

/**
 * A subscription as a paid checkout leaves it (subscriptions/start.ts): an account, a product in
 * stock, a kept test card behaving as asked, renewing every `everyWeeks` from `nextRenewalAt`.
 */
export async function makeSubscription(
  db: Kysely<Database>,
  o: {
    nextRenewalAt: string;
    everyWeeks?: number;
    discountPercent?: number;
    behaviour?: 'succeed' | 'decline' | 'authenticate';
    inventory?: number;
    priceCents?: number;
    quantity?: number;
    product?: { id: string; variantId: string };
    provider?: string;
  },
): Promise<TestSubscription> {
  const user = await createUser(db, {});
  const product =
    o.product ??
    (await createProduct(db, { name: `Refill ${randomString(5)}`, priceCents: o.priceCents ?? 2000, inventory: o.inventory ?? 50 }));
  const variantId = 'variantId' in product ? product.variantId : `var_${product.id}`;
  const methodId = await keepTestPaymentMethod(db, { behaviour: o.behaviour ?? 'succeed', brand: 'visa', last4: '4242' });
  const id = `sub_${randomString(12)}`;
  const at = new Date(Date.parse(o.nextRenewalAt) - (o.everyWeeks ?? 4) * 7 * 86_400_000).toISOString();
  await db
    .insertInto('subscriptions')
    .values(
      subscriptionRow({
        id,
        userId: user.id,
        email: user.email,
        nextRenewalAt: o.nextRenewalAt,
        everyWeeks: o.everyWeeks ?? 4,
        discountPercent: o.discountPercent ?? 10,
        provider: o.provider ?? 'test',
        methodId,
        createdAt: at,
      }),
    )
    .execute();
  await db
    .insertInto('subscription_items')
    .values({
      subscription_id: id,
      product_id: product.id,
      variant_id: variantId,
      quantity: o.quantity ?? 1,
      // The price the customer agreed to: the variant's as it is now (what the checkout charged).
      agreed_price_cents:
        (await db.selectFrom('product_variants').select('price_cents').where('id', '=', variantId).executeTakeFirst())?.price_cents ?? null,
    })
    .execute();
  return { id, userId: user.id, email: user.email, productId: product.id, variantId, methodId };
}

/** A subscription's row as a paid checkout writes it (subscriptions/start.ts), for tests and the bench. */
export function subscriptionRow(o: {
  id: string;
  userId: string;
  email: string;
  nextRenewalAt: string;
  everyWeeks: number;
  discountPercent: number;
  provider: string;
  methodId: string;
  createdAt: string;
  name?: string;
}): Insertable<SubscriptionsTable> {
  return {
    id: o.id,
    user_id: o.userId,
    email: o.email,
    status: 'active',
    every_weeks: o.everyWeeks,
    discount_percent: o.discountPercent,
    later_discount_percent: null,
    later_from_delivery: null,
    next_renewal_at: o.nextRenewalAt,
    shipping_address: JSON.stringify({
      name: o.name ?? 'Sam Sub',
      address: '1 Refill Way',
      city: 'Portland',
      state: 'OR',
      zip: '97201',
      country: 'US',
      email: o.email,
    }),
    shipping_option_id: null,
    provider: o.provider,
    customer_ref: null,
    payment_method_ref: o.methodId,
    payment_ref: null,
    first_order_id: `order_first_${o.id}`,
    consent_text: `Every ${o.everyWeeks} weeks until cancelled.`,
    consent_at: o.createdAt,
    manage_token_hash: null,
    failing_since: null,
    cancelled_at: null,
    cancel_reason: null,
    created_at: o.createdAt,
    updated_at: o.createdAt,
  };
}

/**
 * `count` subscriptions written in batches for the scale tests, each with its own customer: the
 * i-th is `sub_<prefix>_<i>` of `user_<prefix>_<i>`, made an hour after the one before, with the
 * status, next date, interval and items the caller gives it (a failing or cancelled one dated).
 */
export async function bulkSubscriptions(
  db: Kysely<Database>,
  o: {
    prefix: string;
    count: number;
    methodId: string;
    now: number;
    status: (i: number) => SubscriptionsTable['status'];
    nextRenewalAt: (i: number) => string;
    everyWeeks: (i: number) => number;
    items: (i: number) => { productId: string; quantity: number }[];
    batch?: number;
  },
): Promise<void> {
  const batch = o.batch ?? 500;
  for (let from = 0; from < o.count; from += batch) {
    const ids = Array.from({ length: Math.min(batch, o.count - from) }, (_, i) => from + i);
    const at = (i: number) => new Date(o.now - (o.count - i) * 3_600_000).toISOString();
    const email = (i: number) => `${o.prefix}-${i}@example.com`;
    await db
      .insertInto('users')
      .values(
        ids.map((i) =>
          newCustomerRow({ id: `user_${o.prefix}_${i}`, email: email(i), fullName: `Scale ${i}`, passwordHash: '!', at: at(i) }),
        ),
      )
      .execute();
    await db
      .insertInto('subscriptions')
      .values(
        ids.map((i) => {
          const status = o.status(i);
          return {
            ...subscriptionRow({
              id: `sub_${o.prefix}_${i}`,
              userId: `user_${o.prefix}_${i}`,
              email: email(i),
              nextRenewalAt: o.nextRenewalAt(i),
              everyWeeks: o.everyWeeks(i),
              discountPercent: 10,
              provider: 'test',
              methodId: o.methodId,
              createdAt: at(i),
            }),
            status,
            failing_since: status === 'payment_failing' ? at(i) : null,
            cancelled_at: status === 'cancelled' ? at(i) : null,
          };
        }),
      )
      .execute();
    await db
      .insertInto('subscription_items')
      .values(
        ids.flatMap((i) =>
          o.items(i).map((it) => ({
            subscription_id: `sub_${o.prefix}_${i}`,
            product_id: it.productId,
            variant_id: `var_${it.productId}`,
            quantity: it.quantity,
          })),
        ),
      )
      .execute();
  }
}
