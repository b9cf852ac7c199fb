import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import {
  FAKE_LABEL_PDF,
  FAKE_LABEL_V2_PATH,
  FAKE_SHIPSTATION_KEY,
  FAKE_SHIPSTATION_SECRET,
  fakeShipStation,
} from '../test/fake-shipstation.js';
import { createProduct } from '../db/seed/factories.js';
import { DEMO_ADMIN, DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { fulfilPaymentSession } from '../checkout/service.js';
import type { OrderView } from '../../shared/schemas/orders.js';
import { LABEL_FILE_MESSAGES } from './messages.js';

/**
 * Labels bought are labels printed (issue [1/8], item 4): what ShipStation answers a purchase with
 * is kept, and the owner prints it from the shop, after one purchase or a bulk one.
 */
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000', CHECKOUT_MAX_UNITS_HELD: '10000' };
const fake = fakeShipStation();
let base: string;
let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  base = await fake.listen();
  t = await createTestApp({ env: { ...LIMITS, SHIPSTATION_V1_BASE: base, SHIPSTATION_V2_BASE: base } });
  admin = new TestClient(t.app);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});

const configure = async (version: 'v1' | 'v2') =>
  expect(
    (
      await admin.request('PUT', '/api/admin/settings/integrations', {
        shipstation_api_key: FAKE_SHIPSTATION_KEY,
        shipstation_api_secret: FAKE_SHIPSTATION_SECRET,
        shipstation_enabled: true,
        shipstation_api_version: version,
      })
    ).statusCode,
  ).toBe(200);

async function paidOrder(): Promise<string> {
  const p = await createProduct(t.db, { priceCents: 1800, inventory: 10, weightLbs: 1 });
  const res = await new TestClient(t.app).post('/api/create-checkout-session', {
    items: [{ productId: p.id, quantity: 1 }],
    customerEmail: 'print.me@example.com',
    shippingAddress: { name: 'Print Me', address: '9 Paper St', city: 'Boise', state: 'ID', zip: '83702', country: 'US' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { orderId, sessionId } = res.json<{ orderId: string; sessionId: string }>();
  await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
  return orderId;
}
const order = async (id: string) => (await admin.get(`/api/admin/orders/${id}`)).json<{ order: OrderView }>().order;

describe(`printing a label bought through ShipStation v1 on ${testDialect()}`, () => {
  it('keeps the label PDF ShipStation answered and serves it to admins only: inline, a PDF, never cached', async () => {
    await configure('v1');
    const id = await paidOrder();
    expect((await admin.post(`/api/admin/orders/${id}/shipstation`)).statusCode).toBe(200);
    const detail = await order(id);
    expect(detail.labelPrintUrl).toBe(`/api/admin/orders/${id}/label`);

    const pdf = await admin.get(detail.labelPrintUrl!);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`inline; filename="label-${detail.orderNumber}.pdf"`);
    expect(pdf.headers['cache-control']).toBe('no-store');
    expect(pdf.rawPayload.equals(FAKE_LABEL_PDF)).toBe(true);
    // The order's row keeps ShipStation's answer without the PDF (it lives apart).
    const row = await t.db.selectFrom('orders').select('shipstation_data').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.shipstation_data).not.toContain('labelData');

    // Without ShipStation configured the kept label still prints.
    await admin.request('PUT', '/api/admin/settings/integrations', { shipstation_enabled: false });
    expect((await admin.get(detail.labelPrintUrl!)).statusCode).toBe(200);
    await configure('v1');

    expect((await new TestClient(t.app).get(detail.labelPrintUrl!)).statusCode).toBe(401);
    const customer = new TestClient(t.app);
    await customer.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    expect((await customer.get(detail.labelPrintUrl!)).statusCode).toBe(403);
  });
});

describe(`printing labels bought through ShipStation v2 on ${testDialect()}`, () => {
  it("sends the owner to ShipStation's label_download PDF, after one purchase or a bulk one", async () => {
    await configure('v2');
    const [one, two, three] = [await paidOrder(), await paidOrder(), await paidOrder()];
    expect((await admin.post(`/api/admin/orders/${one}/shipstation`)).statusCode).toBe(200);
    const bulk = await admin.post('/api/admin/orders/bulk/labels', { ids: [two, three] });
    expect(bulk.json().results.map((r: { result: string }) => r.result)).toEqual(['changed', 'changed']);
    // The label asked for is a PDF, by download address.
    const asked = fake.requests.filter((r) => r.path.startsWith('/v2/labels/shipment/')).at(-1);
    expect(asked?.body).toMatchObject({ label_format: 'pdf', label_download_type: 'url' });

    for (const id of [one, two, three]) {
      const detail = await order(id);
      expect(detail.labelPrintUrl).toBe(`/api/admin/orders/${id}/label`);
      const res = await admin.get(detail.labelPrintUrl!);
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(`${base}${FAKE_LABEL_V2_PATH}`);
      expect(res.headers['cache-control']).toBe('no-store');
      const file = await fetch(res.headers.location as string);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(await file.arrayBuffer()).equals(FAKE_LABEL_PDF)).toBe(true);
    }
  });

  it('a voided label is not printed any more; an order without a label or unknown answers 404', async () => {
    await configure('v2');
    const id = await paidOrder();
    expect((await admin.get(`/api/admin/orders/${id}/label`)).json().error).toBe(LABEL_FILE_MESSAGES.noLabel);
    expect((await order(id)).labelPrintUrl).toBeNull();
    expect((await admin.post(`/api/admin/orders/${id}/shipstation`)).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/orders/${id}/label/void`)).statusCode).toBe(200);
    const gone = await admin.get(`/api/admin/orders/${id}/label`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe(LABEL_FILE_MESSAGES.noLabel);
    expect((await order(id)).labelPrintUrl).toBeNull();
    expect(await t.db.selectFrom('shipping_label_files').select('order_id').where('order_id', '=', id).execute()).toEqual([]);
    expect((await admin.get('/api/admin/orders/order_nope/label')).statusCode).toBe(404);
  });
});
