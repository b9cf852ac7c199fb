import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, TestClient } from '../test/http-client.js';
import type { OrdersTable } from '../db/schema.js';
import { insertTestOrder, type TestOrderRow } from '../test/order-rows.js';

/*
 * Issue [4/6], "Figures the owner can trust": one rule of money received (orders/money-taken.ts)
 * behind the Store Statistics, the Orders overview and the orders CSV; and the pile to ship.
 */

let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

type Fixture = TestOrderRow & { status: OrdersTable['status']; paymentStatus: OrdersTable['payment_status'] };
const insertOrder = (o: Fixture) => insertTestOrder(t.db, o);

type Stats = { revenueCents: number; toShipOrders: number; totalOrders: number } & Record<string, number>;
const stats = async (): Promise<Stats> => {
  const res = await admin.get('/api/admin/stats');
  expect(res.statusCode).toBe(200);
  return res.json().stats;
};
const overviewRevenue = async () => (await admin.get('/api/admin/orders/overview?days=90')).json().totals.revenueCents as number;
/** The orders CSV (every order): each row's number and its Net column, in cents ('' stays ''). */
async function csvNet(): Promise<Map<string, string>> {
  const res = await admin.get('/api/admin/exports/orders.csv?payment=all');
  expect(res.statusCode).toBe(200);
  const [header, ...rows] = res.body.trim().split('\n').map(csvFields);
  const number = header!.indexOf('Order number');
  const net = header!.indexOf('Net');
  return new Map(rows.map((r) => [r[number]!, r[net]!]));
}
const cents = (text: string) => Math.round(Number(text) * 100);

/** One CSV line's fields (quoted fields may hold commas and doubled quotes). */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (c === ',' && !quoted) {
      fields.push(field);
      field = '';
    } else {
      field += c;
    }
  }
  fields.push(field);
  return fields;
}

describe('one revenue: money received net of refunds, the same on every screen and export', () => {
  it('agrees between the Store Statistics, the Orders overview and the orders CSV, order by order', async () => {
    const before = { stats: await stats(), overview: await overviewRevenue() };
    expect(before.overview).toBe(before.stats.revenueCents);

    const fixtures: (Fixture & { net: number | null })[] = [
      { totalCents: 5000, status: 'completed', paymentStatus: 'paid', net: 5000 },
      { totalCents: 4000, status: 'shipped', paymentStatus: 'paid', refundedCents: 1500, net: 2500 },
      { totalCents: 3000, status: 'cancelled', paymentStatus: 'refunded', refundedCents: 3000, net: 0 },
      // Cancelled without a refund: the shop still has the money.
      { totalCents: 2000, status: 'cancelled', paymentStatus: 'paid', net: 2000 },
      // Typed in by the owner, not paid yet; a checkout never paid; a declined one: no money.
      { totalCents: 5000, status: 'pending', paymentStatus: 'unpaid', provider: null, net: null },
      { totalCents: 9900, status: 'pending', paymentStatus: 'unpaid', net: null },
      { totalCents: 9900, status: 'pending', paymentStatus: 'failed', net: null },
    ];
    const numbers: string[] = [];
    for (const f of fixtures) {
      const id = await insertOrder(f);
      numbers.push(id.slice(-8).toUpperCase());
    }
    const received = fixtures.reduce((n, f) => n + (f.net ?? 0), 0);
    expect(received).toBe(9500);

    const after = { stats: await stats(), overview: await overviewRevenue() };
    expect(after.stats.revenueCents - before.stats.revenueCents).toBe(received);
    expect(after.overview).toBe(after.stats.revenueCents);

    const net = await csvNet();
    fixtures.forEach((f, i) => {
      // An order that took no money has no net in the export (not "$0.00", not its total).
      expect(net.get(numbers[i]!), `order ${i}`).toBe(f.net === null ? '' : (f.net / 100).toFixed(2));
    });
    const csvTotal = [...net.values()].reduce((n, v) => n + (v === '' ? 0 : cents(v)), 0);
    expect(csvTotal).toBe(after.stats.revenueCents);
  });
});

describe('the pile to ship', () => {
  it('counts paid orders not yet shipped on the dashboard, lists them under "to ship", and every status adds up', async () => {
    const before = await stats();
    const toShip = [
      await insertOrder({ totalCents: 1000, status: 'completed', paymentStatus: 'paid' }),
      await insertOrder({ totalCents: 1000, status: 'processing', paymentStatus: 'paid' }),
      // Refunded in part: still to ship.
      await insertOrder({ totalCents: 1000, status: 'completed', paymentStatus: 'paid', refundedCents: 300 }),
    ];
    // Not to ship: shipped, delivered, refunded in full, cancelled, and unpaid ones.
    await insertOrder({ totalCents: 1000, status: 'shipped', paymentStatus: 'paid' });
    await insertOrder({ totalCents: 1000, status: 'delivered', paymentStatus: 'paid' });
    await insertOrder({ totalCents: 1000, status: 'completed', paymentStatus: 'refunded', refundedCents: 1000 });
    await insertOrder({ totalCents: 1000, status: 'cancelled', paymentStatus: 'paid' });
    await insertOrder({ totalCents: 1000, status: 'processing', paymentStatus: 'unpaid', provider: null });

    const after = await stats();
    expect(after.toShipOrders - before.toShipOrders).toBe(3);
    // The status rows add up to the orders counted (completed ones included).
    const byStatus = ['pending', 'completed', 'processing', 'shipped', 'delivered', 'cancelled'].map((s) => after[`${s}Orders`]!);
    expect(byStatus.reduce((a, b) => a + b, 0)).toBe(after.totalOrders);

    const list = await admin.get('/api/admin/orders?status=to_ship&pageSize=100');
    expect(list.statusCode).toBe(200);
    const ids = list.json().items.map((o: { id: string }) => o.id);
    expect(list.json().total).toBe(after.toShipOrders);
    for (const id of toShip) expect(ids).toContain(id);
    for (const o of list.json().items as { status: string; paymentStatus: string }[]) {
      expect(['completed', 'processing']).toContain(o.status);
      expect(['paid', 'partially_refunded']).toContain(o.paymentStatus);
    }
    // The export takes the same filter.
    const csv = await admin.get('/api/admin/exports/orders.csv?status=to_ship');
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\n')).toHaveLength(1 + after.toShipOrders);
    // The filter lives inside the admin surface: a path spelled another way, or no session, gets no orders.
    const outsider = new TestClient(t.app);
    for (const path of ['/api/admin/orders?status=to_ship', '/api/%61dmin/orders?status=to_ship', '//api/admin/orders?status=to_ship']) {
      const res = await outsider.get(path);
      expect(res.statusCode, path).toBeGreaterThanOrEqual(400);
      expect(res.body, path).not.toContain('"items"');
    }
    // An unknown status says which ones exist.
    const bad = await admin.get('/api/admin/orders?status=to_pack');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('status must be one of pending, processing, shipped, delivered, cancelled, completed, to_ship');
  });
});
