import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { FAKE_STRIPE_SECRET_KEY, FAKE_STRIPE_WEBHOOK_SECRET, fakeStripe, signedStripeEvent } from '../test/fake-stripe.js';
import { createProduct } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { buildPaymentProviders, offlinePaymentProviders } from './providers.js';
import { canChargeOffSession, PaymentProviderError, type PaymentProviders } from './provider.js';
import { stripeProvider } from './stripe-provider.js';
import { MANUAL_REFUND_PREFIX } from './manual-provider.js';

/*
 * Decision 0049: the three payment providers behind one interface (payments/provider.ts), each
 * held to it: the built-in test card page, Stripe Checkout against the local fake, and manual.
 */

const fake = fakeStripe();
let t: TestApp;
let providers: PaymentProviders;

beforeAll(async () => {
  const base = await fake.listen();
  t = await createTestApp({
    env: { STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE: base },
  });
  providers = buildPaymentProviders(t.config);
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});

const address = { name: 'Pat Provider', address: '2 Side St', city: 'Austin', state: 'TX', zip: '73301', country: 'US' };
const noPayment = (kind: PaymentProviderError['kind']) =>
  expect.objectContaining({ name: 'PaymentProviderError', kind }) as unknown as PaymentProviderError;

async function stripeCheckout(productId: string) {
  await createProduct(t.db, { id: productId, priceCents: 2000, inventory: 5 });
  const res = await new TestClient(t.app).post('/api/create-checkout-session', {
    items: [{ productId, quantity: 1 }],
    customerEmail: 'pat@example.com',
    shippingAddress: address,
    appliedCouponCode: null,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { sessionId: string; orderId: string; url: string };
}

describe('the providers of an app', () => {
  it('are named by what an order stores: Stripe, the test card page, and manual for every method the owner records', () => {
    expect(providers.card.name).toBe('stripe');
    expect(providers.of('stripe').name).toBe('stripe');
    expect(providers.of('test').name).toBe('test');
    expect(providers.of(null).name).toBe('test');
    for (const method of ['cash', 'bank_transfer', 'card_phone']) expect(providers.of(method).name).toBe('manual');
    expect(providers.stripeClient).not.toBeNull();
    const offline = offlinePaymentProviders('http://shop.test');
    expect(offline.card.name).toBe('test');
    expect(offline.stripeClient).toBeNull();
    // [4/8]: Stripe charges a saved card off-session; the test card page does with the shop's
    // database (its kept test cards: off-session.http.test.ts); manual never does.
    expect(canChargeOffSession(providers.of('stripe'))).toBe(true);
    expect(canChargeOffSession(providers.of('test'))).toBe(false);
    expect(canChargeOffSession(buildPaymentProviders(t.config, t.db).of('test'))).toBe(true);
    expect(canChargeOffSession(providers.of('cash'))).toBe(false);
  });
});

describe('the test card page provider', () => {
  const test = offlinePaymentProviders('http://shop.test').card;

  it('opens the shop-hosted card page of the session itself, is never paid by a lookup, and refunds with a test id', async () => {
    const id = test.newSessionId();
    expect(id).toMatch(/^cs_test_.{24}$/);
    expect(await test.openPayment(t.db, { orderId: 'order_x', sessionId: id, expiresAt: new Date() })).toEqual({
      id,
      url: `http://shop.test/pay/${id}`,
    });
    expect(await test.lookUpPayment(id)).toEqual({ paid: false });
    expect(await test.refund({ orderId: 'order_x', refundId: 'refund_abc', sessionId: id, amountCents: 100, idempotencyKey: 'k' })).toEqual(
      { providerRefundId: 'tre_abc', reference: null, byHand: false },
    );
    expect(await test.closePayment(id)).toBe('closed');
    expect(test.parseWebhook).toBeUndefined();
  });
});

describe('the manual provider', () => {
  it('opens no page, and records a refund as settled by hand under its own ids (man_…), calling no one', async () => {
    const manual = providers.of('cash');
    const before = fake.requests.length;
    expect(manual.openPayment).toBeUndefined();
    expect(() => manual.newSessionId()).toThrow(PaymentProviderError);
    expect(await manual.lookUpPayment('anything')).toEqual({ paid: false });
    const outcome = await manual.refund({ orderId: 'o', refundId: 'refund_xyz', sessionId: null, amountCents: 500, idempotencyKey: 'k' });
    expect(outcome).toEqual({ providerRefundId: `${MANUAL_REFUND_PREFIX}xyz`, reference: null, byHand: true });
    expect(MANUAL_REFUND_PREFIX).toBe('man_');
    expect(fake.requests.length).toBe(before);
  });

  it("refunds an order paid in cash by hand (man_…), never with the test card page's ids, and asks Stripe nothing", async () => {
    const admin = new TestClient(t.app);
    await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    const created = await admin.post('/api/admin/orders', {
      user_id: 'guest',
      email: 'cash-refund@example.com',
      shipping_address: address,
      status: 'pending',
      total_amount: 40,
      elapsedMs: 3000,
    });
    expect(created.statusCode, created.body).toBe(201);
    const orderId = (created.json() as { order: { id: string } }).order.id;
    expect((await admin.post(`/api/admin/orders/${orderId}/payments`, { method: 'cash' })).statusCode).toBeLessThan(300);
    const refundsAtStripe = fake.requests.filter((r) => r.path === '/v1/refunds').length;
    const res = await admin.post(`/api/admin/orders/${orderId}/refunds`, { amountCents: 1000, reason: 'Paid back at the counter' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().refund).toMatchObject({ status: 'succeeded', provider: 'cash', providerRefundId: expect.stringMatching(/^man_/) });
    const row = await t.db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
    expect(row.provider_refund_id).toMatch(/^man_/);
    expect(row.provider_refund_id).not.toMatch(/^tre_/);
    expect(fake.requests.filter((r) => r.path === '/v1/refunds').length).toBe(refundsAtStripe);
  });
});

describe('the Stripe provider (against the local fake)', () => {
  it('opens a hosted page per order once (the order id as key), and a lookup says paid only once Stripe does', async () => {
    const { sessionId, orderId, url } = await stripeCheckout('prv-a');
    expect(url).toBe(`https://checkout.stripe.test/c/pay/${sessionId}`);
    const stripe = providers.of('stripe');
    // Opened again (a retried request): the same key, so Stripe answers with the same session.
    const again = await stripe.openPayment!(t.db, { orderId, sessionId: 'cs_live_local', expiresAt: new Date(Date.now() + 31 * 60_000) });
    const keys = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').map((r) => r.idempotencyKey);
    expect(keys.filter((k) => k === `checkout-${orderId}`)).toHaveLength(2);
    expect(again.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\//);

    expect(await stripe.lookUpPayment(sessionId)).toEqual({ paid: false });
    fake.pay(sessionId);
    expect(await stripe.lookUpPayment(sessionId)).toEqual({
      paid: true,
      payment: { amountCents: fake.sessions.get(sessionId)!.amount_total, reference: fake.sessions.get(sessionId)!.payment_intent },
    });
  });

  it('refunds the session’s payment (part, then the rest), once per key, and says what Stripe refused', async () => {
    const { sessionId, orderId } = await stripeCheckout('prv-b');
    fake.pay(sessionId);
    const stripe = providers.of('stripe');
    const total = fake.sessions.get(sessionId)!.amount_total as number;
    const ask = (amountCents: number | null, key: string) =>
      stripe.refund({ orderId, refundId: key, sessionId, amountCents, idempotencyKey: key });
    const part = await ask(500, 'prv-b-1');
    expect(part).toMatchObject({
      providerRefundId: expect.stringMatching(/^re_fake/),
      reference: expect.stringMatching(/^pi_/),
      byHand: false,
    });
    expect((await ask(500, 'prv-b-1')).providerRefundId).toBe(part.providerRefundId);
    await expect(ask(total, 'prv-b-2')).rejects.toThrow(/greater than unrefunded amount/);
    await expect(ask(total, 'prv-b-3')).rejects.toEqual(noPayment('refused'));
    const rest = await ask(null, 'prv-b-4');
    expect(fake.refunds.get(rest.providerRefundId)).toMatchObject({ amount: total - 500 });
    await expect(stripe.refund({ orderId, refundId: 'r', sessionId: null, amountCents: 1, idempotencyKey: 'x' })).rejects.toEqual(
      noPayment('no_payment'),
    );
  });

  it('says "no answer" (not refused) when Stripe never answers a refund, so it is asked again under the same key', async () => {
    const { sessionId, orderId } = await stripeCheckout('prv-c');
    fake.pay(sessionId);
    fake.dropRefunds(3);
    const req = { orderId, refundId: 'prv-c', sessionId, amountCents: 100, idempotencyKey: 'prv-c-key' };
    await expect(providers.of('stripe').refund(req)).rejects.toEqual(noPayment('no_answer'));
    expect((await providers.of('stripe').refund(req)).providerRefundId).toMatch(/^re_fake/);
  });

  it('closes an open page, reads its signed webhook, and refuses a bad signature', async () => {
    const { sessionId } = await stripeCheckout('prv-d');
    const stripe = providers.of('stripe');
    expect(await stripe.closePayment(sessionId)).toBe('closed');
    expect(fake.sessions.get(sessionId)!.status).toBe('expired');
    // Closed already (Stripe answers 400): nothing left to close.
    expect(await stripe.closePayment(sessionId)).toBe('closed');

    const paid = signedStripeEvent('checkout.session.completed', {
      id: 'cs_x',
      object: 'checkout.session',
      payment_status: 'paid',
      amount_total: 1234,
      payment_intent: 'pi_x',
    });
    expect(stripe.parseWebhook!(Buffer.from(paid.payload), paid.signature)).toEqual({
      type: 'paid',
      sessionId: 'cs_x',
      payment: { amountCents: 1234, reference: 'pi_x' },
    });
    const expired = signedStripeEvent('checkout.session.expired', { id: 'cs_y', object: 'checkout.session' });
    expect(stripe.parseWebhook!(Buffer.from(expired.payload), expired.signature)).toEqual({ type: 'expired', sessionId: 'cs_y' });
    const other = signedStripeEvent('customer.created', { id: 'cus_1', object: 'customer' });
    expect(stripe.parseWebhook!(Buffer.from(other.payload), other.signature)).toEqual({ type: 'ignored' });
    expect(() => stripe.parseWebhook!(Buffer.from(paid.payload), 't=1,v1=forged')).toThrow(PaymentProviderError);
  });

  it('without a key, says it is not configured (an old Stripe order on a shop that dropped its key)', async () => {
    const off = stripeProvider(null, { publicUrl: 'http://shop.test' });
    await expect(off.refund({ orderId: 'o', refundId: 'r', sessionId: 'cs', amountCents: 1, idempotencyKey: 'k' })).rejects.toEqual(
      noPayment('not_configured'),
    );
    await expect(off.lookUpPayment('cs')).rejects.toEqual(noPayment('not_configured'));
    expect(await off.closePayment('cs')).toBe('retry');
    expect(off.parseWebhook).toBeUndefined();
    expect(canChargeOffSession(off)).toBe(false);
  });
});
