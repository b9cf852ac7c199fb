import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { placeCheckout } from '../test/checkout-orders.js';
import { ledgerAndLevel, stockAndPaidUnits } from '../test/stock-checks.js';
import { insertReview, makePaidOrder, ratingsBesideHandCount, reviewFields, sendReview } from '../test/reviews.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { REVIEW_MESSAGES } from '../../shared/reviews.js';

/**
 * Reviews in a busy shop (issue [6/8]): the owner moderates a product's reviews (hides one for a
 * stated reason, publishes held ones, replies) while shoppers pay for that same product and other
 * buyers review it, every request fired at the same moment. Payments take the product's stock
 * rows; review writes and moderation take its ratings row; none may wait on the other in a circle
 * (PostgreSQL's deadlock is a 500), none may change what a payment charges, and the ratings row must
 * end as the published reviews say. Then the owner edits the product (price, name) while reviews of
 * it are written: both succeed.
 */
let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app, '10.72.0.1');
  expect((await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

const card = new URLSearchParams({ cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Busy Buyer' });
let ipCount = 0;
/** Every shopper from an address of their own (the review write limit counts per address). */
const nextIp = () => `10.73.${Math.floor(++ipCount / 250)}.${ipCount % 250}`;

/** A signed-in customer with a paid order of the product (their review is "Verified buyer"). */
async function buyer(productId: string, n: number): Promise<{ id: string; client: TestClient }> {
  const user = await createUser(t.db, { fullName: `Busy Buyer ${n}` });
  await makePaidOrder(t, { userId: user.id, productId, shipped: new Date(Date.now() - 86_400_000) });
  const client = new TestClient(t.app, nextIp());
  expect((await client.signIn(user.email, user.password)).statusCode).toBe(200);
  return { id: user.id, client };
}

const writeReview = (who: { client: TestClient }, productId: string, rating: number, title: string) =>
  sendReview(t.app, {
    method: 'POST',
    url: `/api/account/reviews/product/${productId}`,
    fields: reviewFields({ rating, title, body: `${title}: it cleans well and lasts.` }),
    cookies: who.client.cookies,
    ip: nextIp(),
  });

const statusOf = (res: LightMyRequestResponse, what: string) => ({
  what,
  status: res.statusCode,
  body: res.statusCode >= 400 ? res.body : '',
});

describe(`a busy shop's reviews on ${testDialect()}`, () => {
  it('moderation, payments and new reviews of one product at the same moment: no 5xx, right totals and stock, ratings as published', async () => {
    const STOCK = 80;
    const PRICE = 1500;
    const p = await createProduct(t.db, { name: 'Busy Cleaner', priceCents: PRICE, inventory: STOCK });

    // Reviews already there: two published (one to hide, one to reply to), two held for approval (to publish), one to reply to.
    const toHide = await insertReview(t, { productId: p.id, rating: 1, title: 'Call me on 555-0100' });
    const toReply = await insertReview(t, { productId: p.id, rating: 4, title: 'Good, a bit strong' });
    const toReply2 = await insertReview(t, { productId: p.id, rating: 3, title: 'Fine' });
    const held = [
      await insertReview(t, { productId: p.id, rating: 5, title: 'Held one', status: 'pending' }),
      await insertReview(t, { productId: p.id, rating: 2, title: 'Held two', status: 'pending' }),
    ];

    // Shoppers who have checked out (unpaid: their stock held) and pay now; buyers ready to review.
    const quantities = [1, 2, 3, 1, 2, 1, 2, 3];
    const checkouts = [];
    for (const quantity of quantities) {
      const placed = await placeCheckout(t.db, t.dialect, {
        items: [{ productId: p.id, quantity }],
        email: `busy-${quantity}@example.com`,
      });
      const order = await t.db
        .selectFrom('orders')
        .select(['total_cents', 'subtotal_cents', 'shipping_cents', 'tax_cents', 'discount_cents'])
        .where('id', '=', placed.orderId)
        .executeTakeFirstOrThrow();
      const session = await t.db
        .selectFrom('payment_sessions')
        .select('amount_cents')
        .where('id', '=', placed.sessionId)
        .executeTakeFirstOrThrow();
      // The total the shopper was shown is what their card is asked for.
      expect(order.subtotal_cents).toBe(quantity * PRICE);
      expect(session.amount_cents).toBe(order.total_cents);
      checkouts.push({ ...placed, quantity, totalCents: order.total_cents });
    }
    const writers = [];
    for (let i = 0; i < 7; i++) writers.push(await buyer(p.id, i));

    const fired: Promise<{ what: string; status: number; body: string }>[] = [
      ...checkouts.map(async (c, i) =>
        statusOf(await new TestClient(t.app, `10.74.0.${i + 1}`).request('POST', `/pay/${c.sessionId}`, card), `pay ${c.orderId}`),
      ),
      ...writers.map(async (w, i) => statusOf(await writeReview(w, p.id, (i % 5) + 1, `Busy review ${i}`), `review ${i}`)),
      (async () =>
        statusOf(await admin.post(`/api/admin/reviews/${toHide}/hide`, { reason: 'personal-data', note: 'A phone number' }), 'hide'))(),
      ...held.map(async (id) => statusOf(await admin.post(`/api/admin/reviews/${id}/approve`, {}), `approve ${id}`)),
      (async () => statusOf(await admin.post(`/api/admin/reviews/${toReply}/reply`, { text: 'Thank you! Dilute it 1:10.' }), 'reply'))(),
      (async () => statusOf(await admin.post(`/api/admin/reviews/${toReply2}/reply`, { text: 'Thanks for the review.' }), 'reply 2'))(),
    ];
    const answers = await Promise.all(fired);
    expect(answers.length).toBeGreaterThanOrEqual(20);

    // Nothing failed: payments go on to the confirmation (303), reviews are made (201), moderation answers 200.
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.filter((a) => a.what.startsWith('pay') && a.status !== 303)).toEqual([]);
    expect(answers.filter((a) => a.what.startsWith('review') && a.status !== 201)).toEqual([]);
    expect(answers.filter((a) => !a.what.startsWith('pay') && !a.what.startsWith('review') && a.status !== 200)).toEqual([]);

    // Every checkout paid, for the total it was placed with.
    for (const c of checkouts) {
      const order = await t.db
        .selectFrom('orders')
        .select(['payment_status', 'total_cents', 'stock_shortfall'])
        .where('id', '=', c.orderId)
        .executeTakeFirstOrThrow();
      expect(order).toEqual({ payment_status: 'paid', total_cents: c.totalCents, stock_shortfall: null });
    }
    // Stock went down by exactly the units paid for (the review buyers' orders are written straight to
    // the table and take none), and the ledger says the same.
    const sold = quantities.reduce((a, b) => a + b, 0);
    const { inventory } = await stockAndPaidUnits(t.db, p.id);
    expect(inventory).toBe(STOCK - sold);
    expect(await ledgerAndLevel(t.db, p.id)).toEqual({ level: STOCK - sold, copy: STOCK - sold, ledger: STOCK - sold });
    expect(await t.db.selectFrom('stock_reservations').selectAll().execute()).toEqual([]);

    // Each buyer's review once; the moderation all happened.
    const reviews = await t.db.selectFrom('reviews').selectAll().where('product_id', '=', p.id).execute();
    expect(reviews).toHaveLength(5 + writers.length);
    for (const w of writers) expect(reviews.filter((r) => r.user_id === w.id)).toHaveLength(1);
    const byId = new Map(reviews.map((r) => [r.id, r]));
    expect(byId.get(toHide)).toMatchObject({ status: 'hidden', hidden_reason: 'personal-data', hidden_note: 'A phone number' });
    for (const id of held) expect(byId.get(id)?.status).toBe('published');
    expect(byId.get(toReply)?.reply_text).toBe('Thank you! Dilute it 1:10.');
    expect(byId.get(toReply2)?.reply_text).toBe('Thanks for the review.');

    // The stars shoppers see are the published reviews', counted once each.
    const { stored, counted } = await ratingsBesideHandCount(t.db, p.id);
    expect(stored).toEqual(counted);
    expect(counted.count).toBe(2 + held.length + writers.length);
  });

  it('the owner edits the product (price, name) while reviews of it are written: both succeed', async () => {
    const p = await createProduct(t.db, { name: 'Edited While Reviewed', priceCents: 1200, inventory: 30 });
    const writers = [];
    for (let i = 0; i < 8; i++) writers.push(await buyer(p.id, 100 + i));
    const edit = (name: string, priceCents: number) =>
      admin.request('PUT', `/api/admin/products/${p.id}`, {
        name,
        description: 'A product made by a test.',
        priceCents,
        category: 'cleaning-cloths',
      });

    const [first, ...rest] = await Promise.all([
      edit('Edited While Reviewed (new name)', 1350),
      ...writers.map((w, i) => writeReview(w, p.id, 5 - (i % 3), `Edit race ${i}`)),
      edit('Edited While Reviewed (newer name)', 1400),
    ]);
    const second = rest.pop()!;
    expect([first.statusCode, second.statusCode], `${first.body} ${second.body}`).toEqual([200, 200]);
    expect(rest.map((r) => r.statusCode)).toEqual(writers.map(() => 201));
    for (const r of rest) expect(r.json().message).toBe(REVIEW_MESSAGES.thanksPublished);

    const product = await t.db.selectFrom('products').select(['name', 'price_cents']).where('id', '=', p.id).executeTakeFirstOrThrow();
    // One of the two edits is the last: the product is wholly that one, not a mix.
    expect([
      { name: 'Edited While Reviewed (new name)', price_cents: 1350 },
      { name: 'Edited While Reviewed (newer name)', price_cents: 1400 },
    ]).toContainEqual(product);
    expect(await t.db.selectFrom('reviews').select('id').where('product_id', '=', p.id).execute()).toHaveLength(writers.length);
    const { stored, counted } = await ratingsBesideHandCount(t.db, p.id);
    expect(stored).toEqual(counted);
    expect(counted.count).toBe(writers.length);
    // The form reads the product as it is now.
    const form = await writers[0]!.client.get(`/api/account/reviews/product/${p.id}`);
    expect(form.json().product.name).toBe(product.name);
  });
});
