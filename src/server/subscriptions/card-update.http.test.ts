import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { makeSubscription, renewalDeps, type TestSubscription } from '../test/subscriptions.js';
import {
  deliverStripeEvent,
  FAKE_STRIPE_SECRET_KEY,
  FAKE_STRIPE_WEBHOOK_SECRET,
  fakeStripe,
  signedStripeEvent,
} from '../test/fake-stripe.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { hashPassword } from '../accounts/password.js';
import { newManageLink } from './manage-links.js';
import { renewalChargeKey, runRenewals, type RenewalDeps } from './renewals.js';
import { SUBSCRIPTION_MESSAGES } from '../../shared/subscriptions.js';
import { CARD_UPDATE_MESSAGES, CardUpdateOutcome, CardUpdateStart } from '../../shared/subscription-card.js';
import { SETUP_PAGE_TEXTS } from '../payments/test-checkout-page.js';

/*
 * Issue [5/8], "update the card": the customer sends themselves to the provider's page in setup
 * mode (nothing charged) from the account or an e-mail's link, and the card it saves is the one the
 * renewals charge from then on: on the built-in test card page (its POST) and on Stripe (Checkout in
 * setup mode, its signed webhook, read back from Stripe) against the local fake. A page is used once,
 * runs out, and saves nothing for a cancelled subscription; an admin acting as the customer may not;
 * a failing renewal is tried again at once with the new card, once; the timeline and the e-mail say so.
 */
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' };
const fake = fakeStripe();
/** The shop on the built-in test card page. */
let t: TestApp;
/** The shop on Stripe (the fake); a subscription kept on the test page ('test') still updates there. */
let ts: TestApp;
let deps: RenewalDeps;
let stripeDeps: RenewalDeps;

beforeAll(async () => {
  const base = await fake.listen();
  [t, ts] = await Promise.all([
    createTestApp({ env: LIMITS }),
    createTestApp({
      env: {
        ...LIMITS,
        STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
        STRIPE_API_BASE: base,
      },
    }),
  ]);
  deps = renewalDeps(t);
  stripeDeps = renewalDeps(ts);
});
afterAll(async () => {
  await Promise.all([t?.close(), ts?.close()]);
  await fake.close();
});

const DAY = 86_400_000;
const CARDS = {
  succeed: '4242 4242 4242 4242',
  decline: '4000 0000 0000 0341',
  authenticate: '4000 0027 6000 3184',
  declinedNow: '4000 0000 0000 0002',
};
const cardForm = (cardNumber: string) => new URLSearchParams({ cardNumber, expiry: '12 / 34', cvc: '123', name: 'Sam Sub' });

let ipNo = 0;
async function signedIn(app: TestApp, email: string): Promise<TestClient> {
  const c = new TestClient(app.app, `10.91.${Math.floor(++ipNo / 250)}.${ipNo % 250}`);
  expect((await c.signIn(email, 'Test-Password-1')).statusCode).toBe(200);
  return c;
}

const subRow = (app: TestApp, id: string) => app.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const events = (app: TestApp, id: string, type = 'card.updated') =>
  app.db.selectFrom('subscription_events').selectAll().where('subscription_id', '=', id).where('type', '=', type).orderBy('id').execute();
const mails = (app: TestApp, to: string) =>
  app.db
    .selectFrom('email_outbox')
    .selectAll()
    .where('to_address', '=', to)
    .where('template_id', '=', 'subscription-card-updated')
    .orderBy('created_at')
    .execute();
const countOf = async (app: TestApp, table: 'test_payment_methods' | 'test_off_session_charges' | 'orders' | 'payment_sessions') =>
  (await app.db.selectFrom(table).select('created_at').execute()).length;

/** "Update card" from the account: the page's address. */
async function startFromAccount(c: TestClient, subscriptionId: string): Promise<string> {
  const res = await c.post(`/api/account/subscriptions/${subscriptionId}/card`, {});
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return CardUpdateStart.parse(res.json()).url;
}

const setupIdOf = (url: string) => new URL(url).pathname.split('/').pop()!;

/** The card page in setup mode, the card typed and Save card pressed (a browser's form POST). */
function saveOnPage(app: TestApp, setupId: string, cardNumber: string) {
  return new TestClient(app.app, '10.91.250.1').request('POST', `/pay/setup/${setupId}`, cardForm(cardNumber));
}

