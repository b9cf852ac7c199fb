import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { lineTitle } from '../../shared/variants.js';
import { parseJson } from '../lib/json.js';
import { subscriptionLineText, type SubscriptionView } from '../../shared/subscriptions.js';
import { priceRenewal } from './renewal-order.js';
import { pendingPriceNotices } from './price-notices.js';
import { readSubscriptionSettings } from './settings.js';
import { offers, plansForVariants, type ResolvedPlan } from './plans.js';

/** The intervals a subscription may change to: those every item's plan offers now (none when any plan is off). */
function changeableIntervals(items: readonly { variant_id: string }[], plans: Map<string, ResolvedPlan>): number[] {
  const each = items.map((i) => plans.get(i.variant_id));
  if (each.length === 0 || each.some((p) => !p?.enabled)) return [];
  return (each[0]?.intervals ?? []).filter((w) => each.every((p) => p?.intervals.includes(w)));
}

/** The address a subscription ships to, as the form edits it (the checkout's record holds more), or null. */
function addressOf(json: string | null): SubscriptionView['address'] {
  const a = parseJson<Record<string, unknown> | null>(json, null);
  if (!a || typeof a.address !== 'string') return null;
  const text = (k: string) => (typeof a[k] === 'string' ? (a[k] as string) : '');
  return {
    name: text('name'),
    address: text('address'),
    city: text('city'),
    state: text('state'),
    zip: text('zip'),
    country: text('country') || 'US',
  };
}

/**
 * Subscriptions as their customer sees them: by account (newest first, at most `limit`) or by
 * id. Six statements whatever their number (the rows, all their items, their extras, their
 * products' versions, those products' plans, test cards), and the next delivery's total priced as
 * the renewal will be (a few statements per subscription that still renews: a customer has few).
 */
