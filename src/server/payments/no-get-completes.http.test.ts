import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { FAKE_STRIPE_SECRET_KEY, FAKE_STRIPE_WEBHOOK_SECRET, fakeStripe } from '../test/fake-stripe.js';
import { createProduct } from '../db/seed/factories.js';

/*
 * Decision 0049: no GET completes a payment. A payment Stripe has taken (its webhook not here yet)
 * is completed only by the webhook, the test card page's POST, or the return page's POST that asks
 * Stripe. An attacker (or a prefetch, a crawler, a link preview) who GETs or HEADs any spelling of
 * the session's paths changes nothing; the POST, asked last, proves the payment was there to take.
 */

const fake = fakeStripe();
let t: TestApp;

beforeAll(async () => {
  const base = await fake.listen();
  t = await createTestApp({
    env: { STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE: base },
  });
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});

const address = { name: 'Gene Getter', address: '2 Side St', city: 'Austin', state: 'TX', zip: '73301', country: 'US' };

async function paidAtStripeOnly(c: TestClient, productId: string) {
  await createProduct(t.db, { id: productId, priceCents: 1500, inventory: 5 });
  const res = await c.post('/api/create-checkout-session', {
    items: [{ productId, quantity: 1 }],
    customerEmail: 'gene@example.com',
    shippingAddress: address,
    appliedCouponCode: null,
  });
  expect(res.statusCode).toBe(200);
  const { sessionId, orderId } = res.json() as { sessionId: string; orderId: string };
  // The payer paid on Stripe's page; its webhook has not arrived.
  fake.pay(sessionId);
  return { sessionId, orderId };
}

const paymentOf = async (orderId: string) =>
  (await t.db.selectFrom('orders').select(['payment_status', 'paid_at']).where('id', '=', orderId).executeTakeFirstOrThrow())
    .payment_status;

/** Every way to spell a GET at the session: its view, the confirm path, the card page's paths, case, slashes, encodings, queries. */
function spellings(id: string, orderId: string): string[] {
  const enc = encodeURIComponent(id);
  const pct = [...id].map((ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
  return [
    `/api/checkout-session/${id}`,
    `/api/checkout-session/${id}/`,
    `/api/checkout-session/${enc}`,
    `/api/checkout-session/${pct}`,
    `/api/checkout-session/${id}?confirm=1&paid=true`,
    `/api/checkout-session/${id}/confirm`,
    `/api/checkout-session/${id}/confirm/`,
    `/api/checkout-session/${id}/confirm?_method=POST`,
    `/API/CHECKOUT-SESSION/${id}/CONFIRM`,
    `/api/Checkout-Session/${id}/confirm`,
    `//api/checkout-session/${id}/confirm`,
    `/api//checkout-session/${id}/confirm`,
    `/api/checkout-session/${id}%2Fconfirm`,
    `/api/checkout-session/${id}/confirm%2F`,
    `/api/checkout-session/${id}/./confirm`,
    `/api/checkout-session/x/../${id}/confirm`,
    `/api/checkout-session/${id};confirm`,
    `/pay/${id}`,
    `/pay/${id}?declined=0&paid=1`,
    `/pay/${id}/`,
    `/pay/${id}/done`,
    `/pay/${id}/cancel`,
    `/pay/${id}/confirm`,
    `/order-confirmation?session_id=${enc}&orderId=${encodeURIComponent(orderId)}`,
    `/api/orders/${orderId}`,
  ];
}

describe('no GET completes a payment', () => {
  it('GET and HEAD of every spelling of the session, the card page and the return page leave a payment Stripe took unrecorded; the POST records it', async () => {
    const shopper = new TestClient(t.app);
    const { sessionId, orderId } = await paidAtStripeOnly(shopper, 'ngc-a');
    const asked = () => fake.requests.filter((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${sessionId}`).length;
    const askedBefore = asked();
    for (const method of ['GET', 'HEAD'] as const) {
      for (const url of spellings(sessionId, orderId)) {
        const res = await shopper.request(method, url);
        expect(res.statusCode, `${method} ${url}`).toBeLessThan(500);
        expect(await paymentOf(orderId), `${method} ${url}`).toBe('unpaid');
      }
    }
    // Nothing asked Stripe either: a GET only reads the shop's record.
    expect(asked()).toBe(askedBefore);

    // The positive control: the payment was there to take, and the return page's POST takes it.
    const confirmed = await shopper.post(`/api/checkout-session/${sessionId}/confirm`, {});
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ payment_status: 'paid', metadata: { orderId } });
    expect(await paymentOf(orderId)).toBe('paid');
  });

  it("the confirm POST takes no fields, and a stranger may not use it to complete another browser's payment", async () => {
    const shopper = new TestClient(t.app);
    const { sessionId, orderId } = await paidAtStripeOnly(shopper, 'ngc-b');
    expect((await shopper.post(`/api/checkout-session/${sessionId}/confirm`, { paid: true })).statusCode).toBe(400);
    expect((await new TestClient(t.app).post(`/api/checkout-session/${sessionId}/confirm`, {})).statusCode).toBe(404);
    expect(await paymentOf(orderId)).toBe('unpaid');
    // The browser that checked out takes it.
    expect((await shopper.post(`/api/checkout-session/${sessionId}/confirm`, {})).json().payment_status).toBe('paid');
  });
});
