import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { makeSubscription, renewalDeps, type TestSubscription } from '../test/subscriptions.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { spellings } from '../security/path-spellings.js';
import { runRenewals } from './renewals.js';
import { recordSubscriptionEvent } from './events.js';
import { REPORT_MESSAGES } from '../../shared/schemas/reports.js';
import { localDateOf } from '../../shared/shop-time.js';
import {
  FIGURES_CSV_NAMES,
  RETENTION_MONTHS,
  SUBSCRIPTION_FIGURES_MESSAGES,
  SubscriptionFigures,
} from '../../shared/schemas/admin/subscription-figures.js';

/**
 * The owner's subscription Figures (issue [5/8]): subscribers now; subscription revenue by day,
 * week and month that agrees with the orders to the cent (renewals, and the checkouts that started
 * subscriptions, each amount on the shop's day it moved, a refund on a later day included); new,
 * paused and cancelled; reasons; retention by month of signing up; the CSV of each; the refusals;
 * and the back office's guard. Subscriptions and orders come from real checkouts, the real
 * schedule and the owner's refund and cancel; only their dates are moved afterwards.
 */
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' };
const ZONE = 'America/New_York';
const DAY = 86_400_000;
const address = { name: 'Fran Figures', address: '3 Ledger Lane', city: 'Bend', state: 'OR', zip: '97701', country: 'US' };
const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Fran Figures' };

let t: TestApp;
let admin: TestClient;
let customer: TestClient;
let guest: TestClient;
let ipCount = 0;
const nextIp = () => `10.61.${Math.floor(++ipCount / 250)}.${ipCount % 250}`;

