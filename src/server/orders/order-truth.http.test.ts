import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { FAKE_SHIPSTATION_KEY, FAKE_SHIPSTATION_SECRET, FAKE_TRACKING_V2, fakeShipStation } from '../test/fake-shipstation.js';
import { createProduct } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { fulfilPaymentSession } from '../checkout/service.js';
import { OrderView, orderReferenceOf } from '../../shared/schemas/orders.js';
import { ORDER_SEARCH_MESSAGES } from '../../shared/schemas/order-search.js';
import { formatCents } from '../../shared/money.js';

/**
 * Issue 28: the admin order search finds orders by product (name or SKU of a line), carrier
 * tracking number, city and amount, and refuses what it would otherwise cut short; the status
 * e-mails call the brand code the order's reference and show tracking only for a carrier's number;
 * an address changed after a label was bought is flagged on the order.
 */
const fake = fakeShipStation();
let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  const base = await fake.listen();
  t = await createTestApp({ env: { SHIPSTATION_V1_BASE: base, SHIPSTATION_V2_BASE: base } });
  admin = new TestClient(t.app);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  await createProduct(t.db, {
    id: 'truth-cloth',
    name: 'Lavender Glass Cloth',
    priceCents: 1234,
    inventory: 500,
    weightLbs: 1,
    sku: 'LAV-CLOTH-7',
  });
  await createProduct(t.db, {
    id: 'truth-mop',
    name: 'Bamboo Sweep Mop',
    priceCents: 4321,
    inventory: 500,
    weightLbs: 2,
    sku: 'BMB-MOP-2',
  });
  const configured = await admin.request('PUT', '/api/admin/settings/integrations', {
    shipstation_api_key: FAKE_SHIPSTATION_KEY,
    shipstation_api_secret: FAKE_SHIPSTATION_SECRET,
    shipstation_enabled: true,
    shipstation_api_version: 'v2',
  });
  expect(configured.statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});

const at = (city: string) => ({ name: 'Rita Reader', address: '1 Elm St', city, state: 'OR', zip: '97201', country: 'US' });

/** A paid order of one product shipped to a city; answers its id and total. */
async function paidOrder(productId: string, city: string): Promise<{ id: string; totalCents: number }> {
  const c = new TestClient(t.app);
  const res = await c.post('/api/create-checkout-session', {
    items: [{ productId, quantity: 1 }],
    customerEmail: 'rita@example.com',
    shippingAddress: at(city),
  });
  expect(res.statusCode).toBe(200);
  const { sessionId, orderId } = res.json();
  await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
  const row = await t.db.selectFrom('orders').select('total_cents').where('id', '=', orderId).executeTakeFirstOrThrow();
  return { id: orderId, totalCents: row.total_cents };
}

const found = async (search: string) => {
  const res = await admin.get(`/api/admin/orders?payment=all&pageSize=100&search=${encodeURIComponent(search)}`);
  expect(res.statusCode).toBe(200);
  return (res.json().items as { id: string }[]).map((o) => o.id).sort();
};
const mailsFor = (orderId: string, templateId: string) =>
  t.db
    .selectFrom('email_outbox')
    .select(['subject', 'html', 'text'])
    .where('order_id', '=', orderId)
    .where('template_id', '=', templateId)
    .orderBy('created_at')
    .execute();
const adminOrder = async (id: string) => OrderView.parse((await admin.get(`/api/admin/orders/${id}`)).json().order);

