import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import {
  FAKE_CARRIER_V1,
  FAKE_CARRIER_V2,
  FAKE_SHIPSTATION_KEY,
  FAKE_SHIPSTATION_SECRET,
  FAKE_TRACKING_V1,
  FAKE_TRACKING_V2,
  fakeShipStation,
} from '../test/fake-shipstation.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { fulfilPaymentSession } from '../checkout/service.js';
import { AccountSummary } from '../../shared/schemas/account.js';
import { OrderView } from '../../shared/schemas/orders.js';

/**
 * Issue 18, items 1 and 7 on the server: a bought label stores its carrier and shipped date, the
 * customer's order and shipping e-mail link to the carrier's own page, voiding clears them; the
 * Shopping Summary counts paid, not cancelled or refunded, orders.
 */
const fake = fakeShipStation();
let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  const base = await fake.listen();
  t = await createTestApp({ env: { SHIPSTATION_V1_BASE: base, SHIPSTATION_V2_BASE: base } });
  admin = new TestClient(t.app);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  await createProduct(t.db, { id: 'track-p', priceCents: 2500, inventory: 500, weightLbs: 1, sku: 'ECO-TRK' });
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});

const address = { name: 'Tia Tracker', address: '9 Post Rd', city: 'Boise', state: 'ID', zip: '83702', country: 'US' };

/** A paid order by this client (signed in or a guest browser); returns its id. */
async function paidOrder(c: TestClient, quantity = 1, email = 'tia@example.com'): Promise<string> {
  const res = await c.post('/api/create-checkout-session', {
    items: [{ productId: 'track-p', quantity }],
    customerEmail: email,
    shippingAddress: address,
  });
  expect(res.statusCode).toBe(200);
  const { sessionId, orderId } = res.json();
  await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
  return orderId;
}

const configure = (version: 'v1' | 'v2') =>
  admin.request('PUT', '/api/admin/settings/integrations', {
    shipstation_api_key: FAKE_SHIPSTATION_KEY,
    shipstation_api_secret: FAKE_SHIPSTATION_SECRET,
    shipstation_enabled: true,
    shipstation_api_version: version,
  });

const orderOf = async (c: TestClient, id: string) => OrderView.parse((await c.get(`/api/orders/${id}`)).json().order);
const mailsFor = (orderId: string, templateId: string) =>
  t.db
    .selectFrom('email_outbox')
    .select(['html', 'text', 'subject'])
    .where('order_id', '=', orderId)
    .where('template_id', '=', templateId)
    .execute();

