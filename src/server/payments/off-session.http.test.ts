import Fastify, { type FastifyInstance } from 'fastify';
import fastifyFormbody from '@fastify/formbody';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import {
  deliverStripeEvent,
  FAKE_STRIPE_AUTHENTICATION_MESSAGE,
  FAKE_STRIPE_SECRET_KEY,
  FAKE_STRIPE_WEBHOOK_SECRET,
  fakeStripe,
} from '../test/fake-stripe.js';
import { placeCheckout } from '../test/checkout-orders.js';
import { createProduct } from '../db/seed/factories.js';
import { createCheckout, adoptProviderSession } from '../checkout/service.js';
import { checkoutPaymentOutcomes } from '../checkout/payment-outcomes.js';
import type { AppDeps } from '../app.js';
import { buildPaymentProviders } from './providers.js';
import { registerStripeWebhook, registerTestCheckoutPages } from './routes.js';
import { CARD_MESSAGES } from './test-checkout-page.js';
import {
  canChargeOffSession,
  OFF_SESSION_MESSAGES,
  type PaymentProviderError,
  type OffSessionCharge,
  type PaymentProvider,
  type PaymentProviders,
  type ProviderPayment,
} from './provider.js';

/*
 * [4/8] item 4: a card kept when an order with subscription lines is paid, and charged later with
 * the customer away, once per idempotency key: the built-in test card page (its kept test methods
 * and test cards) and Stripe (Checkout with a customer and setup_future_usage, then a PaymentIntent
 * confirmed off-session) against the local fake.
 */

const fake = fakeStripe();
let t: TestApp;
let providers: PaymentProviders;
/** The app's card page and Stripe webhook, with the paid outcome watched: what each session's payment named. */
let watched: FastifyInstance;
const paidWith = new Map<string, ProviderPayment | null | undefined>();

beforeAll(async () => {
  const base = await fake.listen();
  t = await createTestApp({
    env: { STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE: base },
  });
  providers = buildPaymentProviders(t.config, t.db);
  const deps: AppDeps = { config: t.config, db: t.db, dialect: t.dialect, payments: providers, files: t.files };
  const real = checkoutPaymentOutcomes(deps);
  const outcomes = {
    ...real,
    paid: (sessionId: string, ctx: Parameters<typeof real.paid>[1]) => {
      paidWith.set(sessionId, ctx.paid);
      return real.paid(sessionId, ctx);
    },
  };
  watched = Fastify();
  await watched.register(fastifyFormbody);
  await registerTestCheckoutPages(watched, { ...deps, outcomes });
  await registerStripeWebhook(watched, { ...deps, outcomes });
  await watched.ready();
});
afterAll(async () => {
  await watched?.close();
  await t?.close();
  await fake.close();
});

const CARDS = { succeed: '4242 4242 4242 4242', decline: '4000 0000 0000 0341', authenticate: '4000 0027 6000 3184' } as const;
const cardForm = (cardNumber: string) => new URLSearchParams({ cardNumber, expiry: '12 / 34', cvc: '123', name: 'Pat Subscriber' });

let productNo = 0;
/** A product of its own for each order, so no test's holds meet another's. */
async function product(priceCents = 1500): Promise<string> {
  const id = `off-session-${++productNo}`;
  await createProduct(t.db, { id, priceCents, inventory: 20 });
  return id;
}

/** The order's lines bought as a subscription (what the shopper's checkout writes, [4/8] item 2). */
async function subscribeLines(orderId: string, everyWeeks = 4): Promise<void> {
  await t.db
    .updateTable('order_items')
    .set({ every_weeks: everyWeeks, plan_discount_percent: 10 })
    .where('order_id', '=', orderId)
    .execute();
}

/** An unpaid checkout on the test card page, its lines a subscription unless told otherwise. */
async function testCheckout(subscription = true): Promise<{ orderId: string; sessionId: string }> {
  const placed = await placeCheckout(t.db, t.dialect, { items: [{ productId: await product(), quantity: 2 }] });
  if (subscription) await subscribeLines(placed.orderId);
  return placed;
}