describe('admin order search: products, SKUs, tracking numbers, cities and amounts', () => {
  it('finds each order by what it holds, and not the other', async () => {
    const cloth = await paidOrder('truth-cloth', 'Klamath Falls');
    const mop = await paidOrder('truth-mop', 'Astoria');
    expect(cloth.totalCents).not.toBe(mop.totalCents);

    // Product name words (any order, by their start) and the whole SKU (by its start, any case).
    expect(await found('lavender')).toEqual([cloth.id]);
    expect(await found('glass clo')).toEqual([cloth.id]);
    expect(await found('bamboo mop')).toEqual([mop.id]);
    expect(await found('LAV-CLOTH-7')).toEqual([cloth.id]);
    expect(await found('bmb-mop')).toEqual([mop.id]);
    // City words.
    expect(await found('klamath')).toEqual([cloth.id]);
    expect(await found('Astoria')).toEqual([mop.id]);
    expect(await found('astoria lavender')).toEqual([]);
    // The total, typed with or without the dollar sign (and with a thousands comma): exact, not a prefix.
    const dollars = formatCents(cloth.totalCents);
    expect(await found(dollars)).toEqual([cloth.id]);
    expect(await found(dollars.slice(1))).toEqual([cloth.id]);
    expect(await found(formatCents(mop.totalCents))).toEqual([mop.id]);
    expect(await found(formatCents(cloth.totalCents + 1))).toEqual([]);
    expect(await found(dollars.slice(1, -1))).toEqual(dollars.endsWith('0') ? [cloth.id] : []);

    // The carrier's tracking number: only once a label is bought, and gone when it is voided.
    expect(await found(FAKE_TRACKING_V2)).toEqual([]);
    expect((await admin.post(`/api/admin/orders/${mop.id}/shipstation`)).statusCode).toBe(200);
    expect(await found(FAKE_TRACKING_V2)).toEqual([mop.id]);
    expect(await found(FAKE_TRACKING_V2.toLowerCase().slice(0, 6))).toEqual([mop.id]);
    expect((await admin.post(`/api/admin/orders/${mop.id}/label/void`)).statusCode).toBe(200);
    expect(await found(FAKE_TRACKING_V2)).toEqual([]);

    // An edited address is found by its new city only.
    const edited = await admin.request('PUT', `/api/admin/orders/${cloth.id}`, {
      user_id: 'guest',
      shipping_address: at('Pendleton'),
      status: 'completed',
      elapsedMs: 3000,
    });
    expect(edited.statusCode).toBe(200);
    expect(await found('pendleton')).toEqual([cloth.id]);
    expect(await found('klamath')).toEqual([]);
    // The CSV export takes the same words.
    const csv = await admin.get('/api/admin/exports/orders.csv?payment=all&search=lavender');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(cloth.id);
    expect(csv.body).not.toContain(mop.id);
  });

  it('refuses a search past its limits with its own sentence (400), instead of showing every order', async () => {
    const long = await admin.get(`/api/admin/orders?search=${'a'.repeat(101)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toBe(ORDER_SEARCH_MESSAGES.tooLong);
    const many = await admin.get(`/api/admin/orders?search=${encodeURIComponent('a b c d e f')}`);
    expect(many.statusCode).toBe(400);
    expect(many.json().error).toBe(ORDER_SEARCH_MESSAGES.tooManyWords);
    const csv = await admin.get(`/api/admin/exports/orders.csv?search=${'b'.repeat(101)}`);
    expect(csv.statusCode).toBe(400);
    expect(csv.json().error).toBe(ORDER_SEARCH_MESSAGES.tooLong);
    // At the limit it is a search like any other.
    expect((await admin.get(`/api/admin/orders?search=${'a'.repeat(100)}`)).statusCode).toBe(200);
  });
});

describe('honest tracking in the status e-mails', () => {
  it('before a label: the order reference, no tracking number; after: the carrier number with its link; cancelled: no tracking', async () => {
    const { id } = await paidOrder('truth-cloth', 'Salem');
    const reference = orderReferenceOf(id);

    expect((await admin.request('PATCH', `/api/admin/orders/${id}/status`, { status: 'processing' })).statusCode).toBe(200);
    // Marked shipped by hand: still no carrier, so still no tracking number.
    expect((await admin.request('PATCH', `/api/admin/orders/${id}/status`, { status: 'shipped' })).statusCode).toBe(200);
    const before = await mailsFor(id, 'order-status-update');
    expect(before).toHaveLength(2);
    for (const mail of before) {
      expect(mail.text).toContain(`Order reference: ${reference}`);
      expect(mail.html).toContain(`Order reference: <strong>${reference}</strong>`);
      expect(`${mail.html}${mail.text}`).not.toContain('Tracking number');
      expect(mail.html).not.toMatch(/href="https:\/\/tools\.usps/);
    }

    expect((await admin.request('PATCH', `/api/admin/orders/${id}/status`, { status: 'processing' })).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/orders/${id}/shipstation`)).statusCode).toBe(200);
    expect((await admin.request('PATCH', `/api/admin/orders/${id}/status`, { status: 'delivered' })).statusCode).toBe(200);
    const after = (await mailsFor(id, 'order-status-update')).at(-1)!;
    expect(after.text).toContain(`Tracking number: ${FAKE_TRACKING_V2}`);
    expect(after.text).toContain(`Track your package: https://tools.usps.com/go/TrackConfirmAction?tLabels=${FAKE_TRACKING_V2}`);
    expect(after.text).toContain(`Order reference: ${reference}`);
    expect(after.text).not.toContain(`Tracking number: ${reference}`);

    expect((await admin.request('PATCH', `/api/admin/orders/${id}/status`, { status: 'cancelled', returnLines: [] })).statusCode).toBe(200);
    // A cancellation has its own e-mail (order-cancelled: what happens to the money), and no tracking.
    const cancelled = (await mailsFor(id, 'order-cancelled')).at(-1)!;
    expect(cancelled.subject).toContain('has been cancelled');
    expect(`${cancelled.html}${cancelled.text}`).not.toContain('Tracking number');
    expect(cancelled.html).not.toContain('Track your package');
  });
});

