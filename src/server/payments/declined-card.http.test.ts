import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct } from '../db/seed/factories.js';
import { guestCheckoutBody } from '../test/checkout-orders.js';
import { CARD_MESSAGES } from './test-checkout-page.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const checkoutBody = guestCheckoutBody;
const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Pat Buyer' };

describe('the test card page after a declined card', () => {
  it('answers the POST with a redirect to the card page, which says the card was declined', async () => {
    await createProduct(t.db, { id: 'ns-declined', priceCents: 1500, inventory: 4 });
    const c = new TestClient(t.app);
    const { sessionId, orderId } = (
      await c.post('/api/create-checkout-session', checkoutBody([{ productId: 'ns-declined', quantity: 1 }]))
    ).json();

    const declined = await c.request('POST', `/pay/${sessionId}`, new URLSearchParams({ ...card, cardNumber: '4000 0000 0000 0002' }));
    // POST → 303 → GET: Back or reload repeat the GET, never the card form.
    expect(declined.statusCode).toBe(303);
    expect(declined.headers.location).toBe(`/pay/${sessionId}?declined=1`);
    expect(declined.body).not.toContain(CARD_MESSAGES.declined);
    const shown = await c.get(declined.headers.location as string);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain(CARD_MESSAGES.declined);
    expect(shown.body).toContain(`<form method="post" action="/pay/${sessionId}"`);
    // Reloading it says the same and changes nothing.
    expect((await c.get(declined.headers.location as string)).body).toContain(CARD_MESSAGES.declined);
    const order = await t.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(order.payment_status).toBe('unpaid');
    // The plain page shows no error; a typing slip is still answered in place, its message as before.
    expect((await c.get(`/pay/${sessionId}`)).body).not.toContain(CARD_MESSAGES.declined);
    const slip = await c.request('POST', `/pay/${sessionId}`, new URLSearchParams({ ...card, cvc: '' }));
    expect(slip.statusCode).toBe(402);
    expect(slip.body).toContain(CARD_MESSAGES.cvc.replace("'", '&#39;'));

    // The good card still pays after the decline.
    const paid = await c.request('POST', `/pay/${sessionId}`, new URLSearchParams(card));
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`/order-confirmation?session_id=${sessionId}&orderId=${orderId}`);
    // Back to the declined address once paid: the page says it is paid, not declined.
    const after = await c.get(`/pay/${sessionId}?declined=1`);
    expect(after.body).toContain(CARD_MESSAGES.paid);
    expect(after.body).not.toContain(CARD_MESSAGES.declined);
  });
});
