import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, TestClient } from '../test/http-client.js';
import { DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';

let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

describe('admin shipping options', () => {
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

  it('"Estimated days" is optional: left empty or blank it is 5-7, typed it is kept', async () => {
    for (const estimatedDays of ['', '   ']) {
      const res = await admin.post('/api/admin/shipping-options', {
        name: `Courier ${estimatedDays.length}`,
        priceCents: 500,
        estimatedDays,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().option.estimatedDays).toBe('5-7');
      const id = res.json().option.id;
      const put = await admin.request('PUT', `/api/admin/shipping-options/${id}`, { name: 'Courier', priceCents: 500, estimatedDays: '' });
      expect(put.json().option.estimatedDays).toBe('5-7');
      expect((await admin.request('DELETE', `/api/admin/shipping-options/${id}`)).statusCode).toBe(200);
    }
    const typed = await admin.post('/api/admin/shipping-options', { name: 'Next day', priceCents: 1500, estimatedDays: '1' });
    expect(typed.json().option.estimatedDays).toBe('1');
    expect((await admin.request('DELETE', `/api/admin/shipping-options/${typed.json().option.id}`)).statusCode).toBe(200);
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
});
