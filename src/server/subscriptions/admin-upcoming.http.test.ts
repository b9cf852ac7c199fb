import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { makeSubscription, renewalDeps } from '../test/subscriptions.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import type { SubscriptionStatus } from '../db/schema.js';
import { adjustStock } from '../inventory/admin.js';
import { stockItemIdFor } from '../inventory/stock.js';
import { runRenewals } from './renewals.js';
import { AdminUpcomingResponse, type AdminUpcomingRow } from '../../client/admin/subscriptions/subscription-schemas.js';

/**
 * "Upcoming" on the owner's Subscriptions tab (issue [5/8]): 200 subscriptions of five variants
 * with mixed intervals, quantities and statuses, due from 20 days ago to 100 days ahead. The
 * route's units are checked against a plain walk over each subscription's dates, and then against
 * what the schedule itself renews when it is run forward through 90 days; the stock and shortfalls
 * against the levels less an open checkout's hold; the CSV against the JSON; and the guard.
 */
let t: TestApp;
let admin: TestClient;
let customer: TestClient;
let guest: TestClient;

const DAY = 86_400_000;
const WEEK = 7 * DAY;
const WINDOWS = [7, 30, 90] as const;
const COUNT = 200;
const INTERVALS = [1, 2, 3, 4, 6, 8];

type Variant = { productId: string; variantId: string; name: string; sku: string; onHand: number };
let variants: Variant[];
type Made = { id: string; variantId: string; everyWeeks: number; quantity: number; status: SubscriptionStatus; nextRenewalAt: string };
const made: Made[] = [];
const HELD = 4;

beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app, '10.61.0.1');
  expect((await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
  const user = await createUser(t.db, { email: 'upcoming.customer@example.com' });
  customer = new TestClient(t.app, '10.61.0.2');
  expect((await customer.signIn(user.email, user.password)).statusCode).toBe(200);
  guest = new TestClient(t.app, '10.61.0.3');

  const powder = await createProduct(t.db, {
    name: 'Upcoming Powder',
    sku: 'UP-POW-2',
    priceCents: 1800,
    inventory: 30,
    options: [{ name: 'Size', values: ['2 lb', '5 lb'] }],
    variants: [
      { options: ['2 lb'], priceCents: 1800, inventory: 30 },
      { options: ['5 lb'], priceCents: 3600, sku: 'UP-POW-5', inventory: 0 },
    ],
  });
  const soap = await createProduct(t.db, { name: 'Upcoming Dish Soap', sku: 'UP-SOAP', priceCents: 900, inventory: 500 });
  const cleaner = await createProduct(t.db, {
    name: 'Upcoming Glass Cleaner',
    sku: 'UP-GLS-L',
    priceCents: 1200,
    inventory: 12,
    options: [{ name: 'Scent', values: ['Lemon', 'Unscented'] }],
    variants: [
      { options: ['Lemon'], priceCents: 1200, inventory: 12 },
      { options: ['Unscented'], priceCents: 1200, sku: 'UP-GLS-U', inventory: 5000 },
    ],
  });
  variants = [
    { productId: powder.id, variantId: `var_${powder.id}`, name: 'Upcoming Powder — 2 lb', sku: 'UP-POW-2', onHand: 30 },
    { productId: powder.id, variantId: `var_${powder.id}-5-lb`, name: 'Upcoming Powder — 5 lb', sku: 'UP-POW-5', onHand: 0 },
    { productId: soap.id, variantId: `var_${soap.id}`, name: 'Upcoming Dish Soap', sku: 'UP-SOAP', onHand: 500 },
    { productId: cleaner.id, variantId: `var_${cleaner.id}`, name: 'Upcoming Glass Cleaner — Lemon', sku: 'UP-GLS-L', onHand: 12 },
    {
      productId: cleaner.id,
      variantId: `var_${cleaner.id}-unscented`,
      name: 'Upcoming Glass Cleaner — Unscented',
      sku: 'UP-GLS-U',
      onHand: 5000,
    },
  ];

  const now = Date.now();
  for (let i = 0; i < COUNT; i++) {
    const v = variants[(i * 3) % variants.length]!;
    const everyWeeks = INTERVALS[i % INTERVALS.length]!;
    const quantity = 1 + ((i * 7) % 4);
    // From 20 days ago (a cycle waiting for stock or a card) to 100 days ahead, at any hour.
    const nextRenewalAt = new Date(now + (((i * 37) % 120) - 20) * DAY + (i % 24) * 3_600_000 + i * 1000).toISOString();
    // One in ten paused (its date is the day it resumes, inside or outside the windows), failing, cancelled.
    const status: SubscriptionStatus = i % 10 === 3 ? 'paused' : i % 10 === 5 ? 'payment_failing' : i % 10 === 7 ? 'cancelled' : 'active';
    const s = await makeSubscription(t.db, {
      nextRenewalAt,
      everyWeeks,
      quantity,
      product: { id: v.productId, variantId: v.variantId },
    });
    if (status !== 'active')
      await t.db
        .updateTable('subscriptions')
        .set({
          status,
          failing_since: status === 'payment_failing' ? new Date(now - DAY).toISOString() : null,
          cancelled_at: status === 'cancelled' ? new Date(now - DAY).toISOString() : null,
        })
        .where('id', '=', s.id)
        .execute();
    made.push({ id: s.id, variantId: v.variantId, everyWeeks, quantity, status, nextRenewalAt });
  }

  // An open checkout holds 4 units of the lemon cleaner now: what is in stock is 12 − 4.
  const at = new Date().toISOString();
  await t.db
    .insertInto('orders')
    .values({
      id: 'order_upcoming_hold',
      order_number: 'ORDER_UPCOMING_HOLD',
      user_id: null,
      email: 'holds@example.com',
      status: 'pending',
      payment_status: 'unpaid',
      payment_provider: 'stripe',
      payment_session_id: null,
      shipping_address: null,
      billing_address: null,
      subtotal_cents: 100,
      discount_cents: 0,
      shipping_cents: 0,
      tax_cents: 0,
      total_cents: 100,
      coupon_code: null,
      shipping_option_id: null,
      shipstation_data: null,
      shipstation_tracking_number: null,
      guest_token_hash: null,
      created_at: at,
      updated_at: at,
      paid_at: null,
    })
    .execute();
  const lemon = variants[3]!;
  const until = new Date(Date.now() + 30 * 60_000).toISOString();
  await t.db
    .insertInto('stock_reservations')
    .values({
      order_id: 'order_upcoming_hold',
      stock_item_id: stockItemIdFor(lemon.productId, lemon.variantId),
      product_id: lemon.productId,
      variant_id: lemon.variantId,
      quantity: HELD,
      firm_until: until,
      expires_at: until,
      ip: null,
      device_id: null,
      user_id: null,
      created_at: at,
      released_at: null,
      counted: 1,
    })
    .execute();
  await t.db
    .updateTable('stock_items')
    .set({ reserved: HELD })
    .where('id', '=', stockItemIdFor(lemon.productId, lemon.variantId))
    .execute();
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function upcoming() {
  const res = await admin.get('/api/admin/subscriptions/upcoming');
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return AdminUpcomingResponse.parse(res.json());
}

/**
 * The units each variant gets per window, by walking every subscription's dates one by one: due
 * dates in the past are renewed once now, and the rhythm goes on from the first date after now.
 */
function walked(now: number): Map<string, number[]> {
  const units = new Map<string, number[]>();
  for (const s of made) {
    if (s.status === 'cancelled') continue;
    const dates: number[] = [];
    let d = Date.parse(s.nextRenewalAt);
    if (d < now) {
      dates.push(now);
      while (d <= now) d += s.everyWeeks * WEEK;
    }
    for (; d < now + 90 * DAY; d += s.everyWeeks * WEEK) dates.push(d);
    const per = units.get(s.variantId) ?? [0, 0, 0];
    WINDOWS.forEach((days, w) => {
      per[w]! += dates.filter((x) => x >= now && x < now + days * DAY).length * s.quantity;
    });
    units.set(s.variantId, per);
  }
  return units;
}

const unitsOf = (r: AdminUpcomingRow) => [r.units7, r.units30, r.units90];

/** A CSV body as rows of fields (RFC 4180 quotes). */
function parseCsv(body: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && body[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

describe(`upcoming subscription units on ${testDialect()}`, () => {
  it('counts each variant’s units per window as a walk over every subscription’s dates does, with stock and shortfalls', async () => {
    const answer = await upcoming();
    expect(answer.windows).toEqual([7, 30, 90]);
    const now = Date.parse(answer.generatedAt);
    const expected = walked(now);
    // Every variant has renewing subscriptions due within 90 days.
    expect(answer.rows.map((r) => r.variantId).sort()).toEqual([...expected.keys()].sort());
    expect(answer.rows).toHaveLength(5);
    for (const r of answer.rows) {
      const v = variants.find((x) => x.variantId === r.variantId)!;
      expect(unitsOf(r), r.name).toEqual(expected.get(r.variantId));
      expect(r.name).toBe(v.name);
      expect(r.sku).toBe(v.sku);
      expect(r.productId).toBe(v.productId);
      const available = v.onHand - (r.variantId === variants[3]!.variantId ? HELD : 0);
      expect(r.available, r.name).toBe(available);
      expect([r.shortfall7, r.shortfall30, r.shortfall90], r.name).toEqual(unitsOf(r).map((u) => Math.max(0, u - available)));
    }
    // The data make the windows differ and some variants short: the check above compares something.
    const all = answer.rows.reduce((a, r) => a.map((x, i) => x + unitsOf(r)[i]!), [0, 0, 0]);
    expect(all[0]).toBeGreaterThan(0);
    expect(all[0]).toBeLessThan(all[1]!);
    expect(all[1]).toBeLessThan(all[2]!);
    expect(answer.rows.some((r) => r.shortfall30 > 0)).toBe(true);
    expect(answer.rows.some((r) => r.shortfall90 === 0)).toBe(true);
    // The largest 30-day shortfall first, then the 90-day one, then the most units in 90 days.
    const order = [...answer.rows].sort(
      (a, b) => b.shortfall30 - a.shortfall30 || b.shortfall90 - a.shortfall90 || b.units90 - a.units90 || a.name.localeCompare(b.name),
    );
    expect(answer.rows.map((r) => r.variantId)).toEqual(order.map((r) => r.variantId));
  });

  it('writes the same rows as CSV, cells escaped as the other exports', async () => {
    const answer = await upcoming();
    const res = await admin.get('/api/admin/subscriptions/upcoming.csv');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="subscriptions-upcoming-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual([
      'Product',
      'SKU',
      'Variant id',
      'Next 7 days',
      'Next 30 days',
      'Next 90 days',
      'In stock',
      'Short by (7 days)',
      'Short by (30 days)',
      'Short by (90 days)',
    ]);
    // Nothing renewed in between: the same figures, in the same order.
    expect(rows).toEqual(
      answer.rows.map((r) =>
        [r.name, r.sku ?? '', r.variantId, r.units7, r.units30, r.units90, r.available, r.shortfall7, r.shortfall30, r.shortfall90].map(
          String,
        ),
      ),
    );
  });

  it('turns a customer (403) and a guest (401) away; `upcoming` is not taken for an id', async () => {
    for (const path of ['/api/admin/subscriptions/upcoming', '/api/admin/subscriptions/upcoming.csv']) {
      expect((await customer.get(path)).statusCode, path).toBe(403);
      expect((await guest.get(path)).statusCode, path).toBe(401);
    }
    const res = await admin.get('/api/admin/subscriptions/upcoming');
    expect(res.json()).not.toHaveProperty('subscription');
    expect(res.json().rows.length).toBe(5);
    // The routes of one subscription still take their ids (one named `upcoming` is simply unknown).
    expect((await admin.get(`/api/admin/subscriptions/${made[0]!.id}`)).json().subscription.id).toBe(made[0]!.id);
    expect((await admin.post('/api/admin/subscriptions/upcoming/cancel', { notifyCustomer: false })).statusCode).toBe(404);
  });

  it('equals what the schedule renews when run forward through 90 days, every 12 hours', { timeout: 600_000 }, async () => {
    const answer = await upcoming();
    const t0 = Date.parse(answer.generatedAt);
    // Nothing may wait for stock: every level raised far above what 90 days take, the hold ended.
    await t.db.deleteFrom('stock_reservations').where('order_id', '=', 'order_upcoming_hold').execute();
    const lemon = variants[3]!;
    await t.db.updateTable('stock_items').set({ reserved: 0 }).where('id', '=', stockItemIdFor(lemon.productId, lemon.variantId)).execute();
    for (const v of variants)
      await adjustStock(t.db, { variantId: v.variantId }, { reason: 'counted', quantity: 100_000 }, { userId: null, label: 'Test' });

    const deps = renewalDeps(t);
    for (let at = t0; at <= t0 + 90 * DAY; at += DAY / 2) {
      for (;;) {
        const turn = await runRenewals(deps, new Date(at), 200);
        if (turn.scheduled === 0 && turn.worked === 0) break;
      }
    }
    // Nothing left half-done: every cycle begun is paid, but those written for after the last turn (their reminder sent).
    const open = await t.db.selectFrom('subscription_cycles').select(['status', 'due_at']).where('status', '<>', 'paid').execute();
    expect(open.filter((c) => c.status !== 'scheduled' || Date.parse(c.due_at) <= t0 + 90 * DAY)).toEqual([]);

    const paid = await t.db
      .selectFrom('subscription_cycles as c')
      .innerJoin('orders as o', 'o.id', 'c.order_id')
      .innerJoin('order_items as i', 'i.order_id', 'o.id')
      .select(['c.due_at', 'i.variant_id', 'i.quantity', 'o.payment_status', 'o.origin'])
      .where('c.status', '=', 'paid')
      .execute();
    const renewed = new Map<string, number[]>();
    for (const p of paid) {
      expect(p.payment_status).toBe('paid');
      expect(p.origin).toBe('renewal');
      // A cycle due before the answer (waiting for stock, retrying a card) was renewed then.
      const due = Math.max(t0, Date.parse(p.due_at));
      const per = renewed.get(p.variant_id!) ?? [0, 0, 0];
      WINDOWS.forEach((days, w) => {
        if (due < t0 + days * DAY) per[w]! += Number(p.quantity);
      });
      renewed.set(p.variant_id!, per);
    }
    expect(paid.length).toBeGreaterThan(COUNT);
    expect(new Map(answer.rows.map((r) => [r.variantId, unitsOf(r)]))).toEqual(renewed);
    // Cancelled ones renewed nothing.
    const cancelled = made.filter((s) => s.status === 'cancelled').map((s) => s.id);
    expect(
      await t.db.selectFrom('subscription_cycles').select('subscription_id').where('subscription_id', 'in', cancelled).execute(),
    ).toEqual([]);
  });
});
