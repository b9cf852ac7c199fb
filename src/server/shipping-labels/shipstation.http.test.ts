import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import {
  FAKE_SHIPSTATION_KEY,
  FAKE_SHIPSTATION_SECRET,
  FAKE_TRACKING_V1,
  FAKE_TRACKING_V2,
  fakeShipStation,
} from '../test/fake-shipstation.js';
import { createProduct } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { CONTENT_MESSAGES } from '../../shared/schemas/content.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { fulfilPaymentSession } from '../checkout/service.js';
import { SHIPSTATION_NOT_SET_UP, SHIPSTATION_PROBLEMS } from './messages.js';
import { ShipStationClient } from './client.js';

const fake = fakeShipStation();
let fakeBase = '';
let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  const base = await fake.listen();
  fakeBase = base;
  t = await createTestApp({
    env: { SHIPSTATION_V1_BASE: base, SHIPSTATION_V2_BASE: base, LOG_LEVEL: 'warn' },
    logStream: { write: (line) => void logLines.push(line) },
  });
  admin = new TestClient(t.app);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});

type Version = 'v1' | 'v2';

/** The log lines written from now until stop(): the warnings the owner's log would show. */
const logLines: string[] = [];
function captureLog() {
  const from = logLines.length;
  const get = () => logLines.slice(from);
  get.stop = () => undefined;
  return get;
}
const BASIC = `Basic ${Buffer.from(`${FAKE_SHIPSTATION_KEY}:${FAKE_SHIPSTATION_SECRET}`).toString('base64')}`;

const configure = (version: Version, apiKey = FAKE_SHIPSTATION_KEY) =>
  admin.request('PUT', '/api/admin/settings/integrations', {
    shipstation_api_key: apiKey,
    shipstation_api_secret: FAKE_SHIPSTATION_SECRET,
    shipstation_enabled: true,
    shipstation_api_version: version,
  });

