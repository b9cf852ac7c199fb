import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { fakeShipStation, FAKE_SHIPSTATION_KEY, FAKE_SHIPSTATION_SECRET } from '../test/fake-shipstation.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { fulfilPaymentSession } from '../checkout/service.js';
import { placeCheckout } from '../test/checkout-orders.js';
import { BULK_MAX, BULK_MESSAGES } from '../../shared/schemas/bulk.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { SHIPSTATION_NOT_SET_UP } from '../shipping-labels/messages.js';

const fake = fakeShipStation();
let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  const base = await fake.listen();
  t = await createTestApp({ env: { SHIPSTATION_V1_BASE: base, SHIPSTATION_V2_BASE: base } });
  admin = new TestClient(t.app);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});

/** A paid checkout order (completed), e-mailed to `email`. */
async function paidOrder(email = 'bulk.buyer@example.com'): Promise<string> {
  const p = await createProduct(t.db, { priceCents: 1500, inventory: 20, weightLbs: 1 });
  const { orderId, sessionId } = await placeCheckout(t.db, t.dialect, { items: [{ productId: p.id, quantity: 1 }], email });
  await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
  return orderId;
}
async function unpaidOrder(): Promise<string> {
  const p = await createProduct(t.db, { priceCents: 900, inventory: 20 });
  return (await placeCheckout(t.db, t.dialect, { items: [{ productId: p.id, quantity: 1 }], email: 'unpaid@example.com' })).orderId;
}
const statusMails = (orderId: string) =>
  t.db.selectFrom('email_outbox').select('id').where('order_id', '=', orderId).where('template_id', '=', 'order-status-update').execute();
