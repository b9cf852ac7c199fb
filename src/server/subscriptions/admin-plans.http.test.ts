import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct, createUser, createVariant } from '../db/seed/factories.js';
import { DEMO_ADMIN, DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { DEMO_SUBSCRIPTION, seedDemoSubscription, seedSubscriptionPlans } from '../db/seed/subscriptions.js';
import { spellings } from '../security/path-spellings.js';
import { SUBSCRIPTION_LIMITS, SUBSCRIPTION_MESSAGES } from '../../shared/subscriptions.js';
import { SUBSCRIPTION_SETTINGS_MESSAGES } from '../../shared/schemas/admin/subscription-plans.js';
import { plansForVariants } from './plans.js';
import { readSubscriptionSettings, SUBSCRIPTION_SETTING_KEYS } from './settings.js';

/**
 * The owner's Subscribe and save (issue [4/8] item 1): a product's plan and its variants' own,
 * refused with a reason and nothing stored, audited, behind the back office's guard; the
 * shop-wide settings; and the seed's plans and demo subscription.
 */
let t: TestApp;
let admin: TestClient;
let customer: TestClient;
let guest: TestClient;
let adminId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app, '10.58.0.1');
  expect((await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
  const user = await createUser(t.db, { email: 'plans.customer@example.com' });
  customer = new TestClient(t.app, '10.58.0.2');
  expect((await customer.signIn(user.email, user.password)).statusCode).toBe(200);
  guest = new TestClient(t.app, '10.58.0.3');
  adminId = (await t.db.selectFrom('users').select('id').where('email', '=', DEMO_ADMIN.email).executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await t?.close();
});

const plansUrl = (productId: string) => `/api/admin/products/${productId}/subscription-plans`;
const planUrl = (productId: string) => `/api/admin/products/${productId}/subscription-plan`;
const variantPlanUrl = (productId: string, variantId: string) => `/api/admin/products/${productId}/variants/${variantId}/subscription-plan`;
const terms = { enabled: true, intervals: [4, 2], discountPercent: 12 };

/** What a refusal must leave as it was: every plan row and the audit log. */
async function stored() {
  const [plans, audit] = await Promise.all([
    t.db.selectFrom('subscription_plans').selectAll().orderBy('product_id').orderBy('variant_id').execute(),
    t.db.selectFrom('audit_log').select('id').where('action', '=', 'subscription.plan_changed').execute(),
  ]);
  return { plans, audit: audit.length };
}

async function planAudits() {
  const res = await admin.get('/api/admin/audit-log?action=subscription.plan_changed&pageSize=100');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ items: { actor: { id: string } | null; details: Record<string, unknown> }[] }>().items;
}

const shopVersion = async () =>
  Number((await t.db.selectFrom('shop_changes').select('version').where('id', '=', 1).executeTakeFirstOrThrow()).version);

/** A product with two variants (Small, Large) and a third switched off (Huge). */
async function sizedProduct() {
  const p = await createProduct(t.db, { name: 'Refill Pouch', priceCents: 1000 });
  await t.db.updateTable('product_variants').set({ option1: 'Small' }).where('id', '=', `var_${p.id}`).execute();
  await t.db
    .insertInto('product_options')
    .values({ product_id: p.id, position: 1, name: 'Size', values: JSON.stringify(['Small', 'Large', 'Huge']) })
    .execute();
  const large = await createVariant(t.db, p.id, { options: ['Large'], priceCents: 1800, position: 1 });
  const huge = await createVariant(t.db, p.id, { options: ['Huge'], priceCents: 3000, position: 2, enabled: false });
  return { id: p.id, small: `var_${p.id}`, large, huge };
}