let skuSeq = 0;
async function paidOrder(): Promise<string> {
  // SKUs are unique across the catalogue: each order's product has its own.
  const p = await createProduct(t.db, { priceCents: 1500, inventory: 5, weightLbs: 2, sku: `ECO-SS-${++skuSeq}` });
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

/** What reached the fake during `call`. */
async function sentDuring<T>(call: () => Promise<T>) {
  const before = fake.requests.length;
  const result = await call();
  return { result, sent: fake.requests.slice(before) };
}

const shipmentBody = { shipments: [{ external_shipment_id: 'manual-1', ship_to: { name: 'A', postal_code: '83702' } }] };
const inventoryData = { inventory: [{ sku: 'ECO-1', available: 7 }] };
/** What either version accepts: v2 reads `inventory`, v1 the product id. */
const anyVersionInventory = { productId: 321, sku: 'ECO-1', inventory: [{ sku: 'ECO-1', available: 7 }] };

/** Every ShipStation route, with the spec text it answers when ShipStation refuses (`sendId`: a paid order without a label yet). */
const ROUTES = (orderId: string, sendId = orderId) => [
  { name: 'carriers', call: () => admin.get('/api/shipstation/carriers'), text: 'Failed to fetch carriers' },
  { name: 'shipments', call: () => admin.get('/api/shipstation/shipments?page=2'), text: 'Failed to fetch shipments' },
  {
    name: 'create-shipment',
    call: () => admin.post('/api/shipstation/create-shipment', shipmentBody),
    text: 'Failed to create ShipStation shipment',
  },
  { name: 'inventory', call: () => admin.get('/api/shipstation/inventory'), text: 'Failed to fetch inventory' },
  {
    name: 'inventory/update',
    call: () => admin.post('/api/shipstation/inventory/update', { inventoryData: anyVersionInventory }),
    text: 'Failed to update inventory',
  },
  { name: 'test-order', call: () => admin.post('/api/shipstation/test-order'), text: 'Test Order Failed' },
  { name: 'send order', call: () => admin.post(`/api/admin/orders/${sendId}/shipstation`), text: 'Failed to send order to ShipStation' },
  { name: 'tracking', call: () => admin.get(`/api/admin/orders/${orderId}/tracking`), text: 'Failed to get tracking information' },
];

describe('ShipStation not answering at all', () => {
  it('a timeout and a refused connection read as ShipStation not answering, never as the keys', async () => {
    fake.failAll('hang');
    const settings = { apiKey: FAKE_SHIPSTATION_KEY, apiSecret: FAKE_SHIPSTATION_SECRET, version: 'v2' as const };
    const hanging = new ShipStationClient(settings, { v1: fakeBase, v2: fakeBase }, fetch, 300);
    const slow = await hanging.test();
    fake.failAll(null);
    expect(slow).toEqual({
      connected: false,
      problem: 'unavailable',
      message: `${SHIPSTATION_PROBLEMS.unavailable} (no answer within 0.3 s)`,
    });
    // Nothing listens on this port: the connection is refused.
    const closed = new ShipStationClient(settings, { v1: 'http://127.0.0.1:9', v2: 'http://127.0.0.1:9' });
    expect(await closed.test()).toEqual({
      connected: false,
      problem: 'unavailable',
      message: `${SHIPSTATION_PROBLEMS.unavailable} (could not connect)`,
    });
  });
});

describe('ShipStation not configured', () => {
  it('bulk "Buy labels" says ShipStation is not set up and where to set it up, and buys nothing', async () => {
    const orderId = await paidOrder();
    const { result, sent } = await sentDuring(() => admin.post('/api/admin/orders/bulk/labels', { ids: [orderId] }));
    expect(result.statusCode).toBe(503);
    expect(result.json().error).toBe(SHIPSTATION_NOT_SET_UP);
    expect(SHIPSTATION_NOT_SET_UP).toContain('Settings → Integrations');
    expect(sent).toEqual([]);
  });

  it('every route answers 503 with the spec text, the connection test says not connected, and nothing is sent', async () => {
    const orderId = await paidOrder();
    const { result, sent } = await sentDuring(async () => {
      const answers = [];
      for (const r of ROUTES(orderId)) answers.push({ name: r.name, res: await r.call() });
      return { answers, test: await admin.get('/api/shipstation/test') };
    });
    for (const { name, res } of result.answers) {
      expect({ name, status: res.statusCode, error: res.json().error }).toEqual({
        name,
        status: 503,
        error: 'Info: ShipStation service temporarily disabled',
      });
    }
    expect(CONTENT_MESSAGES.shipstationDisabled).toBe('Info: ShipStation service temporarily disabled');
    expect(result.test.json()).toEqual({ connected: false, enabled: false, version: 'v2' });
    expect(sent).toEqual([]);
  });

  it('is still disabled with keys but the switch off, or v1 without a secret', async () => {
    await admin.request('PUT', '/api/admin/settings/integrations', {
      shipstation_api_key: FAKE_SHIPSTATION_KEY,
      shipstation_enabled: false,
      shipstation_api_version: 'v2',
    });
    expect((await admin.get('/api/shipstation/carriers')).statusCode).toBe(503);
    await admin.request('PUT', '/api/admin/settings/integrations', {
      shipstation_api_secret: null,
      shipstation_enabled: true,
      shipstation_api_version: 'v1',
    });
    expect((await admin.get('/api/shipstation/carriers')).json().error).toBe(CONTENT_MESSAGES.shipstationDisabled);
    expect((await admin.get('/api/shipstation/test')).json()).toEqual({ connected: false, enabled: false, version: 'v1' });
  });
});

describe.each<Version>(['v2', 'v1'])('ShipStation %s', (version) => {
  const v2 = version === 'v2';
  let orderId: string;
  /** A second paid order, never given a label (the first one's label is bought below, and one label per order). */
  let unlabelled: string;
  beforeAll(async () => {
    fake.failAll(null);
    expect((await configure(version)).statusCode).toBe(200);
    orderId = await paidOrder();
    unlabelled = await paidOrder();
  });

  const authorised = (r: { headers: Record<string, unknown> }) =>
    v2 ? r.headers['api-key'] === FAKE_SHIPSTATION_KEY : r.headers.authorization === BASIC;

  it('test: connected, through the right auth', async () => {
    const { result, sent } = await sentDuring(() => admin.get('/api/shipstation/test'));
    expect(result.json()).toEqual({ connected: true, enabled: true, version });
    expect(sent.map((r) => r.path)).toEqual([v2 ? '/v2/carriers' : '/carriers']);
    expect(sent.every(authorised)).toBe(true);
  });

  it('carriers', async () => {
    const res = await admin.get('/api/shipstation/carriers');
    expect(res.statusCode).toBe(200);
    if (v2) expect(res.json().carriers[0].friendly_name).toBe('USPS');
    else expect(res.json()[0].code).toBe('stamps_com');
  });

  it('shipments, passing the query through', async () => {
    const { result, sent } = await sentDuring(() => admin.get('/api/shipstation/shipments?page=2'));
    expect(result.statusCode).toBe(200);
    expect(result.json()).toMatchObject({ shipments: [], total: 0 });
    expect(sent).toMatchObject([{ method: 'GET', path: v2 ? '/v2/shipments?page=2' : '/shipments?page=2' }]);
  });

  it('create-shipment, passing the body through', async () => {
    const { result, sent } = await sentDuring(() => admin.post('/api/shipstation/create-shipment', shipmentBody));
    expect(result.statusCode).toBe(200);
    if (v2) expect(result.json().shipments[0].shipment_id).toBe('se-ship-1');
    else expect(result.json().orderId).toBe(777);
    expect(sent).toMatchObject([{ method: 'POST', path: v2 ? '/v2/shipments' : '/orders/createorder', body: shipmentBody }]);
  });

  it('inventory', async () => {
    const res = await admin.get('/api/shipstation/inventory');
    expect(res.statusCode).toBe(200);
    expect((v2 ? res.json().inventory : res.json().products)[0].sku).toBe('ECO-1');
  });

  it('inventory/update sends inventoryData; without it answers 400 and sends nothing', async () => {
    // v1 updates one product at a time, at /products/{productId}.
    const data = v2 ? inventoryData : { productId: 321, sku: 'ECO-1', warehouseLocation: 'A1' };
    const { result, sent } = await sentDuring(() => admin.post('/api/shipstation/inventory/update', { inventoryData: data }));
    expect(result.statusCode).toBe(200);
    expect(sent).toMatchObject([{ method: v2 ? 'POST' : 'PUT', path: v2 ? '/v2/inventory' : '/products/321', body: data }]);
    if (!v2) {
      const noId = await sentDuring(() => admin.post('/api/shipstation/inventory/update', { inventoryData }));
      expect(noId.result.statusCode).toBe(400);
      expect(noId.sent).toEqual([]);
    }
    const missing = await sentDuring(() => admin.post('/api/shipstation/inventory/update', {}));
    expect(missing.result.statusCode).toBe(400);
    expect(missing.sent).toEqual([]);
  });

  it('test-order sends a sample order', async () => {
    const { result, sent } = await sentDuring(() => admin.post('/api/shipstation/test-order'));
    expect(result.statusCode).toBe(200);
    if (v2) {
      expect(result.json()).toMatchObject({ ok: true, result: { shipments: [{ shipment_id: 'se-ship-1' }] } });
      expect(sent[0]!.body).toMatchObject({ shipments: [{ ship_to: { name: 'Test Customer', postal_code: '78701' } }] });
    } else {
      expect(result.json()).toMatchObject({ ok: true, result: { orderId: 777 } });
      expect(sent[0]!.body).toMatchObject({ orderStatus: 'awaiting_shipment', shipTo: { name: 'Test Customer', postalCode: '78701' } });
      expect(String(sent[0]!.body!.orderNumber)).toMatch(/^TEST-\d+$/);
    }
  });

  it('tracking before the order was sent answers 400 with the spec text', async () => {
    const res = await admin.get(`/api/admin/orders/${orderId}/tracking`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Failed to get tracking information: This order has no tracking number yet');
  });

  it('sends the order for a label (shipped, e-mail queued), then reads tracking back', async () => {
    const tracking = v2 ? FAKE_TRACKING_V2 : FAKE_TRACKING_V1;
    const { result: sentRes, sent } = await sentDuring(() => admin.post(`/api/admin/orders/${orderId}/shipstation`));
    expect(sentRes.statusCode).toBe(200);
    expect(sentRes.json()).toMatchObject({ trackingNumber: tracking, order: { status: 'shipped', trackingNumber: tracking } });
    expect(sent.every(authorised)).toBe(true);
    if (v2) {
      expect(sent.map((r) => r.path)).toEqual(['/v2/shipments', '/v2/labels/shipment/se-ship-1']);
      expect((sent[0]!.body!.shipments as unknown[])[0]).toMatchObject({
        external_shipment_id: orderId,
        ship_to: { name: 'Ship Me', postal_code: '83702', country_code: 'US' },
        packages: [{ weight: { value: 64, unit: 'ounce' } }],
      });
    } else {
      expect(sent.map((r) => r.path)).toEqual(['/orders/createorder', '/orders/createlabelfororder']);
      expect(sent[0]!.body).toMatchObject({ orderKey: orderId, shipTo: { postalCode: '83702' }, customerEmail: 'ship.me@example.com' });
    }
    const row = await t.db
      .selectFrom('orders')
      .select(['status', 'shipstation_tracking_number'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'shipped', shipstation_tracking_number: tracking });
    const mail = await t.db
      .selectFrom('email_outbox')
      .select('html')
      .where('template_id', '=', 'shipping-notification')
      .where('html', 'like', `%${tracking}%`)
      .execute();
    expect(mail).toHaveLength(1);

    const read = await admin.get(`/api/admin/orders/${orderId}/tracking`);
    expect(read.statusCode).toBe(200);
    expect(read.json().trackingNumber).toBe(tracking);
    if (v2) expect(read.json().tracking.status_description).toBe('In Transit');
    else expect(read.json().tracking.shipments[0].trackingNumber).toBe(tracking);
  });

  it("puts each line's variant on the label: its SKU, its weight (else the product's), and (v1) its options", async () => {
    const p = await createProduct(t.db, { name: 'Label Tee', priceCents: 1500, inventory: 5, weightLbs: 2, sku: `TEE-${version}` });
    const set = await admin.request('PUT', `/api/admin/products/${p.id}/variants`, {
      options: [
        { name: 'Size', values: ['S', 'L'] },
        { name: 'Colour', values: ['Sage'] },
      ],
      variants: [
        { id: `var_${p.id}`, options: ['S', 'Sage'], sku: `TEE-S-${version}`, priceCents: 1500, enabled: true },
        { options: ['L', 'Sage'], sku: `TEE-L-${version}`, priceCents: 1700, weightLbs: 1.5, enabled: true, openingStock: 5 },
      ],
    });
    expect(set.statusCode, set.body).toBe(200);
    const large = set.json().variants[1].id as string;
    const { sessionId, orderId: id } = (
      await new TestClient(t.app, '10.61.0.9').post('/api/create-checkout-session', {
        items: [
          { productId: p.id, variantId: `var_${p.id}`, quantity: 1 },
          { productId: p.id, variantId: large, quantity: 2 },
        ],
        customerEmail: 'ship.me@example.com',
        shippingAddress: { name: 'Ship Me', address: '3 Dock Rd', city: 'Boise', state: 'ID', zip: '83702', country: 'US' },
      })
    ).json();
    await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
    const { result, sent } = await sentDuring(() => admin.post(`/api/admin/orders/${id}/shipstation`));
    expect(result.statusCode, result.body).toBe(200);
    // 1 × 2 lbs (the product's) + 2 × 1.5 lbs (the variant's own) = 5 lbs = 80 oz.
    if (v2) {
      const shipment = (sent[0]!.body!.shipments as Record<string, unknown>[])[0]!;
      expect(shipment.packages).toEqual([{ weight: { value: 80, unit: 'ounce' } }]);
      expect((shipment.items as { sku: string; quantity: number }[]).map((i) => [i.sku, i.quantity]).sort()).toEqual([
        [`TEE-L-${version}`, 2],
        [`TEE-S-${version}`, 1],
      ]);
    } else {
      expect(sent[0]!.body!.weight).toEqual({ value: 80, units: 'ounces' });
      const items = sent[0]!.body!.items as { sku: string; quantity: number; options: unknown }[];
      expect(items.map((i) => [i.sku, i.quantity, i.options]).sort()).toEqual([
        [
          `TEE-L-${version}`,
          2,
          [
            { name: 'Size', value: 'L' },
            { name: 'Colour', value: 'Sage' },
          ],
        ],
        [
          `TEE-S-${version}`,
          1,
          [
            { name: 'Size', value: 'S' },
            { name: 'Colour', value: 'Sage' },
          ],
        ],
      ]);
    }
  });

  it('an unknown order answers Order not found', async () => {
    const res = await admin.post('/api/admin/orders/order_nope/shipstation');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe(ADMIN_MESSAGES.orderNotFound);
  });

  it.each([
    { how: '500', failure: { status: 500, message: 'ShipStation is down' }, detail: 'ShipStation is down' },
    { how: '503', failure: { status: 503, message: 'Service Unavailable' }, detail: 'Service Unavailable' },
    { how: 'a dropped connection', failure: 'drop' as const, detail: 'could not connect' },
  ])(
    'when ShipStation does not answer ($how), every route says it is ShipStation, not the keys, and the log says so',
    async ({ failure, detail }) => {
      fake.failAll(failure);
      const logged = captureLog();
      try {
        // orderId was sent above, so tracking reaches ShipStation too.
        for (const r of ROUTES(orderId, unlabelled)) {
          const res = await r.call();
          expect({ route: r.name, status: res.statusCode, error: res.json().error }).toEqual({
            route: r.name,
            status: 502,
            error: `${r.text}: ${SHIPSTATION_PROBLEMS.unavailable} (${detail})`,
          });
          expect(res.json().error).not.toContain('rejected the API keys');
        }
        expect((await admin.get('/api/shipstation/test')).json()).toEqual({
          connected: false,
          enabled: true,
          version,
          problem: 'unavailable',
          message: `${SHIPSTATION_PROBLEMS.unavailable} (${detail})`,
        });
        expect(logged().some((l) => l.includes('ShipStation is not answering'))).toBe(true);
        expect(logged().some((l) => l.includes('rejected the API keys'))).toBe(false);
      } finally {
        logged.stop();
        fake.failAll(null);
      }
      // A failed send changes nothing: the order keeps its earlier label.
      const row = await t.db.selectFrom('orders').select('shipstation_tracking_number').where('id', '=', orderId).executeTakeFirstOrThrow();
      expect(row.shipstation_tracking_number).toBe(v2 ? FAKE_TRACKING_V2 : FAKE_TRACKING_V1);
    },
  );

  it('with a wrong key, ShipStation answers 401 and every route says the keys were rejected, as does the log', async () => {
    await configure(version, 'wrong-key');
    const logged = captureLog();
    try {
      for (const r of ROUTES(orderId, unlabelled)) {
        const res = await r.call();
        expect({ route: r.name, status: res.statusCode, error: res.json().error }).toEqual({
          route: r.name,
          status: 502,
          error: `${r.text}: ${SHIPSTATION_PROBLEMS.keys} (Unauthorized)`,
        });
      }
      expect((await admin.get('/api/shipstation/test')).json()).toEqual({
        connected: false,
        enabled: true,
        version,
        problem: 'keys',
        message: `${SHIPSTATION_PROBLEMS.keys} (Unauthorized)`,
      });
      expect(logged().some((l) => l.includes('ShipStation rejected the API keys'))).toBe(true);
      expect(logged().some((l) => l.includes('is not answering'))).toBe(false);
    } finally {
      logged.stop();
      await configure(version);
    }
  });
});
