import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { FAKE_SHIPSTATION_KEY, FAKE_SHIPSTATION_SECRET, fakeShipStation } from '../test/fake-shipstation.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { fulfilPaymentSession } from '../checkout/service.js';

/**
 * What the audit log now also keeps (issue [2/8]): settings (ShipStation's keys named, never their
 * values), price edits, template edits, order status changes, cancels, labels bought and voided,
 * and what an admin read while acting as a customer (decision 0020).
 */
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000', CHECKOUT_MAX_UNITS_HELD: '10000' };
const fake = fakeShipStation();
let t: TestApp;
let admin: TestClient;
let adminId: string;
beforeAll(async () => {
  const base = await fake.listen();
  t = await createTestApp({ env: { ...LIMITS, SHIPSTATION_V1_BASE: base, SHIPSTATION_V2_BASE: base } });
  admin = new TestClient(t.app);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  adminId = (await t.db.selectFrom('users').select('id').where('email', '=', DEMO_ADMIN.email.toLowerCase()).executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});

type Row = {
  action: string;
  actor: { id: string } | null;
  actingAs: { id: string } | null;
  target: { id: string } | null;
  details: Record<string, unknown>;
};
async function logOf(action: string): Promise<Row[]> {
  const res = await admin.get(`/api/admin/audit-log?action=${action}&pageSize=100`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items;
}

async function paidOrder(): Promise<string> {
  const p = await createProduct(t.db, { priceCents: 1800, inventory: 10, weightLbs: 1 });
  const res = await new TestClient(t.app).post('/api/create-checkout-session', {
    items: [{ productId: p.id, quantity: 1 }],
    customerEmail: 'audit.me@example.com',
    shippingAddress: { name: 'Audit Me', address: '9 Paper St', city: 'Boise', state: 'ID', zip: '83702', country: 'US' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { orderId, sessionId } = res.json<{ orderId: string; sessionId: string }>();
  await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
  return orderId;
}

describe('the audit log keeps the owner’s acts', () => {
  it('names the settings that changed, ShipStation’s keys included, and never a value', async () => {
    const saved = await admin.request('PUT', '/api/admin/settings/integrations', {
      shipstation_api_key: FAKE_SHIPSTATION_KEY,
      shipstation_api_secret: FAKE_SHIPSTATION_SECRET,
      shipstation_enabled: true,
      shipstation_api_version: 'v1',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const [row] = await logOf('settings.changed');
    expect(row).toMatchObject({ actor: { id: adminId }, actingAs: null });
    expect(row!.details.keys).toEqual(expect.arrayContaining(['shipstation_api_key', 'shipstation_api_secret', 'shipstation_enabled']));
    const stored = JSON.stringify(await t.db.selectFrom('audit_log').select('details').execute());
    expect(stored).not.toContain(FAKE_SHIPSTATION_KEY);
    expect(stored).not.toContain(FAKE_SHIPSTATION_SECRET);

    // Saving the same values again changes nothing, so records nothing; a changed time zone is named alone.
    expect((await admin.request('PUT', '/api/admin/settings/integrations', { shipstation_enabled: true })).statusCode).toBe(200);
    expect(await logOf('settings.changed')).toHaveLength(1);
    expect((await admin.request('PUT', '/api/admin/settings/time-zone', { shop_time_zone: 'Europe/Paris' })).statusCode).toBe(200);
    expect((await logOf('settings.changed'))[0]!.details).toEqual({ keys: ['shop_time_zone'] });
  });

  it('records a price edit with the price before and after, and a template edit', async () => {
    const p = await createProduct(t.db, { priceCents: 1200, inventory: 5 });
    const body = { name: 'Audit Soap', description: 'Made by the audit test' };
    const edit = await admin.request('PUT', `/api/admin/products/${p.id}`, { ...body, priceCents: 1500 });
    expect(edit.statusCode, edit.body).toBe(200);
    const [price] = await logOf('product.price_changed');
    expect(price).toMatchObject({ actor: { id: adminId }, details: { productId: p.id, changes: [{ fromCents: 1200, toCents: 1500 }] } });
    // An edit that leaves the price alone is not a price edit.
    expect(
      (await admin.request('PUT', `/api/admin/products/${p.id}`, { ...body, name: 'Renamed soap', priceCents: 1500 })).statusCode,
    ).toBe(200);
    expect(await logOf('product.price_changed')).toHaveLength(1);

    const templates = (await admin.get('/api/admin/email-templates')).json().items as {
      id: string;
      name: string;
      subject: string;
      html: string;
      text: string | null;
      variables: string[];
    }[];
    const tpl = templates[0]!;
    const saved = await admin.post('/api/admin/email-templates', {
      id: tpl.id,
      name: tpl.name,
      subject: `${tpl.subject} (edited)`,
      html: tpl.html,
      text: tpl.text,
      variables: tpl.variables,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await logOf('template.changed')).toEqual([
      expect.objectContaining({ actor: { id: adminId, email: expect.any(String) }, details: { templateId: tpl.id, how: 'saved' } }),
    ]);
  });

  it('records status changes, a cancel, and a label bought and voided, each with its order', async () => {
    const id = await paidOrder();
    const number = (await t.db.selectFrom('orders').select('order_number').where('id', '=', id).executeTakeFirstOrThrow()).order_number;
    expect((await admin.request('PATCH', `/api/admin/orders/${id}/status`, { status: 'processing' })).statusCode).toBe(200);
    const [moved] = await logOf('order.status_changed');
    expect(moved).toMatchObject({ actor: { id: adminId }, details: { orderId: id, orderNumber: number, to: 'processing' } });

    const bought = await admin.post(`/api/admin/orders/${id}/shipstation`);
    expect(bought.statusCode, bought.body).toBe(200);
    expect((await logOf('order.label_bought'))[0]).toMatchObject({ actor: { id: adminId }, details: { orderId: id, orderNumber: number } });
    const voided = await admin.post(`/api/admin/orders/${id}/label/void`, {});
    expect(voided.statusCode, voided.body).toBe(200);
    expect((await logOf('order.label_voided'))[0]).toMatchObject({ actor: { id: adminId }, details: { orderId: id } });

    expect((await admin.request('PATCH', `/api/admin/orders/${id}/status`, { status: 'cancelled' })).statusCode).toBe(200);
    expect(await logOf('order.cancelled')).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ id: adminId }),
        details: expect.objectContaining({ orderId: id, to: 'cancelled' }),
      }),
    ]);
    // What the shop did by itself (a payment arriving) is on the timeline only.
    const rows = await t.db.selectFrom('audit_log').select(['action', 'actor_user_id']).execute();
    expect(rows.filter((r) => r.actor_user_id === null && r.action.startsWith('order.'))).toEqual([]);
  });

  it('records what an admin read while acting as a customer: their account pages and an order', async () => {
    const customer = await createUser(t.db, { email: 'read.me@example.com', password: 'a-long-password-1' });
    const orderId = await paidOrder();
    await t.db.updateTable('orders').set({ user_id: customer.id }).where('id', '=', orderId).execute();
    const as = new TestClient(t.app, '10.44.0.1');
    await as.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    expect((await as.post('/api/impersonation', { userId: customer.id })).statusCode).toBe(200);
    expect((await as.get('/api/orders')).statusCode).toBe(200);
    expect((await as.get(`/api/orders/${orderId}`)).statusCode).toBe(200);
    expect((await as.get('/api/account/summary')).statusCode).toBe(200);

    const viewed = await logOf('impersonation.viewed');
    expect(viewed.every((r) => r.actor?.id === adminId && r.actingAs?.id === customer.id && r.target?.id === customer.id)).toBe(true);
    expect(viewed.map((r) => r.details.what).sort()).toEqual(['/api/account/summary', '/api/orders', 'order']);
    expect(viewed.find((r) => r.details.what === 'order')?.details.orderId).toBe(orderId);

    // The customer's own reads are theirs, not audited.
    expect((await as.request('DELETE', '/api/impersonation')).statusCode).toBe(200);
    const self = new TestClient(t.app, '10.44.0.2');
    expect((await self.signIn('read.me@example.com', 'a-long-password-1')).statusCode).toBe(200);
    expect((await self.get('/api/orders')).statusCode).toBe(200);
    expect(await logOf('impersonation.viewed')).toHaveLength(3);
  });
});