/** Pays on the card page (the watched app's); the payment the paid outcome was given. */
async function payOnCardPage(sessionId: string, cardNumber: string) {
  const res = await watched.inject({
    method: 'POST',
    url: `/pay/${sessionId}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: cardForm(cardNumber).toString(),
  });
  expect(res.statusCode, res.body).toBe(303);
  return paidWith.get(sessionId);
}

/** A card kept by paying an order with subscription lines with this test card: its pm_test_… id. */
async function keptMethod(cardNumber: string): Promise<string> {
  const { sessionId } = await testCheckout();
  const paid = await payOnCardPage(sessionId, cardNumber);
  return paid!.saved!.paymentMethodRef!;
}

const charge = (over: Partial<OffSessionCharge> & Pick<OffSessionCharge, 'idempotencyKey'>): OffSessionCharge => ({
  orderId: 'order_renewal',
  amountCents: 2700,
  customerRef: null,
  paymentMethodRef: null,
  paymentRef: null,
  ...over,
});

const failure = (kind: PaymentProviderError['kind']) =>
  expect.objectContaining({ name: 'PaymentProviderError', kind }) as unknown as PaymentProviderError;

const offSession = (p: PaymentProvider) => {
  if (!canChargeOffSession(p)) throw new Error(`${p.name} cannot charge off-session`);
  return p;
};

describe('the test card page keeps a card for a subscription', () => {
  it('says under the card fields that the card is kept, and lists the renewal test cards; a one-time order’s page does not', async () => {
    const sub = await testCheckout();
    const page = await new TestClient(t.app).get(`/pay/${sub.sessionId}`);
    expect(page.statusCode).toBe(200);
    const kept = CARD_MESSAGES.keptForRenewals.replace("'", '&#39;');
    expect(page.body).toContain(kept);
    // Under the fields, before the Pay button.
    expect(page.body.indexOf(kept)).toBeGreaterThan(page.body.indexOf('id="name"'));
    expect(page.body.indexOf(kept)).toBeLessThan(page.body.indexOf('<button type="submit">Pay'));
    for (const n of ['4242 4242 4242 4242', '4000 0000 0000 0341', '4000 0027 6000 3184', '4000 0000 0000 0002'])
      expect(page.body).toContain(n);
    expect(page.body).toContain(CARD_MESSAGES.hintKept);

    const once = await testCheckout(false);
    const plain = await new TestClient(t.app).get(`/pay/${once.sessionId}`);
    expect(plain.body).not.toContain(kept);
    expect(plain.body).toContain(CARD_MESSAGES.hint);
  });

  it('when paid, keeps the card as a pm_test_… method (behaviour, brand, last four) and names it in the payment the order is fulfilled with', async () => {
    for (const [behaviour, number] of Object.entries(CARDS)) {
      const { orderId, sessionId } = await testCheckout();
      const paid = await payOnCardPage(sessionId, number);
      expect(paid).toEqual({
        amountCents: null,
        reference: null,
        saved: { customerRef: null, paymentMethodRef: expect.stringMatching(/^pm_test_[a-z0-9]{24}$/) },
      });
      const row = await t.db
        .selectFrom('test_payment_methods')
        .selectAll()
        .where('id', '=', paid!.saved!.paymentMethodRef!)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ behaviour, brand: 'Visa', last4: number.slice(-4) });
      const order = await t.db.selectFrom('orders').select('payment_status').where('id', '=', orderId).executeTakeFirstOrThrow();
      expect(order.payment_status).toBe('paid');
    }
  });

  it('keeps nothing for a one-time order, nor for a payment the shop refused under the order’s lock (cancelled meanwhile)', async () => {
    const before = (await t.db.selectFrom('test_payment_methods').select('id').execute()).length;
    const once = await testCheckout(false);
    expect(await payOnCardPage(once.sessionId, CARDS.succeed)).toBeUndefined();

    const sub = await testCheckout();
    // Cancelled by the owner since the page was read: this card is not charged, and not kept.
    await t.db.updateTable('orders').set({ status: 'cancelled' }).where('id', '=', sub.orderId).execute();
    const res = await watched.inject({
      method: 'POST',
      url: `/pay/${sub.sessionId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: cardForm(CARDS.succeed).toString(),
    });
    expect(res.statusCode).toBe(409);
    expect((await t.db.selectFrom('test_payment_methods').select('id').execute()).length).toBe(before);
  });

  it('charges a kept card with the customer away as its test card says: 4242 pays, 0341 is declined, 3184 needs the customer, an unknown method is declined', async () => {
    const test = offSession(providers.of('test'));
    const good = await keptMethod(CARDS.succeed);
    const paid = await test.chargeOffSession(charge({ paymentMethodRef: good, idempotencyKey: 'ts-good' }));
    expect(paid).toEqual({
      status: 'paid',
      payment: { amountCents: 2700, reference: expect.stringMatching(/^pi_test_[a-z0-9]{24}$/) },
      paymentMethodRef: good,
    });
    expect(
      await test.chargeOffSession(charge({ paymentMethodRef: await keptMethod(CARDS.decline), idempotencyKey: 'ts-decline' })),
    ).toEqual({
      status: 'declined',
      message: 'Your card was declined.',
    });
    expect(
      await test.chargeOffSession(charge({ paymentMethodRef: await keptMethod(CARDS.authenticate), idempotencyKey: 'ts-auth' })),
    ).toEqual({ status: 'needs_customer', message: 'Your bank asks you to confirm this payment.' });
    expect(await test.chargeOffSession(charge({ paymentMethodRef: 'pm_test_unknown', idempotencyKey: 'ts-unknown' }))).toEqual({
      status: 'declined',
      message: OFF_SESSION_MESSAGES.declined,
    });
    expect(await test.chargeOffSession(charge({ idempotencyKey: 'ts-none' }))).toMatchObject({ status: 'declined' });
  });

  it('charges once per idempotency key: asked again, or five times at once, it answers the first answer', async () => {
    const test = offSession(providers.of('test'));
    const method = await keptMethod(CARDS.succeed);
    const first = await test.chargeOffSession(charge({ orderId: 'order_idem', paymentMethodRef: method, idempotencyKey: 'sub_x-3-1' }));
    const again = await test.chargeOffSession(charge({ orderId: 'order_idem', paymentMethodRef: method, idempotencyKey: 'sub_x-3-1' }));
    expect(again).toEqual(first);
    const atOnce = await Promise.all(
      Array.from({ length: 5 }, () =>
        test.chargeOffSession(charge({ orderId: 'order_idem2', paymentMethodRef: method, idempotencyKey: 'sub_x-4-1' })),
      ),
    );
    expect(new Set(atOnce.map((o) => (o.status === 'paid' ? o.payment.reference : o.status))).size).toBe(1);
    const rows = await t.db
      .selectFrom('test_off_session_charges')
      .selectAll()
      .where('idempotency_key', 'in', ['sub_x-3-1', 'sub_x-4-1'])
      .execute();
    expect(rows).toHaveLength(2);
    // A declined answer is kept too: the card's behaviour changing since does not change it.
    const flaky = await keptMethod(CARDS.decline);
    expect((await test.chargeOffSession(charge({ paymentMethodRef: flaky, idempotencyKey: 'sub_y-2-1' }))).status).toBe('declined');
    await t.db.updateTable('test_payment_methods').set({ behaviour: 'succeed' }).where('id', '=', flaky).execute();
    expect((await test.chargeOffSession(charge({ paymentMethodRef: flaky, idempotencyKey: 'sub_y-2-1' }))).status).toBe('declined');
    expect((await test.chargeOffSession(charge({ paymentMethodRef: flaky, idempotencyKey: 'sub_y-2-2' }))).status).toBe('paid');
    // The key reused for another order's charge: refused, as Stripe refuses a key reused with other parameters.
    await expect(
      test.chargeOffSession(charge({ orderId: 'order_other', paymentMethodRef: method, idempotencyKey: 'sub_x-3-1' })),
    ).rejects.toEqual(failure('refused'));
  });

  it('stores no card number nor CVC anywhere in the database', async () => {
    await keptMethod(CARDS.succeed);
    await keptMethod(CARDS.decline);
    await keptMethod(CARDS.authenticate);
    const tables = (await t.db.introspection.getTables()).map((x) => x.name);
    let dump = '';
    for (const name of tables) {
      const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(t.db);
      dump += JSON.stringify(rows.rows);
    }
    expect(dump).toContain('pm_test_');
    for (const number of ['4242424242424242', '4000000000000341', '4000002760003184', ...Object.values(CARDS)])
      expect(dump).not.toContain(number);
    const kept = await t.db.selectFrom('test_payment_methods').selectAll().execute();
    for (const row of kept) expect(Object.keys(row).sort()).toEqual(['behaviour', 'brand', 'created_at', 'id', 'last4']);
  });
});

