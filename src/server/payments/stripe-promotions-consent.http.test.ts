import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import {
  FAKE_STRIPE_SECRET_KEY as SECRET_KEY,
  FAKE_STRIPE_WEBHOOK_SECRET as WEBHOOK_SECRET,
  fakeStripe,
  deliverStripeEvent,
  signedStripeEvent,
} from '../test/fake-stripe.js';
import { guestCheckoutBody } from '../test/checkout-orders.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { STRIPE_PROMOTIONS_CONSENT_KEY } from '../../shared/schemas/payments.js';
import { mayMarketTo } from '../marketing/consent.js';

/**
 * Issue [7/8] item 1, last part: Stripe Checkout's own unticked offers box. The owner's setting
 * (off by default) asks for it on a shopper's Stripe page (`consent_collection[promotions]=auto`);
 * a completed session with `consent.promotions = 'opt_in'` records the shop's marketing consent for
 * the order's address, as the shop's own checkout box does; an unsubscribed address stays so.
 */
const fake = fakeStripe();
let t: TestApp;
let admin: TestClient;
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' };

beforeAll(async () => {
  const base = await fake.listen();
  t = await createTestApp({
    env: { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: base, ...LIMITS },
  });
  admin = new TestClient(t.app, '10.81.0.1');
  expect((await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
  await createProduct(t.db, { id: 'spc-a', name: 'Offers Soap', priceCents: 1200, inventory: 10_000 });
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});

let n = 0;
const ip = () => `10.82.${Math.floor(++n / 250)}.${n % 250}`;
const address = (label: string) => `${label}-${Date.now().toString(36)}-${++n}@example.com`;
const consentRow = (email: string) => t.db.selectFrom('marketing_consents').selectAll().where('email', '=', email).executeTakeFirst();

/** The owner's switch, saved as the back office's Integrations form saves it. */
async function setAsk(on: boolean) {
  const res = await admin.request('PUT', '/api/admin/settings/integrations', { stripe_promotions_consent: on });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().settings[STRIPE_PROMOTIONS_CONSENT_KEY]).toBe(String(on));
}

/** A shopper's checkout to Stripe: the session the shop made there, as Stripe received it. */
async function checkout(email: string, client = new TestClient(t.app, ip())) {
  const res = await client.post('/api/create-checkout-session', {
    ...guestCheckoutBody([{ productId: 'spc-a', quantity: 1 }]),
    customerEmail: email,
  });
  expect(res.statusCode, res.body).toBe(200);
  const { sessionId, orderId } = res.json<{ sessionId: string; orderId: string }>();
  const created = fake.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.body.get('metadata[orderId]') === orderId).at(-1)!;
  return { sessionId, orderId, created };
}

async function payOnStripe(sessionId: string, promotions: 'opt_in' | 'opt_out' | null) {
  const res = await deliverStripeEvent(t.app, fake.pay(sessionId, { promotions }));
  expect(res.statusCode, res.body).toBe(200);
}

const orderOf = (orderId: string) => t.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();

describe("Stripe Checkout's offers box", () => {
  it('is off by default: the session asks for no consent, and the setting reads as off', async () => {
    const settings = (await admin.get('/api/admin/settings')).json<{ settings: Record<string, string> }>().settings;
    expect(settings[STRIPE_PROMOTIONS_CONSENT_KEY] ?? 'false').toBe('false');
    const { created, sessionId } = await checkout(address('off'));
    expect([...created.body.keys()].filter((k) => k.startsWith('consent_collection'))).toEqual([]);
    expect(fake.sessions.get(sessionId)!.consent_collection).toBeNull();
  });

  it('on: the shopper’s session asks Stripe for it (promotions auto); off again: it does not', async () => {
    await setAsk(true);
    const on = await checkout(address('on'));
    expect(on.created.body.get('consent_collection[promotions]')).toBe('auto');
    expect(fake.sessions.get(on.sessionId)!.consent_collection).toMatchObject({ promotions: 'auto' });

    await setAsk(false);
    const off = await checkout(address('off-again'));
    expect(off.created.body.has('consent_collection[promotions]')).toBe(false);
  });

  it('a tick on Stripe’s page (opt_in) records consent for the order’s address and account, source checkout', async () => {
    await setAsk(true);
    const buyer = await createUser(t.db, { email: address('ticked') });
    const client = new TestClient(t.app, ip());
    await client.signIn(buyer.email, buyer.password);
    const { sessionId, orderId } = await checkout(buyer.email, client);
    const order = await orderOf(orderId);
    expect(await consentRow(order.email!)).toBeUndefined();

    await payOnStripe(sessionId, 'opt_in');
    expect((await orderOf(orderId)).payment_status).toBe('paid');
    const row = await consentRow(order.email!);
    expect(row).toMatchObject({ status: 'granted', source: 'checkout', user_id: buyer.id });
    expect(await mayMarketTo(t.db, order.email!)).toBe(true);

    // Stripe delivers again: one consent, its first time kept.
    const again = await deliverStripeEvent(t.app, signedStripeEvent('checkout.session.completed', { ...fake.sessions.get(sessionId)! }));
    expect(again.statusCode).toBe(200);
    expect(await consentRow(order.email!)).toEqual(row);
  });

  it('a guest’s tick records consent for the address the order carries', async () => {
    await setAsk(true);
    const email = address('guest-ticked');
    const { sessionId, orderId } = await checkout(email);
    await payOnStripe(sessionId, 'opt_in');
    const order = await orderOf(orderId);
    expect(order.payment_status).toBe('paid');
    expect(await consentRow(email.toLowerCase())).toMatchObject({ status: 'granted', source: 'checkout', user_id: null });
  });

  it('the box left unticked (opt_out) or not shown (null) records nothing; the payment is taken all the same', async () => {
    await setAsk(true);
    for (const promotions of ['opt_out', null] as const) {
      const email = address(`left-${String(promotions)}`);
      const { sessionId, orderId } = await checkout(email);
      await payOnStripe(sessionId, promotions);
      expect((await orderOf(orderId)).payment_status).toBe('paid');
      expect(await consentRow(email.toLowerCase())).toBeUndefined();
    }
  });

  it('an address that unsubscribed stays unsubscribed after a tick on Stripe’s page', async () => {
    await setAsk(true);
    const email = address('unsubscribed');
    await t.db
      .insertInto('email_opt_outs')
      .values({ email: email.toLowerCase(), kind: 'marketing', created_at: new Date(Date.now() - 86_400_000).toISOString() })
      .execute();
    const { sessionId, orderId } = await checkout(email);
    await payOnStripe(sessionId, 'opt_in');
    expect((await orderOf(orderId)).payment_status).toBe('paid');
    expect(await consentRow(email.toLowerCase())).toBeUndefined();
    expect(await mayMarketTo(t.db, email)).toBe(false);
    const outs = await t.db.selectFrom('email_opt_outs').select('kind').where('email', '=', email.toLowerCase()).execute();
    expect(outs).toEqual([{ kind: 'marketing' }]);
  });

  it('an admin acting as the customer gets no box on Stripe’s page', async () => {
    await setAsk(true);
    const customer = await createUser(t.db, { email: address('acted') });
    const acting = new TestClient(t.app, ip());
    expect((await acting.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
    expect((await acting.post('/api/impersonation', { userId: customer.id })).statusCode).toBe(200);
    const { created, sessionId } = await checkout(customer.email, acting);
    expect(created.body.has('consent_collection[promotions]')).toBe(false);
    await payOnStripe(sessionId, null);
    expect(await consentRow(customer.email.toLowerCase())).toBeUndefined();
  });
});
