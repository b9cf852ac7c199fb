import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { guestCheckoutBody } from '../test/checkout-orders.js';
import { ledgerAndLevel } from '../test/stock-checks.js';
import { CARD_MESSAGES } from './test-checkout-page.js';
import { escapeHtml } from '../lib/html.js';

/*
 * Issue [1/8]: the built-in card page read its session's state before taking the card, and the
 * payment then took it whatever had happened meanwhile: a cancel, another payer, a new link. Now
 * the payment decides again under the order's lock, so each race below has one truthful outcome.
 */

const card = new URLSearchParams({ cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Pat Payer' });
const TRIES = 8;
let t: TestApp;
let admin: TestClient;
let ip = 0;
const nextIp = () => `10.93.${Math.floor(++ip / 250)}.${ip % 250}`;

beforeAll(async () => {
  t = await createTestApp({ env: { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' } });
  admin = new TestClient(t.app, '10.93.250.1');
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => {
  await t?.close();
});

async function eventsOf(orderId: string): Promise<string[]> {
  const rows = await t.db.selectFrom('order_events').select('type').where('order_id', '=', orderId).orderBy('id').execute();
  return rows.map((r) => r.type);
}

async function ownerOrderWithLink(productId: string): Promise<{ orderId: string; sessionId: string }> {
  const created = await admin.post('/api/admin/orders', {
    user_id: 'guest',
    email: `race${nextIp()}@example.com`,
    shipping_address: { name: 'Rae Race', address: '3 Race Rd', city: 'Salem', state: 'OR', zip: '97301', country: 'US' },
    status: 'pending',
    lines: [{ productId, quantity: 1 }],
    elapsedMs: 3000,
  });
  expect(created.statusCode, created.body).toBe(201);
  const orderId = created.json().order.id as string;
  expect((await admin.post(`/api/admin/orders/${orderId}/payment-link`, {})).statusCode).toBe(201);
  const { payment_session_id } = await t.db
    .selectFrom('orders')
    .select('payment_session_id')
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  return { orderId, sessionId: payment_session_id! };
}

describe(`the built-in card page under races on ${testDialect()}`, () => {
  it('two payers of one link at once: one is charged and thanked, the other told it is paid; paid once', async () => {
    await createProduct(t.db, { id: 'race-link', priceCents: 1800, inventory: 100 });
    for (let i = 0; i < TRIES; i++) {
      const { orderId, sessionId } = await ownerOrderWithLink('race-link');
      const answers = await Promise.all([0, 1].map(() => new TestClient(t.app, nextIp()).request('POST', `/pay/${sessionId}`, card)));
      const thanked = answers.filter((a) => a.statusCode === 200 && a.body.includes('received'));
      const refused = answers.filter((a) => a.statusCode === 409 && a.body.includes(escapeHtml(CARD_MESSAGES.paid)));
      expect([thanked.length, refused.length], answers.map((a) => `${a.statusCode}`).join()).toEqual([1, 1]);
      expect((await eventsOf(orderId)).filter((e) => e === 'paid')).toHaveLength(1);
      const mails = await t.db
        .selectFrom('email_outbox')
        .select('id')
        .where('order_id', '=', orderId)
        .where('template_id', '=', 'order-confirmation')
        .execute();
      expect(mails).toHaveLength(1);
    }
  });

  it('Back to a paid link the shop sent: "already paid", and no link to an order page the payer may not read', async () => {
    await createProduct(t.db, { id: 'race-link-back', priceCents: 900, inventory: 10 });
    const { orderId, sessionId } = await ownerOrderWithLink('race-link-back');
    const payer = new TestClient(t.app, nextIp());
    expect((await payer.request('POST', `/pay/${sessionId}`, card)).statusCode).toBe(200);
    // Now the order names its provider ('test'); it is still the shop's own order (origin 'owner').
    const back = await payer.get(`/pay/${sessionId}`);
    expect(back.statusCode).toBe(200);
    expect(back.body).toContain(escapeHtml(CARD_MESSAGES.paid));
    expect(back.body).not.toContain('class="view"');
    expect(back.body).not.toContain(orderId);
  });

  it('the owner cancels while the shopper pays: either paid first (then cancelled by the owner) or refused; never thanked for a cancelled order', async () => {
    await createProduct(t.db, { id: 'race-cancel', priceCents: 1200, inventory: 100 });
    const outcomes = new Set<string>();
    for (let i = 0; i < TRIES; i++) {
      const shopper = new TestClient(t.app, nextIp());
      const res = await shopper.post('/api/create-checkout-session', guestCheckoutBody([{ productId: 'race-cancel', quantity: 1 }]));
      expect(res.statusCode, res.body).toBe(200);
      const { orderId, sessionId } = res.json();
      const [paid, cancelled] = await Promise.all([
        shopper.request('POST', `/pay/${sessionId}`, card),
        admin.request('PATCH', `/api/admin/orders/${orderId}/status`, { status: 'cancelled' }),
      ]);
      const events = await eventsOf(orderId);
      const order = await t.db
        .selectFrom('orders')
        .select(['status', 'payment_status'])
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow();
      if (paid.statusCode === 303) {
        // Taken first: the order's payment is recorded before the cancel, which the owner then made of a paid order.
        outcomes.add('paid-then-cancelled');
        expect(events.indexOf('paid')).toBeGreaterThanOrEqual(0);
        if (cancelled.statusCode === 200) expect(events.indexOf('paid')).toBeLessThan(events.lastIndexOf('status.changed'));
      } else {
        outcomes.add('refused');
        expect(paid.statusCode).toBe(409);
        expect(paid.body).toContain(escapeHtml(CARD_MESSAGES.expired));
        expect(events).not.toContain('paid');
        expect(order.status).toBe('cancelled');
        expect(order.payment_status).not.toBe('paid');
      }
    }
    // The units: every paid one left stock once, every refused one came back.
    const { ledger, level } = await ledgerAndLevel(t.db, 'race-cancel');
    expect(ledger).toBe(level);
    expect(outcomes.size).toBeGreaterThan(0);
  });

  it('a new link sent while the old one is being paid: the old payment is taken and the new link refused, or the old one is refused', async () => {
    await createProduct(t.db, { id: 'race-relink', priceCents: 900, inventory: 100 });
    for (let i = 0; i < TRIES; i++) {
      const { orderId, sessionId } = await ownerOrderWithLink('race-relink');
      const [paid, relinked] = await Promise.all([
        new TestClient(t.app, nextIp()).request('POST', `/pay/${sessionId}`, card),
        admin.post(`/api/admin/orders/${orderId}/payment-link`, {}),
      ]);
      const order = await t.db.selectFrom('orders').select(['payment_status']).where('id', '=', orderId).executeTakeFirstOrThrow();
      if (paid.statusCode === 200) {
        expect(relinked.statusCode).toBe(409);
        expect(order.payment_status).toBe('paid');
      } else {
        expect(paid.statusCode).toBe(409);
        expect(relinked.statusCode).toBe(201);
        expect(order.payment_status).toBe('unpaid');
      }
      expect((await eventsOf(orderId)).filter((e) => e === 'paid').length).toBe(order.payment_status === 'paid' ? 1 : 0);
    }
  });
});
