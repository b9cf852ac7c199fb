import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createCoupon, createProduct } from '../db/seed/factories.js';
import { COUPON_MESSAGES } from '../../shared/coupons.js';
import { ledgerAndLevel, stockAndPaidUnits } from '../test/stock-checks.js';

/**
 * Checkouts and payments at once, all with one coupon (limited uses, with a free gift), through
 * the HTTP routes and the built-in card page, on whichever database TEST_DB names. Before one lock
 * order (products by id, coupon, order, session, user) and the retry of deadlocks, PostgreSQL
 * answered 500 to a fifth of these and left the holds of the failed payments behind.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
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
