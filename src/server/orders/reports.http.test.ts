import { describe, expect, it } from 'vitest';
import type { Insertable } from 'kysely';
import type { Database } from '../db/schema.js';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, TestClient } from '../test/http-client.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { REPORT_MESSAGES } from '../../shared/schemas/reports.js';
import { indexOrderSearch } from './search-terms.js';

/**
 * Reports by period (issue [4/6]): the shop's time zone, periods of its days on the overview, the
 * order list and the CSV exports, and the overview's sales by product.
 */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

let seq = 0;
async function insertOrder(o: Partial<Insertable<Database['orders']>> & { created_at: string }, items: [string, number, number][] = []) {
  const id = `order_rep${String(++seq).padStart(5, '0')}`;
  await t.db
    .insertInto('orders')
    .values({
      id,
      order_number: id.slice(-8).toUpperCase(),
      user_id: null,
      email: 'report@example.org',
      status: 'completed',
      payment_status: 'paid',
      payment_provider: 'stripe',
      payment_session_id: null,
      shipping_address: null,
      billing_address: null,
      subtotal_cents: 1000,
      discount_cents: 0,
      shipping_cents: 0,
      tax_cents: 0,
      total_cents: 1000,
      coupon_code: null,
      shipping_option_id: null,
      shipstation_data: null,
      shipstation_tracking_number: null,
      guest_token_hash: null,
      updated_at: o.created_at,
      paid_at: o.payment_status === undefined || o.payment_status === 'paid' || o.payment_status === 'refunded' ? o.created_at : null,
      refunded_cents: 0,
      ...o,
    })
    .execute();
  if (items.length)
    await t.db
      .insertInto('order_items')
      .values(
        items.map(([productId, quantity, priceCents], n) => ({
          id: `oi_${id}_${n}`,
          order_id: id,
          product_id: productId,
          product_name: `Name of ${productId}`,
          product_image: null,
          sku: null,
          quantity,
          price_cents: priceCents,
          size: '',
          color: '',
          is_free_gift: 0,
        })),
      )
      .execute();
  return id;
}

const setZone = (shop_time_zone: string) => admin.request('PUT', '/api/admin/settings/time-zone', { shop_time_zone });

