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
import { createProduct } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { ledgerAndLevel } from '../test/stock-checks.js';
import { CARD_MESSAGES } from '../payments/test-checkout-page.js';
import { escapeHtml } from '../lib/html.js';
import { formatCents } from '../../shared/money.js';

const fake = fakeStripe();
let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  const base = await fake.listen();
  t = await createTestApp({ env: { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: base } });
  admin = new TestClient(t.app);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});

const deliver = (e: { payload: string; signature: string }) => deliverStripeEvent(t.app, e);

describe('a payment link with Stripe configured', () => {
  it("is a Stripe Checkout session of the order's total, a day long, with its own key; paid once by the webhook, refundable through Stripe", async () => {
    await createProduct(t.db, { id: 'sl-a', name: 'Link Cloth', priceCents: 2000, inventory: 5 });
    const created = await admin.post('/api/admin/orders', {
      user_id: 'guest',
      email: 'stripe-link@example.com',
      shipping_address: { name: 'Sam Link', address: '2 Side St', city: 'Austin', state: 'TX', zip: '73301', country: 'US' },
      status: 'pending',
      lines: [{ productId: 'sl-a', quantity: 2 }],
      elapsedMs: 3000,
    });
    expect(created.statusCode).toBe(201);
    const order = created.json().order;
    const sent = await admin.post(`/api/admin/orders/${order.id}/payment-link`, {});
    expect(sent.statusCode).toBe(201);
    const { link } = sent.json();
    expect(link.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const call = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    expect(call.idempotencyKey).toMatch(/^paylink-cs_live_/);
    const expiresIn = Number(call.body.get('expires_at')) * 1000 - Date.now();
    expect(expiresIn).toBeGreaterThan(22 * 3600_000);
    expect(call.body.get('metadata[orderId]')).toBe(order.id);
    expect(sent.json().order.paymentLink).toMatchObject({ url: link.url, amountCents: order.totalCents });
    const { payment_session_id: sessionId } = await t.db
      .selectFrom('orders')
      .select('payment_session_id')
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(link.url).toContain(sessionId);
    // The payer comes back to the shop's thanks for this payment (they may have no account and
    // not this order's checkout in their browser), and leaving Stripe's page goes to the shop.
    expect(call.body.get('success_url')).toBe(`${t.config.publicUrl}/pay/{CHECKOUT_SESSION_ID}/done`);
    expect(call.body.get('cancel_url')).toBe(`${t.config.publicUrl}/`);
    const payer = new TestClient(t.app, '10.77.0.9');
    const early = await payer.get(`/pay/${sessionId}/done`);
    expect(early.statusCode).toBe(200);
    expect(early.body).toContain(escapeHtml(CARD_MESSAGES.linkConfirming(order.orderNumber)));
    expect((await payer.get('/pay/cs_live_nobody/done')).statusCode).toBe(404);

    const event = signedStripeEvent('checkout.session.completed', {
      id: sessionId,
      object: 'checkout.session',
      payment_status: 'paid',
      metadata: { orderId: order.id },
    });
    const results = await Promise.all([deliver(event), deliver(event), deliver(event)]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const row = await t.db.selectFrom('orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ payment_status: 'paid', payment_provider: 'stripe', status: 'completed' });
    expect((await ledgerAndLevel(t.db, 'sl-a')).level).toBe(3);
    const confirmations = await t.db
      .selectFrom('email_outbox')
      .select('id')
      .where('order_id', '=', order.id)
      .where('template_id', '=', 'order-confirmation')
      .execute();
    expect(confirmations).toHaveLength(1);
    const thanks = await payer.get(`/pay/${sessionId}/done`);
    expect(thanks.body).toContain(escapeHtml(CARD_MESSAGES.linkPaid(formatCents(order.totalCents), order.orderNumber)));

    const cancel = await admin.request('PATCH', `/api/admin/orders/${order.id}/status`, {
      status: 'cancelled',
      refund: { amountCents: row.total_cents },
    });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().order).toMatchObject({ status: 'cancelled', paymentStatus: 'refunded' });
    expect(fake.requests.some((r) => r.path === '/v1/refunds')).toBe(true);
    expect((await ledgerAndLevel(t.db, 'sl-a')).level).toBe(5);
  });
});
