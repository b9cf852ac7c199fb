import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, TestClient } from '../test/http-client.js';
import { createProduct } from '../db/seed/factories.js';
import { DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { fulfilPaymentSession } from '../checkout/service.js';

let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

describe('admin orders', () => {
  it('lists, searches and filters every order; a status change queues the e-mail', async () => {
    await createProduct(t.db, { id: 'adm-p', priceCents: 1000, inventory: 50 });
    const buyer = new TestClient(t.app);
    const { sessionId, orderId } = (
      await buyer.post('/api/create-checkout-session', {
        items: [{ productId: 'adm-p', quantity: 3 }],
        customerEmail: 'zed@example.com',
        shippingAddress: { name: 'Zed Zebra', address: '1 Z St', city: 'Zion', state: 'UT', zip: '84001', country: 'US' },
      })
    ).json();
    await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });

    const list = (await admin.get('/api/admin/orders?search=zed@EXAMPLE')).json();
    expect(list.items.map((o: { id: string }) => o.id)).toEqual([orderId]);
    expect(list.items[0]).toMatchObject({ itemCount: 3, status: 'completed', customerName: 'Zed Zebra' });
    expect((await admin.get('/api/admin/orders?search=zebra')).json().total).toBe(1);
    expect((await admin.get(`/api/admin/orders?search=${orderId}`)).json().total).toBe(1);
    expect((await admin.get('/api/admin/orders?status=shipped')).json().total).toBe(0);
    expect((await admin.get('/api/admin/orders?status=lost')).statusCode).toBe(400);

    const shipped = await admin.request('PATCH', `/api/admin/orders/${orderId}/status`, { status: 'shipped' });
    expect(shipped.json().order.status).toBe('shipped');
    const mail = await t.db
      .selectFrom('email_outbox')
      .selectAll()
      .where('template_id', '=', 'order-status-update')
      .where('to_address', '=', 'zed@example.com')
      .execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toContain('Shipped');
    expect((await admin.request('PATCH', '/api/admin/orders/nope/status', { status: 'shipped' })).json().error).toBe(
      ADMIN_MESSAGES.orderNotFound,
    );
  });

  it('creates an order split 85/8/7 with no items, edits and deletes it; ignores a too-fast form', async () => {
    const customer = await t.db.selectFrom('users').select('id').where('email', '=', DEMO_CUSTOMER.email).executeTakeFirstOrThrow();
    const body = {
      user_id: customer.id,
      shipping_address: '5 Phone Rd, Dover, DE 19901',
      total_amount: 100,
      status: 'processing',
      elapsedMs: 3000,
    };
    const created = await admin.post('/api/admin/orders', body);
    expect(created.statusCode).toBe(201);
    const order = created.json().order;
    expect(order).toMatchObject({
      status: 'processing',
      subtotalCents: 8500,
      taxCents: 800,
      shippingCents: 700,
      totalCents: 10000,
      items: [],
      shippingAddress: '5 Phone Rd, Dover, DE 19901',
    });
    expect((await admin.post('/api/admin/orders', { ...body, elapsedMs: 200 })).statusCode).toBe(202);
    // A submit that does not say how long it took counts as too fast: ignored, nothing created.
    const { elapsedMs: _timer, ...untimed } = body;
    const before = await t.db.selectFrom('orders').select('id').execute();
    expect((await admin.post('/api/admin/orders', untimed)).statusCode).toBe(202);
    expect((await admin.request('PUT', `/api/admin/orders/${order.id}`, { ...untimed, total_amount: 1 })).statusCode).toBe(202);
    expect(await t.db.selectFrom('orders').select('id').execute()).toHaveLength(before.length);
    expect((await admin.post('/api/admin/orders', { ...body, total_amount: -1 })).json().error).toContain(
      'Total amount cannot be negative',
    );
    expect((await admin.post('/api/admin/orders', { ...body, total_amount: 1.005 })).statusCode).toBe(400);
    expect((await admin.post('/api/admin/orders', { ...body, user_id: '' })).json().error).toContain('User ID is required');
    const edited = await admin.request('PUT', `/api/admin/orders/${order.id}`, { ...body, total_amount: 50.5 });
    expect(edited.json().order.totalCents).toBe(5050);
    expect((await admin.request('DELETE', `/api/admin/orders/${order.id}`)).statusCode).toBe(200);
    expect((await admin.request('DELETE', `/api/admin/orders/${order.id}`)).statusCode).toBe(404);
  });
});
