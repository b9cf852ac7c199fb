import { describe, expect, it } from 'vitest';
import type { Readable } from 'node:stream';
import type { Insertable } from 'kysely';
import type { Database } from '../db/schema.js';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, TestClient } from '../test/http-client.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { indexOrderSearch, searchRowsOf } from './search-terms.js';
import { exportLimits } from './exports.js';

/** The back office's CSV exports (orders/exports.ts): orders, order lines, customers; streamed. */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

/** RFC 4180: fields split on commas outside quotes, "" inside quotes is one quote, rows end with CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(field).toBe('');
  expect(row).toEqual([]);
  return rows;
}

function order(id: string, o: Partial<Insertable<Database['orders']>>): Insertable<Database['orders']> {
  return {
    id,
    order_number: id.slice(-8).toUpperCase(),
    user_id: null,
    email: null,
    status: 'processing',
    payment_status: 'paid',
    payment_provider: 'stripe',
    // Named on every row: a multi-row insert on SQLite writes NULL, not the default, for a column some rows leave out.
    origin: 'checkout',
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
    created_at: '2026-01-01T10:00:00.000Z',
    updated_at: '2026-01-01T10:00:00.000Z',
    paid_at: null,
    refunded_cents: 0,
    ...o,
  };
}

const csv = async (url: string) => {
  const res = await admin.get(url);
  expect(res.statusCode, res.body).toBe(200);
  return { res, rows: parseCsv(res.body) };
};

describe('CSV exports', () => {
  it('exports the filtered orders, their lines and the customers, quoted and formula-safe', async () => {
    await createProduct(t.db, { id: 'exp-p1', priceCents: 1999, inventory: 100 });
    const zed = await createUser(t.db, { email: 'zed.export@example.org', fullName: 'Zed "Quill", Esq' });
    await t.db
      .insertInto('orders')
      .values([
        order('order_expAAAAAAAA', {
          user_id: zed.id,
          email: 'zed.export@example.org',
          subtotal_cents: 6298,
          discount_cents: 500,
          coupon_code: 'SAVE5',
          shipping_cents: 0,
          tax_cents: 504,
          total_cents: 6302,
          refunded_cents: 1000,
          shipstation_tracking_number: '1Z999',
          created_at: '2026-01-02T10:00:00.000Z',
        }),
        order('order_expBBBBBBBB', {
          status: 'pending',
          payment_status: 'unpaid',
          payment_provider: 'test',
          shipping_address: JSON.stringify({
            name: '+Guest Person',
            email: 'guest.export@example.org',
            address: '1 Rd',
            city: 'Reno',
            state: 'NV',
            zip: '89501',
            country: 'US',
          }),
          created_at: '2026-01-03T10:00:00.000Z',
        }),
        order('order_expCCCCCCCC', {
          status: 'cancelled',
          payment_status: 'unpaid',
          payment_provider: null,
          origin: 'owner',
          email: '=cmd@example.org',
          total_cents: 12345,
          subtotal_cents: 10493,
          shipping_cents: 988,
          tax_cents: 864,
          created_at: '2026-01-01T10:00:00.000Z',
        }),
      ])
      .execute();
    await t.db
      .insertInto('order_items')
      .values([
        {
          id: 'oi_exp1',
          order_id: 'order_expAAAAAAAA',
          product_id: 'exp-p1',
          variant_id: 'var_exp1lg',
          variant_label: 'Large, Sage',
          product_name: '=HYPERLINK("http://x")',
          product_image: null,
          sku: 'SKU,1',
          quantity: 2,
          price_cents: 1999,
          size: 'Large',
          color: 'Sage',
          is_free_gift: 0,
        },
        {
          id: 'oi_exp2',
          order_id: 'order_expAAAAAAAA',
          product_id: 'exp-p1',
          // Written before variants: no variant named, no label.
          variant_id: null,
          variant_label: '',
          product_name: 'Line\nbreak',
          product_image: null,
          sku: null,
          quantity: 1,
          price_cents: 2300,
          size: '',
          color: '',
          is_free_gift: 0,
        },
        {
          id: 'oi_exp3',
          order_id: 'order_expBBBBBBBB',
          product_id: 'exp-p1',
          variant_id: null,
          variant_label: '',
          product_name: 'Soap',
          product_image: null,
          sku: 'S-1',
          quantity: 1,
          price_cents: 1000,
          size: '',
          color: '',
          is_free_gift: 0,
        },
      ])
      .execute();
    for (const id of ['order_expAAAAAAAA', 'order_expBBBBBBBB', 'order_expCCCCCCCC']) await indexOrderSearch(t.db, id);

    // The default view (placed orders, as the list shows them), newest first; the abandoned checkout is left out.
    const { res, rows } = await csv('/api/admin/exports/orders.csv');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(rows[0]).toEqual([
      'Order number',
      'Order id',
      'Date',
      'Status',
      'Payment status',
      'Customer name',
      'E-mail',
      'Shipping address',
      'Items',
      'Subtotal',
      'Discount',
      'Coupon',
      'Shipping',
      'Tax',
      'Total',
      'Refunded',
      'Net',
      'Payment date',
      'Carrier',
      'Tracking number',
    ]);
    expect(rows.slice(1).map((r) => r[1])).toEqual(['order_expAAAAAAAA', 'order_expCCCCCCCC']);
    expect(rows[1]).toEqual([
      'AAAAAAAA',
      'order_expAAAAAAAA',
      // The shop's clock (America/New_York by default), as a spreadsheet reads a date.
      '2026-01-02 05:00',
      'processing',
      'partially_refunded',
      'Zed "Quill", Esq',
      'zed.export@example.org',
      '',
      '3',
      '62.98',
      '5.00',
      'SAVE5',
      '0.00',
      '5.04',
      '63.02',
      '10.00',
      '53.02',
      '',
      '',
      '1Z999',
    ]);
    // The raw text: the name quoted with its quotes doubled; the e-mail starting with = escaped.
    expect(res.body).toContain(',"Zed ""Quill"", Esq",');
    expect(rows[2]![6]).toBe("'=cmd@example.org");
    expect(rows[2]!.slice(9, 15)).toEqual(['104.93', '0.00', '', '9.88', '8.64', '123.45']);

    // The list's filters apply: payment, status, search words.
    expect((await csv('/api/admin/exports/orders.csv?payment=all')).rows.length).toBe(4);
    const abandoned = (await csv('/api/admin/exports/orders.csv?payment=abandoned')).rows;
    expect(abandoned.slice(1).map((r) => [r[1], r[5], r[6]])).toEqual([
      ['order_expBBBBBBBB', "'+Guest Person", 'guest.export@example.org'],
    ]);
    expect((await csv('/api/admin/exports/orders.csv?status=cancelled')).rows.slice(1).map((r) => r[1])).toEqual(['order_expCCCCCCCC']);
    expect((await csv('/api/admin/exports/orders.csv?search=quill')).rows.slice(1).map((r) => r[1])).toEqual(['order_expAAAAAAAA']);
    expect((await csv('/api/admin/exports/orders.csv?search=nobodyatall')).rows.length).toBe(1);

    // One row per line item.
    const lines = await csv('/api/admin/exports/orders.csv?lines=1&payment=all');
    expect(lines.res.headers['content-disposition']).toMatch(/filename="order-lines-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(lines.rows).toEqual([
      [
        'Order number',
        'Date',
        'Status',
        'Product id',
        'Name',
        'Variant id',
        'Variant',
        'Size',
        'Color',
        'SKU',
        'Quantity',
        'Unit price',
        'Line total',
      ],
      ['BBBBBBBB', '2026-01-03 05:00', 'pending', 'exp-p1', 'Soap', 'var_exp-p1', '', '', '', 'S-1', '1', '10.00', '10.00'],
      [
        'AAAAAAAA',
        '2026-01-02 05:00',
        'processing',
        'exp-p1',
        `'=HYPERLINK("http://x")`,
        'var_exp1lg',
        'Large, Sage',
        'Large',
        'Sage',
        'SKU,1',
        '2',
        '19.99',
        '39.98',
      ],
      // A line written before variants names none: it is the product's first.
      ['AAAAAAAA', '2026-01-02 05:00', 'processing', 'exp-p1', 'Line\nbreak', 'var_exp-p1', '', '', '', '', '1', '23.00', '23.00'],
    ]);
    expect(lines.res.body).toContain(`,"'=HYPERLINK(""http://x"")",var_exp1lg,"Large, Sage",Large,Sage,"SKU,1",2,19.99,39.98\r\n`);
    expect((await csv('/api/admin/exports/orders.csv?lines=1&status=cancelled')).rows.length).toBe(1);

    // A caller's mistake is a 400, not a 500.
    expect((await admin.get('/api/admin/exports/orders.csv?lines=2')).statusCode).toBe(400);
    expect((await admin.get('/api/admin/exports/orders.csv?status=lost')).statusCode).toBe(400);
    expect((await admin.get('/api/admin/exports/orders.csv?page=2')).statusCode).toBe(400);

    // Customers, with their placed orders and money spent (net of refunds).
    const customers = await csv('/api/admin/exports/customers.csv');
    expect(customers.res.headers['content-disposition']).toMatch(/filename="customers-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(customers.rows[0]).toEqual([
      'Customer id',
      'Name',
      'E-mail',
      'Phone',
      'Address',
      'Role',
      'Loyalty points',
      'Orders',
      'Total spent',
      'Created',
    ]);
    const zedRow = customers.rows.find((r) => r[0] === zed.id)!;
    expect(zedRow.slice(1, 9)).toEqual(['Zed "Quill", Esq', 'zed.export@example.org', '', '', 'client', '0', '1', '53.02']);
    expect(zedRow[9]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(customers.rows.some((r) => r[5] === 'admin')).toBe(true);

    // Anonymous and customers are refused.
    const anonymous = new TestClient(t.app, '10.0.0.41');
    expect((await anonymous.get('/api/admin/exports/orders.csv')).statusCode).toBe(401);
    expect((await anonymous.get('/api/admin/exports/customers.csv')).statusCode).toBe(401);
    const customer = new TestClient(t.app, '10.0.0.42');
    await customer.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    expect((await customer.get('/api/admin/exports/orders.csv')).statusCode).toBe(403);
    expect((await customer.get('/api/admin/exports/customers.csv')).statusCode).toBe(403);
  });

  it('streams 20,000 orders in batches, in bounded memory', { timeout: 120_000 }, async () => {
    const N = 20_000;
    await createProduct(t.db, { id: 'exp-bulk', priceCents: 1000, inventory: 100 });
    const base = Date.parse('2025-01-01T00:00:00.000Z');
    for (let start = 0; start < N; start += 500) {
      const batch = Array.from({ length: 500 }, (_, k) => {
        const i = start + k;
        // Pairs share a timestamp: the keyset cursor must break ties by id.
        const at = new Date(base + Math.floor(i / 2) * 60_000).toISOString();
        return order(`order_bulk${String(i).padStart(8, '0')}`, {
          email: `bulk${i}@example.org`,
          created_at: at,
          updated_at: at,
          total_cents: 1000 + i,
        });
      });
      await t.db.insertInto('orders').values(batch).execute();
      await t.db
        .insertInto('order_search_terms')
        .values(
          batch.flatMap((o) =>
            searchRowsOf({
              id: o.id,
              order_number: o.order_number,
              email: o.email ?? null,
              shipping_address: null,
              user_email: null,
              full_name: null,
            }),
          ),
        )
        .execute();
      await t.db
        .insertInto('order_items')
        .values(
          batch.map((o) => ({
            id: `oi_${o.id}`,
            order_id: o.id,
            product_id: 'exp-bulk',
            product_name: 'Soap',
            product_image: null,
            sku: 'S-1',
            quantity: 1,
            price_cents: 1000,
            size: '',
            color: '',
            is_free_gift: 0,
          })),
        )
        .execute();
    }
    // Every processing order (the bulk ones and any the first test left), and their lines.
    const processing = Number(
      (
        await t.db
          .selectFrom('orders')
          .select((e) => e.fn.countAll().as('n'))
          .where('status', '=', 'processing')
          .executeTakeFirstOrThrow()
      ).n,
    );
    const processingLines = Number(
      (
        await t.db
          .selectFrom('order_items as i')
          .innerJoin('orders as o', 'o.id', 'i.order_id')
          .select((e) => e.fn.countAll().as('n'))
          .where('o.status', '=', 'processing')
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(processing).toBeGreaterThanOrEqual(N);
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    for (const url of ['/api/admin/exports/orders.csv?status=processing', '/api/admin/exports/orders.csv?status=processing&lines=1']) {
      global.gc?.();
      const heapBefore = process.memoryUsage().heapUsed;
      let peakHeap = heapBefore;
      const started = performance.now();
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie }, remoteAddress: '10.0.0.1', payloadAsStream: true });
      expect(res.statusCode).toBe(200);
      const stream = res.stream() as Readable;
      let chunks = 0;
      let firstByteMs = 0;
      let bytes = 0;
      let tail = '';
      let rows = 0;
      const ids = new Set<string>();
      for await (const chunk of stream) {
        if (chunks++ === 0) firstByteMs = performance.now() - started;
        const text = tail + (chunk as Buffer).toString('utf8');
        bytes += (chunk as Buffer).length;
        const parts = text.split('\r\n');
        tail = parts.pop()!;
        for (const line of parts) {
          rows++;
          if (!url.includes('lines')) ids.add(line.split(',')[1]!);
        }
        peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
      }
      const totalMs = performance.now() - started;
      expect(tail).toBe('');
      // The header, then one row per order (or line), none twice.
      expect(rows).toBe(1 + (url.includes('lines') ? processingLines : processing));
      if (!url.includes('lines')) expect(ids.size).toBe(1 + processing);
      // Written batch by batch (1,000 orders each), the first bytes long before the last.
      expect(chunks).toBeGreaterThanOrEqual(N / 1000);
      expect(firstByteMs).toBeLessThan(totalMs / 2);
      console.log(
        `export ${url} on ${t.dialect}: ${rows} rows, ${(bytes / 1e6).toFixed(1)} MB in ${Math.round(totalMs)} ms, first bytes after ${Math.round(firstByteMs)} ms, ` +
          `${chunks} chunks, heap growth at peak ${((peakHeap - heapBefore) / 1e6).toFixed(1)} MB`,
      );
    }

    // A search export: the orders filed under the word, newest first, whether their ids are read
    // at once (a few) or the orders are walked and each batch filtered (many): the same rows.
    const expected = (
      await t.db
        .selectFrom('orders')
        .select('id')
        .where('status', '=', 'processing')
        .where('email', 'like', 'bulk1%')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute()
    ).map((o) => o.id);
    expect(expected.length).toBe(11_111);
    const searched = await csv('/api/admin/exports/orders.csv?status=processing&search=bulk1');
    expect(searched.rows.slice(1).map((r) => r[1])).toEqual(expected);
    const saved = exportLimits.matchesReadAtOnce;
    exportLimits.matchesReadAtOnce = 100;
    try {
      const walked = await csv('/api/admin/exports/orders.csv?status=processing&search=bulk1');
      expect(walked.res.body).toBe(searched.res.body);
      const twoWords = await csv('/api/admin/exports/orders.csv?status=processing&search=bulk1%20example');
      expect(twoWords.res.body).toBe(searched.res.body);
      expect((await csv('/api/admin/exports/orders.csv?status=processing&search=bulk1%20nomatch')).rows.length).toBe(1);
    } finally {
      exportLimits.matchesReadAtOnce = saved;
    }
  });
});