const statusOf = async (orderId: string) =>
  (await t.db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status;

describe(`bulk order actions on ${testDialect()}`, () => {
  it('changes each order through the one status change, e-mailing the customers only when asked, and reports each', async () => {
    const [a, b] = [await paidOrder(), await paidOrder()];
    const quiet = await t.db.selectFrom('orders').select(['id', 'order_number']).where('id', '=', a).executeTakeFirstOrThrow();

    const loud = await admin.post('/api/admin/orders/bulk/status', { ids: [a, b], status: 'processing', notify: true });
    expect(loud.statusCode).toBe(200);
    expect(loud.json().results).toEqual([
      { id: a, label: `#${quiet.order_number}`, result: 'changed', message: null },
      { id: b, label: expect.stringMatching(/^#/), result: 'changed', message: null },
    ]);
    expect(await statusMails(a)).toHaveLength(1);
    expect(await statusMails(b)).toHaveLength(1);

    // Notify off: the status moves, the timeline records it, no e-mail is queued.
    const silent = await admin.post('/api/admin/orders/bulk/status', { ids: [a, b], status: 'delivered', notify: false });
    expect(silent.json().results.map((r: { result: string }) => r.result)).toEqual(['changed', 'changed']);
    expect(await statusOf(a)).toBe('delivered');
    expect(await statusMails(a)).toHaveLength(1);
    expect(await statusMails(b)).toHaveLength(1);
    const events = await t.db
      .selectFrom('order_events')
      .select('type')
      .where('order_id', '=', a)
      .where('type', '=', 'status.changed')
      .execute();
    expect(events).toHaveLength(2);
  });

  it('skips with the reason: already in that status, unpaid cannot ship; unknown ids are reported, repeated ids done once', async () => {
    const paid = await paidOrder();
    const unpaid = await unpaidOrder();
    await admin.post('/api/admin/orders/bulk/status', { ids: [paid], status: 'shipped', notify: false });
    const res = await admin.post('/api/admin/orders/bulk/status', {
      ids: [paid, unpaid, 'order_nope', paid],
      status: 'shipped',
      notify: true,
    });
    expect(res.statusCode).toBe(200);
    const results = res.json().results as { id: string; result: string; message: string | null }[];
    expect(results).toHaveLength(3);
    expect(results[0]).toMatchObject({ id: paid, result: 'skipped', message: 'Already shipped' });
    expect(results[1]).toMatchObject({ id: unpaid, result: 'skipped', message: ADMIN_MESSAGES.unpaidNotShippable });
    expect(results[2]).toEqual({ id: 'order_nope', label: null, result: 'not_found', message: BULK_MESSAGES.orderNotFound });
    expect(await statusOf(unpaid)).toBe('pending');
    expect(await statusMails(paid)).toHaveLength(0);
  });

  it('refuses an empty list, a list over the limit and a bad status with their own messages', async () => {
    const over = Array.from({ length: BULK_MAX + 1 }, (_, i) => `order_${i}`);
    const cases: [unknown, string][] = [
      [{ ids: [], status: 'processing', notify: true }, BULK_MESSAGES.noOrders],
      [{ ids: over, status: 'processing', notify: true }, BULK_MESSAGES.tooManyOrders],
      [{ ids: ['x'], status: 'lost', notify: true }, BULK_MESSAGES.status],
      [{ ids: ['x'], status: 'processing' }, BULK_MESSAGES.notify],
      [{ ids: ['x'.repeat(101)], status: 'processing', notify: true }, BULK_MESSAGES.badId],
    ];
    for (const [body, message] of cases) {
      const res = await admin.post('/api/admin/orders/bulk/status', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().error).toContain(message);
    }
    const labels = await admin.post('/api/admin/orders/bulk/labels', { ids: over });
    expect(labels.statusCode).toBe(400);
    expect(labels.json().error).toContain(BULK_MESSAGES.tooManyOrders);
  });

  it('is for admins only', async () => {
    const id = await paidOrder();
    const anonymous = new TestClient(t.app);
    const customer = new TestClient(t.app);
    const u = await createUser(t.db, {});
    await customer.signIn(u.email, u.password);
    for (const c of [anonymous, customer]) {
      for (const [url, body] of [
        ['/api/admin/orders/bulk/status', { ids: [id], status: 'cancelled', notify: false }],
        ['/api/admin/orders/bulk/labels', { ids: [id] }],
        ['/api/admin/products/bulk', { action: 'delete', ids: ['x'] }],
      ] as const) {
        const res = await c.post(url, body);
        expect([401, 403]).toContain(res.statusCode);
      }
    }
    expect(await statusOf(id)).toBe('completed');
  });

  it('buys one label per order, reporting each; without ShipStation it says so', async () => {
    const off = await admin.post('/api/admin/orders/bulk/labels', { ids: ['order_x'] });
    expect(off.statusCode).toBe(503);
    expect(off.json().error).toBe(SHIPSTATION_NOT_SET_UP);

    await admin.request('PUT', '/api/admin/settings/integrations', {
      shipstation_api_key: FAKE_SHIPSTATION_KEY,
      shipstation_api_secret: FAKE_SHIPSTATION_SECRET,
      shipstation_enabled: true,
      shipstation_api_version: 'v2',
    });
    const [a, b] = [await paidOrder(), await paidOrder()];
    const unpaid = await unpaidOrder();
    const res = await admin.post('/api/admin/orders/bulk/labels', { ids: [a, unpaid, b, 'order_gone'] });
    expect(res.statusCode).toBe(200);
    expect(res.json().results.map((r: { result: string; message: string | null }) => [r.result, r.message])).toEqual([
      ['changed', null],
      ['skipped', ADMIN_MESSAGES.unpaidNotShippable],
      ['changed', null],
      ['not_found', BULK_MESSAGES.orderNotFound],
    ]);
    expect(await statusOf(a)).toBe('shipped');
    // A second run buys nothing: each order has its one label.
    const again = await admin.post('/api/admin/orders/bulk/labels', { ids: [a] });
    expect(again.json().results[0]).toMatchObject({ result: 'skipped', message: ADMIN_MESSAGES.labelExists });

    // Two tabs buy labels for the same orders at the same moment: one label each, once.
    const [c, d] = [await paidOrder(), await paidOrder()];
    const before = fake.requests.filter((r) => r.method === 'POST' && /label/.test(r.path)).length;
    const runs = await Promise.all([1, 2, 3].map(() => admin.post('/api/admin/orders/bulk/labels', { ids: [c, d] })));
    expect(runs.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    for (const i of [0, 1]) {
      const outcomes = runs.map((r) => r.json().results[i].result);
      expect(outcomes.filter((o: string) => o === 'changed')).toHaveLength(1);
    }
    expect(fake.requests.filter((r) => r.method === 'POST' && /label/.test(r.path)).length - before).toBe(2);
  });

  it('two tabs changing the same orders at once: each order changes once, with one e-mail and one timeline entry', async () => {
    const ids = [await paidOrder(), await paidOrder(), await paidOrder()];
    const runs = await Promise.all(
      [1, 2, 3, 4].map(() => admin.post('/api/admin/orders/bulk/status', { ids, status: 'processing', notify: true })),
    );
    expect(runs.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    for (const [i, id] of ids.entries()) {
      const outcomes = runs.map((r) => r.json().results[i]);
      expect(outcomes.filter((o: { result: string }) => o.result === 'changed')).toHaveLength(1);
      for (const o of outcomes.filter((o: { result: string }) => o.result !== 'changed'))
        expect(o).toMatchObject({ result: 'skipped', message: BULK_MESSAGES.alreadyStatus('processing') });
      expect(await statusOf(id)).toBe('processing');
      expect(await statusMails(id)).toHaveLength(1);
      const events = await t.db
        .selectFrom('order_events')
        .select('id')
        .where('order_id', '=', id)
        .where('type', '=', 'status.changed')
        .execute();
      expect(events).toHaveLength(1);
    }
  });
});
