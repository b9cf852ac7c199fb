import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { CHECKOUT_MESSAGES } from '../../shared/schemas/checkout.js';
import { HOLD_TTL_MS, PAYMENT_SESSION_TTL_MS, PROVIDER_SESSION_TTL_MS } from './service.js';
import { RESERVE_MS } from '../inventory/reservations.js';
import { checkShopChanges } from '../http/shop-changes.js';

/** Holds that cannot be abused: limits on creating checkouts, a cap on units held, buyable stock shown, lapsed holds flagged. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const address = { name: 'Hold Tester', address: '1 Main St', city: 'Springfield', state: 'CA', zip: '90210', country: 'US' };
const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Hold Tester' };
const body = (productId: string, quantity: number, customerEmail = 'holder@example.com') => ({
  items: [{ productId, quantity }],
  customerEmail,
  shippingAddress: address,
});
const checkout = (c: TestClient, productId: string, quantity: number, email?: string) =>
  c.post('/api/create-checkout-session', body(productId, quantity, email));
const pay = (c: TestClient, sessionId: string) => c.request('POST', `/pay/${sessionId}`, new URLSearchParams(card));
const orderRow = (id: string) => t.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
/** The order's reservations still counting (not ended). */
const liveHolds = (orderId: string) =>
  t.db.selectFrom('stock_reservations').selectAll().where('order_id', '=', orderId).where('released_at', 'is', null).execute();
/** The reservation stops keeping others out (its shopper's 10 minutes are over); the payment page stays open. */
/**
 * The order's hold runs out, and the shop-change watcher then counts it out of `reserved`, as it
 * does every 250 ms (http/shop-changes.ts). Waiting for its tick instead raced the next checkout
 * on a loaded machine (seen once in CI on PostgreSQL; noted on issue [1/8]).
 */
const lapse = async (orderId: string) => {
  await t.db
    .updateTable('stock_reservations')
    .set({ firm_until: new Date(Date.now() - 60_000).toISOString() })
    .where('order_id', '=', orderId)
    .execute();
  await checkShopChanges(t.db);
};
const stock = async (id: string) =>
  (await t.db.selectFrom('products').select('inventory').where('id', '=', id).executeTakeFirstOrThrow()).inventory;

describe('creating checkouts is limited', () => {
  it('one IP cannot start more than the limit, even with a fresh browser each time (30 at once)', async () => {
    await createProduct(t.db, { id: 'rate-p', inventory: 1000, priceCents: 500 });
    const limit = t.config.checkoutLimitPerIp;
    const results = await Promise.all(Array.from({ length: limit + 10 }, () => checkout(new TestClient(t.app, '10.80.0.1'), 'rate-p', 1)));
    const accepted = results.filter((r) => r.statusCode === 200).length;
    // Counted before the work, in one statement: exactly the limit gets through, however simultaneous.
    expect(accepted).toBe(limit);
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(refused).toHaveLength(10);
    expect(refused.every((r) => r.statusCode === 429 && r.json().error === CHECKOUT_MESSAGES.tooManyCheckouts)).toBe(true);
    // Another address is not affected.
    expect((await checkout(new TestClient(t.app, '10.80.0.2'), 'rate-p', 1)).statusCode).toBe(200);
  });

  it('one browser cannot start more than its limit from changing addresses', async () => {
    await createProduct(t.db, { id: 'rate-d', inventory: 1000, priceCents: 500 });
    const limit = t.config.checkoutLimitPerDevice;
    const first = new TestClient(t.app, '10.80.1.0');
    expect((await checkout(first, 'rate-d', 1)).statusCode).toBe(200);
    const statuses: number[] = [];
    for (let i = 1; i <= limit; i++) {
      const moved = new TestClient(t.app, `10.80.1.${i}`);
      moved.cookies = first.cookies;
      statuses.push((await checkout(moved, 'rate-d', 1)).statusCode);
    }
    expect(statuses.slice(0, limit - 1)).toEqual(Array(limit - 1).fill(200));
    expect(statuses[limit - 1]).toBe(429);
  });
});

