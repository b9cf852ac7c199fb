import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import {
  FAKE_STRIPE_SECRET_KEY as SECRET_KEY,
  FAKE_STRIPE_WEBHOOK_SECRET as WEBHOOK_SECRET,
  fakeStripe,
  deliverStripeEvent,
} from '../test/fake-stripe.js';
import { createProduct } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { ledgerAndLevel } from '../test/stock-checks.js';
import { buildPaymentProviders } from './providers.js';
import type { PaymentProviders } from './provider.js';
import { closeDueProviderSessions, retryUnansweredStrayRefunds } from './stray-payments.js';
import { recordOrderEvent } from '../orders/events.js';
import { expireStaleSessions } from '../checkout/service.js';
import { STRAY_PAYMENT_TEXTS } from '../../shared/schemas/payments.js';
import { formatCents } from '../../shared/money.js';
import { escapeHtml } from '../lib/html.js';
import { CARD_MESSAGES } from './test-checkout-page.js';

/*
 * Issue [1/8]: whatever ends a checkout or a payment link also closes its Stripe page, and a
 * payment that arrives for one anyway (the page was still open, or Stripe was late to hear) is
 * re-checked under the order's lock: never taken for the order, never dropped, but refunded in
 * full and shown to the owner on the order and the dashboard.
 */

const fake = fakeStripe();
let t: TestApp;
let admin: TestClient;
let stripe: PaymentProviders;

beforeAll(async () => {
  const base = await fake.listen();
  t = await createTestApp({ env: { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: base } });
  stripe = buildPaymentProviders(t.config);
  admin = new TestClient(t.app);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});

const deliver = (e: { payload: string; signature: string }) => deliverStripeEvent(t.app, e);

const address = { name: 'Sam Stray', address: '2 Side St', city: 'Austin', state: 'TX', zip: '73301', country: 'US' };
let n = 0;

/** An order the owner types in (lines, or only a total), and its Stripe payment link's session id. */
async function ownerOrderWithLink(input: { lines?: { productId: string; quantity: number }[]; total_amount?: number }) {
  const created = await admin.post('/api/admin/orders', {
    user_id: 'guest',
    email: `stray${++n}@example.com`,
    shipping_address: address,
    status: 'pending',
    ...input,
    elapsedMs: 3000,
  });
  expect(created.statusCode, created.body).toBe(201);
  const order = created.json().order as { id: string; orderNumber: string; totalCents: number };
  const sent = await admin.post(`/api/admin/orders/${order.id}/payment-link`, {});
  expect(sent.statusCode, sent.body).toBe(201);
  const sessionId = (await t.db.selectFrom('orders').select('payment_session_id').where('id', '=', order.id).executeTakeFirstOrThrow())
    .payment_session_id!;
  return { order, sessionId };
}

