import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, TestClient } from '../test/http-client.js';
import { DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { insertTestOrder, type TestOrderRow } from '../test/order-rows.js';

let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));
// These cases count UTC days; the shop's own time zone has its cases in reports.http.test.ts.
beforeAll(async () => {
  expect((await admin.request('PUT', '/api/admin/settings/time-zone', { shop_time_zone: 'UTC' })).statusCode).toBe(200);
});

const DAY_MS = 24 * 60 * 60 * 1000;
const todayStart = () => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
};
/** 'YYYY-MM-DD' of the UTC day `daysAgo` days before today. */
const dateAgo = (daysAgo: number) => new Date(todayStart() - daysAgo * DAY_MS).toISOString().slice(0, 10);
/** An instant on that day: noon unless a time is given. */
const at = (daysAgo: number, time = '12:00:00.000') => `${dateAgo(daysAgo)}T${time}Z`;

const insertOrder = (o: TestOrderRow & { createdAt: string }) => insertTestOrder(t.db, o);

type Overview = {
  from: string;
  to: string;
  timeZone: string;
  days: { date: string; orders: number; revenueCents: number }[];
  byStatus: { status: string; count: number }[];
  totals: { orders: number; revenueCents: number };
};
const overview = async (query = ''): Promise<Overview> => {
  const res = await admin.get(`/api/admin/orders/overview${query}`);
  expect(res.statusCode).toBe(200);
  return res.json();
};
const day = (o: Overview, daysAgo: number) => o.days.find((d) => d.date === dateAgo(daysAgo));
const statusCounts = (o: Overview) => Object.fromEntries(o.byStatus.map((s) => [s.status, s.count]));