describe('the seeded plans', () => {
  it('offer the laundry powder and the concentrated cleaner (15% from the 4th delivery), each variant following its product', async () => {
    const powder = await admin.get(plansUrl('laundry-powder'));
    expect(powder.statusCode, powder.body).toBe(200);
    expect(powder.json()).toMatchObject({
      productId: 'laundry-powder',
      plan: { enabled: true, intervals: [2, 4, 6, 8], discountPercent: 10, laterDiscountPercent: null, laterFromDelivery: null },
      variants: [{ id: 'var_laundry-powder', label: '', enabled: true, plan: null }],
    });
    const cleaner = (await admin.get(plansUrl('concentrated-cleaner'))).json();
    expect(cleaner.plan).toMatchObject({
      enabled: true,
      intervals: [2, 4, 6, 8],
      discountPercent: 10,
      laterDiscountPercent: 15,
      laterFromDelivery: 4,
    });
    expect(cleaner.variants.map((v: { label: string }) => v.label)).toEqual([
      'Unscented, 16 oz',
      'Unscented, 32 oz',
      'Lavender, 16 oz',
      'Lavender, 32 oz',
      'Lemon, 16 oz',
      'Lemon, 32 oz',
    ]);
    expect(cleaner.variants.every((v: { plan: unknown }) => v.plan === null)).toBe(true);
    // A product the owner never set up: no plan, nothing offered.
    expect((await admin.get(plansUrl('dish-soap-block'))).json().plan).toBeNull();
  });

  it('are written once: seeding again keeps what the owner changed', async () => {
    const off = { enabled: false, intervals: [4], discountPercent: 5 };
    expect((await admin.request('PUT', planUrl('laundry-powder'), off)).statusCode).toBe(200);
    await seedSubscriptionPlans(t.db);
    expect((await admin.get(plansUrl('laundry-powder'))).json().plan).toMatchObject(off);
    // Put back for the tests below.
    const on = { enabled: true, intervals: [2, 4, 6, 8], discountPercent: 10 };
    expect((await admin.request('PUT', planUrl('laundry-powder'), on)).statusCode).toBe(200);
  });
});

