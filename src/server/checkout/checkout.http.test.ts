import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createCoupon, createProduct, createUser } from '../db/seed/factories.js';
import { COUPON_MESSAGES } from '../../shared/coupons.js';
import { CHECKOUT_MESSAGES, Quote } from '../../shared/schemas/checkout.js';
import { taxCents } from '../../shared/pricing.js';
import { DEMO_ADMIN, DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { CARD_MESSAGES } from '../payments/test-checkout-page.js';
import { expireStaleSessions, fulfilPaymentSession, HOLD_TTL_MS } from './service.js';
import { RESERVE_MS, reservedUnits } from '../inventory/reservations.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const address = { name: 'Pat Buyer', address: '1 Main St', city: 'Springfield', state: 'CA', zip: '90210', country: 'US' };
const checkoutBody = (items: { productId: string; quantity: number }[], o: Record<string, unknown> = {}) => ({
  items,
  customerEmail: 'pat@example.com',
  shippingAddress: address,
  appliedCouponCode: null,
  appliedCouponDiscount: 0,
  ...o,
});
const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Pat Buyer' };
const pay = (client: TestClient, sessionId: string, c: Record<string, string> = card) =>
  client.request('POST', `/pay/${sessionId}`, new URLSearchParams(c));

const stock = async (id: string) =>
  (await t.db.selectFrom('products').select('inventory').where('id', '=', id).executeTakeFirstOrThrow()).inventory;
const orderRow = (id: string) => t.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('cart quote', () => {
  it('re-prices from the database, flags missing products, and totals with the pricing rules', async () => {
    await createProduct(t.db, { id: 'quote-a', priceCents: 1250, inventory: 3 });
    const res = await new TestClient(t.app).post('/api/cart/quote', {
      lines: [
        { productId: 'quote-a', quantity: 2 },
        { productId: 'quote-a', quantity: 2 },
        { productId: 'gone', quantity: 1 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const q = Quote.parse(res.json());
    const a = q.lines.find((l) => l.productId === 'quote-a')!;
    expect(a).toMatchObject({ quantity: 4, priceCents: 1250, lineTotalCents: 5000, insufficientStock: true, inventory: 3 });
    expect(q.lines.find((l) => l.productId === 'gone')).toMatchObject({ missing: true, name: 'Unknown Product' });
    expect(q.subtotalCents).toBe(5000);
    expect(q.selectedShippingOptionId).toBe('free');
    expect(q.shippingCents).toBe(0);
    expect(q.taxCents).toBe(taxCents(5000, 0, 0));
    expect(q.totalCents).toBe(5000 + q.taxCents);
  });

  it('lists the options the subtotal allows and the spend that unlocks the next', async () => {
    await createProduct(t.db, { id: 'quote-b', priceCents: 2000 });
    const q = Quote.parse(
      (
        await new TestClient(t.app).post('/api/cart/quote', {
          lines: [{ productId: 'quote-b', quantity: 1 }],
          shippingOptionId: 'overnight',
        })
      ).json(),
    );
    expect(q.shippingOptions.map((o) => o.id).sort()).toEqual(['expedited', 'overnight', 'standard']);
    expect(q.selectedShippingOptionId).toBe('overnight');
    expect(q.shippingCents).toBe(2499);
    expect(q.nextShippingUnlock).toEqual({ optionId: 'free', optionName: expect.any(String), optionPriceCents: 0, amountCents: 3000 });
    const auto = Quote.parse(
      (
        await new TestClient(t.app).post('/api/cart/quote', { lines: [{ productId: 'quote-b', quantity: 1 }], shippingOptionId: 'free' })
      ).json(),
    );
    expect(auto.selectedShippingOptionId).toBe('standard');
  });

  it('answers every coupon message of the specification', async () => {
    await createProduct(t.db, { id: 'quote-c', priceCents: 3000 });
    await createCoupon(t.db, { code: 'FULLUP', maxUses: 2, currentUses: 2 });
    await createCoupon(t.db, { code: 'OFFNOW', isActive: false });
    const quote = async (couponCode: string, qty = 1) =>
      Quote.parse(
        (await new TestClient(t.app).post('/api/cart/quote', { lines: [{ productId: 'quote-c', quantity: qty }], couponCode })).json(),
      );
    expect((await quote('nope')).couponError).toBe(COUPON_MESSAGES.invalid);
    expect((await quote('offnow')).couponError).toBe(COUPON_MESSAGES.invalid);
    expect((await quote('EXPIRED20')).couponError).toBe(COUPON_MESSAGES.expired);
    expect((await quote('BIG25')).couponError).toBe('Minimum order amount of $100.00 required');
    expect((await quote('BIG25', 4)).couponError).toBeNull();
    expect((await quote('FULLUP')).couponError).toBe(COUPON_MESSAGES.usageLimit);
    const ok = await quote(' welcome10 ');
    expect(ok.couponError).toBeNull();
    expect(ok.coupon?.code).toBe('WELCOME10');
    expect(ok.discountCents).toBe(300);
    const fixed = await quote('SAVE5');
    expect(fixed.discountCents).toBe(500);
  });

  it('adds the free gift at $0, quantity 1', async () => {
    await createProduct(t.db, { id: 'quote-d', priceCents: 1000 });
    const q = Quote.parse(
      (
        await new TestClient(t.app).post('/api/cart/quote', { lines: [{ productId: 'quote-d', quantity: 1 }], couponCode: 'FREEGIFT' })
      ).json(),
    );
    const gift = q.lines.find((l) => l.isFreeGift)!;
    expect(gift).toMatchObject({ priceCents: 0, quantity: 1, lineTotalCents: 0 });
    expect(q.coupon?.freeProduct?.id).toBe(gift.productId);
    expect(q.subtotalCents).toBe(1000);
  });

  it('answers bad input with 400', async () => {
    const c = new TestClient(t.app);
    expect((await c.post('/api/cart/quote', { lines: [{ productId: 'x', quantity: 0 }] })).json().error).toContain(
      'quantity must be at least 1',
    );
    expect((await c.post('/api/cart/quote', { lines: 'nope' })).statusCode).toBe(400);
    expect((await c.post('/api/cart/quote', { lines: [], priceCents: 1 })).statusCode).toBe(400);
  });
});

describe('checkout and the test payment page', () => {
  it('charges what the server computes, ignoring prices and discounts sent by the browser', async () => {
    await createProduct(t.db, { id: 'co-a', priceCents: 2000, inventory: 10 });
    const c = new TestClient(t.app);
    const res = await c.post(
      '/api/create-checkout-session',
      checkoutBody([{ productId: 'co-a', quantity: 2, priceCents: 1 } as never], {
        appliedCouponCode: 'welcome10',
        appliedCouponDiscount: 99999,
      }),
    );
    expect(res.statusCode).toBe(400); // unknown key priceCents is refused outright
    const ok = await c.post(
      '/api/create-checkout-session',
      checkoutBody([{ productId: 'co-a', quantity: 2 }], { appliedCouponCode: 'welcome10', appliedCouponDiscount: 99999 }),
    );
    expect(ok.statusCode).toBe(200);
    const { url, sessionId, orderId } = ok.json();
    expect(url).toBe(`http://shop.test/pay/${sessionId}`);
    expect(orderId).toMatch(/^order_\d+_[a-z0-9]+$/);
    const order = await orderRow(orderId);
    expect(order).toMatchObject({
      status: 'pending',
      payment_status: 'unpaid',
      user_id: null,
      subtotal_cents: 4000,
      discount_cents: 400,
      coupon_code: 'WELCOME10',
    });
    expect(order.total_cents).toBe(4000 - 400 + 599 + taxCents(4000, 400, 599));
    expect(order.order_number).toBe(orderId.slice(-8).toUpperCase());
    expect(String(ok.headers['set-cookie'])).toContain('did=');
  });

  it('refuses what cannot be sold, with the spec messages', async () => {
    await createProduct(t.db, { id: 'co-b', name: 'Rare Cloth', inventory: 1 });
    const c = new TestClient(t.app);
    const short = await c.post('/api/create-checkout-session', checkoutBody([{ productId: 'co-b', quantity: 2 }]));
    expect(short.statusCode).toBe(409);
    expect(short.json().error).toBe('Only 1 of Rare Cloth left in stock');
    const badCoupon = await c.post(
      '/api/create-checkout-session',
      checkoutBody([{ productId: 'co-b', quantity: 1 }], { appliedCouponCode: 'EXPIRED20' }),
    );
    expect(badCoupon.json().error).toBe(COUPON_MESSAGES.expired);
    const missing = await c.post('/api/create-checkout-session', checkoutBody([{ productId: 'nope', quantity: 1 }]));
    expect(missing.json().error).toBe(CHECKOUT_MESSAGES.missingProduct);
    const empty = await c.post('/api/create-checkout-session', checkoutBody([]));
    expect(empty.json().error).toContain(CHECKOUT_MESSAGES.emptyCart);
    const zip = await c.post(
      '/api/create-checkout-session',
      checkoutBody([{ productId: 'co-b', quantity: 1 }], { shippingAddress: { ...address, zip: '123' } }),
    );
    expect(zip.json().error).toContain(CHECKOUT_MESSAGES.zip);
    // A place the shop does not ship to is refused; Washington, D.C. is one it does.
    const nowhere = await c.post(
      '/api/create-checkout-session',
      checkoutBody([{ productId: 'co-b', quantity: 1 }], { shippingAddress: { ...address, state: 'PR' } }),
    );
    expect(nowhere.statusCode).toBe(400);
    expect(nowhere.json().error).toContain(CHECKOUT_MESSAGES.shipsTo);
    const dc = await c.post(
      '/api/create-checkout-session',
      checkoutBody([{ productId: 'co-b', quantity: 1 }], {
        shippingAddress: { ...address, state: 'DC', city: 'Washington', zip: '20001' },
      }),
    );
    expect(dc.statusCode).toBe(200);
  });

  it('declined card keeps the order unpaid; the good card pays once and the confirmation reads it back', async () => {
    await createProduct(t.db, { id: 'co-c', priceCents: 1500, inventory: 4 });
    const c = new TestClient(t.app);
    const { sessionId, orderId } = (
      await c.post('/api/create-checkout-session', checkoutBody([{ productId: 'co-c', quantity: 2 }]))
    ).json();
    const pageRes = await t.app.inject({ method: 'GET', url: `/pay/${sessionId}` });
    expect(pageRes.statusCode).toBe(200);
    expect(pageRes.body).toContain('TEST MODE');
    expect(pageRes.body).toMatch(/Pay \$\d+\.\d\d/);
    expect(pageRes.headers['content-security-policy']).toContain("script-src 'self'");

    const declined = await pay(c, sessionId, { ...card, cardNumber: '4000 0000 0000 0002' });
    expect(declined.statusCode).toBe(303);
    expect((await c.get(declined.headers.location as string)).body).toContain(CARD_MESSAGES.declined);
    expect((await orderRow(orderId)).payment_status).toBe('unpaid');
    expect(await stock('co-c')).toBe(4);

    const paid = await pay(c, sessionId);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`/order-confirmation?session_id=${sessionId}&orderId=${orderId}`);
    const order = await orderRow(orderId);
    expect(order).toMatchObject({ payment_status: 'paid', status: 'completed' });
    expect(await stock('co-c')).toBe(2);
    const mails = await t.db
      .selectFrom('email_outbox')
      .selectAll()
      .where('to_address', '=', 'pat@example.com')
      .where('template_id', '=', 'order-confirmation')
      .execute();
    expect(mails.filter((m) => m.html.includes(order.order_number))).toHaveLength(1);

    const view = await c.get(`/api/checkout-session/${sessionId}`);
    expect(view.json()).toEqual({
      id: sessionId,
      status: 'complete',
      payment_status: 'paid',
      amount_total: order.total_cents,
      currency: 'usd',
      metadata: { orderId },
    });
    expect((await c.get(`/api/orders/${orderId}`)).json().order.items[0]).toMatchObject({
      productId: 'co-c',
      quantity: 2,
      priceCents: 1500,
    });

    // Another browser, another customer: not theirs.
    expect((await new TestClient(t.app).get(`/api/checkout-session/${sessionId}`)).statusCode).toBe(404);
    const other = new TestClient(t.app);
    await other.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    expect((await other.get(`/api/orders/${orderId}`)).statusCode).toBe(404);
    const admin = new TestClient(t.app);
    await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    expect((await admin.get(`/api/orders/${orderId}`)).statusCode).toBe(200);

    // Paying again changes nothing.
    const again = await pay(c, sessionId);
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain(CARD_MESSAGES.paid);
    expect(await stock('co-c')).toBe(2);
  });

  it('cancel returns to the checkout with canceled=true and releases the held stock', async () => {
    await createProduct(t.db, { id: 'co-d', inventory: 1 });
    const c = new TestClient(t.app);
    const { sessionId, orderId } = (
      await c.post('/api/create-checkout-session', checkoutBody([{ productId: 'co-d', quantity: 1 }]))
    ).json();
    // The last unit is held: nobody else can check it out meanwhile.
    const held = await new TestClient(t.app).post('/api/create-checkout-session', checkoutBody([{ productId: 'co-d', quantity: 1 }]));
    expect(held.statusCode).toBe(409);
    // A GET (a link preview, a prefetch) changes nothing: it goes back to the card page.
    const look = await t.app.inject({ method: 'GET', url: `/pay/${sessionId}/cancel` });
    expect(look.statusCode).toBe(303);
    expect(look.headers.location).toBe(`/pay/${sessionId}`);
    expect((await orderRow(orderId)).payment_status).toBe('unpaid');
    expect((await t.app.inject({ method: 'GET', url: `/pay/${sessionId}` })).body).toContain(
      `<form method="post" action="/pay/${sessionId}/cancel">`,
    );
    // The card page's Cancel button posts.
    const res = await c.request('POST', `/pay/${sessionId}/cancel`, new URLSearchParams());
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/checkout?canceled=true');
    expect((await orderRow(orderId)).payment_status).toBe('expired');
    const after = await new TestClient(t.app).post('/api/create-checkout-session', checkoutBody([{ productId: 'co-d', quantity: 1 }]));
    expect(after.statusCode).toBe(200);
  });

  it('a signed-in customer’s order lands in their account with loyalty points, and a reward at 300', async () => {
    const buyer = await createUser(t.db, { email: 'loyal@example.com', loyaltyPoints: 295, totalPointsEarned: 295 });
    await createProduct(t.db, { id: 'co-e', priceCents: 6000, inventory: 5 });
    const c = new TestClient(t.app);
    await c.signIn(buyer.email, buyer.password);
    const { sessionId, orderId } = (
      await c.post('/api/create-checkout-session', checkoutBody([{ productId: 'co-e', quantity: 1 }]))
    ).json();
    await pay(c, sessionId);
    expect((await orderRow(orderId)).user_id).toBe(buyer.id);
    const user = await t.db.selectFrom('users').selectAll().where('id', '=', buyer.id).executeTakeFirstOrThrow();
    expect(user.loyalty_points).toBe(305);
    expect(user.total_points_earned).toBe(305);
    const rewards = await t.db.selectFrom('coupons').selectAll().where('owner_user_id', '=', buyer.id).execute();
    expect(rewards).toHaveLength(1);
    expect(rewards[0]).toMatchObject({ discount_type: 'percentage', discount_value: 15, max_uses: 1 });
    const days = (Date.parse(rewards[0]!.valid_until!) - Date.parse(rewards[0]!.valid_from)) / 86_400_000;
    expect(days).toBe(90);
    const mail = await t.db
      .selectFrom('email_outbox')
      .selectAll()
      .where('to_address', '=', buyer.email)
      .where('template_id', '=', 'loyalty-reward')
      .execute();
    expect(mail).toHaveLength(1);
    // Only its owner may use the reward.
    const stranger = await new TestClient(t.app).post('/api/cart/quote', {
      lines: [{ productId: 'co-e', quantity: 1 }],
      couponCode: rewards[0]!.code,
    });
    expect(stranger.json().couponError).toBe(COUPON_MESSAGES.invalid);
    const own = await c.post('/api/cart/quote', { lines: [{ productId: 'co-e', quantity: 1 }], couponCode: rewards[0]!.code });
    expect(own.json().couponError).toBeNull();
  });

  it('one use per account and per guest device', async () => {
    await createProduct(t.db, { id: 'co-f', priceCents: 2000, inventory: 50 });
    await createCoupon(t.db, { code: 'ONCEEACH' });
    const guest = new TestClient(t.app);
    const first = (
      await guest.post(
        '/api/create-checkout-session',
        checkoutBody([{ productId: 'co-f', quantity: 1 }], { appliedCouponCode: 'ONCEEACH' }),
      )
    ).json();
    await pay(guest, first.sessionId);
    const again = await guest.post('/api/cart/quote', { lines: [{ productId: 'co-f', quantity: 1 }], couponCode: 'ONCEEACH' });
    expect(again.json().couponError).toBe(COUPON_MESSAGES.alreadyUsed);
    // Another browser may still use it.
    expect(
      (await new TestClient(t.app).post('/api/cart/quote', { lines: [{ productId: 'co-f', quantity: 1 }], couponCode: 'ONCEEACH' })).json()
        .couponError,
    ).toBeNull();
  });
});

describe('concurrency', () => {
  it('a session holds its units from others until it is paid, cancelled or its 10 minutes pass, and no longer', async () => {
    await createProduct(t.db, { id: 'hold-p', inventory: 3, priceCents: 700 });
    const holdsOf = async (orderId: string) => t.db.selectFrom('stock_reservations').selectAll().where('order_id', '=', orderId).execute();
    const held = async (at = new Date()) => (await reservedUnits(t.db, ['hold-p'], at)).get('hold-p') ?? 0;
    const a = (
      await new TestClient(t.app).post(
        '/api/create-checkout-session',
        checkoutBody([
          { productId: 'hold-p', quantity: 1 },
          { productId: 'hold-p', quantity: 1 },
        ]),
      )
    ).json();
    expect(await holdsOf(a.orderId)).toMatchObject([{ product_id: 'hold-p', quantity: 2 }]);
    expect(await held()).toBe(2);

    // Paid: the units leave the stock and the hold ends (they are not counted twice).
    await fulfilPaymentSession(t.db, t.dialect, a.sessionId, { publicUrl: 'http://shop.test' });
    expect(await stock('hold-p')).toBe(1);
    expect(await held()).toBe(0);
    expect(await holdsOf(a.orderId)).toEqual([]);

    // Past its 10 minutes it stops keeping the units from others at once; past its hold (41 minutes)
    // the housekeeping ends the session, and later removes the ended reservation.
    const b = (
      await new TestClient(t.app).post('/api/create-checkout-session', checkoutBody([{ productId: 'hold-p', quantity: 1 }]))
    ).json();
    expect(await held()).toBe(1);
    expect(await held(new Date(Date.now() + RESERVE_MS + 1000))).toBe(0);
    const later = new Date(Date.now() + HOLD_TTL_MS + 60_000);
    await expireStaleSessions(t.db, later);
    expect(await holdsOf(b.orderId)).toMatchObject([{ released_at: expect.any(String) }]);
    expect((await orderRow(b.orderId)).payment_status).toBe('expired');
    await expireStaleSessions(t.db, new Date(Date.now() + 3 * HOLD_TTL_MS));
    expect(await holdsOf(b.orderId)).toEqual([]);
  });

  it('20 simultaneous checkouts and payments for the last 5 units: exactly 5 paid orders, stock 0', async () => {
    await createProduct(t.db, { id: 'race-stock', inventory: 5, priceCents: 1000 });
    const clients = Array.from({ length: 20 }, (_, i) => new TestClient(t.app, `10.20.0.${i}`));
    const created = await Promise.all(
      clients.map((c) => c.post('/api/create-checkout-session', checkoutBody([{ productId: 'race-stock', quantity: 1 }]))),
    );
    const ok = created.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(5);
    expect(created.filter((r) => r.statusCode === 409)).toHaveLength(15);
    await Promise.all(ok.map((r) => fulfilPaymentSession(t.db, t.dialect, r.json().sessionId, { publicUrl: 'http://shop.test' })));
    expect(await stock('race-stock')).toBe(0);
    const paid = await t.db
      .selectFrom('orders as o')
      .innerJoin('order_items as i', 'i.order_id', 'o.id')
      .select('o.id')
      .where('i.product_id', '=', 'race-stock')
      .where('o.payment_status', '=', 'paid')
      .execute();
    expect(paid).toHaveLength(5);
  });

  it('a coupon with max_uses 3 and 10 simultaneous checkouts and payments: exactly 3 take it, 7 are refused, 3 uses counted', async () => {
    await createProduct(t.db, { id: 'race-coupon', inventory: 100, priceCents: 1000 });
    await createCoupon(t.db, { id: 'coupon-race', code: 'RACE3', maxUses: 3 });
    const clients = Array.from({ length: 10 }, (_, i) => new TestClient(t.app, `10.21.0.${i}`));
    const created = await Promise.all(
      // Ten customers (ten e-mails): one e-mail may hold a one-per-customer coupon only once.
      clients.map((c, i) =>
        c.post(
          '/api/create-checkout-session',
          checkoutBody([{ productId: 'race-coupon', quantity: 1 }], { appliedCouponCode: 'RACE3', customerEmail: `racer${i}@example.com` }),
        ),
      ),
    );
    const ok = created.filter((r) => r.statusCode === 200);
    const refused = created.filter((r) => r.statusCode === 400);
    // Each checkout holds its use of the coupon: the first three hold the three uses, the other seven are told why.
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(7);
    expect(refused.map((r) => r.json().error)).toEqual(Array(7).fill(COUPON_MESSAGES.usageLimit));
    await Promise.all(ok.map((r) => fulfilPaymentSession(t.db, t.dialect, r.json().sessionId, { publicUrl: 'http://shop.test' })));
    const coupon = await t.db.selectFrom('coupons').select('current_uses').where('id', '=', 'coupon-race').executeTakeFirstOrThrow();
    expect(coupon.current_uses).toBe(3);
    const paidWithCoupon = await t.db
      .selectFrom('orders')
      .select('id')
      .where('coupon_code', '=', 'RACE3')
      .where('payment_status', '=', 'paid')
      .execute();
    expect(paidWithCoupon).toHaveLength(3);
  });

  it('5 simultaneous fulfilments of one payment fulfil once: one e-mail, points once, stock once', async () => {
    const buyer = await createUser(t.db, { email: 'once@example.com', loyaltyPoints: 10 });
    await createProduct(t.db, { id: 'race-once', inventory: 9, priceCents: 1000 });
    const c = new TestClient(t.app);
    await c.signIn(buyer.email, buyer.password);
    const { sessionId, orderId } = (
      await c.post(
        '/api/create-checkout-session',
        checkoutBody([{ productId: 'race-once', quantity: 2 }], { customerEmail: 'once@example.com' }),
      )
    ).json();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' })),
    );
    expect(results.filter((r) => r.fulfilled)).toHaveLength(1);
    expect(await stock('race-once')).toBe(7);
    const user = await t.db.selectFrom('users').select('loyalty_points').where('id', '=', buyer.id).executeTakeFirstOrThrow();
    expect(user.loyalty_points).toBe(13);
    const mails = await t.db
      .selectFrom('email_outbox')
      .select('id')
      .where('to_address', '=', 'once@example.com')
      .where('template_id', '=', 'order-confirmation')
      .execute();
    expect(mails).toHaveLength(1);
    expect((await orderRow(orderId)).payment_status).toBe('paid');
  });
});