describe('units one shopper can hold', () => {
  it('one IP holds at most 250 units across its open checkouts, whatever the browser', async () => {
    expect(t.config.checkoutMaxUnitsHeld).toBe(250);
    await createProduct(t.db, { id: 'cap-p', inventory: 5000, priceCents: 100 });
    const fresh = () => new TestClient(t.app, '10.81.0.1');
    expect((await checkout(fresh(), 'cap-p', 100)).statusCode).toBe(200);
    expect((await checkout(fresh(), 'cap-p', 100)).statusCode).toBe(200);
    const over = await checkout(fresh(), 'cap-p', 100);
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toBe(CHECKOUT_MESSAGES.holdLimit(250));
    expect((await checkout(fresh(), 'cap-p', 50)).statusCode).toBe(200);
    expect((await checkout(fresh(), 'cap-p', 1)).statusCode).toBe(409);
    const held = await t.db
      .selectFrom('stock_reservations')
      .select(['quantity'])
      .where('ip', '=', '10.81.0.1')
      .where('released_at', 'is', null)
      .execute();
    expect(held.reduce((n, h) => n + h.quantity, 0)).toBe(250);
    // Someone else may still buy.
    expect((await checkout(new TestClient(t.app, '10.81.0.2'), 'cap-p', 100)).statusCode).toBe(200);
  });

  it('a browser that checks out again replaces its earlier unpaid checkout instead of piling holds up', async () => {
    await createProduct(t.db, { id: 'again-p', inventory: 150, priceCents: 100 });
    const c = new TestClient(t.app, '10.81.1.1');
    const first = (await checkout(c, 'again-p', 100)).json();
    const second = await checkout(c, 'again-p', 100);
    expect(second.statusCode).toBe(200);
    expect((await orderRow(first.orderId)).payment_status).toBe('expired');
    expect((await t.app.inject({ method: 'GET', url: `/pay/${first.sessionId}` })).body).toContain('expired');
    expect(await liveHolds(first.orderId)).toEqual([]);
    expect((await pay(c, second.json().sessionId)).statusCode).toBe(303);
    expect(await stock('again-p')).toBe(50);
  });
});