describe(`updating the card on the test card page on ${testDialect()}`, () => {
  let s: TestSubscription;
  let me: TestClient;
  beforeAll(async () => {
    s = await makeSubscription(t.db, { nextRenewalAt: new Date(Date.now() + 20 * DAY).toISOString() });
    me = await signedIn(t, s.email);
  });

  it('the page in setup mode says Save card, shows no total, and saves the new card: nothing charged, on the timeline, e-mailed', async () => {
    const [methods, charges, orders, sessions] = await Promise.all([
      countOf(t, 'test_payment_methods'),
      countOf(t, 'test_off_session_charges'),
      countOf(t, 'orders'),
      countOf(t, 'payment_sessions'),
    ]);
    const url = await startFromAccount(me, s.id);
    expect(url).toMatch(/^http:\/\/shop\.test\/pay\/setup\/csu_\w+$/);
    const setupId = setupIdOf(url);

    const shown = await new TestClient(t.app).get(`/pay/setup/${setupId}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['cache-control']).toBe('no-store');
    expect(shown.body).toContain(`<title>${SETUP_PAGE_TEXTS.title} | EcoClean (test mode)</title>`);
    expect(shown.body).toContain(`<button type="submit">${SETUP_PAGE_TEXTS.button}</button>`);
    expect(shown.body).toContain(s.email);
    expect(shown.body).toContain('Every 4 weeks · 10% off');
    expect(shown.body).not.toMatch(/\$\d/);
    expect(shown.body).not.toContain('Pay ');

    // A card declined now: the page again, saying so; nothing kept.
    const declined = await saveOnPage(t, setupId, CARDS.declinedNow);
    expect(declined.statusCode).toBe(303);
    expect(declined.headers.location).toBe(`/pay/setup/${setupId}?declined=1`);
    expect((await new TestClient(t.app).get(declined.headers.location!)).body).toContain('Your card was declined.');
    // A typing slip: 402 with the page.
    const slip = await new TestClient(t.app).request('POST', `/pay/setup/${setupId}`, new URLSearchParams({ cardNumber: CARDS.succeed }));
    expect(slip.statusCode).toBe(402);
    expect(await countOf(t, 'test_payment_methods')).toBe(methods);

    const saved = await saveOnPage(t, setupId, CARDS.decline);
    expect(saved.statusCode, saved.body).toBe(303);
    expect(saved.headers.location).toBe(`/dashboard?cardFor=${s.id}&cardUpdate=${setupId}#subscriptions`);
    const row = await subRow(t, s.id);
    expect(row).toMatchObject({ card_brand: 'Visa', card_last4: '0341', status: 'active' });
    expect(row.payment_method_ref).toMatch(/^pm_test_/);
    expect(row.payment_method_ref).not.toBe(s.methodId);
    const kept = await t.db
      .selectFrom('test_payment_methods')
      .selectAll()
      .where('id', '=', row.payment_method_ref!)
      .executeTakeFirstOrThrow();
    expect(kept).toMatchObject({ behaviour: 'decline', last4: '0341' });

    // Nothing charged, no order, no payment session: one test card kept.
    expect(await countOf(t, 'test_payment_methods')).toBe(methods + 1);
    expect(await countOf(t, 'test_off_session_charges')).toBe(charges);
    expect(await countOf(t, 'orders')).toBe(orders);
    expect(await countOf(t, 'payment_sessions')).toBe(sessions);

    const [event] = await events(t, s.id);
    expect(event).toMatchObject({ actor_user_id: s.userId, actor_label: s.email });
    expect(JSON.parse(event!.data)).toMatchObject({
      brand: 'Visa',
      last4: '0341',
      before: { brand: 'Visa', last4: '4242' },
      cardUpdateId: setupId,
    });
    const [mail, ...more] = await mails(t, s.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Your subscription now uses your Visa ending 0341');
    expect(mail!.text).toContain('will be charged to your Visa ending 0341 from now on. Nothing was charged for the change.');
    expect(mail!.html).toContain('Visa ending 0341');

    // Back on the account: what became of it, and the subscription shows the new card; the timeline has it.
    const back = await me.post(`/api/account/subscriptions/${s.id}/card/confirm`, { setupId });
    expect(back.statusCode, back.body).toBe(200);
    expect(CardUpdateOutcome.parse(back.json())).toEqual({ outcome: 'updated', card: { brand: 'Visa', last4: '0341' }, message: null });
    expect(back.json().subscription.card).toEqual({ brand: 'Visa', last4: '0341' });
    const timeline = (await me.get(`/api/account/subscriptions/${s.id}/timeline`)).json().events;
    expect(timeline[0]).toMatchObject({ type: 'card.updated', actor: 'You', data: { brand: 'Visa', last4: '0341' } });
  });

  it('a page is used once: saved again, it says so and keeps nothing; read again, it says it was used', async () => {
    const setupId = setupIdOf(await startFromAccount(me, s.id));
    expect((await saveOnPage(t, setupId, CARDS.succeed)).statusCode).toBe(303);
    const methods = await countOf(t, 'test_payment_methods');
    const before = await subRow(t, s.id);
    const again = await saveOnPage(t, setupId, CARDS.authenticate);
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain(CARD_UPDATE_MESSAGES.alreadySaved);
    expect(await countOf(t, 'test_payment_methods')).toBe(methods);
    expect(await subRow(t, s.id)).toEqual(before);
    expect((await new TestClient(t.app).get(`/pay/setup/${setupId}`)).body).toContain(CARD_UPDATE_MESSAGES.alreadySaved);
    // The same page finished twice at once: one card saved, one event.
    const twin = setupIdOf(await startFromAccount(me, s.id));
    const eventsBefore = (await events(t, s.id)).length;
    const both = await Promise.all([saveOnPage(t, twin, CARDS.succeed), saveOnPage(t, twin, CARDS.decline)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([303, 409]);
    expect((await events(t, s.id)).length).toBe(eventsBefore + 1);
    expect(await countOf(t, 'test_payment_methods')).toBe(methods + 1);
  });

  it('two tabs: each page saves its card when finished, the last one finished wins, each on the timeline', async () => {
    const first = setupIdOf(await startFromAccount(me, s.id));
    const second = setupIdOf(await startFromAccount(me, s.id));
    expect(first).not.toBe(second);
    const eventsBefore = (await events(t, s.id)).length;
    expect((await saveOnPage(t, second, CARDS.authenticate)).statusCode).toBe(303);
    expect((await saveOnPage(t, first, CARDS.succeed)).statusCode).toBe(303);
    expect(await subRow(t, s.id)).toMatchObject({ card_last4: '4242' });
    const recorded = await events(t, s.id);
    expect(recorded.slice(eventsBefore).map((e) => (JSON.parse(e.data) as { last4: string }).last4)).toEqual(['3184', '4242']);
  });

  it('a page finished after it ran out, or left, saves nothing and says so', async () => {
    const late = setupIdOf(await startFromAccount(me, s.id));
    await t.db
      .updateTable('subscription_card_updates')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', late)
      .execute();
    const before = await subRow(t, s.id);
    const methods = await countOf(t, 'test_payment_methods');
    const res = await saveOnPage(t, late, CARDS.succeed);
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain(CARD_UPDATE_MESSAGES.expired);
    expect(await subRow(t, s.id)).toEqual(before);
    expect(await countOf(t, 'test_payment_methods')).toBe(methods);
    const told = await me.post(`/api/account/subscriptions/${s.id}/card/confirm`, { setupId: late });
    expect(told.json()).toMatchObject({ outcome: 'ended', card: null, message: CARD_UPDATE_MESSAGES.expired });

    // Cancel on the page: back to the account's card, and the page is over.
    const left = setupIdOf(await startFromAccount(me, s.id));
    const away = await new TestClient(t.app).request('POST', `/pay/setup/${left}/cancel`, new URLSearchParams());
    expect(away.statusCode).toBe(303);
    expect(away.headers.location).toBe('/dashboard#subscriptions');
    expect((await saveOnPage(t, left, CARDS.succeed)).statusCode).toBe(409);
    expect(await subRow(t, s.id)).toEqual(before);
  });

  it('a subscription cancelled while its page is open saves nothing; a cancelled one gets no page (409)', async () => {
    const c = await makeSubscription(t.db, { nextRenewalAt: new Date(Date.now() + 20 * DAY).toISOString() });
    const owner = await signedIn(t, c.email);
    const setupId = setupIdOf(await startFromAccount(owner, c.id));
    expect((await owner.post(`/api/account/subscriptions/${c.id}/cancel`, {})).statusCode).toBe(200);
    const res = await saveOnPage(t, setupId, CARDS.succeed);
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain(CARD_UPDATE_MESSAGES.subscriptionCancelled);
    expect((await subRow(t, c.id)).payment_method_ref).toBe(c.methodId);
    expect(await events(t, c.id)).toEqual([]);
    const refused = await owner.post(`/api/account/subscriptions/${c.id}/card`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(SUBSCRIPTION_MESSAGES.cardCancelled);
  });

  it('refuses an admin acting as the customer (403), another customer (404), a body it does not know (400) and an unknown update (404)', async () => {
    const acting = new TestClient(t.app, '10.91.251.1');
    expect((await acting.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
    expect((await acting.post('/api/impersonation', { userId: s.userId })).statusCode).toBe(200);
    const pages = await t.db.selectFrom('subscription_card_updates').select('id').where('subscription_id', '=', s.id).execute();
    const impersonated = await acting.post(`/api/account/subscriptions/${s.id}/card`, {});
    expect(impersonated.statusCode).toBe(403);
    expect(impersonated.json().error).toBe(SUBSCRIPTION_MESSAGES.cardWhileImpersonating);
    // May look: the card is in the view.
    expect((await acting.get('/api/account/subscriptions')).json().subscriptions[0].card).toEqual({
      brand: 'Visa',
      last4: expect.any(String),
    });

    const other = await makeSubscription(t.db, { nextRenewalAt: new Date(Date.now() + 20 * DAY).toISOString() });
    const stranger = await me.post(`/api/account/subscriptions/${other.id}/card`, {});
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().error).toBe(SUBSCRIPTION_MESSAGES.notFound);
    const odd = await me.post(`/api/account/subscriptions/${s.id}/card`, { amountCents: 100 });
    expect(odd.statusCode).toBe(400);
    const unknown = await me.post(`/api/account/subscriptions/${s.id}/card/confirm`, { setupId: 'csu_nope' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(SUBSCRIPTION_MESSAGES.cardUpdateNotFound);
    // Another subscription's update is not this one's.
    const theirs = setupIdOf(await startFromAccount(await signedIn(t, other.email), other.id));
    expect((await me.post(`/api/account/subscriptions/${s.id}/card/confirm`, { setupId: theirs })).statusCode).toBe(404);
    expect((await me.post(`/api/account/subscriptions/${s.id}/card/confirm`, {})).statusCode).toBe(400);
    // Signed out: closed.
    expect((await new TestClient(t.app).post(`/api/account/subscriptions/${s.id}/card`, {})).statusCode).toBe(401);
    expect(await t.db.selectFrom('subscription_card_updates').select('id').where('subscription_id', '=', s.id).execute()).toHaveLength(
      pages.length,
    );
  });

  it('from an e-mail’s link, signed out: back on the link’s page (a fresh link), with the new card', async () => {
    const l = await makeSubscription(t.db, { nextRenewalAt: new Date(Date.now() + 20 * DAY).toISOString() });
    const token = (await newManageLink(t.db, l.id, new Date(), t.config.publicUrl)).split('/').pop()!;
    const guest = new TestClient(t.app, '10.91.252.1');
    const started = await guest.post(`/api/subscriptions/manage/${token}/card`, {});
    expect(started.statusCode, started.body).toBe(200);
    const setupId = setupIdOf(CardUpdateStart.parse(started.json()).url);
    const saved = await saveOnPage(t, setupId, CARDS.succeed);
    expect(saved.statusCode).toBe(303);
    const back = new URL(saved.headers.location!, 'http://shop.test');
    expect(back.pathname).toMatch(/^\/subscriptions\/manage\/[\w-]+$/);
    expect(back.pathname).not.toContain(token);
    expect(Object.fromEntries(back.searchParams)).toEqual({ cardFor: l.id, cardUpdate: setupId });
    const seen = await guest.get(`/api/subscriptions/manage/${back.pathname.split('/').pop()}`);
    expect(seen.json().subscription).toMatchObject({ id: l.id, card: { brand: 'Visa', last4: '4242' } });
    const confirmed = await guest.post(`/api/subscriptions/manage/${token}/card/confirm`, { setupId });
    expect(confirmed.json()).toMatchObject({ outcome: 'updated', card: { brand: 'Visa', last4: '4242' } });
    const [event] = await events(t, l.id);
    expect(event).toMatchObject({ actor_user_id: null, actor_label: 'customer (e-mail link)' });
    // The shop keeps no link token with the page.
    const kept = await t.db.selectFrom('subscription_card_updates').selectAll().where('id', '=', setupId).executeTakeFirstOrThrow();
    expect(JSON.stringify(kept)).not.toContain(token);
  });

  it('a payment-failing renewal is tried again at once with the new card, once (the next attempt’s key), and is paid', async () => {
    const due = new Date(Date.now() - 60 * 60_000);
    const f = await makeSubscription(t.db, { nextRenewalAt: due.toISOString(), behaviour: 'decline' });
    await runRenewals(deps, new Date());
    const [cycle] = await t.db.selectFrom('subscription_cycles').selectAll().where('subscription_id', '=', f.id).execute();
    expect(cycle).toMatchObject({ status: 'retrying', attempts: 1 });
    expect(Date.parse(cycle!.next_attempt_at)).toBeGreaterThan(Date.now());
    // The owner's list says it is failing (as after the last try): the new card puts it right.
    await t.db
      .updateTable('subscriptions')
      .set({ status: 'payment_failing', failing_since: due.toISOString() })
      .where('id', '=', f.id)
      .execute();

    const owner = await signedIn(t, f.email);
    const setupId = setupIdOf(await startFromAccount(owner, f.id));
    expect((await saveOnPage(t, setupId, CARDS.succeed)).statusCode).toBe(303);
    const retried = await t.db
      .selectFrom('subscription_cycles')
      .selectAll()
      .where('subscription_id', '=', f.id)
      .where('cycle', '=', cycle!.cycle)
      .executeTakeFirstOrThrow();
    expect(retried.status).toBe('retrying');
    expect(Date.parse(retried.next_attempt_at)).toBeLessThanOrEqual(Date.now());
    expect(await subRow(t, f.id)).toMatchObject({ status: 'active', failing_since: null });
    expect(JSON.parse((await events(t, f.id))[0]!.data)).toMatchObject({ retriedCycle: cycle!.cycle });
    expect((await mails(t, f.email))[0]!.text).toContain('We are trying your unpaid delivery again with this card now.');

    // Two schedulers at once: one charge, with the next attempt's key, paid.
    const now = new Date();
    await Promise.all([runRenewals(deps, now), runRenewals(deps, now)]);
    const charges = await t.db
      .selectFrom('test_off_session_charges')
      .selectAll()
      .where('order_id', '=', cycle!.order_id!)
      .orderBy('idempotency_key')
      .execute();
    expect(charges.map((c) => c.idempotency_key)).toEqual([
      renewalChargeKey(f.id, cycle!.cycle, 1),
      renewalChargeKey(f.id, cycle!.cycle, 2),
    ]);
    expect(JSON.parse(charges[1]!.outcome)).toMatchObject({ status: 'paid' });
    const order = await t.db.selectFrom('orders').select(['payment_status']).where('id', '=', cycle!.order_id!).executeTakeFirstOrThrow();
    expect(order.payment_status).toBe('paid');
    expect(await subRow(t, f.id)).toMatchObject({ deliveries: 2, status: 'active' });
    // Nothing more on the next turns.
    await runRenewals(deps, new Date());
    expect(
      await t.db.selectFrom('test_off_session_charges').select('idempotency_key').where('order_id', '=', cycle!.order_id!).execute(),
    ).toHaveLength(2);
  });

  it('the card is known from the start: a checkout paid on the test card page keeps its brand and last four', async () => {
    const shopper = new TestClient(t.app, '10.91.253.1');
    const email = `card-start-${Date.now()}@example.com`;
    const res = await shopper.post('/api/create-checkout-session', {
      items: [{ productId: 'laundry-powder', quantity: 1, everyWeeks: 4 }],
      customerEmail: email,
      shippingAddress: { name: 'Card Start', address: '1 Card Way', city: 'Bend', state: 'OR', zip: '97701' },
      acceptSubscriptionTerms: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
    expect((await shopper.request('POST', `/pay/${sessionId}`, cardForm(CARDS.authenticate))).statusCode).toBe(303);
    const started = await t.db.selectFrom('subscriptions').selectAll().where('first_order_id', '=', orderId).executeTakeFirstOrThrow();
    expect(started).toMatchObject({ provider: 'test', card_brand: 'Visa', card_last4: '3184' });
  });
});

describe(`updating the card on Stripe (fake) on ${testDialect()}`, () => {
  let n = 0;
  let passwordHash: string | undefined;
  /** A subscription started through Stripe's page, as a shopper would (the webhook keeps its customer). */
  async function subscribeOnStripe(): Promise<{ id: string; email: string; userId: string; customer: string; checkoutSession: string }> {
    const email = `stripe-card-${++n}-${Date.now()}@example.com`;
    const shopper = new TestClient(ts.app, `10.92.0.${n}`);
    const res = await shopper.post('/api/create-checkout-session', {
      items: [{ productId: 'laundry-powder', quantity: 1, everyWeeks: 4 }],
      customerEmail: email,
      shippingAddress: { name: 'Stripe Card', address: '3 Card Ct', city: 'Austin', state: 'TX', zip: '73301' },
      acceptSubscriptionTerms: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { orderId, sessionId } = res.json() as { orderId: string; sessionId: string };
    expect((await deliverStripeEvent(ts.app, fake.pay(sessionId))).statusCode).toBe(200);
    const sub = await ts.db.selectFrom('subscriptions').selectAll().where('first_order_id', '=', orderId).executeTakeFirstOrThrow();
    expect(sub.customer_ref).toMatch(/^cus_/);
    // The account checkout made has no password: given the factories' one, so the test signs in as the customer would.
    passwordHash ??= await hashPassword('Test-Password-1');
    await ts.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', sub.user_id).execute();
    return { id: sub.id, email, userId: sub.user_id, customer: sub.customer_ref!, checkoutSession: sessionId };
  }

  it('the card of a Stripe subscription is read with its method at the first renewal', async () => {
    const s = await subscribeOnStripe();
    expect(await subRow(ts, s.id)).toMatchObject({ payment_method_ref: null, card_brand: null, card_last4: null });
    const sub = await subRow(ts, s.id);
    await runRenewals(stripeDeps, new Date(Date.parse(sub.next_renewal_at) + 60_000));
    expect(await subRow(ts, s.id)).toMatchObject({
      deliveries: 2,
      payment_method_ref: fake.paymentMethodOf(s.checkoutSession),
      card_brand: 'Visa',
      card_last4: '4242',
    });
  });

  it('Checkout in setup mode for the subscription’s customer; the signed webhook saves the card once; a bad signature changes nothing', async () => {
    const s = await subscribeOnStripe();
    const me = await signedIn(ts, s.email);
    const url = await startFromAccount(me, s.id);
    const update = await ts.db
      .selectFrom('subscription_card_updates')
      .selectAll()
      .where('subscription_id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(update).toMatchObject({ provider: 'stripe', status: 'open', customer_ref: s.customer });
    const session = fake.sessions.get(update.provider_session_id!)!;
    expect(url).toBe(session.url);
    expect(session).toMatchObject({
      mode: 'setup',
      customer: s.customer,
      currency: 'usd',
      metadata: { subscriptionId: s.id, cardUpdateId: update.id },
      success_url: `http://shop.test/dashboard?cardFor=${s.id}&cardUpdate=${update.id}#subscriptions`,
      cancel_url: 'http://shop.test/dashboard#subscriptions',
    });
    const asked = fake.requests.filter(
      (r) => r.path === '/v1/checkout/sessions' && r.body.get('mode') === 'setup' && r.body.get('customer') === s.customer,
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]!.idempotencyKey).toBe(`card-setup-${update.id}`);
    expect(asked[0]!.body.get('allowed_payment_method_types[0]')).toBe('card');
    expect(asked[0]!.body.has('line_items[0][quantity]')).toBe(false);
    // Nothing charged for the page.
    const intents = fake.paymentIntents.size;

    const event = fake.completeSetup(update.provider_session_id!, { brand: 'mastercard', last4: '4444' });
    const forged = signedStripeEvent('checkout.session.completed', JSON.parse(event.payload).data.object);
    const bad = await deliverStripeEvent(ts.app, { payload: event.payload, signature: forged.signature.replace(/v1=\w+/, 'v1=deadbeef') });
    expect(bad.statusCode).toBe(400);
    expect(await subRow(ts, s.id)).toMatchObject({ payment_method_ref: null, card_last4: null });

    const delivered = await deliverStripeEvent(ts.app, event);
    expect(delivered.statusCode, delivered.body).toBe(200);
    const pm = [...fake.paymentMethods.values()].find((m) => (m.card as { last4: string }).last4 === '4444')!;
    expect(pm.customer).toBe(s.customer);
    expect(await subRow(ts, s.id)).toMatchObject({
      payment_method_ref: pm.id,
      customer_ref: s.customer,
      card_brand: 'Mastercard',
      card_last4: '4444',
    });
    // Stripe delivers an event again: nothing more.
    expect((await Promise.all([deliverStripeEvent(ts.app, event), deliverStripeEvent(ts.app, event)])).map((r) => r.statusCode)).toEqual([
      200, 200,
    ]);
    expect(await events(ts, s.id)).toHaveLength(1);
    expect(await mails(ts, s.email)).toHaveLength(1);
    expect((await mails(ts, s.email))[0]!.subject).toBe('Your subscription now uses your Mastercard ending 4444');
    expect(fake.paymentIntents.size).toBe(intents);
    const back = await me.post(`/api/account/subscriptions/${s.id}/card/confirm`, { setupId: update.id });
    expect(back.json()).toMatchObject({ outcome: 'updated', card: { brand: 'Mastercard', last4: '4444' } });

    // The next renewal charges the new card, for the same customer.
    const sub = await subRow(ts, s.id);
    await runRenewals(stripeDeps, new Date(Date.parse(sub.next_renewal_at) + 60_000));
    const renewal = [...fake.paymentIntents.values()].filter((pi) => pi.payment_method === pm.id);
    expect(renewal).toHaveLength(1);
    expect(renewal[0]).toMatchObject({ customer: s.customer, status: 'succeeded' });
  });

  it('back before the webhook: the page is read from Stripe and saved; the late webhook changes nothing more', async () => {
    const s = await subscribeOnStripe();
    const me = await signedIn(ts, s.email);
    await startFromAccount(me, s.id);
    const update = await ts.db
      .selectFrom('subscription_card_updates')
      .selectAll()
      .where('subscription_id', '=', s.id)
      .executeTakeFirstOrThrow();
    const waiting = await me.post(`/api/account/subscriptions/${s.id}/card/confirm`, { setupId: update.id });
    expect(waiting.json()).toMatchObject({ outcome: 'waiting', card: null });
    const event = fake.completeSetup(update.provider_session_id!, { brand: 'visa', last4: '1881' });
    const back = await me.post(`/api/account/subscriptions/${s.id}/card/confirm`, { setupId: update.id });
    expect(back.json()).toMatchObject({ outcome: 'updated', card: { brand: 'Visa', last4: '1881' } });
    expect(back.json().subscription.card).toEqual({ brand: 'Visa', last4: '1881' });
    expect((await deliverStripeEvent(ts.app, event)).statusCode).toBe(200);
    expect(await events(ts, s.id)).toHaveLength(1);
  });

  it('a subscription with no Stripe customer gets one first; the card is attached to it and kept with it', async () => {
    const s = await makeSubscription(ts.db, { nextRenewalAt: new Date(Date.now() + 20 * DAY).toISOString(), provider: 'stripe' });
    const me = await signedIn(ts, s.email);
    await startFromAccount(me, s.id);
    const update = await ts.db
      .selectFrom('subscription_card_updates')
      .selectAll()
      .where('subscription_id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(update.customer_ref).toMatch(/^cus_fake/);
    expect(fake.customers.get(update.customer_ref!)).toMatchObject({ email: s.email, metadata: { subscriptionId: s.id } });
    expect(fake.sessions.get(update.provider_session_id!)).toMatchObject({ mode: 'setup', customer: update.customer_ref });
    // Not the subscription's yet: only with the card it is attached to.
    expect((await subRow(ts, s.id)).customer_ref).toBeNull();
    expect((await deliverStripeEvent(ts.app, fake.completeSetup(update.provider_session_id!))).statusCode).toBe(200);
    expect(await subRow(ts, s.id)).toMatchObject({ customer_ref: update.customer_ref, card_brand: 'Visa', card_last4: '4242' });
  });

  it('a webhook for a setup page the shop does not know is answered and changes nothing', async () => {
    const unknown = signedStripeEvent('checkout.session.completed', {
      id: 'cs_test_elsewhere',
      object: 'checkout.session',
      mode: 'setup',
      status: 'complete',
    });
    expect((await deliverStripeEvent(ts.app, unknown)).statusCode).toBe(200);
  });
});
