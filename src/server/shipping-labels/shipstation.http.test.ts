import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { CONTENT_MESSAGES } from '../../shared/schemas/content.js';
import { fulfilPaymentSession } from '../checkout/service.js';

type Req = { method: string; path: string; headers: http.IncomingHttpHeaders; body: Record<string, unknown> | null };

/** A local stand-in for ShipStation v1 and v2 that checks the auth header and records bodies. */
function fakeShipStation() {
  const requests: Req[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const path = req.url ?? '';
      const body = raw ? JSON.parse(raw) : null;
      requests.push({ method: req.method!, path, headers: req.headers, body });
      const send = (status: number, json: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      const v2 = path.startsWith('/v2/');
      const authorised = v2 ? req.headers['api-key'] === 'ss-key' : req.headers.authorization === `Basic ${Buffer.from('ss-key:ss-secret').toString('base64')}`;
      if (!authorised) return send(401, { message: 'Unauthorized' });
      if (path === '/v2/carriers') return send(200, { carriers: [{ carrier_id: 'se-1', friendly_name: 'USPS' }] });
      if (path === '/carriers') return send(200, [{ name: 'USPS', code: 'stamps_com' }]);
      if (path === '/v2/shipments' && req.method === 'POST') return send(200, { has_errors: false, shipments: [{ shipment_id: 'se-ship-1' }] });
      if (path === '/v2/labels/shipment/se-ship-1') return send(200, { label_id: 'se-label-1', tracking_number: '9400TRACK1' });
      if (path === '/v2/labels/se-label-1/track') return send(200, { tracking_number: '9400TRACK1', status_description: 'In Transit' });
      if (path === '/orders/createorder') return send(200, { orderId: 777, orderNumber: body?.orderNumber });
      if (path === '/orders/createlabelfororder') return send(200, { shipmentId: 55, trackingNumber: '1ZV1TRACK' });
      if (path.startsWith('/v2/inventory')) return req.method === 'GET' ? send(200, { inventory: [{ sku: 'ECO-1', available: 3 }] }) : send(200, { ok: true });
      if (path.startsWith('/v2/shipments')) return send(200, { shipments: [], total: 0 });
      return send(404, { message: `No route ${req.method} ${path}` });
    });
  });
  return {
    requests,
    listen: () => new Promise<string>((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

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

async function paidOrder(): Promise<string> {
  const p = await createProduct(t.db, { priceCents: 1500, inventory: 5, weightLbs: 2, sku: 'ECO-SS' });
  const { sessionId, orderId } = (
    await new TestClient(t.app).post('/api/create-checkout-session', {
      items: [{ productId: p.id, quantity: 2 }],
      customerEmail: 'ship.me@example.com',
      shippingAddress: { name: 'Ship Me', address: '3 Dock Rd', city: 'Boise', state: 'ID', zip: '83702', country: 'US' },
    })
  ).json();
  await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
  return orderId;
}

describe('ShipStation', () => {
  it('is disabled until configured: the spec toast text and nothing sent', async () => {
    const before = fake.requests.length;
    const res = await admin.get('/api/shipstation/carriers');
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toBe(CONTENT_MESSAGES.shipstationDisabled);
    expect((await admin.get('/api/shipstation/test')).json()).toEqual({ connected: false, enabled: false });
    expect(fake.requests.length).toBe(before);
  });

  it('v2: tests the connection with the API-Key header, sends an order for a label, and reads tracking back', async () => {
    await admin.request('PUT', '/api/admin/settings/integrations', { shipstation_api_key: 'ss-key', shipstation_api_secret: 'ss-secret', shipstation_enabled: true, shipstation_api_version: 'v2' });
    expect((await admin.get('/api/shipstation/test')).json()).toEqual({ connected: true, enabled: true });
    expect((await admin.get('/api/shipstation/carriers')).json().carriers[0].friendly_name).toBe('USPS');
    const orderId = await paidOrder();
    const sent = await admin.post(`/api/admin/orders/${orderId}/shipstation`);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ trackingNumber: '9400TRACK1', order: { status: 'shipped', trackingNumber: '9400TRACK1' } });
    const create = fake.requests.find((r) => r.path === '/v2/shipments' && r.method === 'POST')!;
    const shipment = (create.body!.shipments as Record<string, unknown>[])[0]!;
    expect(shipment).toMatchObject({ external_shipment_id: orderId, ship_to: { name: 'Ship Me', postal_code: '83702', country_code: 'US' }, packages: [{ weight: { value: 64, unit: 'ounce' } }] });
    const mail = await t.db.selectFrom('email_outbox').selectAll().where('template_id', '=', 'shipping-notification').where('to_address', '=', 'ship.me@example.com').execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.html).toContain('9400TRACK1');
    const tracking = await admin.get(`/api/admin/orders/${orderId}/tracking`);
    expect(tracking.json().tracking.status_description).toBe('In Transit');
    expect((await admin.get('/api/shipstation/inventory')).json().inventory[0].sku).toBe('ECO-1');
    expect((await admin.post('/api/shipstation/inventory/update', {})).statusCode).toBe(400);
  });

  it('v1: Basic auth with key and secret', async () => {
    await admin.request('PUT', '/api/admin/settings/integrations', { shipstation_api_version: 'v1' });
    expect((await admin.get('/api/shipstation/test')).json().connected).toBe(true);
    const orderId = await paidOrder();
    const sent = await admin.post(`/api/admin/orders/${orderId}/shipstation`);
    expect(sent.json().trackingNumber).toBe('1ZV1TRACK');
    const created = fake.requests.find((r) => r.path === '/orders/createorder')!;
    expect(created.headers.authorization).toBe(`Basic ${Buffer.from('ss-key:ss-secret').toString('base64')}`);
    expect(created.body).toMatchObject({ orderKey: orderId, shipTo: { postalCode: '83702' }, customerEmail: 'ship.me@example.com' });
  });

  it('answers the spec error text when ShipStation refuses', async () => {
    await admin.request('PUT', '/api/admin/settings/integrations', { shipstation_api_key: 'wrong-key', shipstation_api_version: 'v2' });
    expect((await admin.get('/api/shipstation/test')).json().connected).toBe(false);
    const res = await admin.get('/api/shipstation/carriers');
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toBe('Failed to fetch carriers: Unauthorized');
    const orderId = await paidOrder();
    const sent = await admin.post(`/api/admin/orders/${orderId}/shipstation`);
    expect(sent.json().error).toBe('Failed to send order to ShipStation: Unauthorized');
  });
});