async function orderRow(id: string) {
  return t.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

type StrayItem = { id: string; status: string; reason: string; amountCents: number; providerRefundId: string | null; error: string | null };

async function straysOf(orderId: string): Promise<StrayItem[]> {
  const res = await admin.get(`/api/admin/orders/${orderId}/stray-payments`);
  expect(res.statusCode).toBe(200);
  return res.json().items as StrayItem[];
}

/** Stripe's refunds of a payment intent: their amounts. */
const refundsOf = (paymentIntent: unknown) =>
  [...fake.refunds.values()].filter((r) => r.payment_intent === paymentIntent).map((r) => r.amount as number);

describe('a payment for a link or checkout the shop ended', () => {
  it('cash recorded, then the still-open Stripe page paid: the order stays paid once by cash, the card payment is refunded and shown to the owner', async () => {
    await createProduct(t.db, { id: 'sp-a', name: 'Stray Cloth', priceCents: 2000, inventory: 5 });
    const { order, sessionId } = await ownerOrderWithLink({ lines: [{ productId: 'sp-a', quantity: 2 }] });
    const paidCash = await admin.post(`/api/admin/orders/${order.id}/payments`, { method: 'cash' });
    expect(paidCash.statusCode, paidCash.body).toBeLessThan(300);
    // The link ended here, and is due to close at Stripe; the payer was quicker than that.
    const ended = await t.db
      .selectFrom('payment_sessions')
      .select(['status', 'close_due'])
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(ended).toEqual({ status: 'expired', close_due: 1 });
    const event = fake.pay(sessionId);
    const answers = await Promise.all([deliver(event), deliver(event), deliver(event)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);

    const row = await orderRow(order.id);
    expect(row).toMatchObject({ payment_status: 'paid', payment_provider: 'cash', status: 'completed' });
    // One confirmation (the cash one), no second one for the card.
    const confirmations = await t.db
      .selectFrom('email_outbox')
      .select('id')
      .where('order_id', '=', order.id)
      .where('template_id', '=', 'order-confirmation')
      .execute();
    expect(confirmations).toHaveLength(1);
    // Recorded once, refunded in full once, whatever the webhook's repeats.
    const pi = fake.sessions.get(sessionId)!.payment_intent;
    expect(refundsOf(pi)).toEqual([order.totalCents]);
    const strays = await straysOf(order.id);
    expect(strays).toHaveLength(1);
    expect(strays[0]).toMatchObject({ reason: 'order_paid', status: 'refunded', amountCents: order.totalCents });
    const events = (await admin.get(`/api/admin/orders/${order.id}/events`)).json();
    const types = (events.events ?? events).map((e: { type: string }) => e.type);
    expect(types).toEqual(expect.arrayContaining(['payment.stray', 'payment.stray_refunded']));
    // The payer reads that it went back, not a thank-you for an order it did not pay.
    const done = await new TestClient(t.app, '10.91.0.2').get(`/pay/${sessionId}/done`);
    expect(done.body).toContain(escapeHtml(STRAY_PAYMENT_TEXTS.payer(formatCents(order.totalCents), order.orderNumber)));
    expect(done.body).not.toContain(escapeHtml(CARD_MESSAGES.linkPaid(formatCents(order.totalCents), order.orderNumber)));
    // The stock left once (when the order was typed in).
    expect((await ledgerAndLevel(t.db, 'sp-a')).level).toBe(3);
  });

  it('the worker closes an ended link at Stripe: its page then takes no money at all', async () => {
    await createProduct(t.db, { id: 'sp-b', priceCents: 1500, inventory: 5 });
    const first = await ownerOrderWithLink({ lines: [{ productId: 'sp-b', quantity: 1 }] });
    // A new link replaces the first, then the order is paid by bank transfer: both sessions end.
    const again = await admin.post(`/api/admin/orders/${first.order.id}/payment-link`, {});
    expect(again.statusCode).toBe(201);
    const second = (await orderRow(first.order.id)).payment_session_id!;
    expect(second).not.toBe(first.sessionId);
    await admin.post(`/api/admin/orders/${first.order.id}/payments`, { method: 'bank_transfer' });
    expect(await closeDueProviderSessions(t.db, stripe)).toBeGreaterThanOrEqual(2);
    for (const id of [first.sessionId, second]) {
      expect(fake.sessions.get(id)!.status).toBe('expired');
      expect(() => fake.pay(id)).toThrow(/takes no payment/);
      const s = await t.db.selectFrom('payment_sessions').select('close_due').where('id', '=', id).executeTakeFirstOrThrow();
      expect(s.close_due).toBe(0);
    }
    // Nothing is left due; a second turn asks Stripe nothing.
    const before = fake.requests.length;
    expect(await closeDueProviderSessions(t.db, stripe)).toBe(0);
    expect(fake.requests.length).toBe(before);
  });

  it('a checkout swept after Stripe’s own page ran out asks Stripe nothing; one ended while Stripe’s page is open is closed there', async () => {
    await createProduct(t.db, { id: 'sp-e', priceCents: 700, inventory: 5 });
    const open = async () => {
      const res = await new TestClient(t.app, `10.91.1.${++n}`).post('/api/create-checkout-session', {
        items: [{ productId: 'sp-e', quantity: 1 }],
        customerEmail: `sweep${n}@example.com`,
        shippingAddress: address,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { sessionId: string; orderId: string };
    };
    const old = await open();
    // Opened 45 minutes ago: its page ended at Stripe 14 minutes ago, its holds now.
    const then = new Date(Date.now() - 45 * 60_000);
    await t.db
      .updateTable('payment_sessions')
      .set({ created_at: then.toISOString(), expires_at: new Date(then.getTime() + 30 * 60_000).toISOString() })
      .where('id', '=', old.sessionId)
      .execute();
    expect(await expireStaleSessions(t.db)).toBeGreaterThanOrEqual(1);
    expect(
      await t.db.selectFrom('payment_sessions').select(['status', 'close_due']).where('id', '=', old.sessionId).executeTakeFirstOrThrow(),
    ).toEqual({
      status: 'expired',
      close_due: 0,
    });
    const fresh = await open();
    const cancel = await admin.request('PATCH', `/api/admin/orders/${fresh.orderId}/status`, { status: 'cancelled' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(
      (await t.db.selectFrom('payment_sessions').select('close_due').where('id', '=', fresh.sessionId).executeTakeFirstOrThrow()).close_due,
    ).toBe(1);
    await closeDueProviderSessions(t.db, stripe);
    expect(fake.sessions.get(fresh.sessionId)!.status).toBe('expired');
  });

  it('a replaced link paid: refunded, the order stays unpaid and its new link still pays it', async () => {
    await createProduct(t.db, { id: 'sp-c', priceCents: 1200, inventory: 5 });
    const first = await ownerOrderWithLink({ lines: [{ productId: 'sp-c', quantity: 1 }] });
    await admin.post(`/api/admin/orders/${first.order.id}/payment-link`, {});
    const current = (await orderRow(first.order.id)).payment_session_id!;
    // Stripe had not closed the first page yet (the worker's turn had not come).
    expect((await deliver(fake.pay(first.sessionId))).statusCode).toBe(200);
    expect((await orderRow(first.order.id)).payment_status).toBe('unpaid');
    expect((await straysOf(first.order.id))[0]).toMatchObject({ reason: 'session_ended', status: 'refunded' });
    expect((await deliver(fake.pay(current))).statusCode).toBe(200);
    expect(await orderRow(first.order.id)).toMatchObject({ payment_status: 'paid', payment_provider: 'stripe' });
    expect(await straysOf(first.order.id)).toHaveLength(1);
  });

  it('a $10 link paying an order edited to $500: refunded, the order stays unpaid', async () => {
    const { order, sessionId } = await ownerOrderWithLink({ total_amount: 10 });
    const edited = await admin.request('PUT', `/api/admin/orders/${order.id}`, {
      user_id: 'guest',
      shipping_address: address,
      total_amount: 500,
      status: 'pending',
      elapsedMs: 3000,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await deliver(fake.pay(sessionId))).statusCode).toBe(200);
    const row = await orderRow(order.id);
    expect(row).toMatchObject({ payment_status: 'unpaid', total_cents: 50000 });
    expect((await straysOf(order.id))[0]).toMatchObject({ reason: 'session_ended', status: 'refunded', amountCents: 1000 });
    expect(refundsOf(fake.sessions.get(sessionId)!.payment_intent)).toEqual([1000]);
  });

  it('the amount is checked too: a session whose total no longer matches is not taken, even while still open here', async () => {
    const { order, sessionId } = await ownerOrderWithLink({ total_amount: 40 });
    // As if the total changed without ending the link (an older code path, a hand edit in the database).
    await t.db.updateTable('orders').set({ total_cents: 4500 }).where('id', '=', order.id).execute();
    expect((await deliver(fake.pay(sessionId))).statusCode).toBe(200);
    expect((await orderRow(order.id)).payment_status).toBe('unpaid');
    expect((await straysOf(order.id))[0]).toMatchObject({ reason: 'amount_changed', status: 'refunded', amountCents: 4000 });
  });

  it('a cancelled checkout whose Stripe page is still open, paid: not taken, refunded, stock untouched', async () => {
    await createProduct(t.db, { id: 'sp-d', priceCents: 1000, inventory: 4 });
    const shopper = new TestClient(t.app, '10.91.0.7');
    const res = await shopper.post('/api/create-checkout-session', {
      items: [{ productId: 'sp-d', quantity: 2 }],
      customerEmail: 'cancelled-payer@example.com',
      shippingAddress: address,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { sessionId, orderId } = res.json();
    const cancel = await admin.request('PATCH', `/api/admin/orders/${orderId}/status`, { status: 'cancelled' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect((await deliver(fake.pay(sessionId))).statusCode).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({ status: 'cancelled' });
    expect((await orderRow(orderId)).payment_status).not.toBe('paid');
    const cancelled = await orderRow(orderId);
    expect((await straysOf(orderId))[0]).toMatchObject({
      reason: 'order_cancelled',
      status: 'refunded',
      amountCents: cancelled.total_cents,
    });
    expect((await ledgerAndLevel(t.db, 'sp-d')).level).toBe(4);
    // The payer's return page says it went back.
    const view = (await shopper.get(`/api/checkout-session/${sessionId}`)).json();
    expect(view.payment_status).toBe('unpaid');
    expect(view.refund_note).toContain('refunded to your card in full');
  });

  it('a refund Stripe refuses stays on the order and the dashboard: retried by the owner, or settled by hand with a note', async () => {
    const { order, sessionId } = await ownerOrderWithLink({ total_amount: 25 });
    await admin.post(`/api/admin/orders/${order.id}/payments`, { method: 'card_phone' });
    const event = fake.pay(sessionId);
    fake.failOnce(402, 'Your card was declined for refunds');
    expect((await deliver(event)).statusCode).toBe(200);
    const [failed] = await straysOf(order.id);
    expect(failed).toMatchObject({ status: 'failed', error: 'Your card was declined for refunds' });
    const dashboard = (await admin.get('/api/admin/stray-payments')).json();
    expect(dashboard.openCount).toBeGreaterThanOrEqual(1);
    expect(dashboard.items.map((i: { id: string }) => i.id)).toContain(failed!.id);
    // Settling needs a note; an unknown one is 404; the retry works and then it is not open any more.
    expect((await admin.post(`/api/admin/stray-payments/${failed!.id}/settle`, {})).statusCode).toBe(400);
    expect((await admin.post('/api/admin/stray-payments/stray_nobody/retry', {})).statusCode).toBe(404);
    const retried = await admin.post(`/api/admin/stray-payments/${failed!.id}/retry`, {});
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().status).toBe('refunded');
    expect((await admin.post(`/api/admin/stray-payments/${failed!.id}/retry`, {})).statusCode).toBe(409);
    expect((await admin.post(`/api/admin/stray-payments/${failed!.id}/settle`, { note: 'done' })).statusCode).toBe(409);
    expect(refundsOf(fake.sessions.get(sessionId)!.payment_intent)).toEqual([2500]);
    const after = (await admin.get('/api/admin/stray-payments')).json();
    expect(after.items.map((i: { id: string }) => i.id)).not.toContain(failed!.id);
    // Customers and strangers cannot see or touch them.
    const anon = new TestClient(t.app, '10.91.0.9');
    expect((await anon.get('/api/admin/stray-payments')).statusCode).toBe(401);
    expect((await anon.post(`/api/admin/stray-payments/${failed!.id}/retry`, {})).statusCode).toBe(401);
  });

  it('a refund whose answer was lost is asked again by the worker with the same key: one refund', async () => {
    const { order, sessionId } = await ownerOrderWithLink({ total_amount: 30 });
    await admin.post(`/api/admin/orders/${order.id}/payments`, { method: 'cash' });
    fake.dropRefunds(3);
    expect((await deliver(fake.pay(sessionId))).statusCode).toBe(200);
    const [open] = await straysOf(order.id);
    expect(['refunding', 'failed']).toContain(open!.status);
    await t.db
      .updateTable('stray_payments')
      .set({ status: 'refunding', created_at: new Date(Date.now() - 120_000).toISOString() })
      .where('id', '=', open!.id)
      .execute();
    fake.loseRefundAnswers(1);
    await retryUnansweredStrayRefunds(t.db, stripe, recordOrderEvent);
    await retryUnansweredStrayRefunds(t.db, stripe, recordOrderEvent);
    expect((await straysOf(order.id))[0]!.status).toBe('refunded');
    expect(refundsOf(fake.sessions.get(sessionId)!.payment_intent)).toEqual([3000]);
  });

  it('the owner retrying 50 times at once, and settling at the same moment: one refund or one settle, never both', async () => {
    // 50 retries of one refused refund, fired together: one asks Stripe, the rest are told it is under way or done.
    const first = await ownerOrderWithLink({ total_amount: 12 });
    await admin.post(`/api/admin/orders/${first.order.id}/payments`, { method: 'cash' });
    fake.failOnce(402, 'Your card was declined for refunds');
    expect((await deliver(fake.pay(first.sessionId))).statusCode).toBe(200);
    const [refused] = await straysOf(first.order.id);
    expect(refused!.status).toBe('failed');
    const answers = await Promise.all(Array.from({ length: 50 }, () => admin.post(`/api/admin/stray-payments/${refused!.id}/retry`, {})));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c !== 200).every((c) => c === 409)).toBe(true);
    expect(
      answers
        .filter((a) => a.statusCode === 409)
        .every((a) => [STRAY_PAYMENT_TEXTS.underWay, STRAY_PAYMENT_TEXTS.notOpen].includes(a.json().error)),
    ).toBe(true);
    expect((await straysOf(first.order.id))[0]!.status).toBe('refunded');
    expect(refundsOf(fake.sessions.get(first.sessionId)!.payment_intent)).toEqual([1200]);

    // A retry and a settle-by-hand at the same moment: exactly one of them wins.
    const second = await ownerOrderWithLink({ total_amount: 13 });
    await admin.post(`/api/admin/orders/${second.order.id}/payments`, { method: 'cash' });
    fake.failOnce(402, 'Your card was declined for refunds');
    expect((await deliver(fake.pay(second.sessionId))).statusCode).toBe(200);
    const [open] = await straysOf(second.order.id);
    const both = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? admin.post(`/api/admin/stray-payments/${open!.id}/settle`, { note: 'Paid back by bank transfer' })
          : admin.post(`/api/admin/stray-payments/${open!.id}/retry`, {}),
      ),
    );
    expect(both.filter((a) => a.statusCode === 200)).toHaveLength(1);
    const [after] = await straysOf(second.order.id);
    const refunded = refundsOf(fake.sessions.get(second.sessionId)!.payment_intent);
    if (after!.status === 'refunded') expect(refunded).toEqual([1300]);
    else expect([after!.status, refunded]).toEqual(['settled', []]);
  });
});