type Overview = {
  from: string;
  to: string;
  timeZone: string;
  days: { date: string; orders: number; revenueCents: number }[];
  totals: { orders: number; revenueCents: number };
  products: {
    productId: string;
    name: string;
    units: number;
    netSalesCents: number;
    variants: { variantId: string; label: string; units: number; netSalesCents: number }[];
  }[];
};
async function overview(query: string): Promise<Overview> {
  const res = await admin.get(`/api/admin/orders/overview${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const ordersOn = (o: Overview) => Object.fromEntries(o.days.filter((d) => d.orders > 0).map((d) => [d.date, d.orders]));
const listIds = async (query: string) => {
  const res = await admin.get(`/api/admin/orders${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as { id: string }[]).map((o) => o.id).sort();
};
const csvLines = async (url: string) => {
  const res = await admin.get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.body.split('\r\n').filter(Boolean);
};

describe("the shop's time zone", () => {
  it('is America/New_York until the owner chooses; a name the runtime does not know is refused with its own message', async () => {
    const before = await overview('?from=2026-01-01&to=2026-01-01');
    expect(before.timeZone).toBe('America/New_York');
    // The order list dates its orders by the same days.
    expect((await admin.get('/api/admin/orders?pageSize=1')).json().timeZone).toBe('America/New_York');

    const saved = await setZone('europe/paris');
    expect(saved.statusCode, saved.body).toBe(200);
    // Stored in its canonical spelling.
    expect(saved.json().settings.shop_time_zone).toBe('Europe/Paris');
    expect((await overview('?days=7')).timeZone).toBe('Europe/Paris');

    for (const [zone, message] of [
      ['Mars/Olympus_Mons', REPORT_MESSAGES.timeZoneUnknown],
      ['', REPORT_MESSAGES.timeZoneRequired],
      ['A'.repeat(65), REPORT_MESSAGES.timeZoneTooLong],
    ] as const) {
      const res = await setZone(zone);
      expect(res.statusCode, zone).toBe(400);
      expect(res.json().error, zone).toContain(message);
    }
    expect((await admin.request('PUT', '/api/admin/settings/time-zone', { shop_time_zone: 'UTC', other: 1 })).statusCode).toBe(400);
    expect(
      (await new TestClient(t.app, '10.0.0.51').request('PUT', '/api/admin/settings/time-zone', { shop_time_zone: 'UTC' })).statusCode,
    ).toBe(401);
    expect((await admin.get('/api/admin/settings')).json().settings.shop_time_zone).toBe('Europe/Paris');
  });

  it('puts an order placed at 23:30 shop time on that day, in the overview, the list, the CSV and across a clock change', async () => {
    expect((await setZone('America/New_York')).statusCode).toBe(200);
    // 23:30 in New York on 15 January (EST, UTC-5) is 04:30 UTC on the 16th; 00:30 on the 16th is 05:30 UTC.
    const late = await insertOrder({ created_at: '2026-01-16T04:30:00.000Z', total_cents: 2500 });
    const early = await insertOrder({ created_at: '2026-01-16T05:30:00.000Z', total_cents: 700 });
    // Clocks go forward on 8 March 2026: 23:30 EDT (UTC-4) that night is 03:30 UTC on the 9th.
    const afterChange = await insertOrder({ created_at: '2026-03-09T03:30:00.000Z', total_cents: 900 });
    const beforeChange = await insertOrder({ created_at: '2026-03-08T04:30:00.000Z', total_cents: 100 });
    await indexOrderSearch(t.db, beforeChange);

    const january = await overview('?from=2026-01-15&to=2026-01-16');
    expect(january.days).toEqual([
      { date: '2026-01-15', orders: 1, revenueCents: 2500 },
      { date: '2026-01-16', orders: 1, revenueCents: 700 },
    ]);
    // A period across the change: each order on its own day (23:30 the night before the change, and 23:30 on its day).
    const march = await overview('?from=2026-03-01&to=2026-03-15');
    expect(march.days).toHaveLength(15);
    expect(ordersOn(march)).toEqual({ '2026-03-07': 1, '2026-03-08': 1 });

    expect(await listIds('?from=2026-01-15&to=2026-01-15')).toEqual([late]);
    expect(await listIds('?from=2026-01-16&to=2026-01-16')).toEqual([early]);
    expect(await listIds('?from=2026-03-08&to=2026-03-08')).toEqual([afterChange]);
    expect(await listIds('?from=2026-03-07&to=2026-03-07&search=report')).toEqual([beforeChange]);
    const total = await admin.get('/api/admin/orders?from=2026-01-15&to=2026-03-31');
    expect(total.json().total).toBe(4);

    // The CSV: that day's order only, its date on the shop's clock; the file named for its days.
    const rows = await csvLines('/api/admin/exports/orders.csv?from=2026-01-15&to=2026-01-15');
    expect((await admin.get('/api/admin/exports/orders.csv?from=2026-01-15&to=2026-01-16')).headers['content-disposition']).toBe(
      'attachment; filename="orders-2026-01-15-to-2026-01-16.csv"',
    );
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(`,${late},2026-01-15 23:30,`);
    expect(rows[1]).not.toMatch(/T\d\d:|Z,/);

    // Another zone, another day: in Kolkata (UTC+5:30) 04:30 UTC on the 16th is 10:00 on the 16th, and
    // 18:45 UTC on the 15th is 00:15 on the 16th.
    expect((await setZone('Asia/Kolkata')).statusCode).toBe(200);
    await insertOrder({ created_at: '2026-01-15T18:45:00.000Z', total_cents: 300 });
    expect(ordersOn(await overview('?from=2026-01-15&to=2026-01-16'))).toEqual({ '2026-01-16': 3 });
    expect((await csvLines('/api/admin/exports/orders.csv?from=2026-01-16&to=2026-01-16&lines=1')).length).toBe(1);
    expect((await csvLines('/api/admin/exports/orders.csv?from=2026-01-16&to=2026-01-16'))[3]).toContain(',2026-01-16 00:15,');
    expect((await setZone('America/New_York')).statusCode).toBe(200);
  });
});

describe('periods', () => {
  it('refuses a period that is not one, each mistake with its own message (overview, list, exports)', async () => {
    const cases: [string, string][] = [
      ['from=2026-01-10', REPORT_MESSAGES.bothDates],
      ['to=2026-01-10', REPORT_MESSAGES.bothDates],
      ['from=2026-01-10&to=2026-01-09', REPORT_MESSAGES.fromAfterTo],
      ['from=2025-01-01&to=2026-01-02', REPORT_MESSAGES.tooLong],
      ['from=2026-02-30&to=2026-03-01', REPORT_MESSAGES.dateFormat('Start date')],
      ['from=2026-01-01&to=tomorrow', REPORT_MESSAGES.dateFormat('End date')],
      ['from=1999-12-31&to=2000-01-01', REPORT_MESSAGES.dateRange('Start date')],
    ];
    for (const path of [
      '/api/admin/orders/overview',
      '/api/admin/orders',
      '/api/admin/exports/orders.csv',
      '/api/admin/exports/customers.csv',
    ])
      for (const [q, message] of cases) {
        const res = await admin.get(`${path}?${q}`);
        expect(res.statusCode, `${path}?${q}`).toBe(400);
        expect(res.json().error, `${path}?${q}`).toContain(message);
      }
    const both = await admin.get('/api/admin/orders/overview?days=7&from=2026-01-01&to=2026-01-02');
    expect(both.statusCode).toBe(400);
    expect(both.json().error).toContain(REPORT_MESSAGES.daysAndDates);
    // A whole year, leap day included, is a period; one day more is not.
    expect((await overview('?from=2028-01-01&to=2028-12-31')).days).toHaveLength(366);
    expect((await admin.get('/api/admin/orders/overview?from=2028-01-01&to=2029-01-01')).statusCode).toBe(400);
  });
});

describe('sales by product', () => {
  it('counts units and net sales of the orders that took money, less the units the ledger took back', async () => {
    await createProduct(t.db, { id: 'rep-cloth', name: 'Cloth' });
    await createProduct(t.db, { id: 'rep-mop', name: 'Mop' });
    const day = (d: number, time = '15:00:00.000') => `2026-05-${String(d).padStart(2, '0')}T${time}Z`;
    // Paid: 3 cloths at $4 and a mop at $30.
    await insertOrder({ created_at: day(3), total_cents: 4200 }, [
      ['rep-cloth', 3, 400],
      ['rep-mop', 1, 3000],
    ]);
    // Paid, then 1 of its 2 cloths (sold at $5 here) refunded with its line.
    const refunded = await insertOrder({ created_at: day(4), total_cents: 1000, refunded_cents: 500 }, [['rep-cloth', 2, 500]]);
    await t.db
      .insertInto('refunds')
      .values([
        {
          id: 'refund_rep1',
          order_id: refunded,
          amount_cents: 500,
          provider: 'stripe',
          provider_refund_id: 're_1',
          status: 'succeeded',
          reason: null,
          restock: 1,
          error: null,
          actor_user_id: null,
          actor_label: 'admin',
          created_at: day(5),
          settled_at: day(5),
          return_lines: JSON.stringify([{ productId: 'rep-cloth', quantity: 1 }]),
        },
        // A refund that failed gives nothing back.
        {
          id: 'refund_rep2',
          order_id: refunded,
          amount_cents: 500,
          provider: 'stripe',
          provider_refund_id: null,
          status: 'failed',
          reason: null,
          restock: 1,
          error: 'declined',
          actor_user_id: null,
          actor_label: 'admin',
          created_at: day(5),
          settled_at: day(5),
          return_lines: JSON.stringify([{ productId: 'rep-cloth', quantity: 1 }]),
        },
      ])
      .execute();
    // What the succeeded refund put back on the shelf, as the stock ledger has it (the report reads the ledger).
    await t.db
      .insertInto('stock_movements')
      .values({
        id: 'mov_rep1',
        stock_item_id: 'stk_rep-cloth',
        kind: 'returned',
        quantity: 1,
        order_id: refunded,
        actor_user_id: null,
        actor_label: 'admin',
        reference: null,
        note: 'Returned with a refund',
        created_at: day(5),
      })
      .execute();
    // Took no money: an abandoned checkout and a phone order not paid yet.
    await insertOrder({ created_at: day(5), payment_status: 'expired', status: 'cancelled' }, [['rep-mop', 5, 3000]]);
    await insertOrder({ created_at: day(5), payment_status: 'unpaid', payment_provider: null, origin: 'owner', status: 'processing' }, [
      ['rep-mop', 2, 3000],
    ]);
    // Outside the period (the first instant of 1 June in New York).
    await insertOrder({ created_at: '2026-06-01T04:00:00.000Z' }, [['rep-mop', 9, 3000]]);

    const may = await overview('?from=2026-05-01&to=2026-05-31');
    const one = (productId: string, units: number, netSalesCents: number) => ({
      productId,
      name: `Name of ${productId}`,
      units,
      netSalesCents,
      variants: [{ variantId: `var_${productId}`, label: '', units, netSalesCents }],
    });
    expect(may.products).toEqual([one('rep-mop', 1, 3000), one('rep-cloth', 4, 1700)]);
    expect((await overview('?from=2026-05-04&to=2026-05-04')).products).toEqual([one('rep-cloth', 1, 500)]);
    expect((await overview('?from=2026-04-01&to=2026-04-30')).products).toEqual([]);
  });
});

describe('the customers CSV', () => {
  it('gives phone, address, placed orders and money spent; with a period, the customers who ordered in it', async () => {
    const ann = await createUser(t.db, { email: 'ann.rep@example.org', fullName: 'Ann Report' });
    const bob = await createUser(t.db, { email: 'bob.rep@example.org', fullName: 'Bob Report' });
    await t.db
      .updateTable('users')
      .set({
        phone: '+1 555 0100',
        shipping_address: JSON.stringify({
          name: 'Ann Report',
          address: '1 Main St',
          city: 'Reno',
          state: 'NV',
          zip: '89501',
          country: 'US',
        }),
      })
      .where('id', '=', ann.id)
      .execute();
    await insertOrder({ created_at: '2026-07-02T15:00:00.000Z', user_id: ann.id, total_cents: 5000, refunded_cents: 1000 });
    await insertOrder({ created_at: '2026-08-02T15:00:00.000Z', user_id: ann.id, total_cents: 2000 });
    // Not orders: a checkout never paid. An order the shop typed in counts, but brought no money.
    await insertOrder({ created_at: '2026-07-03T15:00:00.000Z', user_id: ann.id, payment_status: 'expired', total_cents: 9999 });
    await insertOrder({
      created_at: '2026-07-04T15:00:00.000Z',
      user_id: bob.id,
      payment_status: 'unpaid',
      payment_provider: null,
      origin: 'owner',
      total_cents: 800,
    });

    const all = await csvLines('/api/admin/exports/customers.csv');
    expect(all.find((r) => r.startsWith(`${ann.id},`))).toMatch(
      new RegExp(
        `^${ann.id},Ann Report,ann\\.rep@example\\.org,'\\+1 555 0100,"Ann Report, 1 Main St, Reno, NV 89501, US",client,0,2,60\\.00,\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}$`,
      ),
    );
    expect(all.find((r) => r.startsWith(`${bob.id},`))).toContain(',client,0,1,0.00,');

    const july = await csvLines('/api/admin/exports/customers.csv?from=2026-07-01&to=2026-07-31');
    expect(july.slice(1).map((r) => r.split(',')[0])).toEqual([ann.id, bob.id]);
    expect(july[1]).toContain(',client,0,1,40.00,');
    expect((await csvLines('/api/admin/exports/customers.csv?from=2026-09-01&to=2026-09-30')).length).toBe(1);

    const customer = new TestClient(t.app, '10.0.0.52');
    await customer.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    expect((await customer.get('/api/admin/exports/customers.csv?from=2026-07-01&to=2026-07-31')).statusCode).toBe(403);
  });
});
