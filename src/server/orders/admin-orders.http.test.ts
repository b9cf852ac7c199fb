import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, TestClient } from '../test/http-client.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN, DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { ADMIN_MESSAGES, CATEGORY_MESSAGES } from '../../shared/schemas/admin.js';
import { fulfilPaymentSession } from '../checkout/service.js';
import { patchUser } from '../accounts/admin-users.js';

let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
function multipart(name: string, content: Buffer, filename = 'x.png') {
  const boundary = '----shoptest' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return {
    payload,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    },
  };
}

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

describe('admin catalogue', () => {
  it('creates products with prod- ids, keeps images on edit, stores dimensions only when all three are given', async () => {
    const res = await admin.post('/api/admin/products', {
      name: 'New Mop Head',
      description: 'Fresh',
      priceCents: 1299,
      inventory: 7,
      category: 'mops',
      images: ['/images/placeholder.svg'],
      dimensions: { length: 10, width: 4 },
    });
    expect(res.statusCode).toBe(201);
    const p = res.json().product;
    expect(p.id).toMatch(/^prod-\d+-[a-z0-9]{6}$/);
    expect(p.dimensions).toBeNull();
    const upd = await admin.request('PUT', `/api/admin/products/${p.id}`, {
      name: 'New Mop Head',
      description: 'Fresher',
      priceCents: 1399,
      inventory: 8,
      category: 'mops',
      dimensions: { length: 10, width: 4, height: 2 },
    });
    expect(upd.json().product).toMatchObject({
      description: 'Fresher',
      images: ['/images/placeholder.svg'],
      dimensions: { length: 10, width: 4, height: 2 },
    });
    const list = (await admin.get('/api/admin/products?pageSize=1')).json();
    expect(list.items[0].id).toBe(p.id);
    expect((await admin.post('/api/admin/products', { name: '', description: 'x', priceCents: 1, inventory: 1 })).json().error).toContain(
      'Name is required',
    );
    expect(
      (await admin.post('/api/admin/products', { name: 'x', description: 'x', priceCents: 1, inventory: 1, category: 'nope' })).statusCode,
    ).toBe(400);
    expect((await admin.request('DELETE', `/api/admin/products/${p.id}`)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${p.id}` })).statusCode).toBe(404);
  });

  it('uploads images checked by content and serves them with cache headers', async () => {
    const ok = await t.app.inject({ method: 'POST', url: '/api/admin/uploads?kind=products', ...multipart('file', PNG) });
    expect(ok.statusCode).toBe(201);
    const url = ok.json().url as string;
    expect(url).toMatch(/^\/uploads\/products\/[a-z0-9-]+\.png$/);
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toContain('immutable');
    const fake = await t.app.inject({
      method: 'POST',
      url: '/api/admin/uploads',
      ...multipart('file', Buffer.from('<svg onload=alert(1)>'), 'x.png'),
    });
    expect(fake.statusCode).toBe(415);
    expect(fake.json().error).toBe(ADMIN_MESSAGES.imageType);
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/admin/uploads',
      ...multipart('file', Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)])),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe(ADMIN_MESSAGES.imageSize);
  });

  it('validates categories with the spec messages and refuses to delete one that holds products', async () => {
    const bad = async (o: object) => (await admin.post('/api/admin/categories', { id: 'ok-id', name: 'Fine', ...o })).json().error;
    expect(await bad({ id: 'ab' })).toContain(CATEGORY_MESSAGES.idMin);
    expect(await bad({ id: 'a'.repeat(51) })).toContain(CATEGORY_MESSAGES.idMax);
    expect(await bad({ id: 'Bad_Id' })).toContain(CATEGORY_MESSAGES.idPattern);
    expect(await bad({ name: 'A' })).toContain(CATEGORY_MESSAGES.nameMin);
    expect(await bad({ name: 'A'.repeat(51) })).toContain(CATEGORY_MESSAGES.nameMax);
    expect((await admin.post('/api/admin/categories', { id: 'sponges', name: 'Sponges' })).statusCode).toBe(201);
    expect((await admin.post('/api/admin/categories', { id: 'sponges', name: 'Sponges' })).statusCode).toBe(409);
    expect((await admin.request('PUT', '/api/admin/categories/sponges', { name: 'Sponges & Pads' })).json().category.name).toBe(
      'Sponges & Pads',
    );
    const inUse = await admin.request('DELETE', '/api/admin/categories/mops');
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().error).toMatch(/^This category still holds \d+ products?\./);
    expect((await admin.request('DELETE', '/api/admin/categories/sponges')).statusCode).toBe(200);
  });
});

describe('admin coupons, shipping options and users', () => {
  it('creates, edits, toggles and deletes coupons', async () => {
    const res = await admin.post('/api/admin/coupons', { code: 'spring15', discountValue: 15, freeProductId: 'none' });
    expect(res.statusCode).toBe(201);
    const c = res.json().coupon;
    expect(c).toMatchObject({ code: 'SPRING15', discountType: 'percentage', isActive: true, freeProductId: null, currentUses: 0 });
    expect(c.id).toMatch(/^coupon-\d+-[a-z0-9]{6}$/);
    expect((await admin.post('/api/admin/coupons', { code: 'SPRING15', discountValue: 5 })).statusCode).toBe(409);
    expect((await admin.post('/api/admin/coupons', { code: 'X', discountValue: 150 })).json().error).toContain(
      'A percentage cannot exceed 100',
    );
    const off = await admin.request('PATCH', `/api/admin/coupons/${c.id}/active`, { isActive: false });
    expect(off.json().coupon.isActive).toBe(false);
    const quote = await new TestClient(t.app).post('/api/cart/quote', {
      lines: [{ productId: 'cloth-1-pack', quantity: 1 }],
      couponCode: 'SPRING15',
    });
    expect(quote.json().couponError).toBe('Invalid coupon code');
    const upd = await admin.request('PUT', `/api/admin/coupons/${c.id}`, { code: 'SPRING20', discountValue: 20, isActive: true });
    expect(upd.json().coupon).toMatchObject({ code: 'SPRING20', discountValue: 20 });
    expect((await admin.request('PUT', '/api/admin/coupons/nope', { code: 'Q', discountValue: 1 })).json().error).toBe(
      ADMIN_MESSAGES.couponNotFound,
    );
    expect((await admin.request('DELETE', `/api/admin/coupons/${c.id}`)).statusCode).toBe(200);
  });

  it('manages shipping options, with 5-7 days by default', async () => {
    const res = await admin.post('/api/admin/shipping-options', { name: 'Bike Courier', priceCents: 899 });
    expect(res.json().option).toMatchObject({ name: 'Bike Courier', estimatedDays: '5-7', enabled: true, minimumOrderCents: null });
    const id = res.json().option.id;
    expect(
      (await admin.request('PUT', `/api/admin/shipping-options/${id}`, { name: 'Bike Courier', priceCents: 999, enabled: false })).json()
        .option.enabled,
    ).toBe(false);
    expect((await admin.post('/api/admin/shipping-options', { name: 'X', priceCents: -1 })).json().error).toContain(
      'Price cannot be negative',
    );
    expect((await admin.request('DELETE', `/api/admin/shipping-options/${id}`)).statusCode).toBe(200);
    expect((await admin.get('/api/admin/shipping-options')).json().items.length).toBe(4);
  });

  it('switches a shipping option off and on; checkout offers only enabled ones', async () => {
    const quote = async () => {
      const q = (
        await new TestClient(t.app).post('/api/cart/quote', {
          lines: [{ productId: 'cloth-1-pack', quantity: 1 }],
          shippingOptionId: 'expedited',
        })
      ).json();
      return {
        offered: q.shippingOptions.map((o: { id: string }) => o.id),
        all: q.allShippingOptions.map((o: { id: string }) => o.id),
        selected: q.selectedShippingOptionId,
      };
    };
    expect((await quote()).offered).toContain('expedited');

    const off = await admin.request('PATCH', '/api/admin/shipping-options/expedited/enabled', { enabled: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().option).toMatchObject({ id: 'expedited', enabled: false });
    expect((await admin.get('/api/admin/shipping-options')).json().items.find((o: { id: string }) => o.id === 'expedited').enabled).toBe(
      false,
    );
    const without = await quote();
    expect(without.offered).not.toContain('expedited');
    expect(without.all).not.toContain('expedited');
    expect(without.selected).not.toBe('expedited');

    const on = await admin.request('PATCH', '/api/admin/shipping-options/expedited/enabled', { enabled: true });
    expect(on.json().option.enabled).toBe(true);
    expect((await quote()).offered).toContain('expedited');

    const missing = await admin.request('PATCH', '/api/admin/shipping-options/nope/enabled', { enabled: false });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe(ADMIN_MESSAGES.shippingNotFound);
    expect((await admin.request('PATCH', '/api/admin/shipping-options/expedited/enabled', { enabled: 'no' })).statusCode).toBe(400);
    expect((await admin.request('PATCH', '/api/admin/shipping-options/expedited/enabled', {})).statusCode).toBe(400);
    expect((await admin.request('PATCH', '/api/admin/shipping-options/expedited/enabled', { enabled: false, name: 'x' })).statusCode).toBe(
      400,
    );

    const customer = new TestClient(t.app, '10.0.0.7');
    await customer.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    expect((await customer.request('PATCH', '/api/admin/shipping-options/expedited/enabled', { enabled: false })).statusCode).toBe(403);
    expect(
      (await new TestClient(t.app).request('PATCH', '/api/admin/shipping-options/expedited/enabled', { enabled: false })).statusCode,
    ).toBe(401);
    expect((await quote()).offered).toContain('expedited');
  });

  it('searches users and toggles verification, role and loyalty points (clamped at 0)', async () => {
    const u = await createUser(t.db, { email: 'toggle.me@example.com', fullName: 'Toggle Me' });
    const found = (await admin.get('/api/admin/users?search=TOGGLE')).json();
    expect(found.items.map((x: { id: string }) => x.id)).toEqual([u.id]);
    expect((await admin.get('/api/admin/users?search=nobody-at-all')).json().items).toEqual([]);
    const patch = (body: object) => admin.request('PATCH', `/api/admin/users/${u.id}`, body);
    expect((await patch({ emailVerified: true })).json().user.emailVerified).toBe(true);
    expect((await patch({ role: 'admin' })).json().user.role).toBe('admin');
    const points = async () =>
      (await t.db.selectFrom('users').select('loyalty_points').where('id', '=', u.id).executeTakeFirstOrThrow()).loyalty_points;
    expect((await patch({ loyaltyPoints: 420 })).json().user.loyaltyPoints).toBe(420);
    // A negative value is accepted and stored as 0, never refused.
    const negative = await patch({ loyaltyPoints: -40 });
    expect(negative.statusCode).toBe(200);
    expect(negative.json().user.loyaltyPoints).toBe(0);
    expect(Number(await points())).toBe(0);
    await patch({ loyaltyPoints: 7 });
    const veryNegative = await patch({ loyaltyPoints: -2_000_000_000 });
    expect(veryNegative.statusCode).toBe(200);
    expect(Number(await points())).toBe(0);
    expect((await patchUser(t.db, 'some-admin', u.id, { loyaltyPoints: -5 })).loyaltyPoints).toBe(0);
    // Not a whole number: a readable 400, the stored value unchanged.
    await patch({ loyaltyPoints: 420 });
    const fractional = await patch({ loyaltyPoints: 1.5 });
    expect(fractional.statusCode).toBe(400);
    expect(typeof fractional.json().error).toBe('string');
    expect((await patch({ loyaltyPoints: 'lots' })).statusCode).toBe(400);
    expect(Number(await points())).toBe(420);
    const me = await t.db.selectFrom('users').select('id').where('email', '=', DEMO_ADMIN.email).executeTakeFirstOrThrow();
    expect((await admin.request('PATCH', `/api/admin/users/${me.id}`, { role: 'client' })).json().error).toBe(ADMIN_MESSAGES.ownRole);
    expect((await admin.request('PATCH', '/api/admin/users/nope', { emailVerified: true })).statusCode).toBe(404);
    // Demoting the other admin works while another admin remains; never the last one.
    expect((await patch({ role: 'client' })).json().user.role).toBe('client');
    const other = await createUser(t.db, { email: 'second.admin@example.com', role: 'admin' });
    await t.db.updateTable('users').set({ role: 'client' }).where('id', '=', me.id).execute();
    const last = await admin.request('PATCH', `/api/admin/users/${other.id}`, { role: 'client' });
    expect(last.statusCode).toBe(403); // the caller is no longer an admin
    await t.db.updateTable('users').set({ role: 'admin' }).where('id', '=', me.id).execute();
    // With one admin left, demoting them is refused.
    await t.db.updateTable('users').set({ role: 'client' }).where('id', '=', other.id).execute();
    await expect(patchUser(t.db, other.id, me.id, { role: 'client' })).rejects.toThrow(ADMIN_MESSAGES.lastAdmin);
  });
});
