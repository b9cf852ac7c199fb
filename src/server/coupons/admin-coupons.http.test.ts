import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, TestClient } from '../test/http-client.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { createProduct, createVariant } from '../db/seed/factories.js';

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

  it('gives a chosen variant of the free product (freeVariantId), and keeps it on an edit that does not name one', async () => {
    const gift = await createProduct(t.db, { name: 'Gift Candle', priceCents: 900, inventory: 5 });
    const lavender = await createVariant(t.db, gift.id, { options: ['Lavender'], priceCents: 900, inventory: 5 });
    const other = await createProduct(t.db, { name: 'Other Candle', priceCents: 900, inventory: 5 });
    const made = await admin.post('/api/admin/coupons', {
      code: 'GIFTVAR',
      discountValue: 0,
      freeProductId: gift.id,
      freeVariantId: lavender,
    });
    expect(made.statusCode, made.body).toBe(201);
    const c = made.json().coupon;
    expect(c).toMatchObject({ freeProductId: gift.id, freeVariantId: lavender });
    expect(
      (await t.db.selectFrom('coupons').select('free_variant_id').where('id', '=', c.id).executeTakeFirstOrThrow()).free_variant_id,
    ).toBe(lavender);
    expect((await admin.get('/api/admin/coupons?search=GIFTVAR')).json().items[0].freeVariantId).toBe(lavender);

    // Another product's variant, or a variant without its product, is refused with a reason.
    for (const [body, error] of [
      [{ freeProductId: gift.id, freeVariantId: `var_${other.id}` }, ADMIN_MESSAGES.freeVariantNotOfProduct],
      [{ freeProductId: gift.id, freeVariantId: 'var_nope' }, ADMIN_MESSAGES.freeVariantNotOfProduct],
      [{ freeProductId: null, freeVariantId: lavender }, ADMIN_MESSAGES.freeVariantWithoutProduct],
    ] as const) {
      const refused = await admin.post('/api/admin/coupons', { code: 'GIFTBAD', discountValue: 0, ...body });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toBe(error);
      const edited = await admin.request('PUT', `/api/admin/coupons/${c.id}`, { code: 'GIFTVAR', discountValue: 0, ...body });
      expect(edited.statusCode).toBe(400);
      expect(edited.json().error).toBe(error);
    }

    // Today's form names no variant: the coupon keeps its own while the product stays, and drops it with another product.
    const kept = await admin.request('PUT', `/api/admin/coupons/${c.id}`, { code: 'GIFTVAR', discountValue: 5, freeProductId: gift.id });
    expect(kept.json().coupon).toMatchObject({ discountValue: 5, freeVariantId: lavender });
    const cleared = await admin.request('PUT', `/api/admin/coupons/${c.id}`, {
      code: 'GIFTVAR',
      discountValue: 5,
      freeVariantId: null,
      freeProductId: gift.id,
    });
    expect(cleared.json().coupon.freeVariantId).toBeNull();
    await admin.request('PUT', `/api/admin/coupons/${c.id}`, {
      code: 'GIFTVAR',
      discountValue: 5,
      freeProductId: gift.id,
      freeVariantId: lavender,
    });
    const moved = await admin.request('PUT', `/api/admin/coupons/${c.id}`, { code: 'GIFTVAR', discountValue: 5, freeProductId: other.id });
    expect(moved.json().coupon).toMatchObject({ freeProductId: other.id, freeVariantId: null });
  });
});
