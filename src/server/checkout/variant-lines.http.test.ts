import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createCoupon, createProduct, createUser, createVariant } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { CART_COOKIE } from '../../shared/cart-cookie.js';

/**
 * A line names its variant everywhere a shopper or the owner reads it (issue [6/6], decision
 * 0036): the quote, the order, the confirmation e-mail, the order search and the saved cart; the
 * size and colour of the specification's lines come from options named Size and Colour; the
 * coupon's free gift is a variant too.
 */
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' };
const address = { name: 'Lina Lines', address: '5 Label Rd', city: 'Salem', state: 'OR', zip: '97301', country: 'US' };
const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Lina Lines' };

let t: TestApp;
let admin: TestClient;
let ipCount = 0;
const nextIp = () => `10.79.${Math.floor(++ipCount / 250)}.${ipCount % 250}`;

beforeAll(async () => {
  t = await createTestApp({ env: LIMITS });
  admin = new TestClient(t.app, '10.79.250.1');
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => {
  await t?.close();
});

/** A product with options Scent and Size: its first variant (var_<id>) is Lavender 500 ml. */
let cleaners = 0;
async function cleaner(db: Kysely<Database>) {
  // SKUs are one stocked item's each: every cleaner made here has its own.
  const n = ++cleaners === 1 ? '' : `-${cleaners}`;
  const p = await createProduct(db, { name: 'Concentrated Cleaner', priceCents: 1200, inventory: 10, sku: `CL-LAV-500${n}` });
  await db
    .insertInto('product_options')
    .values([
      { product_id: p.id, position: 1, name: 'Scent', values: JSON.stringify(['Lavender', 'Lemon']) },
      { product_id: p.id, position: 2, name: 'Size', values: JSON.stringify(['500 ml', '1 L']) },
    ])
    .execute();
  await db.updateTable('product_variants').set({ option1: 'Lavender', option2: '500 ml' }).where('id', '=', `var_${p.id}`).execute();
  const lemon = await createVariant(db, p.id, { options: ['Lemon', '1 L'], priceCents: 2000, sku: `CL-LEM-1L${n}`, inventory: 5 });
  return { p, first: `var_${p.id}`, lemon };
}

describe('variant lines', () => {
  it('titles, size and colour on the quote, the order, the e-mail and the order search', async () => {
    const { p, first, lemon } = await cleaner(t.db);
    const c = new TestClient(t.app, nextIp());
    const quote = (
      await c.post('/api/cart/quote', {
        lines: [
          { productId: p.id, variantId: lemon, quantity: 1 },
          { productId: p.id, quantity: 2 },
        ],
        couponCode: null,
      })
    ).json();
    expect(
      quote.lines.map((l: { name: string; productName: string; variantLabel: string; size: string; color: string }) => [
        l.name,
        l.productName,
        l.variantLabel,
        l.size,
        l.color,
      ]),
    ).toEqual([
      ['Concentrated Cleaner — Lemon, 1 L', 'Concentrated Cleaner', 'Lemon, 1 L', '1 L', 'Default'],
      ['Concentrated Cleaner — Lavender, 500 ml', 'Concentrated Cleaner', 'Lavender, 500 ml', '500 ml', 'Default'],
    ]);

    const res = await c.post('/api/create-checkout-session', {
      items: [
        { productId: p.id, variantId: lemon, quantity: 1 },
        { productId: p.id, variantId: first, quantity: 2 },
      ],
      customerEmail: 'lina@example.com',
      shippingAddress: address,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { orderId, sessionId } = res.json();
    expect((await c.request('POST', `/pay/${sessionId}`, new URLSearchParams(card))).statusCode).toBe(303);
    const rows = await t.db
      .selectFrom('order_items')
      .select(['variant_id', 'variant_label', 'product_name', 'size', 'sku'])
      .where('order_id', '=', orderId)
      .execute();
    expect(rows.map((r) => [r.variant_id, r.variant_label, r.product_name, r.size, r.sku]).sort()).toEqual(
      [
        [lemon, 'Lemon, 1 L', 'Concentrated Cleaner', '1 L', 'CL-LEM-1L'],
        [first, 'Lavender, 500 ml', 'Concentrated Cleaner', '500 ml', 'CL-LAV-500'],
      ].sort(),
    );
    // The owner's view of the order names each line's variant.
    const view = (await admin.get(`/api/admin/orders/${orderId}`)).json();
    const items = (view.order ?? view).items as { name: string; variantId: string; variantLabel: string }[];
    expect(items.map((i) => [i.name, i.variantId, i.variantLabel]).sort()).toEqual(
      [
        ['Concentrated Cleaner — Lemon, 1 L', lemon, 'Lemon, 1 L'],
        ['Concentrated Cleaner — Lavender, 500 ml', first, 'Lavender, 500 ml'],
      ].sort(),
    );
    const mail = await t.db
      .selectFrom('email_outbox')
      .select(['text'])
      .where('order_id', '=', orderId)
      .where('template_id', '=', 'order-confirmation')
      .executeTakeFirstOrThrow();
    expect(mail.text).toContain('Concentrated Cleaner — Scent: Lemon · Size: 1 L x 1');
    // The order search finds the order by a scent.
    const found = (await admin.get('/api/admin/orders?search=lemon')).json();
    expect(found.items.map((o: { id: string }) => o.id)).toContain(orderId);
  });

  it('a line of a product sold in versions that names none is refused, naming the product: never sold as its first version', async () => {
    const { p, lemon } = await cleaner(t.db);
    const plain = await createProduct(t.db, { name: 'Plain Cloth', priceCents: 500, inventory: 10 });
    const c = new TestClient(t.app, nextIp());
    const checkout = (items: object[]) =>
      c.post('/api/create-checkout-session', { items, customerEmail: 'vera@example.com', shippingAddress: address });
    const before = await t.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    for (const items of [
      [{ productId: p.id, quantity: 1 }],
      // Even beside a line that names the chosen version, and with a product sold one way.
      [
        { productId: plain.id, quantity: 1 },
        { productId: p.id, variantId: lemon, quantity: 1 },
        { productId: p.id, quantity: 1, size: 'One Size', color: 'Default' },
      ],
    ]) {
      const res = await checkout(items);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe(
        'Please choose the scent and size of Concentrated Cleaner on its page: it comes in more than one version.',
      );
    }
    // Nothing was made nor held.
    const after = await t.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const held = await t.db.selectFrom('stock_items').select('reserved').where('product_id', '=', p.id).execute();
    expect(held.every((r) => Number(r.reserved) === 0)).toBe(true);
    // A product sold one way needs no variant named (its only one).
    const one = await checkout([{ productId: plain.id, quantity: 1 }]);
    expect(one.statusCode, one.body).toBe(200);
  });

  it('the free gift is the variant the coupon names, else the product’s first enabled one with a unit to give', async () => {
    const { p, first, lemon } = await cleaner(t.db);
    const buy = await createProduct(t.db, { name: 'Gift Carrier', priceCents: 3000, inventory: 50 });
    const named = await createCoupon(t.db, { code: `GIFTL${ipCount}`, discountValue: 0, freeProductId: p.id });
    await t.db.updateTable('coupons').set({ free_variant_id: lemon }).where('id', '=', named.id).execute();
    const plain = await createCoupon(t.db, { code: `GIFTF${ipCount}`, discountValue: 0, freeProductId: p.id });
    const c = new TestClient(t.app, nextIp());
    const giftOf = async (code: string) => {
      const q = (await c.post('/api/cart/quote', { lines: [{ productId: buy.id, quantity: 1 }], couponCode: code })).json();
      return { gift: q.lines.find((l: { isFreeGift: boolean }) => l.isFreeGift), freeProduct: q.coupon?.freeProduct };
    };
    expect((await giftOf(named.code)).gift).toMatchObject({ variantId: lemon, name: 'Concentrated Cleaner — Lemon, 1 L', priceCents: 0 });
    expect((await giftOf(plain.code)).gift).toMatchObject({ variantId: first, priceCents: 0 });
    // The first variant sold out: the gift is the next one with a unit; switched off, it is never given.
    await t.db.updateTable('stock_items').set({ on_hand: 0 }).where('variant_id', '=', first).execute();
    await t.db.updateTable('products').set({ inventory: 5 }).where('id', '=', p.id).execute();
    // A quote's terms may be a second old.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await giftOf(plain.code)).gift).toMatchObject({ variantId: lemon });
    await t.db.updateTable('product_variants').set({ enabled: 0 }).where('id', '=', lemon).execute();
    await new Promise((r) => setTimeout(r, 1100));
    const none = await giftOf(named.code);
    expect(none.gift).toBeUndefined();
    expect(none.freeProduct).toBeNull();
  });

  it('the saved cart and the cart cookie keep the variant; a line of a variant that is gone is dropped', async () => {
    const { p, lemon } = await cleaner(t.db);
    const u = await createUser(t.db);
    const c = new TestClient(t.app, nextIp());
    expect((await c.signIn(u.email, u.password)).statusCode).toBe(200);
    const put = await c.request('PUT', '/api/account/cart', {
      lines: [
        { productId: p.id, quantity: 1, size: 'One Size', color: 'Default' },
        { productId: p.id, variantId: lemon, quantity: 2, size: 'One Size', color: 'Default' },
        { productId: p.id, variantId: 'var_gone', quantity: 2, size: 'One Size', color: 'Default' },
      ],
      couponCode: null,
    });
    expect(put.statusCode, put.body).toBe(200);
    const saved = (await c.get('/api/account/cart')).json();
    expect(saved.lines).toEqual([
      { productId: p.id, quantity: 1, size: 'One Size', color: 'Default' },
      { productId: p.id, variantId: lemon, quantity: 2, size: 'One Size', color: 'Default' },
    ]);
    const row = await t.db.selectFrom('saved_carts').select('lines').where('user_id', '=', u.id).executeTakeFirstOrThrow();
    // The first variant's line is the 4-tuple it always was.
    expect(JSON.parse(row.lines)).toEqual([
      [p.id, 1, 'One Size', 'Default'],
      [p.id, 2, 'One Size', 'Default', lemon],
    ]);

    // The cart page drawn from the cookie prices the variant's line.
    const cookie = encodeURIComponent(
      JSON.stringify({
        l: [
          [p.id, 1, 'One Size', 'Default'],
          [p.id, 2, 'One Size', 'Default', lemon],
        ],
        c: null,
      }),
    );
    const page = await new TestClient(t.app, nextIp()).request('GET', '/cart', undefined, { cookie: `${CART_COOKIE}=${cookie}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Concentrated Cleaner — Lemon, 1 L');
  });
});
