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

  it('refuses a coupon that ends before it starts, on create and on edit (with the saved start)', async () => {
    const from = '2026-12-01T00:00:00.000Z';
    const before = '2026-11-30T23:59:00.000Z';
    const bad = await admin.post('/api/admin/coupons', { code: 'BACKWARDS', discountValue: 10, validFrom: from, validUntil: before });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain(ADMIN_MESSAGES.couponUntilBeforeFrom);
    // The same instant is not after it either.
    expect(
      (await admin.post('/api/admin/coupons', { code: 'BACKWARDS', discountValue: 10, validFrom: from, validUntil: from })).statusCode,
    ).toBe(400);
    // No start given: it starts now, so an end in the past is refused too.
    const past = await admin.post('/api/admin/coupons', { code: 'PASTEND', discountValue: 10, validUntil: '2020-01-01T00:00:00.000Z' });
    expect(past.statusCode).toBe(400);
    expect(past.json().error).toBe(ADMIN_MESSAGES.couponUntilBeforeFrom);

    const ok = await admin.post('/api/admin/coupons', {
      code: 'FORWARDS',
      discountValue: 10,
      validFrom: from,
      validUntil: '2026-12-31T00:00:00.000Z',
    });
    expect(ok.statusCode).toBe(201);
    const id = ok.json().coupon.id;
    // An edit without a start keeps the saved one, and is checked against it.
    const edit = await admin.request('PUT', `/api/admin/coupons/${id}`, { code: 'FORWARDS', discountValue: 10, validUntil: before });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().error).toBe(ADMIN_MESSAGES.couponUntilBeforeFrom);
    const saved = await t.db.selectFrom('coupons').select(['valid_from', 'valid_until']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(saved).toEqual({ valid_from: from, valid_until: '2026-12-31T00:00:00.000Z' });
  });
});
