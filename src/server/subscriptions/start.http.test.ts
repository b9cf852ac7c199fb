import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { hashToken } from '../lib/tokens.js';
import { startSubscriptions } from './start.js';
import { addWeeks, subscriptionLineText } from '../../shared/subscriptions.js';

/**
 * A paid checkout starts its subscriptions (issue [4/8], items 3 and 4): one per interval (and
 * discount) of its subscription lines, with the consent it was made under, the payment method the
 * page kept, the first renewal the terms promised, and a confirmation e-mail that repeats the terms
 * and links to manage and cancel. A guest gets an account; a refused payment starts nothing.
 */
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' };
const address = { name: 'Robin Renew', address: '9 Schedule St', city: 'Bend', state: 'OR', zip: '97701', country: 'US' };
const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Robin Renew' };

let t: TestApp;
let ipCount = 0;
const nextIp = () => `10.82.${Math.floor(++ipCount / 250)}.${ipCount % 250}`;

beforeAll(async () => {
  t = await createTestApp({ env: LIMITS });
});
afterAll(async () => {
  await t?.close();
});

async function refill(o: { name?: string; priceCents?: number; discountPercent?: number; later?: [number, number] | null } = {}) {
  const p = await createProduct(t.db, { name: o.name ?? 'Cleaner Refill', priceCents: o.priceCents ?? 2000, inventory: 40 });
  const at = new Date().toISOString();
  const later = o.later === undefined ? ([15, 4] as [number, number]) : o.later;
  await t.db
    .insertInto('subscription_plans')
    .values({
      product_id: p.id,
      variant_id: '',
      enabled: 1,
      intervals: JSON.stringify([2, 4, 6]),
      discount_percent: o.discountPercent ?? 10,
      later_discount_percent: later ? later[0] : null,
      later_from_delivery: later ? later[1] : null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return p;
}

async function checkout(c: TestClient, items: unknown[], email: string) {
  const res = await c.post('/api/create-checkout-session', {
    items,
    customerEmail: email,
    shippingAddress: address,
    acceptSubscriptionTerms: true,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { orderId: string; sessionId: string };
}

const pay = (c: TestClient, sessionId: string) => c.request('POST', `/pay/${sessionId}`, new URLSearchParams(card));

const subscriptionsOf = (orderId: string) =>
  t.db
    .selectFrom('subscriptions')
    .selectAll()
    .where('first_order_id', '=', orderId)
    .orderBy('every_weeks')
    .orderBy('discount_percent')
    .execute();

describe('paying a checkout with subscription lines', () => {
  it('starts one subscription per interval with the consent, the kept card and the promised renewal; the e-mail repeats the terms', async () => {
    const powder = await refill({ name: 'Laundry Powder', priceCents: 2000 });
    const cleaner = await refill({ name: 'Cleaner', priceCents: 1000, later: null });
    const user = await createUser(t.db, {});
    const c = new TestClient(t.app, nextIp());
    await c.signIn(user.email, user.password);
    const { orderId, sessionId } = await checkout(
      c,
      [
        { productId: powder.id, quantity: 1 },
        { productId: powder.id, quantity: 2, everyWeeks: 4 },
        { productId: cleaner.id, quantity: 3, everyWeeks: 2 },
      ],
      user.email,
    );
    expect(await subscriptionsOf(orderId)).toEqual([]);
    expect((await pay(c, sessionId)).statusCode).toBe(303);

    const consent = await t.db.selectFrom('subscription_consents').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
    const order = await t.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    const subs = await subscriptionsOf(orderId);
    expect(subs.map((s) => [s.every_weeks, s.discount_percent, s.later_discount_percent, s.later_from_delivery])).toEqual([
      [2, 10, null, null],
      [4, 10, 15, 4],
    ]);
    for (const s of subs) {
      expect(s).toMatchObject({
        user_id: user.id,
        email: user.email,
        status: 'active',
        deliveries: 1,
        cycles_started: 1,
        shipping_address: order.shipping_address,
        shipping_option_id: order.shipping_option_id,
        provider: 'test',
        customer_ref: null,
        payment_ref: null,
        first_order_id: orderId,
        consent_text: consent.text,
        consent_at: consent.accepted_at,
        cancelled_at: null,
      });
      expect(s.id).toMatch(/^sub_/);
      expect(s.payment_method_ref).toMatch(/^pm_test_/);
      // The first renewal is the date the terms showed: the interval after the consent.
      expect(s.next_renewal_at).toBe(addWeeks(consent.accepted_at, s.every_weeks));
      expect(consent.text).toContain(
        `First renewal: ${new Date(s.next_renewal_at).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })}.`,
      );
    }
    // The card kept is the test card's behaviour and last four digits, never its number.
    const method = await t.db
      .selectFrom('test_payment_methods')
      .selectAll()
      .where('id', '=', subs[0]!.payment_method_ref!)
      .executeTakeFirstOrThrow();
    expect(method).toMatchObject({ behaviour: 'succeed', last4: '4242' });
    const items = await t.db
      .selectFrom('subscription_items')
      .select(['subscription_id', 'product_id', 'quantity'])
      .where(
        'subscription_id',
        'in',
        subs.map((s) => s.id),
      )
      .execute();
    expect(items.map((i) => [subs.findIndex((s) => s.id === i.subscription_id), i.product_id, i.quantity]).sort()).toEqual([
      [0, cleaner.id, 3],
      [1, powder.id, 2],
    ]);

    const mail = await t.db
      .selectFrom('email_outbox')
      .select(['html', 'text', 'to_address'])
      .where('order_id', '=', orderId)
      .where('template_id', '=', 'order-confirmation')
      .executeTakeFirstOrThrow();
    for (const paragraph of consent.text.split('\n')) expect(mail.text).toContain(paragraph);
    expect(mail.text).toContain('Laundry Powder (Every 4 weeks · 10% off) x 2');
    expect(mail.text).toContain('Laundry Powder x 1');
    expect(mail.text).toContain('Manage your subscriptions any time from your account: http://shop.test/dashboard#subscriptions');
    expect(mail.html).toContain('href="http://shop.test/dashboard#subscriptions"');
    // Each subscription's own link cancels it without signing in: its token's hash is the one kept.
    const links = [
      ...mail.text!.matchAll(
        /^(.*), cancel this subscription \(or change it\), no sign-in needed: http:\/\/shop\.test\/subscriptions\/manage\/([A-Za-z0-9_-]{43})$/gm,
      ),
    ];
    expect(links.map((m) => m[1])).toEqual([subscriptionLineText(2, 10), subscriptionLineText(4, 10)]);
    for (const [i, m] of links.entries()) {
      const kept = await t.db
        .selectFrom('subscription_links')
        .select('subscription_id')
        .where('token_hash', '=', hashToken(m[2]!))
        .executeTakeFirst();
      expect(kept?.subscription_id).toBe(subs[i]!.id);
    }
    expect(mail.text).not.toContain('We have made an account');
  });

  it('a guest gets an account without a password; the order and the subscription are its', async () => {
    const p = await refill();
    const c = new TestClient(t.app, nextIp());
    const email = 'new-subscriber@example.com';
    const { orderId, sessionId } = await checkout(c, [{ productId: p.id, quantity: 1, everyWeeks: 6 }], email);
    expect(await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
    expect((await pay(c, sessionId)).statusCode).toBe(303);
    const user = await t.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ role: 'client', full_name: 'Robin Renew', email_verified: 0 });
    const order = await t.db.selectFrom('orders').select(['user_id', 'payment_status']).where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(order).toEqual({ user_id: user.id, payment_status: 'paid' });
    const [sub] = await subscriptionsOf(orderId);
    expect(sub).toMatchObject({ user_id: user.id, email, every_weeks: 6 });
    // No password signs in to it (it is not a password hash at all).
    const stranger = new TestClient(t.app, nextIp());
    const signIn = await stranger.signIn(email, 'Test-Password-1');
    expect(signIn.statusCode).toBe(401);
    // The browser that paid still sees its order (the confirmation page), with the line's interval; another does not.
    const seen = await c.get(`/api/orders/${orderId}`);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json().order.items[0]).toMatchObject({ everyWeeks: 6, planDiscountPercent: 10 });
    expect((await stranger.get(`/api/orders/${orderId}`)).statusCode).toBe(404);
    // Once the account has a password, the order is the account's alone.
    await t.db.updateTable('users').set({ password_hash: 'set-since' }).where('id', '=', user.id).execute();
    expect((await c.get(`/api/orders/${orderId}`)).statusCode).toBe(404);
    const mail = await t.db
      .selectFrom('email_outbox')
      .select(['text'])
      .where('order_id', '=', orderId)
      .where('template_id', '=', 'order-confirmation')
      .executeTakeFirstOrThrow();
    expect(mail.text).toContain(`We have made an account for ${email} to hold your subscription.`);
  });

  it('lines of one interval whose plans differ renew as subscriptions of their own', async () => {
    const a = await refill({ discountPercent: 10, later: null });
    const b = await refill({ discountPercent: 20, later: null });
    const user = await createUser(t.db, {});
    const c = new TestClient(t.app, nextIp());
    await c.signIn(user.email, user.password);
    const { orderId, sessionId } = await checkout(
      c,
      [
        { productId: a.id, quantity: 1, everyWeeks: 4 },
        { productId: b.id, quantity: 1, everyWeeks: 4 },
      ],
      user.email,
    );
    await pay(c, sessionId);
    expect((await subscriptionsOf(orderId)).map((s) => [s.every_weeks, s.discount_percent])).toEqual([
      [4, 10],
      [4, 20],
    ]);
    const consent = await t.db.selectFrom('subscription_consents').select('text').where('order_id', '=', orderId).executeTakeFirstOrThrow();
    expect(consent.text.match(/^Every 4 weeks:/gm)).toHaveLength(2);
  });

  it('a payment refused for its order (the session ended) starts nothing and keeps no card', async () => {
    const p = await refill();
    const c = new TestClient(t.app, nextIp());
    const { orderId, sessionId } = await checkout(c, [{ productId: p.id, quantity: 1, everyWeeks: 4 }], 'late-payer@example.com');
    expect((await c.post(`/pay/${sessionId}/cancel`, {})).statusCode).toBeLessThan(400);
    const methodsBefore = (await t.db.selectFrom('test_payment_methods').select('id').execute()).length;
    const res = await pay(c, sessionId);
    expect(res.statusCode).toBe(409);
    expect(await subscriptionsOf(orderId)).toEqual([]);
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'late-payer@example.com').executeTakeFirst()).toBeUndefined();
    expect((await t.db.selectFrom('test_payment_methods').select('id').execute()).length).toBe(methodsBefore);
  });

  it("a renewal's order paid on the card page (the bank wanted the customer) starts no new subscription", async () => {
    const p = await refill();
    const c = new TestClient(t.app, nextIp());
    const { orderId, sessionId } = await checkout(c, [{ productId: p.id, quantity: 1, everyWeeks: 4 }], 'renewal-payer@example.com');
    await t.db.updateTable('orders').set({ origin: 'renewal' }).where('id', '=', orderId).execute();
    expect((await pay(c, sessionId)).statusCode).toBeLessThan(400);
    const order = await t.db.selectFrom('orders').select('payment_status').where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(order.payment_status).toBe('paid');
    expect(await subscriptionsOf(orderId)).toEqual([]);
  });

  it('paying twice (a reload of the card page) starts them once', async () => {
    const p = await refill();
    const c = new TestClient(t.app, nextIp());
    const { orderId, sessionId } = await checkout(c, [{ productId: p.id, quantity: 1, everyWeeks: 2 }], 'twice@example.com');
    const [first, second] = await Promise.all([pay(c, sessionId), pay(c, sessionId)]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([303, 409]);
    expect(await subscriptionsOf(orderId)).toHaveLength(1);
  });
});

describe('startSubscriptions', () => {
  it('keeps what the provider saved (customer, method, payment) and the plan later discount as it is at payment', async () => {
    const p = await refill({ later: [15, 4] });
    const user = await createUser(t.db, {});
    const c = new TestClient(t.app, nextIp());
    await c.signIn(user.email, user.password);
    const { orderId } = await checkout(c, [{ productId: p.id, quantity: 2, everyWeeks: 4 }], user.email);
    // The owner changed the later discount between the checkout and the payment.
    await t.db
      .updateTable('subscription_plans')
      .set({ later_discount_percent: 20, later_from_delivery: 3 })
      .where('product_id', '=', p.id)
      .execute();
    const now = new Date();
    const started = await t.db.transaction().execute((trx) =>
      startSubscriptions(trx, {
        orderId,
        userId: user.id,
        email: user.email,
        shippingAddress: JSON.stringify(address),
        shippingOptionId: null,
        provider: 'stripe',
        payment: { amountCents: 3600, reference: 'pi_first', saved: { customerRef: 'cus_123', paymentMethodRef: null } },
        now,
        publicUrl: 'http://shop.test',
      }),
    );
    expect(started).toHaveLength(1);
    expect(started[0]!.manageUrl).toMatch(/^http:\/\/shop\.test\/subscriptions\/manage\/[A-Za-z0-9_-]{43}$/);
    const sub = await t.db.selectFrom('subscriptions').selectAll().where('id', '=', started[0]!.id).executeTakeFirstOrThrow();
    expect(sub).toMatchObject({
      provider: 'stripe',
      customer_ref: 'cus_123',
      payment_method_ref: null,
      payment_ref: 'pi_first',
      discount_percent: 10,
      later_discount_percent: 20,
      later_from_delivery: 3,
      shipping_address: JSON.stringify(address),
      created_at: now.toISOString(),
    });
  });

  it('starts nothing for an order without subscription lines or without a consent', async () => {
    const p = await refill();
    const c = new TestClient(t.app, nextIp());
    const res = await c.post('/api/create-checkout-session', {
      items: [{ productId: p.id, quantity: 1 }],
      customerEmail: 'once@example.com',
      shippingAddress: address,
    });
    const { orderId } = res.json();
    const user = await createUser(t.db, {});
    const input = {
      orderId,
      userId: user.id,
      email: user.email,
      shippingAddress: '{}',
      shippingOptionId: null,
      provider: 'test',
      payment: null,
      now: new Date(),
      publicUrl: 'http://shop.test',
    };
    expect(await t.db.transaction().execute((trx) => startSubscriptions(trx, input))).toEqual([]);
    // Subscription lines without the consent row (never written by a checkout) start nothing either.
    const { orderId: subOrder } = await checkout(c, [{ productId: p.id, quantity: 1, everyWeeks: 4 }], 'noconsent@example.com');
    await t.db.deleteFrom('subscription_consents').where('order_id', '=', subOrder).execute();
    expect(await t.db.transaction().execute((trx) => startSubscriptions(trx, { ...input, orderId: subOrder }))).toEqual([]);
  });
});