describe('a product’s plan', () => {
  it('is stored with its intervals in order, audited once per change, and the shop is told', async () => {
    const p = await createProduct(t.db, { name: 'Soap Nuts', priceCents: 1500 });
    const versionBefore = await shopVersion();
    const res = await admin.request('PUT', planUrl(p.id), {
      ...terms,
      intervals: [8, 4, 4, 2],
      laterDiscountPercent: 20,
      laterFromDelivery: 3,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().plan).toMatchObject({
      enabled: true,
      intervals: [2, 4, 8],
      discountPercent: 12,
      laterDiscountPercent: 20,
      laterFromDelivery: 3,
    });
    const row = await t.db.selectFrom('subscription_plans').selectAll().where('product_id', '=', p.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      variant_id: '',
      enabled: 1,
      intervals: '[2,4,8]',
      discount_percent: 12,
      later_discount_percent: 20,
      later_from_delivery: 3,
    });
    // Product pages are cached: the back office's write bumps the change signal so they show the plan at once.
    expect(await shopVersion()).toBeGreaterThan(versionBefore);

    const [audit] = (await planAudits()).filter((a) => a.details.productId === p.id);
    expect(audit).toMatchObject({
      actor: { id: adminId },
      details: {
        productId: p.id,
        variantId: null,
        before: null,
        after: { enabled: true, intervals: [2, 4, 8], discountPercent: 12, laterDiscountPercent: 20, laterFromDelivery: 3 },
      },
    });
    // The same terms again change nothing, so record nothing; switching it off is one more row.
    expect(
      (await admin.request('PUT', planUrl(p.id), { ...terms, intervals: [2, 4, 8], laterDiscountPercent: 20, laterFromDelivery: 3 }))
        .statusCode,
    ).toBe(200);
    expect((await planAudits()).filter((a) => a.details.productId === p.id)).toHaveLength(1);
    const off = await admin.request('PUT', planUrl(p.id), { ...terms, enabled: false });
    expect(off.json().plan).toMatchObject({ enabled: false, laterDiscountPercent: null, laterFromDelivery: null });
    const audits = (await planAudits()).filter((a) => a.details.productId === p.id);
    expect(audits).toHaveLength(2);
    expect(audits[0]!.details).toMatchObject({ before: { enabled: true }, after: { enabled: false } });
    // The shop reads it: off, so not offered.
    const resolved = await plansForVariants(t.db, [{ productId: p.id, variantId: `var_${p.id}` }]);
    expect(resolved.get(`var_${p.id}`)).toMatchObject({ enabled: false, intervals: [2, 4], discountPercent: 12 });
  });

  it('saved by several requests at once leaves one row', async () => {
    const p = await createProduct(t.db, { name: 'Wool Dryer Balls' });
    const answers = await Promise.all(
      [5, 10, 15, 20, 25].map((discountPercent) => admin.request('PUT', planUrl(p.id), { ...terms, discountPercent })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const rows = await t.db.selectFrom('subscription_plans').select('discount_percent').where('product_id', '=', p.id).execute();
    expect(rows).toHaveLength(1);
    expect([5, 10, 15, 20, 25]).toContain(rows[0]!.discount_percent);
  });

  it.each([
    ['a discount over 100%', { ...terms, discountPercent: 101 }, SUBSCRIPTION_MESSAGES.discountRange],
    ['a discount below 0%', { ...terms, discountPercent: -1 }, SUBSCRIPTION_MESSAGES.discountRange],
    ['a discount that is not a number', { ...terms, discountPercent: '10' }, SUBSCRIPTION_MESSAGES.discountRange],
    ['a later discount over 100%', { ...terms, laterDiscountPercent: 150, laterFromDelivery: 3 }, SUBSCRIPTION_MESSAGES.discountRange],
    [
      'a later discount without its delivery',
      { ...terms, laterDiscountPercent: 15 },
      'Give both the later discount and the delivery it starts from, or neither.',
    ],
    [
      'a later discount from the 1st delivery',
      { ...terms, laterDiscountPercent: 15, laterFromDelivery: 1 },
      SUBSCRIPTION_MESSAGES.laterFrom,
    ],
    ['no interval', { ...terms, intervals: [] }, SUBSCRIPTION_MESSAGES.intervalsRequired],
    ['an interval of 53 weeks', { ...terms, intervals: [4, 53] }, SUBSCRIPTION_MESSAGES.intervalsRequired],
    ['an interval of half a week', { ...terms, intervals: [2.5] }, SUBSCRIPTION_MESSAGES.intervalsRequired],
    ['an interval written as a word', { ...terms, intervals: ['monthly'] }, SUBSCRIPTION_MESSAGES.intervalsRequired],
    ['too many intervals', { ...terms, intervals: [1, 2, 3, 4, 5, 6, 7, 8, 9] }, `At most ${SUBSCRIPTION_LIMITS.maxIntervals} intervals`],
    ['a field the form does not have', { ...terms, variantId: 'x' }, 'variantId'],
    ['no body', undefined, 'enabled'],
  ])('refuses %s with a 400 that says why, and stores nothing', async (_name, body, message) => {
    const before = await stored();
    const res = await admin.request('PUT', planUrl('dish-soap-block'), body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toContain(message);
    expect(await stored()).toEqual(before);
  });

  it('of an unknown product is a 404, and nothing is stored', async () => {
    const before = await stored();
    for (const res of [
      await admin.get(plansUrl('no-such-product')),
      await admin.request('PUT', planUrl('no-such-product'), terms),
      await admin.request('PUT', variantPlanUrl('no-such-product', 'var_laundry-powder'), terms),
      await admin.request('DELETE', variantPlanUrl('no-such-product', 'var_laundry-powder')),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().error).toBe('Product not found');
    }
    expect(await stored()).toEqual(before);
  });
});

describe('a variant’s own plan', () => {
  it('wins over its product’s; "not offered" stops it alone; removing it follows the product again', async () => {
    const p = await sizedProduct();
    expect((await admin.request('PUT', planUrl(p.id), { ...terms, discountPercent: 10 })).statusCode).toBe(200);

    const own = await admin.request('PUT', variantPlanUrl(p.id, p.large), { enabled: true, intervals: [6], discountPercent: 20 });
    expect(own.statusCode, own.body).toBe(200);
    const notOffered = await admin.request('PUT', variantPlanUrl(p.id, p.small), { ...terms, enabled: false });
    expect(notOffered.statusCode, notOffered.body).toBe(200);
    const view = notOffered.json();
    expect(view.plan).toMatchObject({ enabled: true, discountPercent: 10 });
    expect(view.variants).toEqual([
      { id: p.small, label: 'Small', enabled: true, plan: expect.objectContaining({ enabled: false }) },
      { id: p.large, label: 'Large', enabled: true, plan: expect.objectContaining({ enabled: true, intervals: [6], discountPercent: 20 }) },
      { id: p.huge, label: 'Huge', enabled: false, plan: null },
    ]);
    const lines = [p.small, p.large, p.huge].map((variantId) => ({ productId: p.id, variantId }));
    let resolved = await plansForVariants(t.db, lines);
    expect(resolved.get(p.small)).toMatchObject({ enabled: false });
    expect(resolved.get(p.large)).toMatchObject({ enabled: true, intervals: [6], discountPercent: 20 });

    const audits = (await planAudits()).filter((a) => a.details.productId === p.id);
    expect(audits.map((a) => a.details.variantId)).toEqual([p.small, p.large, null]);

    const removed = await admin.request('DELETE', variantPlanUrl(p.id, p.large));
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().variants[1]).toMatchObject({ id: p.large, plan: null });
    resolved = await plansForVariants(t.db, lines);
    expect(resolved.get(p.large)).toMatchObject({ enabled: true, intervals: [2, 4], discountPercent: 10 });
    const [last] = (await planAudits()).filter((a) => a.details.productId === p.id);
    expect(last!.details).toMatchObject({ variantId: p.large, before: { intervals: [6] }, after: null });

    // Removing a plan that is not there is no change: 200, no audit row.
    const again = await admin.request('DELETE', variantPlanUrl(p.id, p.large));
    expect(again.statusCode).toBe(200);
    expect((await planAudits()).filter((a) => a.details.productId === p.id)).toHaveLength(4);
  });

  it('on a switched-off variant is refused with a 409 (nothing stored), but it may be marked not offered', async () => {
    const p = await sizedProduct();
    const before = await stored();
    const res = await admin.request('PUT', variantPlanUrl(p.id, p.huge), terms);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toBe(SUBSCRIPTION_MESSAGES.variantOff);
    expect(await stored()).toEqual(before);

    const off = await admin.request('PUT', variantPlanUrl(p.id, p.huge), { ...terms, enabled: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().variants[2]).toMatchObject({ id: p.huge, enabled: false, plan: { enabled: false } });
  });

  it('of an unknown variant, or another product’s, is a 404, and nothing is stored', async () => {
    const p = await sizedProduct();
    const before = await stored();
    for (const res of [
      await admin.request('PUT', variantPlanUrl(p.id, 'var_nope'), terms),
      await admin.request('PUT', variantPlanUrl(p.id, 'var_laundry-powder'), terms),
      await admin.request('DELETE', variantPlanUrl(p.id, 'var_nope')),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().error).toMatch(/^Variant not found/);
    }
    expect(await stored()).toEqual(before);
  });
});

describe('the guard', () => {
  const writes = [
    { method: 'PUT', url: planUrl('laundry-powder'), body: { enabled: true, intervals: [1], discountPercent: 90 } },
    {
      method: 'PUT',
      url: variantPlanUrl('laundry-powder', 'var_laundry-powder'),
      body: { enabled: true, intervals: [1], discountPercent: 90 },
    },
    { method: 'DELETE', url: variantPlanUrl('laundry-powder', 'var_laundry-powder'), body: undefined },
    { method: 'PUT', url: '/api/admin/subscription-settings', body: { freeShipping: true, skipOutOfStockAfterDays: 2 } },
  ] as const;
  const reads = [plansUrl('laundry-powder'), '/api/admin/subscription-settings'];

  it('answers a guest 401 and a customer 403, and stores nothing', async () => {
    const before = { ...(await stored()), settings: await readSubscriptionSettings(t.db) };
    for (const url of reads) {
      expect((await guest.get(url)).statusCode, url).toBe(401);
      expect((await customer.get(url)).statusCode, url).toBe(403);
    }
    for (const w of writes) {
      expect((await guest.request(w.method, w.url, w.body)).statusCode, w.url).toBe(401);
      expect((await customer.request(w.method, w.url, w.body)).statusCode, w.url).toBe(403);
    }
    expect({ ...(await stored()), settings: await readSubscriptionSettings(t.db) }).toEqual(before);
  });

  it('holds however the path is spelled: percent-encoded letters, doubled slashes, a trailing slash', async () => {
    // The router decodes a spelled path, so it is the surface's guard that refuses it, and the admin gets through.
    const encoded = '/api/admin/products/laundry-powder/subscription-pl%61n';
    expect((await guest.request('PUT', encoded, writes[0].body)).statusCode).toBe(401);
    expect((await customer.request('PUT', encoded, writes[0].body)).statusCode).toBe(403);
    expect((await admin.get('/api/%61dmin/products/laundry-powder/subscription-pl%61ns')).statusCode).toBe(200);

    const before = { ...(await stored()), settings: await readSubscriptionSettings(t.db) };
    const wrong: string[] = [];
    for (const w of writes) {
      for (const url of spellings(w.url)) {
        for (const [who, client] of [
          ['guest', guest],
          ['customer', customer],
        ] as const) {
          const res = await client.request(w.method, url, w.body);
          if (res.statusCode < 300 || res.statusCode >= 500) wrong.push(`${who} ${w.method} ${url}: ${res.statusCode}`);
        }
      }
    }
    for (const url of reads.flatMap((u) => spellings(u))) {
      const res = await customer.get(url);
      if (res.statusCode < 300 || res.statusCode >= 500 || res.body.includes('discountPercent'))
        wrong.push(`customer GET ${url}: ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
    expect({ ...(await stored()), settings: await readSubscriptionSettings(t.db) }).toEqual(before);
  });
});

describe('the subscription settings', () => {
  it('read their defaults, save, and are audited by key', async () => {
    const initial = await admin.get('/api/admin/subscription-settings');
    expect(initial.statusCode).toBe(200);
    expect(initial.json()).toEqual({ freeShipping: false, skipOutOfStockAfterDays: SUBSCRIPTION_LIMITS.defaultSkipAfterDays });

    const saved = await admin.request('PUT', '/api/admin/subscription-settings', { freeShipping: true, skipOutOfStockAfterDays: 21 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ freeShipping: true, skipOutOfStockAfterDays: 21 });
    expect(await readSubscriptionSettings(t.db)).toEqual({ freeShipping: true, skipOutOfStockAfterDays: 21 });
    const rows = await t.db
      .selectFrom('settings')
      .select(['key', 'value'])
      .where('key', 'in', Object.values(SUBSCRIPTION_SETTING_KEYS))
      .orderBy('key')
      .execute();
    expect(rows).toEqual([
      { key: 'subscriptions.free_shipping', value: 'true' },
      { key: 'subscriptions.skip_out_of_stock_after_days', value: '21' },
    ]);
    const audit = (await admin.get('/api/admin/audit-log?action=settings.changed&pageSize=100')).json().items;
    expect(audit[0].details.keys).toEqual(['subscriptions.free_shipping', 'subscriptions.skip_out_of_stock_after_days']);

    // One of the two alone leaves the other.
    expect((await admin.request('PUT', '/api/admin/subscription-settings', { freeShipping: false })).json()).toEqual({
      freeShipping: false,
      skipOutOfStockAfterDays: 21,
    });
  });

  it.each([
    ['0 days', { skipOutOfStockAfterDays: 0 }, SUBSCRIPTION_SETTINGS_MESSAGES.skipAfterDays],
    ['61 days', { skipOutOfStockAfterDays: 61 }, SUBSCRIPTION_SETTINGS_MESSAGES.skipAfterDays],
    ['half a day', { skipOutOfStockAfterDays: 1.5 }, SUBSCRIPTION_SETTINGS_MESSAGES.skipAfterDays],
    ['days as text', { skipOutOfStockAfterDays: 'ten' }, SUBSCRIPTION_SETTINGS_MESSAGES.skipAfterDays],
    ['free shipping as text', { freeShipping: 'yes' }, 'freeShipping must be true or false'],
    ['an unknown setting', { freeShipping: true, giftWrap: true }, 'giftWrap'],
  ])('refuse %s with a 400 that says why, and store nothing', async (_name, body, message) => {
    const before = await readSubscriptionSettings(t.db);
    const res = await admin.request('PUT', '/api/admin/subscription-settings', body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toContain(message);
    expect(await readSubscriptionSettings(t.db)).toEqual(before);
  });

  it('read a value typed into the database by hand, and unreadable, as the default', async () => {
    await t.db
      .updateTable('settings')
      .set({ value: 'ninety' })
      .where('key', '=', SUBSCRIPTION_SETTING_KEYS.skipOutOfStockAfterDays)
      .execute();
    await t.db.updateTable('settings').set({ value: 'yes' }).where('key', '=', SUBSCRIPTION_SETTING_KEYS.freeShipping).execute();
    expect(await readSubscriptionSettings(t.db)).toEqual({
      freeShipping: false,
      skipOutOfStockAfterDays: SUBSCRIPTION_LIMITS.defaultSkipAfterDays,
    });
  });
});

describe('the demo customer’s subscription (seed)', () => {
  it('has two paid deliveries, the second a renewal, and renews a full interval after it, in the future', async () => {
    const now = new Date();
    expect(await seedDemoSubscription(t.db, now)).toBe(true);
    const customerId = (await t.db.selectFrom('users').select('id').where('email', '=', DEMO_CUSTOMER.email).executeTakeFirstOrThrow()).id;
    const sub = await t.db.selectFrom('subscriptions').selectAll().where('user_id', '=', customerId).executeTakeFirstOrThrow();
    expect(sub).toMatchObject({
      id: DEMO_SUBSCRIPTION.id,
      status: 'active',
      every_weeks: 4,
      discount_percent: 10,
      deliveries: 2,
      cycles_started: 2,
      provider: 'test',
      payment_method_ref: DEMO_SUBSCRIPTION.paymentMethodId,
      first_order_id: DEMO_SUBSCRIPTION.orderIds[0],
      cancelled_at: null,
    });
    expect(sub.consent_text).toMatch(/until I cancel/);
    expect(Date.parse(sub.next_renewal_at)).toBeGreaterThan(now.getTime());

    const orders = await t.db
      .selectFrom('orders')
      .select(['id', 'origin', 'payment_status', 'payment_provider', 'status', 'created_at', 'total_cents', 'user_id'])
      .where('id', 'in', [...DEMO_SUBSCRIPTION.orderIds])
      .orderBy('created_at')
      .execute();
    expect(orders.map((o) => [o.id, o.origin, o.payment_status, o.payment_provider, o.user_id])).toEqual([
      [DEMO_SUBSCRIPTION.orderIds[0], 'checkout', 'paid', 'test', customerId],
      [DEMO_SUBSCRIPTION.orderIds[1], 'renewal', 'paid', 'test', customerId],
    ]);
    const [first, second] = orders;
    expect(Date.parse(second!.created_at) - Date.parse(first!.created_at)).toBe(4 * 7 * 86_400_000);
    expect(Date.parse(sub.next_renewal_at) - Date.parse(second!.created_at)).toBe(4 * 7 * 86_400_000);
    expect(Date.parse(second!.created_at)).toBeLessThan(now.getTime());

    const items = await t.db
      .selectFrom('order_items')
      .select(['order_id', 'product_id', 'price_cents', 'every_weeks', 'plan_discount_percent'])
      .where('order_id', 'in', [...DEMO_SUBSCRIPTION.orderIds])
      .orderBy('order_id')
      .execute();
    // $18.99 less 10%: $17.09 a box.
    expect(items).toEqual(
      DEMO_SUBSCRIPTION.orderIds.map((id) => ({
        order_id: id,
        product_id: 'laundry-powder',
        price_cents: 1709,
        every_weeks: 4,
        plan_discount_percent: 10,
      })),
    );
    expect(await t.db.selectFrom('subscription_items').selectAll().where('subscription_id', '=', sub.id).execute()).toEqual([
      // No agreed price kept (migration 0045): the demo renews at today's price.
      {
        subscription_id: sub.id,
        product_id: 'laundry-powder',
        variant_id: 'var_laundry-powder',
        skip_next: 0,
        quantity: 1,
        agreed_price_cents: expect.any(Number),
      },
    ]);
    expect(
      await t.db
        .selectFrom('subscription_cycles')
        .select(['cycle', 'status', 'order_id', 'amount_cents'])
        .where('subscription_id', '=', sub.id)
        .execute(),
    ).toEqual([{ cycle: 2, status: 'paid', order_id: DEMO_SUBSCRIPTION.orderIds[1], amount_cents: second!.total_cents }]);
    expect(
      await t.db.selectFrom('test_payment_methods').selectAll().where('id', '=', sub.payment_method_ref).executeTakeFirst(),
    ).toMatchObject({
      behaviour: 'succeed',
      brand: 'visa',
      last4: '4242',
    });
    expect(
      await t.db
        .selectFrom('subscription_consents')
        .select(['text'])
        .where('order_id', '=', DEMO_SUBSCRIPTION.orderIds[0])
        .executeTakeFirst(),
    ).toEqual({ text: sub.consent_text });

    // The customer sees both orders in "My orders".
    const demo = new TestClient(t.app, '10.58.0.9');
    expect((await demo.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password)).statusCode).toBe(200);
    const mine = await demo.get('/api/orders');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(JSON.stringify(mine.json())).toContain('DEMOSUB2');
  });

  it('is reset at every start, as the demo accounts are: the same rows, moved to the new dates, active again', async () => {
    const sub = () => t.db.selectFrom('subscriptions').selectAll().where('id', '=', DEMO_SUBSCRIPTION.id).executeTakeFirstOrThrow();
    // A demo session cancelled it, and the engine had started a cycle 3.
    await t.db
      .updateTable('subscriptions')
      .set({ status: 'cancelled', cancelled_at: new Date().toISOString() })
      .where('id', '=', DEMO_SUBSCRIPTION.id)
      .execute();
    const later = new Date(Date.now() + 40 * 86_400_000);
    await t.db
      .insertInto('subscription_cycles')
      .values({
        subscription_id: DEMO_SUBSCRIPTION.id,
        cycle: 3,
        due_at: (await sub()).next_renewal_at,
        status: 'scheduled',
        order_id: null,
        amount_cents: null,
        next_attempt_at: (await sub()).next_renewal_at,
        lease_until: null,
        waiting_since: null,
        reminded_at: null,
        message: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();

    expect(await seedDemoSubscription(t.db, later)).toBe(true);
    const after = await sub();
    expect(after).toMatchObject({ status: 'active', cancelled_at: null, deliveries: 2, cycles_started: 2 });
    expect(Date.parse(after.next_renewal_at)).toBeGreaterThan(later.getTime());
    expect(await t.db.selectFrom('subscriptions').select('id').execute()).toHaveLength(1);
    expect(
      await t.db
        .selectFrom('orders')
        .select('id')
        .where('id', 'in', [...DEMO_SUBSCRIPTION.orderIds])
        .execute(),
    ).toHaveLength(2);
    expect(
      await t.db
        .selectFrom('order_items')
        .select('id')
        .where('order_id', 'in', [...DEMO_SUBSCRIPTION.orderIds])
        .execute(),
    ).toHaveLength(2);
    expect(
      (await t.db.selectFrom('subscription_cycles').select('cycle').where('subscription_id', '=', DEMO_SUBSCRIPTION.id).execute()).map(
        (c) => c.cycle,
      ),
    ).toEqual([2]);
    const second = await t.db
      .selectFrom('orders')
      .select('created_at')
      .where('id', '=', DEMO_SUBSCRIPTION.orderIds[1])
      .executeTakeFirstOrThrow();
    expect(Date.parse(after.next_renewal_at) - Date.parse(second.created_at)).toBe(4 * 7 * 86_400_000);
    expect(await t.db.selectFrom('test_payment_methods').select('id').execute()).toHaveLength(1);
  });
});
