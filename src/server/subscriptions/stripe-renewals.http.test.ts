import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { renewalDeps } from '../test/subscriptions.js';
import { deliverStripeEvent, FAKE_STRIPE_SECRET_KEY, FAKE_STRIPE_WEBHOOK_SECRET, fakeStripe } from '../test/fake-stripe.js';
import { runRenewals, type RenewalDeps } from './renewals.js';

/**
 * The whole chain on Stripe (against the local fake): a shopper subscribes through the checkout
 * API, pays on Stripe's page (the webhook), and the subscription keeps Stripe's customer; at its
 * date the schedule charges the saved card off-session, once, and the renewal is an ordinary paid
 * order; a card that then declines gets Stripe's message, a payment link and the retries.
 */
const fake = fakeStripe();
let t: TestApp;
let deps: RenewalDeps;
const DAY = 86_400_000;

beforeAll(async () => {
  const base = await fake.listen();
  t = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
      STRIPE_API_BASE: base,
      CHECKOUT_LIMIT_PER_IP: '1000',
      CHECKOUT_LIMIT_PER_DEVICE: '1000',
    },
  });
  deps = renewalDeps(t);
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});

let n = 0;
async function subscribeOnStripe(): Promise<{ orderId: string; email: string; sessionId: string }> {
  const email = `stripe-sub-${++n}@example.com`;
  const shopper = new TestClient(t.app, `10.72.0.${n}`);
  const res = await shopper.post('/api/create-checkout-session', {
    items: [{ productId: 'laundry-powder', quantity: 1, everyWeeks: 4 }],
    customerEmail: email,
    shippingAddress: { name: 'Stripe Subscriber', address: '3 Card Ct', city: 'Austin', state: 'TX', zip: '73301' },
    acceptSubscriptionTerms: true,
  });
  expect(res.statusCode, res.body).toBe(200);
  const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
  const paid = await deliverStripeEvent(t.app, fake.pay(sessionId));
  expect(paid.statusCode).toBe(200);
  return { orderId, email, sessionId };
}

describe(`renewals on Stripe (fake) on ${testDialect()}`, () => {
  it('subscribes on Stripe’s page, then renews off-session once at its date, as an ordinary paid order', async () => {
    const { orderId, email, sessionId } = await subscribeOnStripe();
    const sub = await t.db.selectFrom('subscriptions').selectAll().where('first_order_id', '=', orderId).executeTakeFirstOrThrow();
    expect(sub).toMatchObject({ provider: 'stripe', email, status: 'active' });
    expect(sub.customer_ref).toMatch(/^cus_/);
    expect(sub.payment_ref).toMatch(/^pi_/);

    const due = new Date(Date.parse(sub.next_renewal_at) + 60_000);
    await Promise.all([runRenewals(deps, due), runRenewals(deps, due)]);
    const renewals = await t.db
      .selectFrom('orders')
      .selectAll()
      .where('user_id', '=', sub.user_id)
      .where('origin', '=', 'renewal')
      .execute();
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatchObject({ payment_status: 'paid', payment_provider: 'stripe' });
    const intents = [...fake.paymentIntents.values()].filter((pi) => (pi.metadata as { orderId?: string }).orderId === renewals[0]!.id);
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({ customer: sub.customer_ref, payment_method: fake.paymentMethodOf(sessionId) });
    const after = await t.db.selectFrom('subscriptions').selectAll().where('id', '=', sub.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ deliveries: 2, payment_method_ref: fake.paymentMethodOf(sessionId) });
  });

  it('a card that declines at renewal: Stripe’s message, a payment link at once, tried again the next day', async () => {
    const { orderId, email, sessionId } = await subscribeOnStripe();
    fake.setPaymentMethodBehaviour(fake.paymentMethodOf(sessionId), 'decline');
    const sub = await t.db.selectFrom('subscriptions').selectAll().where('first_order_id', '=', orderId).executeTakeFirstOrThrow();
    const due = new Date(Date.parse(sub.next_renewal_at) + 60_000);
    await runRenewals(deps, due);
    const [cycle] = await t.db.selectFrom('subscription_cycles').selectAll().where('subscription_id', '=', sub.id).execute();
    expect(cycle).toMatchObject({
      status: 'retrying',
      attempts: 1,
      next_attempt_at: new Date(Date.parse(sub.next_renewal_at) + DAY).toISOString(),
    });
    const mail = await t.db
      .selectFrom('email_outbox')
      .selectAll()
      .where('to_address', '=', email)
      .where('template_id', '=', 'subscription-payment-failed')
      .executeTakeFirstOrThrow();
    // The link is Stripe's own hosted page for exactly this order's total.
    const order = await t.db.selectFrom('orders').selectAll().where('id', '=', cycle!.order_id!).executeTakeFirstOrThrow();
    const link = await t.db
      .selectFrom('payment_sessions')
      .selectAll()
      .where('id', '=', order.payment_session_id!)
      .executeTakeFirstOrThrow();
    expect(link).toMatchObject({ provider: 'stripe', status: 'open' });
    expect(mail.text).toContain(link.url);
    expect(Number(link.amount_cents)).toBe(Number(order.total_cents));
    expect(order.payment_status).toBe('unpaid');
  });
});

describe(`a new Stripe subscriber's card on ${testDialect()}`, () => {
  it('is read from the first payment by the worker, shown as brand and last four, and asked about once', async () => {
    const { learnSubscriptionCards } = await import('./learn-cards.js');
    const { orderId, email, sessionId } = await subscribeOnStripe();
    const sub = await t.db.selectFrom('subscriptions').selectAll().where('first_order_id', '=', orderId).executeTakeFirstOrThrow();
    // Stripe's webhook named the payment, not its card: the page says a card is kept, not which.
    expect(sub.email).toBe(email);
    const before = (await import('./customer-subscriptions.js')).subscriptionViews;
    const [view] = await before(t.db, { id: sub.id });
    expect(view).toMatchObject({ card: null, cardOnFile: true });

    // Two processes' turns at once: one answer written.
    await Promise.all([learnSubscriptionCards(deps), learnSubscriptionCards(deps)]);
    const after = await t.db.selectFrom('subscriptions').selectAll().where('id', '=', sub.id).executeTakeFirstOrThrow();
    expect(after.payment_method_ref).toBe(fake.paymentMethodOf(sessionId));
    expect(after.card_brand).toBe('Visa');
    expect(after.card_last4).toMatch(/^\d{4}$/);
    const [shown] = await before(t.db, { id: sub.id });
    expect(shown!.card).toEqual({ brand: 'Visa', last4: after.card_last4 });
    // Known now: not asked again.
    const askedBefore = fake.requests.filter((r) => r.path.includes(sub.payment_ref!)).length;
    await learnSubscriptionCards(deps);
    expect(fake.requests.filter((r) => r.path.includes(sub.payment_ref!)).length).toBe(askedBefore);
  });
});
