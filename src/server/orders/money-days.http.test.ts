import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, TestClient } from '../test/http-client.js';
import { createProduct } from '../db/seed/factories.js';
import { insertTestOrder } from '../test/order-rows.js';
import { addDays, localDateOf } from '../../shared/shop-time.js';

/**
 * Money counted on the day it moved (issue [2/8], decision 0046): a payment on the day it was
 * taken, a refund on the day it was made, in the shop's time zone. A figure already reported never
 * changes when a refund comes later.
 */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const address = { name: 'Pat Period', address: '5 Money Row', city: 'Portland', state: 'OR', zip: '97201', country: 'US' };
const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Pat Period' };
const ZONE = 'America/New_York';
const DAY_MS = 86_400_000;

type Money = {
  takenCents: number;
  refundedCents: number;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
};
type Overview = {
  days: { date: string; orders: number; revenueCents: number }[];
  totals: { orders: number; revenueCents: number };
  money: Money;
};
async function overview(from: string, to = from): Promise<Overview> {
  const res = await admin.get(`/api/admin/orders/overview?from=${from}&to=${to}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const shopDay = (ms: number) => localDateOf(ms, ZONE);

/** A checkout paid with the built-in test card, then moved `daysAgo` days back (placed and paid then). */
async function paidCheckout(productId: string, daysAgo: number) {
  const c = new TestClient(t.app, `10.77.0.${daysAgo}`);
  const res = await c.post('/api/create-checkout-session', {
    items: [{ productId, quantity: 2 }],
    customerEmail: 'pat@example.com',
    shippingAddress: address,
    appliedCouponCode: null,
  });
  expect(res.statusCode, res.body).toBe(200);
  const { sessionId, orderId } = res.json() as { sessionId: string; orderId: string };
  expect((await c.request('POST', `/pay/${sessionId}`, new URLSearchParams(card))).statusCode).toBeLessThan(400);
  const then = new Date(Date.now() - daysAgo * DAY_MS).toISOString();
  await t.db.updateTable('orders').set({ created_at: then, paid_at: then }).where('id', '=', orderId).execute();
  return { orderId, then };
}

describe('the overview counts money on the day it moved', () => {
  it('a refund made next month lowers next month, and last month’s figure stays as reported (with its tax, shipping and discount)', async () => {
    expect((await admin.request('PUT', '/api/admin/settings/time-zone', { shop_time_zone: ZONE })).statusCode).toBe(200);
    await createProduct(t.db, { id: 'md-soap', priceCents: 2000, inventory: 20 });
    const { orderId, then } = await paidCheckout('md-soap', 40);
    const row = await t.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    const total = Number(row.total_cents);
    const paidDay = shopDay(Date.parse(then));
    const today = shopDay(Date.now());

    const before = await overview(addDays(paidDay, -3), addDays(paidDay, 3));
    expect(before.totals).toEqual({ orders: 1, revenueCents: total });
    expect(before.money).toEqual({
      takenCents: total,
      refundedCents: 0,
      subtotalCents: Number(row.subtotal_cents),
      discountCents: Number(row.discount_cents),
      shippingCents: Number(row.shipping_cents),
      taxCents: Number(row.tax_cents),
    });
    expect(before.money.subtotalCents - before.money.discountCents + before.money.shippingCents + before.money.taxCents).toBe(total);

    // Today, 40 days later, the owner refunds part of it.
    const refund = await admin.post(`/api/admin/orders/${orderId}/refunds`, { amountCents: 1500, reason: 'One bar arrived broken' });
    expect(refund.statusCode, refund.body).toBe(201);

    // The earlier period's figures have not moved.
    const after = await overview(addDays(paidDay, -3), addDays(paidDay, 3));
    expect(after.totals).toEqual(before.totals);
    expect(after.money).toEqual(before.money);
    expect(after.days).toEqual(before.days);
    // Today's period holds the refund: no order placed, 15.00 less revenue.
    const now = await overview(today);
    expect(now.totals).toEqual({ orders: 0, revenueCents: -1500 });
    expect(now.money).toMatchObject({ takenCents: 0, refundedCents: 1500 });
    // Over both, the same as the order's net received (the one rule, money-taken.ts).
    const both = await overview(paidDay, today);
    expect(both.totals.revenueCents).toBe(total - 1500);
    const netShown = (await admin.get(`/api/admin/orders/${orderId}`)).json().order.netCents as number;
    expect(both.totals.revenueCents).toBe(netShown);
  });

  it('counts a payment on the day it was taken and a refund on the shop’s day it was made, at 23:30 shop time', async () => {
    expect((await admin.request('PUT', '/api/admin/settings/time-zone', { shop_time_zone: ZONE })).statusCode).toBe(200);
    // Typed in by the owner on 3 March, paid on 20 March at 23:30 New York time (EDT: 03:30 UTC on the 21st).
    const id = await insertTestOrder(t.db, { totalCents: 5000, provider: null, createdAt: '2026-03-03T15:00:00.000Z' });
    await t.db.updateTable('orders').set({ paid_at: '2026-03-21T03:30:00.000Z', payment_provider: 'cash' }).where('id', '=', id).execute();
    // Refunded on 2 April at 23:30 New York time (03:30 UTC on the 3rd).
    await t.db
      .insertInto('refunds')
      .values({
        id: 'ref_md_late',
        order_id: id,
        amount_cents: 1200,
        provider: 'test',
        provider_refund_id: 'tre_md',
        status: 'succeeded',
        reason: null,
        restock: 0,
        error: null,
        actor_user_id: null,
        actor_label: 'owner@example.com',
        created_at: '2026-04-03T03:29:00.000Z',
        settled_at: '2026-04-03T03:30:00.000Z',
        return_lines: null,
      })
      .execute();
    await t.db.updateTable('orders').set({ refunded_cents: 1200 }).where('id', '=', id).execute();

    const placed = await overview('2026-03-03');
    expect(placed.totals).toEqual({ orders: 1, revenueCents: 0 });
    const paid = await overview('2026-03-20');
    expect(paid.totals).toEqual({ orders: 0, revenueCents: 5000 });
    expect(paid.money.takenCents).toBe(5000);
    expect((await overview('2026-03-21')).totals.revenueCents).toBe(0);
    const refunded = await overview('2026-04-02');
    expect(refunded.totals).toEqual({ orders: 0, revenueCents: -1200 });
    expect(refunded.money.refundedCents).toBe(1200);
    expect((await overview('2026-04-03')).totals.revenueCents).toBe(0);
    const month = await overview('2026-03-01', '2026-03-31');
    expect(month.totals).toEqual({ orders: 1, revenueCents: 5000 });
    expect(month.days.find((d) => d.date === '2026-03-20')?.revenueCents).toBe(5000);
  });
});