describe('the providers that charge with the customer away', () => {
  it('are the test card page (given the database) and Stripe; never manual', () => {
    expect(canChargeOffSession(providers.of('test'))).toBe(true);
    expect(canChargeOffSession(providers.of('stripe'))).toBe(true);
    expect(canChargeOffSession(providers.of('cash'))).toBe(false);
    expect(canChargeOffSession(buildPaymentProviders(t.config).of('test'))).toBe(false);
  });
});

/** A Stripe checkout as the checkout route makes it: the order and its session, its lines a subscription, then Stripe's page opened and adopted. */
async function stripeCheckout(subscription = true, open: { customerRef?: string } = {}) {
  const created = await createCheckout(
    t.db,
    t.dialect,
    {
      items: [{ productId: await product(2000), quantity: 1 }],
      customerEmail: 'sam@example.com',
      shippingAddress: { name: 'Sam Sub', address: '2 Side St', city: 'Austin', state: 'TX', zip: '73301', country: 'US' },
      appliedCouponCode: null,
    },
    {
      userId: null,
      deviceHash: `device-${++productNo}`,
      ip: `10.9.${productNo}.1`,
      maxUnitsHeld: 250,
      now: new Date(),
      provider: 'stripe',
      sessionUrl: (id) => `http://shop.test/pay/${id}`,
    },
  );
  if (subscription) await subscribeLines(created.orderId);
  const remote = await providers.card.openPayment(t.db, {
    orderId: created.orderId,
    sessionId: created.sessionId,
    expiresAt: new Date(Date.now() + 31 * 60_000),
    keepMethod: subscription,
    ...(open.customerRef ? { customerRef: open.customerRef } : {}),
  });
  await adoptProviderSession(t.db, created, remote);
  const request = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
  return { orderId: created.orderId, sessionId: remote.id, request };
}

