import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct, createVariant } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { ledgerAndLevel, reservedAndCounted, variantLedgerAndLevel } from '../test/stock-checks.js';
import { CHECKOUT_MESSAGES } from '../../shared/schemas/checkout.js';

/**
 * Stock by variant (issue [6/6], decision 0036): each variant of a product is a stocked unit of its
 * own. The server prices each line from its variant, keeps two variants of a product apart, sells
 * no more of a variant than it has under simultaneous checkouts (also carts naming two products'
 * variants in opposite orders), and a refund returns units to the variant that was sold.
 */
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' };
const address = { name: 'Vera Variant', address: '4 Option Ave', city: 'Portland', state: 'OR', zip: '97201', country: 'US' };
const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Vera Variant' };

let t: TestApp;
let admin: TestClient;
let ipCount = 0;
const nextIp = () => `10.78.${Math.floor(++ipCount / 250)}.${ipCount % 250}`;

beforeAll(async () => {
  t = await createTestApp({ env: LIMITS });
  admin = new TestClient(t.app, '10.78.250.1');
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => {
  await t?.close();
});

type Line = { productId: string; variantId?: string; quantity: number };
const checkout = (c: TestClient, items: Line[], email = 'vera@example.com') =>
  c.post('/api/create-checkout-session', { items, customerEmail: email, shippingAddress: address });
const pay = (c: TestClient, sessionId: string) => c.request('POST', `/pay/${sessionId}`, new URLSearchParams(card));
const variantLevel = async (variantId: string) => (await variantLedgerAndLevel(t.db, variantId)).level;

describe('variants: priced and stocked one by one', () => {
  it('prices every line from its variant, keeps two variants apart, refuses a switched-off or foreign one', async () => {
    const p = await createProduct(t.db, { name: 'Concentrated Cleaner', priceCents: 1200, inventory: 10, sku: 'CL-500' });
    const big = await createVariant(t.db, p.id, { options: ['1 L'], priceCents: 2000, sku: 'CL-1L', inventory: 5 });
    const off = await createVariant(t.db, p.id, { options: ['5 L'], priceCents: 6000, inventory: 5, enabled: false });
    const other = await createProduct(t.db, { name: 'Other Thing', priceCents: 300, inventory: 10 });
    // The product row's copies: the lowest and highest enabled prices, no single SKU or variant.
    const row = await t.db
      .selectFrom('products')
      .select(['price_cents', 'max_price_cents', 'sku', 'sole_variant_id', 'inventory'])
      .where('id', '=', p.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ max_price_cents: 2000, sku: null, sole_variant_id: null });
    expect([Number(row.price_cents), Number(row.inventory)]).toEqual([1200, 20]);

    const c = new TestClient(t.app, nextIp());
    // A line naming no variant is the product's first; a price sent by the browser is not read.
    const quote = await c.post('/api/cart/quote', {
      lines: [
        { productId: p.id, quantity: 1 },
        { productId: p.id, variantId: big, quantity: 2 },
        { productId: p.id, variantId: `var_${p.id}`, quantity: 1 },
      ],
      couponCode: null,
    });
    expect(quote.statusCode, quote.body).toBe(200);
    const q = quote.json();
    expect(
      q.lines.map((l: { variantId: string; priceCents: number; quantity: number }) => [l.variantId, l.priceCents, l.quantity]),
    ).toEqual([
      [`var_${p.id}`, 1200, 2],
      [big, 2000, 2],
    ]);
    expect(q.subtotalCents).toBe(1200 * 2 + 2000 * 2);
    // More of a variant than it has is short, whatever its sibling has.
    const short = (await c.post('/api/cart/quote', { lines: [{ productId: p.id, variantId: big, quantity: 6 }], couponCode: null })).json();
    expect(short.lines[0]).toMatchObject({ inventory: 5, insufficientStock: true });

    // Switched off, unknown, or another product's: no longer for sale, and checkout says so.
    for (const variantId of [off, 'var_nope', `var_${other.id}`]) {
      const quoted = (await c.post('/api/cart/quote', { lines: [{ productId: p.id, variantId, quantity: 1 }], couponCode: null })).json();
      expect(quoted.lines[0]).toMatchObject({ missing: true, priceCents: 0 });
      const refused = await checkout(c, [{ productId: p.id, variantId, quantity: 1 }]);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toBe(CHECKOUT_MESSAGES.missingProduct);
    }
    expect((await checkout(c, [{ productId: p.id, variantId: 'x'.repeat(121), quantity: 1 }])).statusCode).toBe(400);

    // Bought: each line carries its variant and the variant's SKU, and each variant's own stock moves.
    const res = await checkout(c, [
      { productId: p.id, quantity: 1 },
      { productId: p.id, variantId: big, quantity: 2 },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const { orderId, sessionId } = res.json();
    expect((await pay(c, sessionId)).statusCode).toBe(303);
    const lines = await t.db
      .selectFrom('order_items')
      .select(['variant_id', 'sku', 'price_cents', 'quantity'])
      .where('order_id', '=', orderId)
      .orderBy('variant_id')
      .execute();
    expect(lines.map((l) => [l.variant_id, l.sku, Number(l.price_cents), l.quantity]).sort()).toEqual(
      [
        [`var_${p.id}`, 'CL-500', 1200, 1],
        [big, 'CL-1L', 2000, 2],
      ].sort(),
    );
    expect([await variantLevel(`var_${p.id}`), await variantLevel(big), await variantLevel(off)]).toEqual([9, 3, 5]);
    expect(await ledgerAndLevel(t.db, p.id)).toEqual({ level: 17, copy: 17, ledger: 17 });

    // The refund dialog lists the lines by variant; a return goes back to the variant sold.
    const stockLines = (await admin.get(`/api/admin/orders/${orderId}/stock-lines`)).json().items;
    expect(stockLines.map((l: { variantId: string; out: number }) => [l.variantId, l.out]).sort()).toEqual(
      [
        [`var_${p.id}`, 1],
        [big, 2],
      ].sort(),
    );
    const refund = await admin.post(`/api/admin/orders/${orderId}/refunds`, {
      amountCents: 2000,
      returnLines: [{ productId: p.id, variantId: big, quantity: 1 }],
    });
    expect(refund.statusCode, refund.body).toBe(201);
    expect([await variantLevel(`var_${p.id}`), await variantLevel(big)]).toEqual([9, 4]);
    const tooMany = await admin.post(`/api/admin/orders/${orderId}/refunds`, {
      amountCents: 100,
      returnLines: [{ productId: p.id, variantId: big, quantity: 2 }],
    });
    expect(tooMany.statusCode).toBe(400);
    // A line without a variant is the product's first (refund rows written before variants).
    const first = await admin.post(`/api/admin/orders/${orderId}/refunds`, {
      amountCents: 100,
      returnLines: [{ productId: p.id, quantity: 1 }],
    });
    expect(first.statusCode, first.body).toBe(201);
    expect([await variantLevel(`var_${p.id}`), await variantLevel(big)]).toEqual([10, 4]);
    for (const v of [`var_${p.id}`, big, off]) {
      const books = await variantLedgerAndLevel(t.db, v);
      expect(books.ledger).toBe(books.level);
    }
  });

  it(
    'simultaneous checkouts of two variants of one product, and of two products in opposite orders: each variant sells exactly its stock',
    { timeout: 180_000 },
    async () => {
      const UNITS = 12;
      const p = await createProduct(t.db, { name: 'Race Cleaner', priceCents: 1000, inventory: UNITS });
      const pb = await createVariant(t.db, p.id, { options: ['1 L'], priceCents: 1800, inventory: UNITS });
      const q = await createProduct(t.db, { name: 'Race Cloth', priceCents: 500, inventory: UNITS });
      const qb = await createVariant(t.db, q.id, { options: ['Grey'], priceCents: 500, inventory: UNITS });
      const pa = `var_${p.id}`;
      const qa = `var_${q.id}`;
      // Carts naming the same rows in opposite orders: a lock order by anything but (product, variant) deadlocks on PostgreSQL.
      const carts: Line[][] = [
        [{ productId: p.id, variantId: pa, quantity: 1 }],
        [{ productId: p.id, variantId: pb, quantity: 1 }],
        [
          { productId: p.id, variantId: pb, quantity: 1 },
          { productId: q.id, variantId: qa, quantity: 1 },
        ],
        [
          { productId: q.id, variantId: qb, quantity: 1 },
          { productId: p.id, variantId: pa, quantity: 1 },
        ],
        [
          { productId: q.id, variantId: qa, quantity: 1 },
          { productId: q.id, variantId: qb, quantity: 1 },
        ],
      ];
      const SHOPPERS = 60;
      const statuses: number[] = [];
      const refusals = new Set<string>();
      let paid = 0;
      await Promise.all(
        Array.from({ length: SHOPPERS }, async (_, n) => {
          const c = new TestClient(t.app, nextIp());
          const res = await checkout(c, carts[n % carts.length]!, `race${n}@example.com`);
          statuses.push(res.statusCode);
          if (res.statusCode !== 200) {
            refusals.add(`${res.statusCode} ${String(res.json().error).replace(/\d+/g, 'N')}`);
            return;
          }
          const r = await pay(c, res.json().sessionId);
          statuses.push(r.statusCode);
          if (r.statusCode === 303) paid++;
        }),
      );
      console.log(`${t.dialect}: ${paid} of ${SHOPPERS} carts paid; refusals: ${[...refusals].join(' | ')}`);
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      expect([...refusals].every((r) => r.startsWith('409 '))).toBe(true);
      // Demand is 24 per variant for 12 units each: every variant sold out, exactly.
      const sold = await t.db
        .selectFrom('order_items as i')
        .innerJoin('orders as o', 'o.id', 'i.order_id')
        .select(['i.variant_id', 'i.quantity'])
        .where('o.payment_status', '=', 'paid')
        .where('i.product_id', 'in', [p.id, q.id])
        .execute();
      const soldBy = new Map<string, number>();
      for (const s of sold) soldBy.set(s.variant_id!, (soldBy.get(s.variant_id!) ?? 0) + s.quantity);
      for (const v of [pa, pb, qa, qb]) {
        const books = await variantLedgerAndLevel(t.db, v);
        expect({ v, level: books.level, ledger: books.ledger, total: books.level + (soldBy.get(v) ?? 0) }).toEqual({
          v,
          level: books.level,
          ledger: books.level,
          total: UNITS,
        });
        expect(books.level).toBeGreaterThanOrEqual(0);
      }
      expect([...soldBy.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      for (const id of [p.id, q.id]) {
        const books = await ledgerAndLevel(t.db, id);
        expect(books.copy).toBe(books.level);
        expect(books.ledger).toBe(books.level);
        expect(await reservedAndCounted(t.db, id)).toEqual({ reserved: 0, counted: 0 });
      }
    },
  );
});
