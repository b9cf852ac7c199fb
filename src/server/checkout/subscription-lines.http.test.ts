import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct, createUser, createVariant } from '../db/seed/factories.js';
import { CART_COOKIE } from '../../shared/cart-cookie.js';
import { CHECKOUT_MESSAGES, type QuoteLine } from '../../shared/schemas/checkout.js';
import { SUBSCRIPTION_MESSAGES, subscriptionTermsText } from '../../shared/subscriptions.js';

/**
 * Subscribe and save from the shopper's side (issue [4/8], items 2 and 3): a subscription line is
 * priced less its plan's discount and kept apart from a one-time line of the same variant, in the
 * quote, the saved cart and the cart page's cookie; the checkout refuses what the plan does not
 * offer and a consent not given, storing nothing; an accepted checkout keeps the terms it showed.
 */
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' };
const address = { name: 'Sam Subscriber', address: '4 Refill Way', city: 'Eugene', state: 'OR', zip: '97401', country: 'US' };

let t: TestApp;
let ipCount = 0;
const nextIp = () => `10.81.${Math.floor(++ipCount / 250)}.${ipCount % 250}`;

beforeAll(async () => {
  t = await createTestApp({ env: LIMITS });
});
afterAll(async () => {
  await t?.close();
});

type Plan = { intervals?: number[]; discountPercent?: number; later?: [number, number] | null; enabled?: boolean; variantId?: string };