describe('a shipping address changed after the label was bought', () => {
  it('is flagged on the order until the label is voided and bought again; an edit before any label is not', async () => {
    const { id } = await paidOrder('truth-mop', 'Bend');
    const edit = (city: string) =>
      admin.request('PUT', `/api/admin/orders/${id}`, {
        user_id: 'guest',
        shipping_address: at(city),
        status: 'completed',
        elapsedMs: 3000,
      });

    expect((await edit('Eugene')).statusCode).toBe(200);
    expect((await adminOrder(id)).labelAddressChanged).toBe(false);

    expect((await admin.post(`/api/admin/orders/${id}/shipstation`)).statusCode).toBe(200);
    expect((await adminOrder(id)).labelAddressChanged).toBe(false);
    // Saving the same address again changes nothing.
    const same = await admin.request('PUT', `/api/admin/orders/${id}`, {
      user_id: 'guest',
      shipping_address: at('Eugene'),
      status: 'shipped',
      elapsedMs: 3000,
    });
    expect(same.statusCode).toBe(200);
    expect((await adminOrder(id)).labelAddressChanged).toBe(false);

    const moved = await admin.request('PUT', `/api/admin/orders/${id}`, {
      user_id: 'guest',
      shipping_address: at('Medford'),
      status: 'shipped',
      elapsedMs: 3000,
    });
    expect(moved.statusCode).toBe(200);
    expect(OrderView.parse(moved.json().order).labelAddressChanged).toBe(true);
    expect((await adminOrder(id)).labelAddressChanged).toBe(true);
    // The customer never sees the owner's flag.
    expect((await admin.get(`/api/admin/orders/${id}`)).json().order.labelState).toBe('bought');

    expect((await admin.post(`/api/admin/orders/${id}/label/void`)).statusCode).toBe(200);
    expect((await adminOrder(id)).labelAddressChanged).toBe(false);
    expect((await admin.post(`/api/admin/orders/${id}/shipstation`)).statusCode).toBe(200);
    expect((await adminOrder(id)).labelAddressChanged).toBe(false);
  });
});