describe('GET /api/admin/orders/overview', () => {
  it('answers 30 zero days ending today when there are no orders', async () => {
    const o = await overview();
    expect(o.days).toHaveLength(30);
    expect(o.days[0]!.date).toBe(dateAgo(29));
    expect(o.days[29]!.date).toBe(dateAgo(0));
    expect([o.from, o.to, o.timeZone]).toEqual([dateAgo(29), dateAgo(0), 'UTC']);
    expect(o.days.every((d) => d.orders === 0 && d.revenueCents === 0)).toBe(true);
    expect(o.totals).toEqual({ orders: 0, revenueCents: 0 });
    expect(o.byStatus).toEqual(
      ['pending', 'processing', 'shipped', 'delivered', 'cancelled', 'completed'].map((status) => ({ status, count: 0 })),
    );
  });

  it('sums orders and revenue per UTC day inside the window, zero-filling the rest', async () => {
    // Today: a phone order the shop entered (no payment provider, unpaid) is a placed order, but
    // brings in no money until its payment is recorded (orders/money-taken.ts).
    await insertOrder({
      createdAt: new Date().toISOString(),
      totalCents: 1000,
      status: 'processing',
      paymentStatus: 'unpaid',
      provider: null,
    });
    // Two days ago: two paid checkouts on the same day.
    await insertOrder({ createdAt: at(2, '08:15:00.000'), totalCents: 2500, status: 'completed' });
    await insertOrder({ createdAt: at(2, '21:40:00.000'), totalCents: 1500, status: 'shipped' });
    // Three days ago: checkout attempts that were never paid are not orders.
    await insertOrder({ createdAt: at(3), totalCents: 9900, status: 'pending', paymentStatus: 'expired' });
    await insertOrder({ createdAt: at(3), totalCents: 9900, status: 'cancelled', paymentStatus: 'expired' });
    await insertOrder({ createdAt: at(3), totalCents: 9900, status: 'pending', paymentStatus: 'unpaid' });
    // Five days ago a paid order cancelled without a refund: the shop kept the money. Six days ago one
    // refunded in full: an order, but no money.
    await insertOrder({ createdAt: at(5), totalCents: 3000, status: 'cancelled' });
    await insertOrder({ createdAt: at(6), totalCents: 700, status: 'completed', paymentStatus: 'refunded', refundedCents: 700 });
    // The window's first instant is in; the instant before it and 40 days ago are out.
    await insertOrder({ createdAt: at(29, '00:00:00.000'), totalCents: 1234, status: 'pending', paymentStatus: 'unpaid', provider: null });
    await insertOrder({ createdAt: at(30, '23:59:59.999'), totalCents: 5000, status: 'delivered' });
    await insertOrder({ createdAt: at(40), totalCents: 8000, status: 'delivered' });

    const o = await overview();
    expect(o.days).toHaveLength(30);
    expect(o.days.map((d) => d.date)).toEqual(Array.from({ length: 30 }, (_, i) => dateAgo(29 - i)));
    expect(day(o, 0)).toEqual({ date: dateAgo(0), orders: 1, revenueCents: 0 });
    expect(day(o, 1)).toEqual({ date: dateAgo(1), orders: 0, revenueCents: 0 });
    expect(day(o, 2)).toEqual({ date: dateAgo(2), orders: 2, revenueCents: 4000 });
    expect(day(o, 3)).toEqual({ date: dateAgo(3), orders: 0, revenueCents: 0 });
    expect(day(o, 5)).toEqual({ date: dateAgo(5), orders: 1, revenueCents: 3000 });
    expect(day(o, 6)).toEqual({ date: dateAgo(6), orders: 1, revenueCents: 0 });
    expect(day(o, 29)).toEqual({ date: dateAgo(29), orders: 1, revenueCents: 0 });
    expect(o.days.filter((d) => d.orders > 0).map((d) => d.date)).toEqual([dateAgo(29), dateAgo(6), dateAgo(5), dateAgo(2), dateAgo(0)]);
    expect(o.totals).toEqual({ orders: 6, revenueCents: 7000 });
    expect(statusCounts(o)).toEqual({ pending: 1, processing: 1, shipped: 1, delivered: 0, cancelled: 1, completed: 2 });

    const week = await overview('?days=7');
    expect(week.days).toHaveLength(7);
    expect(week.days[0]!.date).toBe(dateAgo(6));
    expect(week.totals).toEqual({ orders: 5, revenueCents: 7000 });
    expect(statusCounts(week)).toEqual({ pending: 0, processing: 1, shipped: 1, delivered: 0, cancelled: 1, completed: 2 });

    const quarter = await overview('?days=90');
    expect(quarter.days).toHaveLength(90);
    expect(day(quarter, 30)).toEqual({ date: dateAgo(30), orders: 1, revenueCents: 5000 });
    expect(day(quarter, 40)).toEqual({ date: dateAgo(40), orders: 1, revenueCents: 8000 });
    expect(quarter.totals).toEqual({ orders: 8, revenueCents: 20000 });
    expect(statusCounts(quarter).delivered).toBe(2);
  });

  it('counts an order created and deleted through the admin API', async () => {
    const before = day(await overview(), 0)!;
    const customer = await t.db.selectFrom('users').select('id').where('email', '=', DEMO_CUSTOMER.email).executeTakeFirstOrThrow();
    const created = await admin.post('/api/admin/orders', {
      user_id: customer.id,
      shipping_address: '1 Chart St',
      total_amount: 12.34,
      status: 'pending',
      elapsedMs: 3000,
    });
    expect(created.statusCode).toBe(201);
    // Typed in by the owner and not paid yet: an order, no money received.
    expect(day(await overview(), 0)).toEqual({ date: dateAgo(0), orders: before.orders + 1, revenueCents: before.revenueCents });
    await admin.request('PATCH', `/api/admin/orders/${created.json().order.id}/status`, { status: 'cancelled' });
    expect(day(await overview(), 0)).toEqual({ date: dateAgo(0), orders: before.orders + 1, revenueCents: before.revenueCents });
    await admin.request('DELETE', `/api/admin/orders/${created.json().order.id}`);
    expect(day(await overview(), 0)).toEqual(before);
  });

  it('refuses a days value that is not a whole number from 7 to 90', async () => {
    for (const q of ['?days=abc', '?days=500', '?days=6', '?days=91', '?days=7.5', '?days=', '?days=30&extra=1']) {
      const res = await admin.get(`/api/admin/orders/overview${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error, q).toEqual(expect.any(String));
    }
    expect((await admin.get('/api/admin/orders/overview?days=abc')).json().error).toContain('days must be a number');
    expect((await admin.get('/api/admin/orders/overview?days=500')).json().error).toContain('days cannot exceed 90');
  });

  it('is for admins only', async () => {
    expect((await new TestClient(t.app).get('/api/admin/orders/overview')).statusCode).toBe(401);
    const customer = new TestClient(t.app, '10.0.0.9');
    expect((await customer.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password)).statusCode).toBe(200);
    expect((await customer.get('/api/admin/orders/overview')).statusCode).toBe(403);
  });
});