describe.each([
  { version: 'v2' as const, carrier: FAKE_CARRIER_V2, tracking: FAKE_TRACKING_V2 },
  { version: 'v1' as const, carrier: FAKE_CARRIER_V1, tracking: FAKE_TRACKING_V1 },
])('a label bought through ShipStation $version', ({ version, carrier, tracking }) => {
  const usps = `https://tools.usps.com/go/TrackConfirmAction?tLabels=${tracking}`;

  it("stores the carrier, the number and the shipped date; the customer's order, timeline and e-mail link to USPS", async () => {
    expect((await configure(version)).statusCode).toBe(200);
    const customer = new TestClient(t.app);
    const id = await paidOrder(customer);
    const before = await orderOf(customer, id);
    expect(before).toMatchObject({ carrier: null, trackingNumber: null, shippedAt: null });

    const startedAt = new Date().toISOString();
    const bought = await admin.post(`/api/admin/orders/${id}/shipstation`);
    expect(bought.statusCode).toBe(200);

    const row = await t.db
      .selectFrom('orders')
      .select(['shipping_carrier', 'shipstation_tracking_number', 'shipped_at', 'status'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ shipping_carrier: carrier, shipstation_tracking_number: tracking, status: 'shipped' });
    expect(row.shipped_at! >= startedAt).toBe(true);

    const seen = await orderOf(customer, id);
    expect(seen).toMatchObject({ carrier, trackingNumber: tracking, shippedAt: row.shipped_at, status: 'shipped' });
    expect(seen.timeline?.find((s) => s.type === 'shipped')).toMatchObject({ trackingNumber: tracking, carrier });
    // The customer's order list carries the same.
    const events = (await admin.get(`/api/admin/orders/${id}/events`)).json().events as { type: string; data: Record<string, unknown> }[];
    expect(events.find((e) => e.type === 'label.bought')?.data).toMatchObject({ trackingNumber: tracking, carrierCode: carrier });

    const [mail] = await mailsFor(id, 'shipping-notification');
    expect(mail?.text).toContain('Carrier: USPS');
    expect(mail?.text).toContain(`Track your package: ${usps}`);
    expect(mail?.html).toContain('Track your package on the USPS website');
    // Handlebars escapes '=' in the address: the browser reads it back as the same URL.
    expect(mail?.html.replace(/&#x3D;/g, '=')).toContain(`href="${usps}"`);
    expect(`${mail?.html}${mail?.text}`).not.toMatch(/google\.com|bing\.com/);
  });

  it('the status update e-mail of a later change links to the carrier too; voiding the label clears carrier, number and date', async () => {
    await configure(version);
    const customer = new TestClient(t.app);
    const id = await paidOrder(customer);
    expect((await admin.post(`/api/admin/orders/${id}/shipstation`)).statusCode).toBe(200);
    expect((await admin.request('PATCH', `/api/admin/orders/${id}/status`, { status: 'delivered' })).statusCode).toBe(200);
    const [update] = await mailsFor(id, 'order-status-update');
    expect(update?.text).toContain(`Track your package: ${usps}`);
    expect(update?.html).toContain('Track your package on the USPS website');
    const delivered = await orderOf(customer, id);
    expect(delivered.shippedAt).not.toBeNull();

    expect((await admin.request('PATCH', `/api/admin/orders/${id}/status`, { status: 'shipped' })).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/orders/${id}/label/void`)).statusCode).toBe(200);
    const row = await t.db
      .selectFrom('orders')
      .select(['shipping_carrier', 'shipstation_tracking_number', 'shipped_at', 'status'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // Back to the status it had before the label: paid, not yet prepared.
    expect(row).toEqual({ shipping_carrier: null, shipstation_tracking_number: null, shipped_at: null, status: 'completed' });
    expect(await orderOf(customer, id)).toMatchObject({ carrier: null, trackingNumber: null, shippedAt: null });
  });
});

describe('an order marked shipped without a label', () => {
  it('has a shipped date but no carrier, and its e-mail has no tracking link', async () => {
    const customer = new TestClient(t.app);
    const id = await paidOrder(customer);
    expect((await admin.request('PATCH', `/api/admin/orders/${id}/status`, { status: 'shipped' })).statusCode).toBe(200);
    const seen = await orderOf(customer, id);
    expect(seen).toMatchObject({ carrier: null, trackingNumber: null, status: 'shipped' });
    expect(seen.shippedAt).not.toBeNull();
    const [update] = await mailsFor(id, 'order-status-update');
    expect(update?.text).not.toContain('Track your package');
    expect(update?.html).not.toMatch(/href="https?:\/\/(www\.)?(google|tools\.usps|ups|fedex|dhl)/);
    // Back to processing: not shipped any more.
    expect((await admin.request('PATCH', `/api/admin/orders/${id}/status`, { status: 'processing' })).statusCode).toBe(200);
    expect((await orderOf(customer, id)).shippedAt).toBeNull();
  });
});

describe('Shopping Summary', () => {
  it('counts paid orders only, net of refunds: not cancelled, refunded, unpaid or owner-entered ones', async () => {
    const user = await createUser(t.db, { email: 'summary.shopper@example.com' });
    const c = new TestClient(t.app);
    await c.signIn(user.email, user.password);
    const summary = async () => AccountSummary.parse((await c.get('/api/account/summary')).json()).stats;
    expect(await summary()).toMatchObject({ totalSpentCents: 0, averageOrderCents: 0, itemsPurchased: 0 });

    const kept = await paidOrder(c, 2, user.email); // 2 x $25.00 = $50.00 (+ shipping, tax)
    const partly = await paidOrder(c, 1, user.email);
    const cancelled = await paidOrder(c, 3, user.email);
    const refunded = await paidOrder(c, 1, user.email);
    // An abandoned checkout.
    await c.post('/api/create-checkout-session', {
      items: [{ productId: 'track-p', quantity: 4 }],
      customerEmail: user.email,
      shippingAddress: address,
    });
    // An order the owner entered for this customer (no payment taken by the shop).
    const entered = await admin.post('/api/admin/orders', {
      user_id: user.id,
      shipping_address: address,
      total_amount: 99,
      status: 'processing',
      elapsedMs: 10_000,
    });
    expect([200, 201]).toContain(entered.statusCode);

    const totals = new Map(
      (await t.db.selectFrom('orders').select(['id', 'total_cents']).where('id', 'in', [kept, partly, cancelled, refunded]).execute()).map(
        (r) => [r.id, r.total_cents],
      ),
    );
    expect((await admin.request('PATCH', `/api/admin/orders/${cancelled}/status`, { status: 'cancelled' })).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/orders/${partly}/refunds`, { amountCents: 500 })).statusCode).toBe(201);
    expect((await admin.post(`/api/admin/orders/${refunded}/refunds`, { amountCents: totals.get(refunded) })).statusCode).toBe(201);

    const spent = totals.get(kept)! + totals.get(partly)! - 500;
    const stats = await summary();
    expect(stats).toMatchObject({ totalSpentCents: spent, averageOrderCents: Math.round(spent / 2), itemsPurchased: 3 });
    // The order counts still show every placed order (the four paid ones and the entered one).
    expect(stats.totalOrders).toBe(5);
  });
});
