import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createCoupon, createProduct } from '../db/seed/factories.js';
import { COUPON_MESSAGES } from '../../shared/coupons.js';
import { ledgerAndLevel, reservedAndCounted, stockAndPaidUnits } from '../test/stock-checks.js';
import { INVENTORY_MESSAGES } from '../../shared/schemas/inventory.js';
import { CHECKOUT_MESSAGES } from '../../shared/schemas/checkout.js';

/**
 * Checkouts and payments at once, all with one coupon (limited uses, with a free gift), through
 * the HTTP routes and the built-in card page, on whichever database TEST_DB names. Before one lock
 * order (products by id, coupon, order, session, user) and the retry of deadlocks, PostgreSQL
 * answered 500 to a fifth of these and left the holds of the failed payments behind.
 */
let t: TestApp;
beforeAll(async () => {
  // The sale below sends 300 shoppers at the pool's 10 connections at once. On a machine busy with
  // the rest of the suite (both databases' suites side by side on 2 cores), some waited longer than
  // the shop's 5 s for a connection and were answered 503 "busy" (the shop's right answer when
  // overloaded: db/unavailable.test.ts); what is tested here is what the sale sells, so they may wait.
  t = await createTestApp({ connectTimeoutMs: 60_000 });
});
afterAll(async () => {
  await t?.close();
});

const address = { name: 'Race Buyer', address: '1 Main St', city: 'Springfield', state: 'CA', zip: '90210', country: 'US' };
const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Race Buyer' };

const SHOPPERS = 30;
const ROUNDS = 3;
const STOCK = { 'conc-p': 60, 'conc-q': 40, 'conc-gift': 25 } as const;
const MAX_USES = 40;

describe('30 shoppers, 3 checkout+payment pairs each, one coupon', () => {
  it('no 5xx, exact stock and coupon counts, no hold left behind', { timeout: 120_000 }, async () => {
    for (const [id, inventory] of Object.entries(STOCK)) await createProduct(t.db, { id, inventory, priceCents: 1500 });
    await createCoupon(t.db, {
      id: 'coupon-conc',
      code: 'CONC10',
      maxUses: MAX_USES,
      discountType: 'percentage',
      discountValue: 10,
      freeProductId: 'conc-gift',
    });

    const checkouts: number[] = [];
    const payments: number[] = [];
    const refusals: string[] = [];
    // Every pair is a fresh browser (its own cookies, IP and e-mail): a customer uses the coupon once.
    const pair = async (shopper: number, round: number) => {
      const browser = new TestClient(t.app, `10.60.${round}.${shopper}`);
      const items =
        shopper % 2
          ? [
              { productId: 'conc-q', quantity: 1 },
              { productId: 'conc-p', quantity: 1 },
            ]
          : [{ productId: 'conc-p', quantity: 1 }];
      const res = await browser.post('/api/create-checkout-session', {
        items,
        customerEmail: `shopper${shopper}.round${round}@example.com`,
        shippingAddress: address,
        appliedCouponCode: 'CONC10',
      });
      checkouts.push(res.statusCode);
      if (res.statusCode !== 200) {
        refusals.push(`${res.statusCode} ${String(res.json().error)}`);
        return;
      }
      const paid = await browser.request('POST', `/pay/${res.json().sessionId}`, new URLSearchParams(card));
      payments.push(paid.statusCode);
    };
    await Promise.all(
      Array.from({ length: SHOPPERS }, async (_, shopper) => {
        for (let round = 0; round < ROUNDS; round++) await pair(shopper, round);
      }),
    );

    const fiveHundreds = [...checkouts, ...payments].filter((s) => s >= 500).length;
    console.log(
      `${t.dialect}: ${checkouts.length} checkouts (${checkouts.filter((s) => s === 200).length} accepted, ${checkouts.filter((s) => s >= 500).length} 5xx), ` +
        `${payments.length} payments (${payments.filter((s) => s >= 500).length} 5xx)`,
    );
    expect(checkouts).toHaveLength(SHOPPERS * ROUNDS);
    expect(fiveHundreds).toBe(0);
    // A checkout is accepted, or refused for a reason the shopper can read; every accepted one pays.
    expect(refusals.every((r) => r === `400 ${COUPON_MESSAGES.usageLimit}` || r.startsWith('409 '))).toBe(true);
    expect(payments.every((s) => s === 303)).toBe(true);

    const paidOrders = await t.db
      .selectFrom('orders')
      .select(['id', 'coupon_code', 'stock_shortfall'])
      .where('payment_status', '=', 'paid')
      .execute();
    expect(paidOrders).toHaveLength(payments.length);
    expect(paidOrders.every((o) => o.coupon_code === 'CONC10' && o.stock_shortfall === null)).toBe(true);
    const coupon = await t.db.selectFrom('coupons').select('current_uses').where('id', '=', 'coupon-conc').executeTakeFirstOrThrow();
    expect(coupon.current_uses).toBe(paidOrders.length);
    expect(coupon.current_uses).toBeLessThanOrEqual(MAX_USES);
    const redemptions = await t.db
      .selectFrom('coupon_redemptions')
      .select(sql<number | string>`count(*)`.as('n'))
      .where('coupon_id', '=', 'coupon-conc')
      .executeTakeFirstOrThrow();
    expect(Number(redemptions.n)).toBe(paidOrders.length);

    // Stock went down by exactly what was sold, product by product (the gift included).
    for (const [id, initial] of Object.entries(STOCK)) {
      const { inventory, paidUnits } = await stockAndPaidUnits(t.db, id);
      // The ledger (decision 0022) says the same as the level, on every process.
      const books = await ledgerAndLevel(t.db, id);
      expect(books).toEqual({ level: inventory, copy: inventory, ledger: inventory });
      expect({ id, total: inventory + paidUnits }).toEqual({ id, total: initial });
      expect(inventory).toBeGreaterThanOrEqual(0);
    }

    // Every session was paid: nothing is held any more.
    expect(await t.db.selectFrom('stock_reservations').selectAll().execute()).toEqual([]);
    expect(await t.db.selectFrom('coupon_holds').selectAll().execute()).toEqual([]);
    const open = await t.db.selectFrom('payment_sessions').select('id').where('status', '=', 'open').execute();
    expect(open).toEqual([]);
  });
});