async function plan(db: Kysely<Database>, productId: string, o: Plan = {}) {
  const at = new Date().toISOString();
  await db
    .insertInto('subscription_plans')
    .values({
      product_id: productId,
      variant_id: o.variantId ?? '',
      enabled: o.enabled === false ? 0 : 1,
      intervals: JSON.stringify(o.intervals ?? [2, 4, 6]),
      discount_percent: o.discountPercent ?? 10,
      later_discount_percent: o.later ? o.later[0] : null,
      later_from_delivery: o.later ? o.later[1] : null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

/** A refill at $20.00 offering every 2, 4 or 6 weeks at 10% off (15% from the 4th delivery). */
async function refill(o: Plan & { priceCents?: number; inventory?: number } = {}) {
  const p = await createProduct(t.db, { name: 'Laundry Powder Refill', priceCents: o.priceCents ?? 2000, inventory: o.inventory ?? 40 });
  await plan(t.db, p.id, { later: [15, 4], ...o });
  return p;
}

async function counts() {
  const [orders, consents, subscriptions] = await Promise.all([
    t.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
    t.db
      .selectFrom('subscription_consents')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
    t.db
      .selectFrom('subscriptions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { orders: Number(orders.n), consents: Number(consents.n), subscriptions: Number(subscriptions.n) };
}

const checkoutBody = (items: unknown[], o: { email?: string; accept?: boolean } = {}) => ({
  items,
  customerEmail: o.email ?? `guest-${Math.random().toString(36).slice(2, 10)}@example.com`,
  shippingAddress: address,
  ...(o.accept === undefined ? {} : { acceptSubscriptionTerms: o.accept }),
});

describe('quote', () => {
  it('prices a subscription line less its plan discount, apart from the same variant bought once', async () => {
    const p = await refill();
    const c = new TestClient(t.app, nextIp());
    const res = await c.post('/api/cart/quote', {
      lines: [
        { productId: p.id, quantity: 1 },
        { productId: p.id, quantity: 2, everyWeeks: 4 },
        { productId: p.id, quantity: 1, everyWeeks: 4 },
      ],
      couponCode: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    const quote = res.json();
    const lines = quote.lines as QuoteLine[];
    expect(
      lines.map((l) => [l.everyWeeks, l.quantity, l.priceCents, l.oneTimePriceCents, l.planDiscountPercent, l.lineTotalCents]),
    ).toEqual([
      [null, 1, 2000, 2000, null, 2000],
      // The two subscription lines of one interval are one line.
      [4, 3, 1800, 2000, 10, 5400],
    ]);
    expect(lines[1]).toMatchObject({ planLater: { discountPercent: 15, fromDelivery: 4 }, subscriptionError: null });
    expect(quote.subtotalCents).toBe(7400);
  });

  it('says why a line cannot be a subscription: an interval not offered, a plan switched off, no plan', async () => {
    const offered = await refill();
    const off = await refill({ enabled: false });
    const none = await createProduct(t.db, { name: 'Plain Cloth', priceCents: 500 });
    const c = new TestClient(t.app, nextIp());
    const quote = (
      await c.post('/api/cart/quote', {
        lines: [
          { productId: offered.id, quantity: 1, everyWeeks: 3 },
          { productId: off.id, quantity: 1, everyWeeks: 4 },
          { productId: none.id, quantity: 1, everyWeeks: 4 },
        ],
        couponCode: null,
      })
    ).json();
    expect(quote.lines.map((l: QuoteLine) => [l.subscriptionError, l.priceCents, l.planDiscountPercent])).toEqual([
      [SUBSCRIPTION_MESSAGES.intervalNotOffered, 2000, null],
      [SUBSCRIPTION_MESSAGES.planOff, 2000, null],
      [SUBSCRIPTION_MESSAGES.planOff, 500, null],
    ]);
  });

  it('a variant of its own plan wins over its product plan', async () => {
    const p = await refill({ discountPercent: 10 });
    const big = await createVariant(t.db, p.id, { priceCents: 5000, inventory: 5 });
    await plan(t.db, p.id, { variantId: big, discountPercent: 20, intervals: [8] });
    const quote = (
      await new TestClient(t.app, nextIp()).post('/api/cart/quote', {
        lines: [
          { productId: p.id, variantId: big, quantity: 1, everyWeeks: 8 },
          { productId: p.id, quantity: 1, everyWeeks: 8 },
        ],
        couponCode: null,
      })
    ).json();
    expect(quote.lines.map((l: QuoteLine) => [l.priceCents, l.planDiscountPercent, l.subscriptionError])).toEqual([
      [4000, 20, null],
      [2000, null, SUBSCRIPTION_MESSAGES.intervalNotOffered],
    ]);
  });

  it('refuses an interval outside 1 to 52 weeks', async () => {
    const p = await refill();
    for (const everyWeeks of [0, 53, 2.5, '4']) {
      const res = await new TestClient(t.app, nextIp()).post('/api/cart/quote', {
        lines: [{ productId: p.id, quantity: 1, everyWeeks }],
        couponCode: null,
      });
      expect(res.statusCode, String(everyWeeks)).toBe(400);
      expect(res.json().error).toMatch(/everyWeeks must be a whole number of weeks from 1 to 52/);
    }
  });
});

describe('product page data', () => {
  it('gives each variant its plan (its own, else the product one), none when switched off', async () => {
    const p = await refill({ intervals: [4, 2] });
    const own = await createVariant(t.db, p.id, { priceCents: 3000, inventory: 3 });
    const none = await createVariant(t.db, p.id, { priceCents: 3500, inventory: 3 });
    await plan(t.db, p.id, { variantId: own, intervals: [6], discountPercent: 5, later: null });
    await plan(t.db, p.id, { variantId: none, enabled: false });
    const detail = (await new TestClient(t.app, nextIp()).get(`/api/products/${p.id}`)).json();
    const byId = new Map(detail.variants.map((v: { id: string; subscription: unknown }) => [v.id, v.subscription]));
    expect(byId.get(`var_${p.id}`)).toEqual({ intervals: [4, 2], discountPercent: 10, laterDiscountPercent: 15, laterFromDelivery: 4 });
    expect(byId.get(own)).toEqual({ intervals: [6], discountPercent: 5, laterDiscountPercent: null, laterFromDelivery: null });
    expect(byId.get(none)).toBeNull();
  });
});

describe('checkout refusals store nothing', () => {
  it('no consent, an interval not offered, a plan off or missing, a guest with an account, a variant switched off', async () => {
    const p = await refill();
    const off = await refill({ enabled: false });
    const plain = await createProduct(t.db, { name: 'Plain Cloth', priceCents: 500 });
    const hidden = await refill();
    await t.db.updateTable('product_variants').set({ enabled: 0 }).where('id', '=', `var_${hidden.id}`).execute();
    const member = await createUser(t.db, { email: 'member-sub@example.com' });
    const cases: [string, ReturnType<typeof checkoutBody>, number, string][] = [
      ['no consent', checkoutBody([{ productId: p.id, quantity: 1, everyWeeks: 4 }]), 400, SUBSCRIPTION_MESSAGES.consentMissing],
      [
        'consent false',
        checkoutBody([{ productId: p.id, quantity: 1, everyWeeks: 4 }], { accept: false }),
        400,
        SUBSCRIPTION_MESSAGES.consentMissing,
      ],
      [
        'interval',
        checkoutBody([{ productId: p.id, quantity: 1, everyWeeks: 5 }], { accept: true }),
        400,
        SUBSCRIPTION_MESSAGES.intervalNotOffered,
      ],
      ['plan off', checkoutBody([{ productId: off.id, quantity: 1, everyWeeks: 4 }], { accept: true }), 409, SUBSCRIPTION_MESSAGES.planOff],
      [
        'no plan',
        checkoutBody([{ productId: plain.id, quantity: 1, everyWeeks: 4 }], { accept: true }),
        409,
        SUBSCRIPTION_MESSAGES.planOff,
      ],
      [
        'guest with an account',
        checkoutBody([{ productId: p.id, quantity: 1, everyWeeks: 4 }], { accept: true, email: 'Member-Sub@Example.com' }),
        409,
        SUBSCRIPTION_MESSAGES.accountExists,
      ],
      [
        'variant off',
        checkoutBody([{ productId: hidden.id, quantity: 1, everyWeeks: 4 }], { accept: true }),
        400,
        CHECKOUT_MESSAGES.missingProduct,
      ],
    ];
    const before = await counts();
    for (const [name, body, status, error] of cases) {
      const res = await new TestClient(t.app, nextIp()).post('/api/create-checkout-session', body);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(status);
      expect(res.json().error, name).toBe(error);
    }
    expect(await counts()).toEqual(before);
    // The member signed in may subscribe with the same e-mail.
    const c = new TestClient(t.app, nextIp());
    expect((await c.signIn(member.email, member.password)).statusCode).toBe(200);
    const res = await c.post(
      '/api/create-checkout-session',
      checkoutBody([{ productId: p.id, quantity: 1, everyWeeks: 4 }], { accept: true, email: member.email }),
    );
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a cart of one-time lines needs no consent', async () => {
    const p = await refill();
    const res = await new TestClient(t.app, nextIp()).post(
      '/api/create-checkout-session',
      checkoutBody([{ productId: p.id, quantity: 1 }]),
    );
    expect(res.statusCode, res.body).toBe(200);
    const consent = await t.db
      .selectFrom('subscription_consents')
      .selectAll()
      .where('order_id', '=', res.json().orderId)
      .executeTakeFirst();
    expect(consent).toBeUndefined();
  });
});

describe('checkout of a mixed cart', () => {
  it('keeps the lines apart, writes the intervals on the order lines and the terms shown as the consent', async () => {
    const p = await refill();
    const other = await refill({ priceCents: 1000, discountPercent: 10, later: [15, 4] });
    const c = new TestClient(t.app, nextIp());
    const lines = [
      { productId: p.id, quantity: 1 },
      { productId: p.id, quantity: 2, everyWeeks: 4 },
      { productId: other.id, quantity: 1, everyWeeks: 4 },
      { productId: other.id, quantity: 1, everyWeeks: 2 },
    ];
    const quote = (await c.post('/api/cart/quote', { lines, couponCode: null })).json();
    const res = await c.post('/api/create-checkout-session', checkoutBody(lines, { accept: true }));
    expect(res.statusCode, res.body).toBe(200);
    const { orderId } = res.json();
    const items = await t.db
      .selectFrom('order_items')
      .select(['product_id', 'quantity', 'price_cents', 'every_weeks', 'plan_discount_percent'])
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();
    expect(items.map((i) => [i.product_id, i.quantity, Number(i.price_cents), i.every_weeks, i.plan_discount_percent])).toEqual([
      [p.id, 1, 2000, null, null],
      [p.id, 2, 1800, 4, 10],
      [other.id, 1, 900, 4, 10],
      [other.id, 1, 900, 2, 10],
    ]);
    const order = await t.db.selectFrom('orders').select(['subtotal_cents']).where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(Number(order.subtotal_cents)).toBe(quote.subtotalCents);
    const consent = await t.db.selectFrom('subscription_consents').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
    // The text kept is the text the checkout page draws from the same lines (one function for both).
    expect(consent.text).toBe(subscriptionTermsText(quote.lines as QuoteLine[], consent.accepted_at));
    expect(consent.text).toContain('Every 2 weeks: Laundry Powder Refill × 1.');
    expect(consent.text).toContain('Every 4 weeks: Laundry Powder Refill × 2, Laundry Powder Refill × 1.');
    expect(consent.text).toContain('We charge $45.00 for each delivery (today’s prices less 10%)'.replace('’', "'"));
    expect(consent.text).toContain('From the 4th delivery: $42.50');
    expect(consent.text).toContain('until you cancel');
    expect(consent.text).toContain('Cancel any time online from your account or the link in your confirmation e-mail.');
  });
});

describe('cart identity beyond the quote', () => {
  it('the saved cart keeps a subscription line apart from the one-time line of its variant', async () => {
    const p = await refill();
    const user = await createUser(t.db, {});
    const c = new TestClient(t.app, nextIp());
    await c.signIn(user.email, user.password);
    const put = await c.request('PUT', '/api/account/cart', {
      lines: [
        { productId: p.id, quantity: 1, size: 'One Size', color: 'Default' },
        { productId: p.id, quantity: 2, size: 'One Size', color: 'Default', everyWeeks: 4 },
      ],
      couponCode: null,
    });
    expect(put.statusCode, put.body).toBe(200);
    const merged = await c.post('/api/account/cart/merge', {
      lines: [{ productId: p.id, quantity: 1, size: 'One Size', color: 'Default', everyWeeks: 4 }],
      couponCode: null,
    });
    expect(merged.statusCode, merged.body).toBe(200);
    const saved = (await c.get('/api/account/cart')).json();
    expect(saved.lines).toEqual([
      { productId: p.id, quantity: 1, size: 'One Size', color: 'Default' },
      { productId: p.id, quantity: 3, size: 'One Size', color: 'Default', everyWeeks: 4 },
    ]);
  });

  it('the cart page drawn from a cookie with a 6th element prices the subscription line', async () => {
    const p = await refill();
    const c = new TestClient(t.app, nextIp());
    c.cookies.set(
      CART_COOKIE,
      encodeURIComponent(
        JSON.stringify({
          l: [
            [p.id, 1, 'One Size', 'Default'],
            [p.id, 2, 'One Size', 'Default', `var_${p.id}`, 4],
          ],
          c: null,
        }),
      ),
    );
    const page = await c.get('/cart');
    expect(page.statusCode).toBe(200);
    const data = /<script[^>]*id="__INITIAL_DATA__"[^>]*>([\s\S]*?)<\/script>/.exec(page.body)?.[1] ?? '';
    expect(data).toContain('"everyWeeks":4');
    expect(data).toContain('"planDiscountPercent":10');
  });
});