beforeAll(async () => {
  t = await createTestApp({ env: LIMITS });
  admin = new TestClient(t.app, '10.60.0.1');
  expect((await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
  expect((await admin.request('PUT', '/api/admin/settings/time-zone', { shop_time_zone: ZONE })).statusCode).toBe(200);
  const user = await createUser(t.db, { email: 'figures.customer@example.com' });
  customer = new TestClient(t.app, '10.60.0.2');
  expect((await customer.signIn(user.email, user.password)).statusCode).toBe(200);
  guest = new TestClient(t.app, '10.60.0.3');
});
afterAll(async () => {
  await t?.close();
});

async function figures(query: string): Promise<SubscriptionFigures> {
  const res = await admin.get(`/api/admin/subscriptions/figures?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return SubscriptionFigures.parse(res.json());
}

async function csv(name: string, query: string): Promise<string[][]> {
  const res = await admin.get(`/api/admin/subscriptions/figures/${name}.csv?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="subscription-${name}-\\d{4}-\\d{2}-\\d{2}-to-`));
  expect(res.body.endsWith('\r\n')).toBe(true);
  return res.body
    .split('\r\n')
    .filter(Boolean)
    .map((line) => line.split(','));
}

/** A product with a plan every 2 or 4 weeks at 10% off. */
async function refill(name: string, priceCents: number) {
  const p = await createProduct(t.db, { name, priceCents, inventory: 60 });
  const at = new Date().toISOString();
  await t.db
    .insertInto('subscription_plans')
    .values({
      product_id: p.id,
      variant_id: '',
      enabled: 1,
      intervals: JSON.stringify([2, 4]),
      discount_percent: 10,
      later_discount_percent: null,
      later_from_delivery: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return p;
}

/** A guest's checkout paid with the test card; answers the order. */
async function paidCheckout(items: { productId: string; quantity: number; everyWeeks?: number }[], email: string): Promise<string> {
  const c = new TestClient(t.app, nextIp());
  const res = await c.post('/api/create-checkout-session', {
    items,
    customerEmail: email,
    shippingAddress: address,
    ...(items.some((i) => i.everyWeeks) ? { acceptSubscriptionTerms: true } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
  expect((await c.request('POST', `/pay/${sessionId}`, new URLSearchParams(card))).statusCode).toBe(303);
  return orderId;
}

const orderRow = (id: string) => t.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
/** Places and pays an order on an instant (both, as a payment the same minute). */
const paidOn = (id: string, iso: string) =>
  t.db.updateTable('orders').set({ created_at: iso, paid_at: iso }).where('id', '=', id).execute();
const startedOn = (ids: string[], iso: string) =>
  t.db.updateTable('subscriptions').set({ created_at: iso, consent_at: iso }).where('id', 'in', ids).execute();

async function refund(orderId: string, amountCents: number, settledAt: string) {
  const res = await admin.post(`/api/admin/orders/${orderId}/refunds`, { amountCents, reason: 'Damaged in the post' });
  expect(res.statusCode, res.body).toBe(201);
  await t.db.updateTable('refunds').set({ created_at: settledAt, settled_at: settledAt }).where('order_id', '=', orderId).execute();
}

describe(`subscription figures on ${testDialect()}`, () => {
  it('says there are no subscriptions yet, with every period at zero', async () => {
    const f = await figures('from=2026-09-01&to=2026-10-31');
    expect(f.anySubscriptions).toBe(false);
    expect(f.now).toEqual({ activeSubscribers: 0, active: 0, paymentFailing: 0, paused: 0, cancelled: 0 });
    expect(f.period).toBe('month');
    expect(f.timeZone).toBe(ZONE);
    expect(f.buckets.map((b) => [b.start, b.end, b.revenueCents, b.started])).toEqual([
      ['2026-09-01', '2026-09-30', 0, 0],
      ['2026-10-01', '2026-10-31', 0, 0],
    ]);
    expect(f.reasons).toEqual([]);
    // Retention follows at least the 12 months of signing up to the period's last.
    expect(f.retention.map((r) => r.month)).toEqual([
      '2025-11',
      '2025-12',
      ...Array.from({ length: 10 }, (_, i) => `2026-${String(i + 1).padStart(2, '0')}`),
    ]);
    expect(f.retention.every((r) => r.signedUp === 0)).toBe(true);
    // Without dates: the last 12 months to today, in the shop's days.
    const today = localDateOf(Date.now(), ZONE);
    const last = await figures('');
    expect(last.to).toBe(today);
    expect(last.from.endsWith('-01')).toBe(true);
    expect(last.buckets).toHaveLength(12);
    expect(last.retention).toHaveLength(12);
    // The last 30 days, today included.
    const days = await figures('days=30&period=day');
    expect(days.buckets).toHaveLength(30);
    expect(days.buckets.at(-1)).toMatchObject({ start: today, end: today });
  });

  it('counts renewals and first orders on the day their money moved, a refund on a later day, and agrees with the orders to the cent', async () => {
    const powder = await refill('Figures Powder', 2000);
    const soap = await createProduct(t.db, { name: 'Figures Soap', priceCents: 1000, inventory: 60 });
    // A: one subscription and a one-time soap in the same checkout (the soap counts: the first order counts whole).
    const firstA = await paidCheckout(
      [
        { productId: powder.id, quantity: 1, everyWeeks: 4 },
        { productId: soap.id, quantity: 1 },
      ],
      'fig-a@example.com',
    );
    // B: two intervals, so two subscriptions started by one order (counted once).
    const firstB = await paidCheckout(
      [
        { productId: powder.id, quantity: 1, everyWeeks: 2 },
        { productId: powder.id, quantity: 2, everyWeeks: 4 },
      ],
      'fig-b@example.com',
    );
    // C: no subscription at all: never in these figures.
    const plain = await paidCheckout([{ productId: soap.id, quantity: 2 }], 'fig-c@example.com');
    const subsA = await t.db.selectFrom('subscriptions').select('id').where('first_order_id', '=', firstA).execute();
    const subsB = await t.db.selectFrom('subscriptions').select('id').where('first_order_id', '=', firstB).execute();
    expect([subsA.length, subsB.length]).toEqual([1, 2]);
    // D: its card declines, so its renewal order stays unpaid: no money.
    const declined = await makeSubscription(t.db, { nextRenewalAt: new Date(Date.now() + 10 * DAY).toISOString(), behaviour: 'decline' });

    // The schedule, a month on: every subscription due renews (the fortnightly one once, after the downtime rule).
    await runRenewals(renewalDeps(t), new Date(Date.now() + 29 * DAY));
    const renewals = await t.db
      .selectFrom('orders')
      .select(['id', 'payment_status'])
      .where('origin', '=', 'renewal')
      .orderBy('total_cents')
      .execute();
    const paidRenewals = renewals.filter((r) => r.payment_status === 'paid').map((r) => r.id);
    expect(paidRenewals).toHaveLength(3);
    expect(renewals.filter((r) => r.payment_status !== 'paid')).toHaveLength(1);

    // Their dates, in New York: first orders in September, renewals in October, the last at 23:30 on
    // 31 October (03:30 UTC on 1 November); A's partial refund and C's on 20 October.
    await paidOn(firstA, '2026-09-03T15:00:00.000Z');
    await paidOn(firstB, '2026-09-10T15:00:00.000Z');
    await paidOn(plain, '2026-09-10T16:00:00.000Z');
    await paidOn(paidRenewals[0]!, '2026-10-01T15:00:00.000Z');
    await paidOn(paidRenewals[1]!, '2026-10-08T15:00:00.000Z');
    await paidOn(paidRenewals[2]!, '2026-11-01T03:30:00.000Z');
    await startedOn(
      subsA.map((s) => s.id),
      '2026-09-03T15:00:00.000Z',
    );
    await startedOn(
      subsB.map((s) => s.id),
      '2026-09-10T15:00:00.000Z',
    );
    await startedOn([declined.id], '2026-09-20T15:00:00.000Z');
    await refund(firstA, 700, '2026-10-20T15:00:00.000Z');
    await refund(plain, 500, '2026-10-20T16:00:00.000Z');

    const total = async (id: string) => Number((await orderRow(id)).total_cents);
    const [a, b, c] = [await total(firstA), await total(firstB), await total(plain)];
    const r = [await total(paidRenewals[0]!), await total(paidRenewals[1]!), await total(paidRenewals[2]!)];
    expect(a).toBeGreaterThan(0);
    expect(r.every((x) => x > 0)).toBe(true);

    const months = await figures('from=2026-09-01&to=2026-10-31&period=month');
    expect(months.anySubscriptions).toBe(true);
    expect(months.buckets).toEqual([
      {
        start: '2026-09-01',
        end: '2026-09-30',
        renewalCents: 0,
        firstOrderCents: a + b,
        revenueCents: a + b,
        started: 4,
        paused: 0,
        cancelled: 0,
        subscribedAtEnd: 4,
      },
      {
        start: '2026-10-01',
        end: '2026-10-31',
        renewalCents: r[0]! + r[1]! + r[2]!,
        firstOrderCents: -700,
        revenueCents: r[0]! + r[1]! + r[2]! - 700,
        started: 0,
        paused: 0,
        cancelled: 0,
        subscribedAtEnd: 4,
      },
    ]);
    expect(months.totals).toMatchObject({
      revenueCents: a + b + r[0]! + r[1]! + r[2]! - 700,
      takenCents: a + b + r[0]! + r[1]! + r[2]!,
      refundedCents: 700,
      started: 4,
    });

    // To the cent with the orders: the overview of the same days has the same money, plus only C's.
    const overview = async (from: string, to: string) =>
      (await admin.get(`/api/admin/orders/overview?from=${from}&to=${to}`)).json().totals.revenueCents as number;
    expect(await overview('2026-09-01', '2026-09-30')).toBe(months.buckets[0]!.revenueCents + c);
    expect(await overview('2026-10-01', '2026-10-31')).toBe(months.buckets[1]!.revenueCents - 500);
    // And with each order's own net (the one rule) over the whole span.
    let net = 0;
    for (const id of [firstA, firstB, ...paidRenewals]) net += (await admin.get(`/api/admin/orders/${id}`)).json().order.netCents as number;
    expect(months.totals.revenueCents).toBe(net);

    // By day: the refund on its own day; the renewal paid at 23:30 on 31 October is October's.
    const days = await figures('from=2026-10-19&to=2026-10-31&period=day');
    expect(days.buckets).toHaveLength(13);
    const byDay = new Map(days.buckets.map((x) => [x.start, x]));
    expect(byDay.get('2026-10-20')).toMatchObject({ end: '2026-10-20', renewalCents: 0, firstOrderCents: -700, revenueCents: -700 });
    expect(byDay.get('2026-10-31')).toMatchObject({ renewalCents: r[2]!, revenueCents: r[2]! });
    expect(days.totals.revenueCents).toBe(r[2]! - 700);
    expect((await figures('from=2026-11-01&to=2026-11-01&period=day')).totals.revenueCents).toBe(0);

    // By week, Monday to Sunday: 1 September is a Tuesday, so the first week is short.
    const weeks = await figures('from=2026-09-01&to=2026-09-14&period=week');
    expect(weeks.buckets.map((x) => [x.start, x.end, x.revenueCents, x.started])).toEqual([
      ['2026-09-01', '2026-09-06', a, 1],
      ['2026-09-07', '2026-09-13', b, 2],
      ['2026-09-14', '2026-09-14', 0, 0],
    ]);

    // The CSV: the same rows, money in dollars.
    const dollars = (cents: number) => (cents / 100).toFixed(2);
    expect(await csv('revenue', 'from=2026-09-01&to=2026-10-31&period=month')).toEqual([
      ['Period start', 'Period end', 'Renewals', 'First orders', 'Subscription revenue'],
      ['2026-09-01', '2026-09-30', '0.00', dollars(a + b), dollars(a + b)],
      ['2026-10-01', '2026-10-31', dollars(r[0]! + r[1]! + r[2]!), '-7.00', dollars(r[0]! + r[1]! + r[2]! - 700)],
    ]);

    // Now: the list's counts, with failing cards among the subscribers and paused apart.
    const list = (await admin.get('/api/admin/subscriptions')).json().counts as Record<string, number>;
    expect(months.now).toEqual({
      activeSubscribers: list.active! + list.payment_failing!,
      active: list.active,
      paymentFailing: list.payment_failing,
      paused: list.paused,
      cancelled: list.cancelled,
    });
    expect(months.now.activeSubscribers).toBe(4);
  });

  it('counts new, paused and cancelled per month, the reasons (trimmed, any case) and retention by month of signing up', async () => {
    // Signed up in December 2024 (New York), and one at 22:00 on 30 November there (03:00 UTC on 1 December).
    const far = new Date(Date.now() + 300 * DAY).toISOString();
    const dec: TestSubscription[] = [];
    for (let i = 0; i < 5; i++) dec.push(await makeSubscription(t.db, { nextRenewalAt: far }));
    const nov = await makeSubscription(t.db, { nextRenewalAt: far });
    for (const [i, s] of dec.entries()) await startedOn([s.id], `2024-12-0${i + 2}T15:00:00.000Z`);
    await startedOn([nov.id], '2024-12-01T03:00:00.000Z');

    // Cancelled by the owner for the customer (the real path), then dated: two in December (one at
    // 22:00 on 31 December in New York), one in January, one in June; the fifth stays.
    const cancel = async (s: TestSubscription, reason: string | undefined, at: string) => {
      const res = await admin.post(`/api/admin/subscriptions/${s.id}/cancel`, { notifyCustomer: false, ...(reason ? { reason } : {}) });
      expect(res.statusCode, res.body).toBe(200);
      await t.db.updateTable('subscriptions').set({ cancelled_at: at }).where('id', '=', s.id).execute();
    };
    await cancel(dec[0]!, 'Too expensive', '2024-12-20T15:00:00.000Z');
    await cancel(dec[1]!, 'too EXPENSIVE', '2025-01-01T03:00:00.000Z');
    await cancel(dec[2]!, undefined, '2025-01-15T15:00:00.000Z');
    await cancel(dec[3]!, 'Moved away', '2025-06-10T15:00:00.000Z');
    // A reason stored with spaces round it (an older row) is the same reason.
    await t.db.updateTable('subscriptions').set({ cancel_reason: '  Too Expensive  ' }).where('id', '=', dec[1]!.id).execute();

    // Pauses, from the timeline: 30 November, 10 December, and 30 January at 23:30 (04:30 UTC on the 31st).
    await recordSubscriptionEvent(t.db, nov.id, 'paused', undefined, {}, new Date('2024-11-30T15:00:00.000Z'));
    await recordSubscriptionEvent(t.db, dec[4]!.id, 'paused', undefined, {}, new Date('2024-12-10T15:00:00.000Z'));
    await recordSubscriptionEvent(t.db, dec[4]!.id, 'paused', undefined, {}, new Date('2025-01-31T04:30:00.000Z'));
    // Resuming is not a pause.
    await recordSubscriptionEvent(t.db, dec[4]!.id, 'resumed', undefined, {}, new Date('2024-12-12T15:00:00.000Z'));

    const q = 'from=2024-11-01&to=2025-01-31&period=month';
    const f = await figures(q);
    expect(f.buckets.map((b) => [b.start, b.started, b.paused, b.cancelled, b.subscribedAtEnd])).toEqual([
      ['2024-11-01', 1, 1, 0, 1],
      ['2024-12-01', 5, 1, 2, 4],
      ['2025-01-01', 0, 1, 1, 3],
    ]);
    expect(f.totals).toMatchObject({ started: 6, paused: 3, cancelled: 3, revenueCents: 0 });
    expect(f.reasons).toEqual([
      { reason: 'Too expensive', count: 2 },
      { reason: SUBSCRIPTION_FIGURES_MESSAGES.noReason, count: 1 },
    ]);
    expect(f.otherReasons).toBeNull();
    // June's reason is in June's figures only.
    expect((await figures('from=2025-06-01&to=2025-06-30')).reasons).toEqual([{ reason: 'Moved away', count: 1 }]);

    // Retention: November's one stays; of December's five, three are left after December, two after
    // January, one from June on.
    const still = (n: number, of: number) => ({ still: n, percent: of ? Math.round((1000 * n) / of) / 10 : 0 });
    expect(f.retention.map((r) => r.month)).toEqual([
      ...Array.from({ length: 11 }, (_, i) => `2024-${String(i + 2).padStart(2, '0')}`),
      '2025-01',
    ]);
    const [novRow, decRow, janRow] = f.retention.slice(-3);
    expect(novRow).toEqual({ month: '2024-11', signedUp: 1, cells: Array.from({ length: RETENTION_MONTHS }, () => still(1, 1)) });
    expect(decRow).toEqual({
      month: '2024-12',
      signedUp: 5,
      cells: [
        still(3, 5),
        still(2, 5),
        still(2, 5),
        still(2, 5),
        still(2, 5),
        still(2, 5),
        ...Array.from({ length: 6 }, () => still(1, 5)),
      ],
    });
    expect(decRow!.cells[0]).toEqual({ still: 3, percent: 60 });
    expect(janRow).toEqual({ month: '2025-01', signedUp: 0, cells: Array.from({ length: RETENTION_MONTHS }, () => still(0, 0)) });

    // This month's subscribers: month 0 counts to today, months to come are blank.
    const thisMonth = localDateOf(Date.now(), ZONE).slice(0, 7);
    const recent = await makeSubscription(t.db, { nextRenewalAt: far });
    await startedOn([recent.id], new Date().toISOString());
    const now = await figures(`from=${thisMonth}-01&to=${localDateOf(Date.now(), ZONE)}`);
    const row = now.retention.find((x) => x.month === thisMonth)!;
    expect(row.signedUp).toBeGreaterThanOrEqual(1);
    expect(row.cells[0]).toEqual(still(row.signedUp, row.signedUp));
    expect(row.cells.slice(1)).toEqual(Array.from({ length: RETENTION_MONTHS - 1 }, () => null));

    // Each as CSV.
    expect(await csv('movements', q)).toEqual([
      ['Period start', 'Period end', 'New', 'Paused', 'Cancelled', 'Subscribed at the end'],
      ['2024-11-01', '2024-11-30', '1', '1', '0', '1'],
      ['2024-12-01', '2024-12-31', '5', '1', '2', '4'],
      ['2025-01-01', '2025-01-31', '0', '1', '1', '3'],
    ]);
    expect(await csv('reasons', q)).toEqual([
      ['Reason', 'Cancellations', 'Share (%)'],
      ['Too expensive', '2', '66.7'],
      ['No reason given', '1', '33.3'],
    ]);
    const retentionCsv = await csv('retention', q);
    expect(retentionCsv[0]).toEqual([
      'Signed up (month)',
      'Subscribers',
      ...Array.from({ length: RETENTION_MONTHS }, (_, k) => [`Month ${k}`, `Month ${k} (%)`]).flat(),
    ]);
    expect(retentionCsv[11]).toEqual([
      '2024-12',
      '5',
      '3',
      '60',
      '2',
      '40',
      '2',
      '40',
      '2',
      '40',
      '2',
      '40',
      '2',
      '40',
      ...Array(6).fill(['1', '20']).flat(),
    ]);
    expect(retentionCsv).toHaveLength(13);
    const blanks = await csv('retention', `from=${thisMonth}-01&to=${localDateOf(Date.now(), ZONE)}`);
    expect(blanks.at(-1)!.slice(0, 1)).toEqual([thisMonth]);
    expect(blanks.at(-1)!.slice(4)).toEqual(Array(2 * (RETENTION_MONTHS - 1)).fill(''));
  });

  it('refuses a period that is not one, each with a sentence, on the figures and every CSV', async () => {
    const cases: [string, string][] = [
      ['period=year', SUBSCRIPTION_FIGURES_MESSAGES.badPeriod],
      ['from=2026-01-01', REPORT_MESSAGES.bothDates],
      ['from=2026-03-01&to=2026-02-01', REPORT_MESSAGES.fromAfterTo],
      ['from=2024-01-01&to=2026-01-01', SUBSCRIPTION_FIGURES_MESSAGES.tooLong],
      ['from=2026-02-30&to=2026-03-01', REPORT_MESSAGES.dateFormat('Start date')],
      ['from=2026-01-01&to=2026-01-31&colour=blue', 'Unrecognized key'],
      ['days=30&from=2026-01-01&to=2026-01-31', REPORT_MESSAGES.daysAndDates],
      ['days=0', 'days must be at least 1'],
      ['days=800', 'days cannot exceed 731'],
    ];
    for (const path of ['/api/admin/subscriptions/figures', ...FIGURES_CSV_NAMES.map((n) => `/api/admin/subscriptions/figures/${n}.csv`)]) {
      for (const [query, message] of cases) {
        const res = await admin.get(`${path}?${query}`);
        expect(res.statusCode, `${path}?${query}`).toBe(400);
        expect(res.json().error, `${path}?${query}`).toContain(message);
      }
    }
    // Two years exactly (a leap day in them) is allowed.
    expect((await admin.get('/api/admin/subscriptions/figures?from=2024-01-01&to=2025-12-31&period=week')).statusCode).toBe(200);
  });

  it('turns a customer (403) and a guest (401) away from the figures and every CSV, however the path is spelled', async () => {
    const wrong: string[] = [];
    const paths = ['/api/admin/subscriptions/figures', ...FIGURES_CSV_NAMES.map((n) => `/api/admin/subscriptions/figures/${n}.csv`)];
    for (const path of paths) {
      for (const [who, client, expected] of [
        ['customer', customer, 403],
        ['guest', guest, 401],
      ] as const) {
        for (const url of [`${path}?period=day`, path.replace('/api/admin/', '/api/%61dmin/')]) {
          const res = await client.get(url);
          if (res.statusCode !== expected) wrong.push(`${who} ${url}: ${res.statusCode}`);
        }
        for (const url of spellings(path)) {
          const res = await client.get(url);
          if (res.statusCode < 300 || res.statusCode >= 500 || res.body.includes('Period start') || res.body.includes('"buckets"'))
            wrong.push(`${who} ${url}: ${res.statusCode}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
