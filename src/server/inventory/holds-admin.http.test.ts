import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct } from '../db/seed/factories.js';
import { DEMO_ADMIN, DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { AUTH_MESSAGES } from '../../shared/schemas/auth.js';
import { HOLDS_MESSAGES, HoldsPage } from '../../shared/schemas/holds.js';
import { reservedAndCounted } from '../test/stock-checks.js';

/** The owner sees what unpaid checkouts hold and ends a hold (issue [2/8], decision 0042). */
const ENV = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' };
const address = { name: 'Hana Holder', address: '4 Shelf St', city: 'Portland', state: 'OR', zip: '97201', country: 'US' };
const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Hana Holder' };

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp({ env: ENV });
  admin = new TestClient(t.app, '10.94.250.1');
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => {
  await t?.close();
});

const checkout = (c: TestClient, productId: string, quantity: number, customerEmail: string) =>
  c.post('/api/create-checkout-session', { items: [{ productId, quantity }], customerEmail, shippingAddress: address });
const pay = (c: TestClient, sessionId: string) => c.request('POST', `/pay/${sessionId}`, new URLSearchParams(card));

describe(`holds in the back office on ${testDialect()}`, () => {
  it('only an admin may list or end holds', async () => {
    const anonymous = new TestClient(t.app, '10.94.0.1');
    expect((await anonymous.get('/api/admin/holds')).statusCode).toBe(401);
    expect((await anonymous.post('/api/admin/holds/order_x/end', {})).statusCode).toBe(401);
    const customer = new TestClient(t.app, '10.94.0.2');
    await customer.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    const listed = await customer.get('/api/admin/holds');
    expect(listed.statusCode).toBe(403);
    expect(listed.json().error).toBe(AUTH_MESSAGES.accessDenied);
    expect((await customer.post('/api/admin/holds/order_x/end', {})).statusCode).toBe(403);
  });

  it('lists each checkout’s hold with its units, times, order and e-mail, a page at a time', async () => {
    const p = await createProduct(t.db, { id: 'holds-list-p', name: 'Listed Holder Jar', inventory: 50, priceCents: 900 });
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await checkout(new TestClient(t.app, `10.94.1.${i + 1}`), p.id, i + 1, `holder${i}@example.com`);
      expect(res.statusCode, res.body).toBe(200);
      made.push(res.json().orderId);
    }
    const all = HoldsPage.parse((await admin.get('/api/admin/holds?pageSize=100')).json());
    const mine = all.items.filter((h) => h.productId === p.id);
    expect(mine.map((h) => [h.orderId, h.units, h.email])).toEqual([
      [made[0], 1, 'holder0@example.com'],
      [made[1], 2, 'holder1@example.com'],
      [made[2], 3, 'holder2@example.com'],
    ]);
    const order = await t.db.selectFrom('orders').select('order_number').where('id', '=', made[0]!).executeTakeFirstOrThrow();
    expect(mine[0]).toMatchObject({ title: 'Listed Holder Jar', orderNumber: order.order_number, variantId: `var_${p.id}` });
    expect(Date.parse(mine[0]!.firmUntil)).toBeGreaterThan(Date.parse(mine[0]!.since));
    expect(Date.parse(mine[0]!.expiresAt)).toBeGreaterThan(Date.parse(mine[0]!.firmUntil));

    const first = HoldsPage.parse((await admin.get('/api/admin/holds?page=1&pageSize=2')).json());
    const second = HoldsPage.parse((await admin.get('/api/admin/holds?page=2&pageSize=2')).json());
    expect(first.total).toBe(all.total);
    expect(first.items).toHaveLength(2);
    expect(first.totalPages).toBe(Math.ceil(all.total / 2));
    expect(second.items[0]).toEqual(all.items[2]);
    const bad = await admin.get('/api/admin/holds?pageSize=500');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('pageSize cannot exceed 100');
  });

  it('ending a hold ends its checkout: the units are on sale, the payment page refuses, the audit log says who', async () => {
    const p = await createProduct(t.db, { id: 'holds-end-p', name: 'Ended Holder Jar', inventory: 2, priceCents: 900 });
    const shopper = new TestClient(t.app, '10.94.2.1');
    const held = (await checkout(shopper, p.id, 2, 'ended@example.com')).json();
    expect((await checkout(new TestClient(t.app, '10.94.2.2'), p.id, 1, 'other@example.com')).statusCode).toBe(409);

    const ended = await admin.post(`/api/admin/holds/${held.orderId}/end`, {});
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({ orderId: held.orderId, units: 2 });
    const order = await t.db.selectFrom('orders').selectAll().where('id', '=', held.orderId).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ status: 'cancelled', payment_status: 'expired' });
    const session = await t.db.selectFrom('payment_sessions').select('status').where('id', '=', held.sessionId).executeTakeFirstOrThrow();
    expect(session.status).toBe('expired');
    expect(await reservedAndCounted(t.db, p.id)).toEqual({ reserved: 0, counted: 0 });
    const list = HoldsPage.parse((await admin.get('/api/admin/holds?pageSize=100')).json());
    expect(list.items.some((h) => h.orderId === held.orderId)).toBe(false);
    // The checkout can no longer be paid; another shopper can buy.
    expect((await pay(shopper, held.sessionId)).statusCode).toBe(409);
    expect(
      (await t.db.selectFrom('orders').select('payment_status').where('id', '=', held.orderId).executeTakeFirstOrThrow()).payment_status,
    ).toBe('expired');
    const buyer = new TestClient(t.app, '10.94.2.3');
    const bought = await checkout(buyer, p.id, 2, 'buyer@example.com');
    expect(bought.statusCode).toBe(200);
    expect((await pay(buyer, bought.json().sessionId)).statusCode).toBe(303);

    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'stock.hold_ended').execute();
    expect(audit).toHaveLength(1);
    const adminId = (await t.db.selectFrom('users').select('id').where('email', '=', DEMO_ADMIN.email).executeTakeFirstOrThrow()).id;
    expect(audit[0]).toMatchObject({ actor_user_id: adminId });
    expect(JSON.parse(audit[0]!.details!)).toEqual({ orderId: held.orderId, units: 2 });

    // Again: nothing left to end. An unknown order: 404.
    const again = await admin.post(`/api/admin/holds/${held.orderId}/end`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(HOLDS_MESSAGES.alreadyEnded);
    const unknown = await admin.post('/api/admin/holds/order_nope/end', {});
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(HOLDS_MESSAGES.notFound);
    expect(await t.db.selectFrom('audit_log').select('id').where('action', '=', 'stock.hold_ended').execute()).toHaveLength(1);
  });
});