export async function subscriptionViews(
  db: Kysely<Database>,
  where: { userId: string; limit?: number } | { id: string },
): Promise<SubscriptionView[]> {
  let q = db.selectFrom('subscriptions').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc');
  q = 'id' in where ? q.where('id', '=', where.id) : q.where('user_id', '=', where.userId).limit(where.limit ?? 50);
  const subs = await q.execute();
  if (subs.length === 0) return [];
  const items = await db
    .selectFrom('subscription_items as i')
    .leftJoin('product_variants as v', 'v.id', 'i.variant_id')
    .leftJoin('products as p', 'p.id', 'i.product_id')
    .select([
      'i.subscription_id',
      'i.product_id',
      'i.variant_id',
      'i.quantity',
      'i.skip_next',
      'p.name',
      'v.option1',
      'v.option2',
      'v.option3',
      'v.price_cents',
      'v.enabled',
    ])
    .where(
      'i.subscription_id',
      'in',
      subs.map((s) => s.id),
    )
    .orderBy('i.variant_id')
    .execute();
  const extras = await db
    .selectFrom('subscription_extras as e')
    .leftJoin('product_variants as v', 'v.id', 'e.variant_id')
    .leftJoin('products as p', 'p.id', 'e.product_id')
    .select([
      'e.subscription_id',
      'e.variant_id',
      'e.quantity',
      'p.name',
      'v.option1',
      'v.option2',
      'v.option3',
      'v.price_cents',
      'v.enabled',
    ])
    .where(
      'e.subscription_id',
      'in',
      subs.map((s) => s.id),
    )
    .orderBy('e.created_at')
    .execute();
  // Test cards (pm_test_…) are known by their row; a Stripe card by what the subscription keeps.
  const testCardIds = subs.map((s) => s.payment_method_ref).filter((r): r is string => !!r && r.startsWith('pm_test_'));
  const testCards = new Map(
    testCardIds.length
      ? (await db.selectFrom('test_payment_methods').select(['id', 'brand', 'last4']).where('id', 'in', testCardIds).execute()).map((c) => [
          c.id,
          c,
        ])
      : [],
  );
  const settings = await readSubscriptionSettings(db);
  const totals = new Map<string, number>();
  // Each item's unit price is the one the next renewal charges (the price told, or less: decision 0058), by the same function.
  const unitPrices = new Map<string, Map<string, number>>();
  for (const s of subs) {
    const priced = await priceRenewal(db, s, settings);
    unitPrices.set(s.id, priced.unitPrices);
    if (s.status !== 'cancelled') totals.set(s.id, priced.money.totalCents);
  }
  const notices = await pendingPriceNotices(
    db,
    subs.filter((s) => s.status !== 'cancelled').map((s) => s.id),
  );
  // The versions each item may swap to: its product's switched-on variants (one statement).
  const siblings = await db
    .selectFrom('product_variants')
    .select(['id', 'product_id', 'option1', 'option2', 'option3'])
    .where('enabled', '=', 1)
    .where('product_id', 'in', [...new Set(items.map((i) => i.product_id))].concat(['']))
    .orderBy('position')
    .execute();
  const plans = await plansForVariants(db, [
    ...items.map((i) => ({ productId: i.product_id, variantId: i.variant_id })),
    ...siblings.map((v) => ({ productId: v.product_id, variantId: v.id })),
  ]);
  const label = (v: { option1: string | null; option2: string | null; option3: string | null }) =>
    [v.option1, v.option2, v.option3].filter(Boolean).join(', ');
  const versionsOf = (sub: { every_weeks: number; status: string }, item: { product_id: string; variant_id: string }) => {
    if (sub.status === 'cancelled') return [];
    const others = siblings.filter(
      (v) => v.product_id === item.product_id && v.id !== item.variant_id && offers(plans.get(v.id), sub.every_weeks),
    );
    if (others.length === 0) return [];
    const own = siblings.find((v) => v.id === item.variant_id);
    return [...(own ? [own] : []), ...others].map((v) => ({ variantId: v.id, label: label(v) || 'Standard' }));
  };
  const cardOf = (s: (typeof subs)[number]): SubscriptionView['card'] => {
    if (s.card_brand && s.card_last4) return { brand: s.card_brand, last4: s.card_last4 };
    const test = s.payment_method_ref ? testCards.get(s.payment_method_ref) : undefined;
    return test ? { brand: test.brand, last4: test.last4 } : null;
  };
  const sold = (v: { price_cents: number | null; enabled: number | null }) => v.price_cents !== null && v.enabled === 1;
  return subs.map((s) => ({
    id: s.id,
    status: s.status,
    everyWeeks: s.every_weeks,
    discountPercent: s.discount_percent,
    terms: subscriptionLineText(s.every_weeks, s.discount_percent),
    items: items
      .filter((i) => i.subscription_id === s.id)
      .map((i) => ({
        productId: i.product_id,
        variantId: i.variant_id,
        name: lineTitle(i.name ?? 'A product no longer sold', [i.option1, i.option2, i.option3].filter(Boolean).join(', ')),
        quantity: i.quantity,
        versions: versionsOf(s, i),
        skipNext: i.skip_next === 1,
        unitPriceCents: sold(i) ? (unitPrices.get(s.id)?.get(i.variant_id) ?? null) : null,
      })),
    extras: extras
      .filter((e) => e.subscription_id === s.id)
      .map((e) => ({
        variantId: e.variant_id,
        name: lineTitle(e.name ?? 'A product no longer sold', [e.option1, e.option2, e.option3].filter(Boolean).join(', ')),
        quantity: e.quantity,
        unitPriceCents: sold(e) ? Number(e.price_cents) : null,
      })),
    nextDeliveryTotalCents: totals.get(s.id) ?? null,
    priceNotices: notices.get(s.id) ?? [],
    card: cardOf(s),
    cardOnFile: Boolean(s.payment_method_ref || (s.provider === 'stripe' && s.payment_ref)),
    nextRenewalAt: s.status === 'cancelled' ? null : s.next_renewal_at,
    deliveries: s.deliveries,
    address: addressOf(s.shipping_address),
    intervals:
      s.status === 'cancelled'
        ? []
        : changeableIntervals(
            items.filter((i) => i.subscription_id === s.id),
            plans,
          ),
    createdAt: s.created_at,
    // A reactivated subscription keeps its last cancellation on record, not on its face.
    cancelledAt: s.status === 'cancelled' ? s.cancelled_at : null,
  }));
}

/** Whether the subscription is this account's (another's reads as unknown to the caller). */
export async function isSubscriptionOf(db: Kysely<Database>, id: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('subscriptions').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Boolean(row);
}