describe('holds and the product page', () => {
  it('a hold outlives the payment page, Stripe’s included, by a margin', async () => {
    await createProduct(t.db, { id: 'ttl-p', inventory: 5 });
    const { orderId } = (await checkout(new TestClient(t.app, '10.82.0.1'), 'ttl-p', 1)).json();
    const session = await t.db
      .selectFrom('payment_sessions')
      .select(['created_at', 'expires_at'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    const hold = await t.db
      .selectFrom('stock_reservations')
      .select(['expires_at', 'firm_until'])
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    const opened = Date.parse(session.created_at);
    expect(Date.parse(session.expires_at) - opened).toBe(PAYMENT_SESSION_TTL_MS);
    expect(Date.parse(hold.expires_at) - opened).toBe(HOLD_TTL_MS);
    // It keeps the units from other shoppers for 10 minutes (decision 0022).
    expect(Date.parse(hold.firm_until) - opened).toBe(RESERVE_MS);
    expect(HOLD_TTL_MS - PROVIDER_SESSION_TTL_MS).toBeGreaterThanOrEqual(5 * 60_000);
  });

  it('the product page and the product list show what can be bought: stock less open holds', async () => {
    await createProduct(t.db, { id: 'shown-p', name: 'Shown Holdable Sponge', inventory: 10 });
    await checkout(new TestClient(t.app, '10.82.1.1'), 'shown-p', 3);
    expect((await new TestClient(t.app).get('/api/products/shown-p')).json().product.inventory).toBe(7);
    const list = (await new TestClient(t.app).get('/api/products?search=Holdable')).json();
    expect(list.items.find((p: { id: string }) => p.id === 'shown-p').inventory).toBe(7);
    // The recorded stock is unchanged (the units are held, not sold), and the back office sees it.
    expect(await stock('shown-p')).toBe(10);
  });

  it('a product whose every unit is held reads out of stock', async () => {
    await createProduct(t.db, { id: 'all-held-p', inventory: 2 });
    await checkout(new TestClient(t.app, '10.82.2.1'), 'all-held-p', 2);
    expect((await new TestClient(t.app).get('/api/products/all-held-p')).json().product.inventory).toBe(0);
  });
});

describe('a payment after its hold lapsed', () => {
  it('whose unit was sold meanwhile: refunded in full and cancelled with an apology, flagged for the owner, never oversold', async () => {
    await createProduct(t.db, { id: 'lapse-p', name: 'Last Lapsing Cloth', inventory: 1, priceCents: 1200 });
    const late = new TestClient(t.app, '10.83.0.1');
    const a = (await checkout(late, 'lapse-p', 1)).json();
    // Its hold lapses (the payment page is still open, as a provider's page may be).
    await lapse(a.orderId);
    const quick = new TestClient(t.app, '10.83.0.2');
    const b = await checkout(quick, 'lapse-p', 1);
    expect(b.statusCode).toBe(200);
    expect((await pay(quick, b.json().sessionId)).statusCode).toBe(303);
    expect(await stock('lapse-p')).toBe(0);

    expect((await pay(late, a.sessionId)).statusCode).toBe(303);
    const order = await orderRow(a.orderId);
    expect(order).toMatchObject({ payment_status: 'refunded', status: 'cancelled', refunded_cents: order.total_cents });
    expect(order.stock_shortfall).toBe('Last Lapsing Cloth: 1 ordered, 0 in stock');
    const mail = await t.db.selectFrom('email_outbox').select(['template_id', 'to_address']).where('order_id', '=', a.orderId).execute();
    expect(mail.map((m) => m.template_id)).toEqual(['order-sold-out']);
    expect((await orderRow(b.json().orderId)).stock_shortfall).toBeNull();
    expect(await stock('lapse-p')).toBe(0);

    // The owner sees the flag in the list and the order; the customer does not.
    const admin = new TestClient(t.app, '10.83.0.9');
    await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    const list = (await admin.get(`/api/admin/orders?search=${order.order_number}`)).json();
    expect(list.items.find((o: { id: string }) => o.id === a.orderId).stockShortfall).toBe(order.stock_shortfall);
    expect((await admin.get(`/api/admin/orders/${a.orderId}`)).json().order.stockShortfall).toBe(order.stock_shortfall);
    expect((await late.get(`/api/orders/${a.orderId}`)).json().order).not.toHaveProperty('stockShortfall');
  });

  it('whose unit is still there: paid and taken, no flag', async () => {
    await createProduct(t.db, { id: 'lapse-ok', inventory: 2 });
    const c = new TestClient(t.app, '10.83.1.1');
    const a = (await checkout(c, 'lapse-ok', 1)).json();
    await lapse(a.orderId);
    expect((await pay(c, a.sessionId)).statusCode).toBe(303);
    expect((await orderRow(a.orderId)).stock_shortfall).toBeNull();
    expect(await stock('lapse-ok')).toBe(1);
  });

  it('does not take units another open checkout holds', async () => {
    await createProduct(t.db, { id: 'lapse-held', name: 'Held Elsewhere', inventory: 1 });
    const late = new TestClient(t.app, '10.83.2.1');
    const a = (await checkout(late, 'lapse-held', 1)).json();
    await lapse(a.orderId);
    const holder = new TestClient(t.app, '10.83.2.2');
    const b = (await checkout(holder, 'lapse-held', 1)).json();
    expect((await pay(late, a.sessionId)).statusCode).toBe(303);
    expect(await orderRow(a.orderId)).toMatchObject({
      stock_shortfall: 'Held Elsewhere: 1 ordered, 0 in stock',
      payment_status: 'refunded',
    });
    // The shopper who still holds the unit gets it.
    expect((await pay(holder, b.sessionId)).statusCode).toBe(303);
    expect((await orderRow(b.orderId)).stock_shortfall).toBeNull();
    expect(await stock('lapse-held')).toBe(0);
  });
});

describe('the owner cancels an unpaid order', () => {
  it('ends its payment session and gives back what it held', async () => {
    await createProduct(t.db, { id: 'admin-cancel-p', inventory: 1 });
    const shopper = new TestClient(t.app, '10.84.0.1');
    const a = (await checkout(shopper, 'admin-cancel-p', 1)).json();
    expect((await checkout(new TestClient(t.app, '10.84.0.2'), 'admin-cancel-p', 1)).statusCode).toBe(409);
    const admin = new TestClient(t.app, '10.84.0.9');
    await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    expect((await admin.request('PATCH', `/api/admin/orders/${a.orderId}/status`, { status: 'cancelled' })).statusCode).toBe(200);
    expect(await liveHolds(a.orderId)).toEqual([]);
    expect(await orderRow(a.orderId)).toMatchObject({ status: 'cancelled', payment_status: 'expired' });
    expect((await pay(shopper, a.sessionId)).statusCode).toBe(409);
    expect((await checkout(new TestClient(t.app, '10.84.0.3'), 'admin-cancel-p', 1)).statusCode).toBe(200);
  });
});
