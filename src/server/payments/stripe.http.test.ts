import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import {
  FAKE_STRIPE_SECRET_KEY as SECRET_KEY,
  FAKE_STRIPE_WEBHOOK_SECRET as WEBHOOK_SECRET,
  fakeStripe,
  signedStripeEvent,
  deliverStripeEvent,
} from '../test/fake-stripe.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { CHECKOUT_MESSAGES } from '../../shared/schemas/checkout.js';

const fake = fakeStripe();
let t: TestApp;

beforeAll(async () => {
  const base = await fake.listen();
  t = await createTestApp({ env: { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: base } });
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});

const address = { name: 'Sam Stripe', address: '2 Side St', city: 'Austin', state: 'TX', zip: '73301', country: 'US' };
const checkout = (c: TestClient, productId: string, quantity: number, coupon: string | null = null) =>
  c.post('/api/create-checkout-session', {
    items: [{ productId, quantity }],
    customerEmail: 'sam@example.com',
    shippingAddress: address,
    appliedCouponCode: coupon,
  });

const deliver = (e: { payload: string; signature: string }) => deliverStripeEvent(t.app, e);

describe('Stripe Checkout', () => {
  it('creates a session in cents with the discount, tax, shipping, order id and an idempotency key', async () => {
    await createProduct(t.db, { id: 'st-a', name: 'Stripe Cloth', priceCents: 2500, inventory: 10 });
    const c = new TestClient(t.app);
    const res = await checkout(c, 'st-a', 2, 'SAVE5');
    expect(res.statusCode).toBe(200);
    const { url, sessionId, orderId } = res.json();
    expect(url).toBe(`https://checkout.stripe.test/c/pay/${sessionId}`);
    const order = await t.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(order.payment_session_id).toBe(sessionId);
    expect(order.payment_provider).toBe('stripe');

    const coupon = fake.requests.find((r) => r.path === '/v1/coupons')!;
    expect(coupon.body.get('amount_off')).toBe('500');
    expect(coupon.idempotencyKey).toBe(`coupon-${orderId}-500-SAVE5`);
    const created = fake.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(created.idempotencyKey).toBe(`checkout-${orderId}`);
    expect(created.body.get('metadata[orderId]')).toBe(orderId);
    expect(created.body.get('line_items[0][price_data][unit_amount]')).toBe('2500');
    expect(created.body.get('line_items[0][quantity]')).toBe('2');
    expect(created.body.get('line_items[1][price_data][unit_amount]')).toBe(String(order.tax_cents));
    expect(created.body.get('shipping_options[0][shipping_rate_data][fixed_amount][amount]')).toBe(String(order.shipping_cents));
    expect(created.body.get('discounts[0][coupon]')).toMatch(/^coupon_/);
    expect(created.body.get('success_url')).toBe(`http://shop.test/order-confirmation?session_id={CHECKOUT_SESSION_ID}&orderId=${orderId}`);
    expect(created.body.get('cancel_url')).toBe('http://shop.test/checkout?canceled=true');
    // Stripe's total (after the discount) is what the shop computed.
    expect(fake.sessions.get(sessionId)!.amount_total as number).toBe(order.total_cents);
  });

  it('fulfils a webhook delivered 5 times at once exactly once (one e-mail, points once), and refuses a bad signature', async () => {
    await createProduct(t.db, { id: 'st-b', priceCents: 1000, inventory: 5 });
    const buyer = await createUser(t.db, { email: 'hook@example.com', loyaltyPoints: 100 });
    const c = new TestClient(t.app);
    await c.signIn(buyer.email, buyer.password);
    const { sessionId, orderId } = (await checkout(c, 'st-b', 2)).json();
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=nope' },
      payload: '{}',
    });
    expect(bad.statusCode).toBe(400);

    const event = signedStripeEvent('checkout.session.completed', {
      id: sessionId,
      object: 'checkout.session',
      payment_status: 'paid',
      metadata: { orderId },
    });
    const results = await Promise.all(Array.from({ length: 5 }, () => deliver(event)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const order = await t.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(order.payment_status).toBe('paid');
    expect((await t.db.selectFrom('products').select('inventory').where('id', '=', 'st-b').executeTakeFirstOrThrow()).inventory).toBe(3);
    const mails = await t.db
      .selectFrom('email_outbox')
      .select('id')
      .where('template_id', '=', 'order-confirmation')
      .where('html', 'like', `%${order.order_number}%`)
      .execute();
    expect(mails).toHaveLength(1);
    const user = await t.db.selectFrom('users').select('loyalty_points').where('id', '=', buyer.id).executeTakeFirstOrThrow();
    expect(user.loyalty_points).toBe(103);
  });

  it('the confirmation page asks Stripe (with a POST) when the webhook has not arrived yet; its GET only reads', async () => {
    await createProduct(t.db, { id: 'st-c', priceCents: 1000, inventory: 5 });
    const c = new TestClient(t.app);
    const { sessionId, orderId } = (await checkout(c, 'st-c', 1)).json();
    expect((await c.post(`/api/checkout-session/${sessionId}/confirm`, {})).json().payment_status).toBe('unpaid');
    fake.sessions.get(sessionId)!.payment_status = 'paid';
    expect((await c.get(`/api/checkout-session/${sessionId}`)).json().payment_status).toBe('unpaid');
    const view = (await c.post(`/api/checkout-session/${sessionId}/confirm`, {})).json();
    expect(view).toMatchObject({ payment_status: 'paid', metadata: { orderId } });
    expect((await c.get(`/api/checkout-session/${sessionId}`)).json().payment_status).toBe('paid');
  });

  it('an expired session releases its stock hold', async () => {
    await createProduct(t.db, { id: 'st-d', inventory: 1 });
    const { sessionId } = (await checkout(new TestClient(t.app), 'st-d', 1)).json();
    expect((await checkout(new TestClient(t.app), 'st-d', 1)).statusCode).toBe(409);
    expect(
      (
        await deliver(
          signedStripeEvent('checkout.session.expired', { id: sessionId, object: 'checkout.session', payment_status: 'unpaid' }),
        )
      ).statusCode,
    ).toBe(200);
    expect((await checkout(new TestClient(t.app), 'st-d', 1)).statusCode).toBe(200);
  });

  it('holds outlive the Stripe session; a browser checking out again expires its earlier Stripe session', async () => {
    await createProduct(t.db, { id: 'st-f', inventory: 5 });
    const c = new TestClient(t.app, '10.30.0.1');
    const first = (await checkout(c, 'st-f', 1)).json();
    const created = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    const stripeExpiry = Number(created.body.get('expires_at')) * 1000;
    const hold = await t.db
      .selectFrom('stock_reservations')
      .select('expires_at')
      .where('order_id', '=', first.orderId)
      .executeTakeFirstOrThrow();
    expect(Date.parse(hold.expires_at) - stripeExpiry).toBeGreaterThanOrEqual(5 * 60_000);

    const second = await checkout(c, 'st-f', 1);
    expect(second.statusCode).toBe(200);
    expect(fake.sessions.get(first.sessionId)!.status).toBe('expired');
    expect(fake.requests.some((r) => r.path === `/v1/checkout/sessions/${first.sessionId}/expire`)).toBe(true);
    const ended = await t.db.selectFrom('payment_sessions').select('status').where('id', '=', first.sessionId).executeTakeFirstOrThrow();
    expect(ended.status).toBe('expired');
    expect(fake.sessions.get(second.json().sessionId)!.status).toBe('open');
  });

  it('a Stripe failure answers the spec message and keeps no hold', async () => {
    await createProduct(t.db, { id: 'st-e', inventory: 1 });
    fake.failOnce();
    const res = await checkout(new TestClient(t.app), 'st-e', 1);
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toBe(CHECKOUT_MESSAGES.sessionFallback);
    expect((await checkout(new TestClient(t.app), 'st-e', 1)).statusCode).toBe(200);
  });
});