/**
 * A sale (decision 0023): 300 shoppers at the same moment for the last 40 units of one product,
 * each checking out and paying at once. Stock is reserved and taken with one conditional update
 * each, with no lock held across the checkout: exactly 40 are sold, never 41, nobody gets a 5xx,
 * and everyone else is told in the shop's words.
 */
describe('a sale: 300 shoppers at once for the last 40 units', () => {
  it("sells exactly the 40, answers the rest 409 in the shop's words, no 5xx, books exact", { timeout: 120_000 }, async () => {
    const UNITS = 40;
    const BUYERS = 300;
    await createProduct(t.db, { id: 'sale-last', name: 'Last Refill', inventory: UNITS, priceCents: 900 });
    const answers: number[] = [];
    const refusals = new Set<string>();
    let paid = 0;
    await Promise.all(
      Array.from({ length: BUYERS }, async (_, n) => {
        const browser = new TestClient(t.app, `10.61.${n >> 8}.${n & 255}`);
        const res = await browser.post('/api/create-checkout-session', {
          items: [{ productId: 'sale-last', quantity: 1 }],
          customerEmail: `sale${n}@example.com`,
          shippingAddress: address,
        });
        answers.push(res.statusCode);
        if (res.statusCode !== 200) {
          refusals.add(`${res.statusCode} ${String(res.json().error)}`);
          return;
        }
        const pay = await browser.request('POST', `/pay/${res.json().sessionId}`, new URLSearchParams(card));
        answers.push(pay.statusCode);
        if (pay.statusCode === 303) paid++;
      }),
    );
    console.log(
      `${t.dialect}: a sale of ${UNITS} units to ${BUYERS} shoppers at once: ${paid} paid, refusals ${[...refusals].join(' | ')}`,
    );
    expect(answers.filter((s) => s >= 500)).toEqual([]);
    expect(paid).toBe(UNITS);
    // Refused while units were in other checkouts, or once they were all sold.
    const allowed = new Set([
      ...Array.from({ length: UNITS + 1 }, (_, free) =>
        Array.from({ length: UNITS + 1 }, (_, held) => `409 ${INVENTORY_MESSAGES.reservedElsewhere('Last Refill', free, held)}`),
      ).flat(),
      `409 ${CHECKOUT_MESSAGES.outOfStock('Last Refill', 0)}`,
    ]);
    expect([...refusals].filter((r) => !allowed.has(r))).toEqual([]);
    const { inventory, paidUnits } = await stockAndPaidUnits(t.db, 'sale-last');
    expect({ inventory, paidUnits }).toEqual({ inventory: 0, paidUnits: UNITS });
    expect(await ledgerAndLevel(t.db, 'sale-last')).toEqual({ level: 0, copy: 0, ledger: 0 });
    expect(await reservedAndCounted(t.db, 'sale-last')).toEqual({ reserved: 0, counted: 0 });
    const short = await t.db.selectFrom('orders').select('id').where('stock_shortfall', 'is not', null).execute();
    expect(short).toEqual([]);
  });
});
