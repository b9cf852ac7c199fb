import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { FAKE_STRIPE_SECRET_KEY, fakeStripe } from '../test/fake-stripe.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';

/** Coupons copied to Stripe: in local mode (no key), against a fake Stripe, and when Stripe refuses. */
const stripe = fakeStripe();
let local: TestApp;
let withStripe: TestApp;
let localAdmin: TestClient;
let stripeAdmin: TestClient;

beforeAll(async () => {
  const base = await stripe.listen();
  [local, withStripe] = await Promise.all([
    createTestApp(),
    createTestApp({ env: { STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY, STRIPE_API_BASE: base } }),
  ]);
  localAdmin = new TestClient(local.app);
  stripeAdmin = new TestClient(withStripe.app);
  await localAdmin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  await stripeAdmin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => {
  await local?.close();
  await withStripe?.close();
  await stripe.close();
});

const row = (t: TestApp, id: string) => t.db.selectFrom('coupons').selectAll().where('id', '=', id).executeTakeFirst();
const couponCalls = () => stripe.requests.filter((r) => r.path.startsWith('/v1/coupons'));

describe('coupons in local mode (no Stripe key)', () => {
  it('create with syncStripe saves the coupon and answers stripe disabled with the spec text', async () => {
    const res = await localAdmin.post('/api/admin/coupons', { code: 'local10', discountValue: 10, syncStripe: true });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.stripe).toEqual({ status: 'disabled', message: 'Stripe integration disabled in local mode' });
    expect(body.stripe.message).toBe(ADMIN_MESSAGES.stripeCouponsDisabled);
    expect(body.coupon).toMatchObject({ code: 'LOCAL10', discountValue: 10, stripeCouponId: null });
    expect(await row(local, body.coupon.id)).toMatchObject({ code: 'LOCAL10', stripe_coupon_id: null });
    const listed = (await localAdmin.get('/api/admin/coupons?search=LOCAL10')).json().items;
    expect(listed.map((c: { code: string }) => c.code)).toEqual(['LOCAL10']);

    const del = await localAdmin.request('DELETE', `/api/admin/coupons/${body.coupon.id}?syncStripe=true`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ ok: true, stripe: { status: 'disabled', message: ADMIN_MESSAGES.stripeCouponsDisabled } });
    expect(await row(local, body.coupon.id)).toBeUndefined();
  });

  it('a coupon without syncStripe answers no stripe part; one that has a Stripe id is still deleted locally', async () => {
    const plain = await localAdmin.post('/api/admin/coupons', { code: 'PLAIN5', discountValue: 5 });
    expect(plain.statusCode).toBe(201);
    expect(plain.json().stripe).toBeUndefined();

    // Made while Stripe keys were set, then the keys were removed.
    await local.db.updateTable('coupons').set({ stripe_coupon_id: 'coupon_old' }).where('id', '=', plain.json().coupon.id).execute();
    const del = await localAdmin.request('DELETE', `/api/admin/coupons/${plain.json().coupon.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json().stripe).toEqual({ status: 'disabled', message: ADMIN_MESSAGES.stripeCouponsDisabled });
    expect(await row(local, plain.json().coupon.id)).toBeUndefined();
    expect((await localAdmin.request('DELETE', `/api/admin/coupons/${plain.json().coupon.id}`)).json().error).toBe(
      ADMIN_MESSAGES.couponNotFound,
    );
  });

  it('refuses a syncStripe that is not a boolean', async () => {
    const res = await localAdmin.post('/api/admin/coupons', { code: 'BADSYNC', discountValue: 5, syncStripe: 'yes' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('syncStripe must be true or false');
  });
});

describe('coupons copied to Stripe', () => {
  it('a percentage coupon: POST /v1/coupons with percent_off, the Stripe id stored, DELETE /v1/coupons/{id} on delete', async () => {
    const before = couponCalls().length;
    const res = await stripeAdmin.post('/api/admin/coupons', {
      code: 'green15',
      discountType: 'percentage',
      discountValue: 15,
      syncStripe: true,
    });
    expect(res.statusCode).toBe(201);
    const { coupon, stripe: sync } = res.json();
    expect(sync).toEqual({ status: 'synced' });

    const created = couponCalls().slice(before);
    expect(created).toHaveLength(1);
    const call = created[0]!;
    expect(call.method).toBe('POST');
    expect(call.body.get('percent_off')).toBe('15');
    expect(call.body.has('amount_off')).toBe(false);
    expect(call.body.get('duration')).toBe('once');
    expect(call.body.get('name')).toBe('GREEN15');
    expect(call.body.get('metadata[code]')).toBe('GREEN15');
    expect(call.idempotencyKey).toBe(`admin-coupon-${coupon.id}`);

    const stripeId = [...stripe.coupons.keys()].at(-1)!;
    expect(coupon.stripeCouponId).toBe(stripeId);
    expect((await row(withStripe, coupon.id))!.stripe_coupon_id).toBe(stripeId);
    const listed = (await stripeAdmin.get('/api/admin/coupons?search=GREEN15')).json().items[0];
    expect(listed.stripeCouponId).toBe(stripeId);

    const del = await stripeAdmin.request('DELETE', `/api/admin/coupons/${coupon.id}`);
    expect(del.json()).toEqual({ ok: true, stripe: { status: 'synced' } });
    expect(couponCalls().at(-1)).toMatchObject({ method: 'DELETE', path: `/v1/coupons/${stripeId}` });
    expect(stripe.coupons.has(stripeId)).toBe(false);
    expect(await row(withStripe, coupon.id)).toBeUndefined();
  });

  it('a fixed coupon sends amount_off in cents and currency usd', async () => {
    const res = await stripeAdmin.post('/api/admin/coupons', {
      code: 'FIVEOFF',
      discountType: 'fixed',
      discountValue: 500,
      syncStripe: true,
    });
    expect(res.json().stripe).toEqual({ status: 'synced' });
    const call = couponCalls().at(-1)!;
    expect(call.body.get('amount_off')).toBe('500');
    expect(call.body.get('currency')).toBe('usd');
    expect(call.body.has('percent_off')).toBe(false);
  });

  it('without syncStripe nothing goes to Stripe, and deleting it calls Stripe for nothing', async () => {
    const before = stripe.requests.length;
    const res = await stripeAdmin.post('/api/admin/coupons', { code: 'SHOPONLY', discountValue: 5 });
    expect(res.json().stripe).toBeUndefined();
    expect(res.json().coupon.stripeCouponId).toBeNull();
    const del = await stripeAdmin.request('DELETE', `/api/admin/coupons/${res.json().coupon.id}?syncStripe=true`);
    expect(del.json()).toEqual({ ok: true });
    expect(stripe.requests.length).toBe(before);
  });

  it('a coupon Stripe no longer knows is deleted here and counts as synced', async () => {
    const { coupon } = (await stripeAdmin.post('/api/admin/coupons', { code: 'GONEIN', discountValue: 5, syncStripe: true })).json();
    stripe.coupons.delete(coupon.stripeCouponId);
    const del = await stripeAdmin.request('DELETE', `/api/admin/coupons/${coupon.id}`);
    expect(del.json()).toEqual({ ok: true, stripe: { status: 'synced' } });
    expect(await row(withStripe, coupon.id)).toBeUndefined();
  });

  it("when Stripe refuses, the coupon is still saved and stripe.status is failed with Stripe's message", async () => {
    stripe.failOnce(400, 'Invalid percent_off: must be greater than 0');
    const res = await stripeAdmin.post('/api/admin/coupons', { code: 'REFUSED', discountValue: 0, syncStripe: true });
    expect(res.statusCode).toBe(201);
    const { coupon, stripe: sync } = res.json();
    expect(sync).toEqual({ status: 'failed', message: 'Invalid percent_off: must be greater than 0' });
    expect(coupon.stripeCouponId).toBeNull();
    expect(await row(withStripe, coupon.id)).toMatchObject({ code: 'REFUSED', stripe_coupon_id: null });
    // Stripe's 400 is final: no retry.
    expect(couponCalls().filter((r) => r.body.get('metadata[couponId]') === coupon.id)).toHaveLength(1);
  });
});
