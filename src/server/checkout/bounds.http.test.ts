import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createCoupon, createProduct } from '../db/seed/factories.js';
import { COUPON_MESSAGES } from '../../shared/coupons.js';
import { MAX_ORDER_TOTAL_CENTS } from '../../shared/money.js';
import { taxCents } from '../../shared/pricing.js';
import { CHECKOUT_MESSAGES } from '../../shared/schemas/checkout.js';

/** Money and quantity bounds, and the one-per-customer coupon by normalized e-mail. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const address = { name: 'Bound Tester', address: '1 Main St', city: 'Springfield', state: 'CA', zip: '90210', country: 'US' };
const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Bound Tester' };
const quote = (productId: string, quantity: number) =>
  new TestClient(t.app, '10.90.0.1').post('/api/cart/quote', { lines: [{ productId, quantity }] });
const checkoutAs = (c: TestClient, productId: string, quantity: number, o: Record<string, unknown> = {}) =>
  c.post('/api/create-checkout-session', {
    items: [{ productId, quantity }],
    customerEmail: 'bounds@example.com',
    shippingAddress: address,
    ...o,
  });

describe('money and quantity bounds', () => {
  it('a line of more than 10,000 units is refused with a clear 400 on the quote and at checkout', async () => {
    await createProduct(t.db, { id: 'many-p', priceCents: 1, inventory: 20_000 });
    for (const res of [await quote('many-p', 10_001), await checkoutAs(new TestClient(t.app, '10.90.1.1'), 'many-p', 10_001)]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain(CHECKOUT_MESSAGES.lineQuantity);
    }
    expect((await quote('many-p', 10_000)).statusCode).toBe(200);
  });

  it('an order past $999,999.99 is refused with a clear 400 (never a 500, never accepted), on the quote and at checkout', async () => {
    await createProduct(t.db, { id: 'dear-p', priceCents: 99_999_999, inventory: 20_000 });
    // $1.08 trillion: the order the issue saw SQLite accept and PostgreSQL answer 500 to.
    for (const quantity of [1, 10_000]) {
      for (const res of [
        await quote('dear-p', quantity),
        await checkoutAs(new TestClient(t.app, `10.90.2.${quantity % 250}`), 'dear-p', quantity),
      ]) {
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe(CHECKOUT_MESSAGES.orderTooLarge);
      }
    }
    expect(await t.db.selectFrom('order_items').select('id').where('product_id', '=', 'dear-p').execute()).toEqual([]);
  });

  it('an order of exactly $999,999.99 is fine, end to end', async () => {
    // 92,592,592 + 8% tax (7,407,407) + free shipping = 99,999,999 cents.
    const price = 92_592_592;
    expect(price + taxCents(price, 0, 0)).toBe(MAX_ORDER_TOTAL_CENTS);
    await createProduct(t.db, { id: 'exact-p', priceCents: price, inventory: 1 });
    const q = await quote('exact-p', 1);
    expect(q.statusCode).toBe(200);
    expect(q.json().totalCents).toBe(MAX_ORDER_TOTAL_CENTS);
    const c = new TestClient(t.app, '10.90.3.1');
    const res = await checkoutAs(c, 'exact-p', 1);
    expect(res.statusCode).toBe(200);
    expect((await c.request('POST', `/pay/${res.json().sessionId}`, new URLSearchParams(card))).statusCode).toBe(303);
    const order = await t.db.selectFrom('orders').selectAll().where('id', '=', res.json().orderId).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ payment_status: 'paid', total_cents: MAX_ORDER_TOTAL_CENTS, subtotal_cents: price });
    expect(typeof order.total_cents).toBe('number');
  });
});

describe('one-per-customer coupons for guests', () => {
  it('5 guest checkouts, a fresh browser each, one e-mail spelled 5 ways: only the first gets the coupon', async () => {
    await createProduct(t.db, { id: 'once-p', priceCents: 3000, inventory: 100 });
    await createCoupon(t.db, { code: 'ONEPERPERSON' });
    const spellings = [
      'Pat.Buyer@gmail.com',
      'patbuyer+promo@gmail.com',
      '  PATBUYER@googlemail.com ',
      'p.a.t.b.u.y.e.r@GMAIL.com',
      'PatBuyer+2@GoogleMail.com',
    ];
    const browsers = spellings.map((_, i) => new TestClient(t.app, `10.91.0.${i + 1}`));
    const attempts = [];
    for (const [i, customerEmail] of spellings.entries()) {
      attempts.push(await checkoutAs(browsers[i]!, 'once-p', 1, { customerEmail, appliedCouponCode: 'ONEPERPERSON' }));
      // The second is refused while the first holds the coupon in its open checkout; then the first pays.
      if (i === 1)
        expect((await browsers[0]!.request('POST', `/pay/${attempts[0]!.json().sessionId}`, new URLSearchParams(card))).statusCode).toBe(
          303,
        );
    }
    expect(attempts.map((r) => r.statusCode)).toEqual([200, 400, 400, 400, 400]);
    expect(attempts.slice(1).every((r) => r.json().error === COUPON_MESSAGES.alreadyUsed)).toBe(true);
    const redemptions = await t.db.selectFrom('coupon_redemptions').select('email_normalized').execute();
    expect(redemptions.filter((r) => r.email_normalized === 'patbuyer@gmail.com')).toHaveLength(1);
    // Another customer may still use it; dots count outside Gmail.
    const other = await checkoutAs(new TestClient(t.app, '10.91.0.9'), 'once-p', 1, {
      customerEmail: 'pat.buyer@example.com',
      appliedCouponCode: 'ONEPERPERSON',
    });
    expect(other.statusCode).toBe(200);
    const otherSpelling = await checkoutAs(new TestClient(t.app, '10.91.0.10'), 'once-p', 1, {
      customerEmail: 'patbuyer@example.com',
      appliedCouponCode: 'ONEPERPERSON',
    });
    expect(otherSpelling.statusCode).toBe(200);
  });

  it('two open checkouts with one e-mail cannot both hold the coupon; the same browser trying again can', async () => {
    await createProduct(t.db, { id: 'hold-once-p', priceCents: 3000, inventory: 100 });
    await createCoupon(t.db, { code: 'HOLDONCE' });
    const a = new TestClient(t.app, '10.92.0.1');
    expect((await checkoutAs(a, 'hold-once-p', 1, { customerEmail: 'sam@example.com', appliedCouponCode: 'HOLDONCE' })).statusCode).toBe(
      200,
    );
    const b = await checkoutAs(new TestClient(t.app, '10.92.0.2'), 'hold-once-p', 1, {
      customerEmail: 'Sam+b@Example.com',
      appliedCouponCode: 'HOLDONCE',
    });
    expect(b.statusCode).toBe(400);
    expect(b.json().error).toBe(COUPON_MESSAGES.alreadyUsed);
    // Back from the payment page, the same browser checks out again: its earlier checkout ends, the coupon applies.
    const again = await checkoutAs(a, 'hold-once-p', 2, { customerEmail: 'sam@example.com', appliedCouponCode: 'HOLDONCE' });
    expect(again.statusCode).toBe(200);
  });
});
