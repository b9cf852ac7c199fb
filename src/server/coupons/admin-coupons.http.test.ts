import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, TestClient } from '../test/http-client.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin.js';

let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

describe('admin coupons', () => {
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
});