/** A subscription's first payment made at Stripe and its webhook delivered: what the paid outcome was given. */
async function payAtStripe(sessionId: string) {
  const res = await deliverStripeEvent(watched, fake.pay(sessionId));
  expect(res.statusCode).toBe(200);
  return paidWith.get(sessionId)!;
}

const intentsFor = (orderId: string) =>
  [...fake.paymentIntents.values()].filter((pi) => (pi.metadata as { orderId?: string }).orderId === orderId);

describe('Stripe keeps the card at Checkout and charges it with the customer away (against the fake)', () => {
  it('opens the Checkout Session of an order with subscription lines with a customer made for it and setup_future_usage=off_session; a one-time order’s has neither', async () => {
    const { request, orderId } = await stripeCheckout();
    expect(request.body.get('customer_creation')).toBe('always');
    expect(request.body.get('payment_intent_data[setup_future_usage]')).toBe('off_session');
    expect(request.body.get('customer_email')).toBe('sam@example.com');
    expect(request.body.get('payment_intent_data[metadata][orderId]')).toBe(orderId);
    expect(request.idempotencyKey).toBe(`checkout-${orderId}`);

    const once = await stripeCheckout(false);
    expect(once.request.body.has('customer_creation')).toBe(false);
    expect(once.request.body.has('payment_intent_data[setup_future_usage]')).toBe(false);
    expect(once.request.body.get('customer_email')).toBe('sam@example.com');
  });

  it('keeps the card for lines that say so even when the caller did not ask (keepMethod unset)', async () => {
    const created = await placeCheckout(t.db, t.dialect, { items: [{ productId: await product(), quantity: 1 }] });
    await subscribeLines(created.orderId);
    await providers.card.openPayment(t.db, {
      orderId: created.orderId,
      sessionId: 'cs_live_unset',
      expiresAt: new Date(Date.now() + 31 * 60_000),
    });
    const request = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    expect(request.body.get('payment_intent_data[setup_future_usage]')).toBe('off_session');
    expect(request.body.get('customer_creation')).toBe('always');
  });

  it('attaches the card to the customer already known, without an e-mail beside it (Stripe refuses both)', async () => {
    const first = await stripeCheckout();
    const { saved } = await payAtStripe(first.sessionId);
    const again = await stripeCheckout(true, { customerRef: saved!.customerRef! });
    expect(again.request.body.get('customer')).toBe(saved!.customerRef);
    expect(again.request.body.has('customer_email')).toBe(false);
    expect(again.request.body.has('customer_creation')).toBe(false);
    expect(again.request.body.get('payment_intent_data[setup_future_usage]')).toBe('off_session');
  });

  it('the paid webhook names the customer as saved and the payment intent as the reference; the shopper’s return lookup says the same', async () => {
    const { sessionId, orderId } = await stripeCheckout();
    const paid = await payAtStripe(sessionId);
    const session = fake.sessions.get(sessionId)!;
    expect(session.customer).toMatch(/^cus_fake/);
    expect(paid).toEqual({
      amountCents: session.amount_total,
      reference: session.payment_intent,
      saved: { customerRef: session.customer, paymentMethodRef: null },
    });
    expect(
      (await t.db.selectFrom('orders').select('payment_status').where('id', '=', orderId).executeTakeFirstOrThrow()).payment_status,
    ).toBe('paid');
    expect(await providers.of('stripe').lookUpPayment(sessionId)).toEqual({ paid: true, payment: paid });
    // Stripe attached the payment's card to that customer.
    expect(fake.paymentMethods.get(fake.paymentMethodOf(sessionId))!.customer).toBe(session.customer);
    // A one-time order's payment names no saved card.
    const once = await stripeCheckout(false);
    expect((await payAtStripe(once.sessionId)).saved).toBeUndefined();
  });

  it('charges a renewal: the method read from the first payment, a PaymentIntent confirmed off-session under the key, paid with what Stripe received', async () => {
    const { sessionId } = await stripeCheckout();
    const { saved, reference } = await payAtStripe(sessionId);
    const stripe = offSession(providers.of('stripe'));
    const renewal = charge({
      orderId: 'order_st_renew',
      amountCents: 1900,
      customerRef: saved!.customerRef,
      paymentRef: reference,
      idempotencyKey: 'sub_st-2-1',
    });
    const outcome = await stripe.chargeOffSession(renewal);
    const pm = fake.paymentMethodOf(sessionId);
    expect(outcome).toEqual({
      status: 'paid',
      payment: { amountCents: 1900, reference: expect.stringMatching(/^pi_fake/) },
      paymentMethodRef: pm,
      // [5/8]: the method read with its card, which the subscription shows its customer.
      card: { brand: 'Visa', last4: '4242' },
    });
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${reference}`)).toBe(true);
    const created = fake.requests.filter((r) => r.path === '/v1/payment_intents').at(-1)!;
    expect(created.idempotencyKey).toBe('sub_st-2-1');
    expect(Object.fromEntries(created.body)).toEqual({
      amount: '1900',
      currency: 'usd',
      customer: saved!.customerRef,
      payment_method: pm,
      off_session: 'true',
      confirm: 'true',
      'metadata[orderId]': 'order_st_renew',
    });
    // Asked again with the same key (and with the method now known): one PaymentIntent at Stripe.
    expect(await stripe.chargeOffSession(renewal)).toEqual(outcome);
    expect(intentsFor('order_st_renew')).toHaveLength(1);
  });

  it('a declined card is declined with Stripe’s message; a card whose bank wants the customer needs the customer; each answer kept for its key', async () => {
    const { sessionId } = await stripeCheckout();
    const { saved } = await payAtStripe(sessionId);
    const pm = fake.paymentMethodOf(sessionId);
    const stripe = offSession(providers.of('stripe'));
    const on = (key: string, orderId: string) =>
      charge({ orderId, customerRef: saved!.customerRef, paymentMethodRef: pm, idempotencyKey: key });

    fake.setPaymentMethodBehaviour(pm, 'decline');
    expect(await stripe.chargeOffSession(on('sub_d-2-1', 'order_st_decl'))).toEqual({
      status: 'declined',
      message: 'Your card was declined.',
    });
    fake.setPaymentMethodBehaviour(pm, 'authenticate');
    expect(await stripe.chargeOffSession(on('sub_d-3-1', 'order_st_auth'))).toEqual({
      status: 'needs_customer',
      message: OFF_SESSION_MESSAGES.needsCustomer,
    });
    expect(intentsFor('order_st_auth')[0]).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'authentication_required' },
    });
    expect(FAKE_STRIPE_AUTHENTICATION_MESSAGE).toMatch(/requires authentication/);

    // Stripe replays a key's first answer, errors included: the card paying now changes neither.
    fake.setPaymentMethodBehaviour(pm, 'succeed');
    expect((await stripe.chargeOffSession(on('sub_d-2-1', 'order_st_decl'))).status).toBe('declined');
    expect((await stripe.chargeOffSession(on('sub_d-3-1', 'order_st_auth'))).status).toBe('needs_customer');
    expect(intentsFor('order_st_decl')).toHaveLength(1);
    // The next attempt (a new key) pays.
    expect((await stripe.chargeOffSession(on('sub_d-2-2', 'order_st_decl'))).status).toBe('paid');
  });

  it('says "no answer" when Stripe never answers, and asked again under the same key makes one PaymentIntent', async () => {
    const { sessionId } = await stripeCheckout();
    const { saved } = await payAtStripe(sessionId);
    const stripe = offSession(providers.of('stripe'));
    const renewal = charge({
      orderId: 'order_st_lost',
      customerRef: saved!.customerRef,
      paymentMethodRef: fake.paymentMethodOf(sessionId),
      idempotencyKey: 'sub_n-2-1',
    });

    // Never reached Stripe (the SDK's own retries included).
    fake.dropPaymentIntents(3);
    await expect(stripe.chargeOffSession(renewal)).rejects.toEqual(failure('no_answer'));
    expect(intentsFor('order_st_lost')).toHaveLength(0);
    // Made at Stripe, but every answer lost on the way back.
    fake.losePaymentIntentAnswers(3);
    await expect(stripe.chargeOffSession(renewal)).rejects.toEqual(failure('no_answer'));
    expect(intentsFor('order_st_lost')).toHaveLength(1);
    const later = await stripe.chargeOffSession(renewal);
    expect(later).toMatchObject({ status: 'paid', payment: { reference: intentsFor('order_st_lost')[0]!.id } });
    expect(intentsFor('order_st_lost')).toHaveLength(1);
    const keys = fake.requests
      .filter((r) => r.path === '/v1/payment_intents' && r.body.get('metadata[orderId]') === 'order_st_lost')
      .map((r) => r.idempotencyKey);
    expect(new Set(keys)).toEqual(new Set(['sub_n-2-1']));
  });

  it('refuses (not declines) a key reused with other parameters, and declines a card Stripe never kept for later', async () => {
    const { sessionId } = await stripeCheckout();
    const { saved } = await payAtStripe(sessionId);
    const pm = fake.paymentMethodOf(sessionId);
    const stripe = offSession(providers.of('stripe'));
    await stripe.chargeOffSession(
      charge({ orderId: 'order_st_key', customerRef: saved!.customerRef, paymentMethodRef: pm, idempotencyKey: 'sub_k-2-1' }),
    );
    await expect(
      stripe.chargeOffSession(
        charge({
          orderId: 'order_st_key',
          amountCents: 1,
          customerRef: saved!.customerRef,
          paymentMethodRef: pm,
          idempotencyKey: 'sub_k-2-1',
        }),
      ),
    ).rejects.toEqual(failure('refused'));

    // A one-time order's card was not attached to a customer: Stripe will not charge it again.
    const once = await stripeCheckout(false);
    const { reference } = await payAtStripe(once.sessionId);
    const outcome = await stripe.chargeOffSession(charge({ orderId: 'order_st_once', paymentRef: reference, idempotencyKey: 'sub_o-2-1' }));
    expect(outcome).toMatchObject({ status: 'declined', message: expect.stringMatching(/must attach it to a Customer/) });
    // No first payment to read a method from: nothing to charge.
    expect(await stripe.chargeOffSession(charge({ idempotencyKey: 'sub_z-2-1' }))).toEqual({
      status: 'declined',
      message: OFF_SESSION_MESSAGES.noSavedMethod,
    });
  });
});
