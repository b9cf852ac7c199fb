import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { FAKE_STRIPE_SECRET_KEY, FAKE_STRIPE_WEBHOOK_SECRET, fakeStripe, signedStripeEvent } from '../test/fake-stripe.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import type { OrderView } from '../../shared/schemas/orders.js';

/**
 * Cancel, refund, restock and delete of paid orders, the list's payment filters and revenue net of
 * refunds (src/server/orders/refunds.ts), on the built-in test provider and on the fake Stripe.
 */
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000', CHECKOUT_MAX_UNITS_HELD: '10000' };
const address = { name: 'Rae Refund', address: '5 Money Row', city: 'Portland', state: 'OR', zip: '97201', country: 'US' };
const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Rae Refund' };

let t: TestApp;
let admin: TestClient;
let ipCount = 0;

beforeAll(async () => {
  t = await createTestApp({ env: LIMITS });
  admin = new TestClient(t.app);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => {
  await t?.close();
});

const stock = async (app: TestApp, id: string) =>
  (await app.db.selectFrom('products').select('inventory').where('id', '=', id).executeTakeFirstOrThrow()).inventory;
const adminOrder = async (c: TestClient, id: string): Promise<OrderView> => {
  const res = await c.get(`/api/admin/orders/${id}`);
  expect(res.statusCode).toBe(200);
  return res.json().order;
};
const setStatus = (c: TestClient, id: string, status: string) => c.request('PATCH', `/api/admin/orders/${id}/status`, { status });
const refund = (c: TestClient, id: string, body: Record<string, unknown>) => c.post(`/api/admin/orders/${id}/refunds`, body);
const events = async (app: TestApp, orderId: string, type: string) =>
  (await app.db.selectFrom('order_events').select('type').where('order_id', '=', orderId).where('type', '=', type).execute()).length;

/** A checkout on the built-in provider, paid with the test card unless told not to. */
async function testOrder(
  items: { productId: string; quantity: number }[],
  { pay = true, buyer }: { pay?: boolean; buyer?: TestClient } = {},
) {
  const c = buyer ?? new TestClient(t.app, `10.9.${Math.floor(++ipCount / 250)}.${ipCount % 250}`);
  const res = await c.post('/api/create-checkout-session', {
    items,
    customerEmail: 'rae@example.com',
    shippingAddress: address,
    appliedCouponCode: null,
  });
  expect(res.statusCode).toBe(200);
  const { sessionId, orderId } = res.json() as { sessionId: string; orderId: string };
  if (pay) expect((await c.request('POST', `/pay/${sessionId}`, new URLSearchParams(card))).statusCode).toBeLessThan(400);
  return { orderId, sessionId, client: c };
}

describe('cancel and restock', () => {
  it('returns a paid order’s units once when cancelled, takes them again when reopened', async () => {
    await createProduct(t.db, { id: 'mon-a', priceCents: 1500, inventory: 10 });
    await createProduct(t.db, { id: 'mon-b', priceCents: 700, inventory: 5 });
    const { orderId } = await testOrder([
      { productId: 'mon-a', quantity: 3 },
      { productId: 'mon-b', quantity: 2 },
    ]);
    expect(await stock(t, 'mon-a')).toBe(7);
    expect(await stock(t, 'mon-b')).toBe(3);

    const cancelled = await setStatus(admin, orderId, 'cancelled');
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().order.restockedAt).toEqual(expect.any(String));
    expect(await stock(t, 'mon-a')).toBe(10);
    expect(await stock(t, 'mon-b')).toBe(5);
    // The same status again changes nothing: no second restock.
    expect((await setStatus(admin, orderId, 'cancelled')).statusCode).toBe(200);
    expect(await stock(t, 'mon-a')).toBe(10);

    // Reopened: the units leave stock again; cancelled again: they come back once more.
    const reopened = await setStatus(admin, orderId, 'processing');
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json().order.restockedAt).toBeNull();
    expect(await stock(t, 'mon-a')).toBe(7);
    expect(await stock(t, 'mon-b')).toBe(3);
    expect((await setStatus(admin, orderId, 'cancelled')).statusCode).toBe(200);
    expect(await stock(t, 'mon-a')).toBe(10);
    expect(await events(t, orderId, 'restocked')).toBe(2);
    expect(await events(t, orderId, 'stock.taken')).toBe(1);
    const actors = await t.db
      .selectFrom('order_events')
      .select('actor_label')
      .where('order_id', '=', orderId)
      .where('type', '=', 'restocked')
      .execute();
    expect(actors.map((a) => a.actor_label)).toEqual([DEMO_ADMIN.email.toLowerCase(), DEMO_ADMIN.email.toLowerCase()]);
  });

  it('refuses to reopen a cancelled order when its units are no longer there (409), changing nothing', async () => {
    await createProduct(t.db, { id: 'mon-c', name: 'Last Sponge', priceCents: 900, inventory: 4 });
    const { orderId } = await testOrder([{ productId: 'mon-c', quantity: 3 }]);
    expect((await setStatus(admin, orderId, 'cancelled')).statusCode).toBe(200);
    expect(await stock(t, 'mon-c')).toBe(4);
    // Another shopper buys two of the four meanwhile.
    await testOrder([{ productId: 'mon-c', quantity: 2 }]);
    expect(await stock(t, 'mon-c')).toBe(2);

    const refused = await setStatus(admin, orderId, 'processing');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(
      'Not enough stock to move this cancelled order to processing: it needs 3 × Last Sponge, and 2 are left. Restock the product first.',
    );
    expect(await stock(t, 'mon-c')).toBe(2);
    expect((await adminOrder(admin, orderId)).status).toBe('cancelled');
  });

  it('cancelling an unpaid checkout releases its hold and takes nothing from stock', async () => {
    await createProduct(t.db, { id: 'mon-d', priceCents: 500, inventory: 6 });
    const { orderId } = await testOrder([{ productId: 'mon-d', quantity: 2 }], { pay: false });
    expect((await setStatus(admin, orderId, 'cancelled')).statusCode).toBe(200);
    expect(await stock(t, 'mon-d')).toBe(6);
    expect(
      await t.db
        .selectFrom('stock_reservations')
        .select('order_id')
        .where('order_id', '=', orderId)
        .where('released_at', 'is', null)
        .execute(),
    ).toEqual([]);
    expect((await adminOrder(admin, orderId)).restockedAt).toBeNull();
  });
});

describe('refunds on the built-in test provider', () => {
  it('refunds in part then in full, checks the amount, restocks once, and e-mails the customer', async () => {
    await createProduct(t.db, { id: 'mon-r', priceCents: 2000, inventory: 10 });
    const { orderId, client } = await testOrder([{ productId: 'mon-r', quantity: 2 }]);
    const before = await adminOrder(admin, orderId);
    expect(before).toMatchObject({ paymentStatus: 'paid', refundedCents: 0, netCents: before.totalCents, refunds: [] });
    const total = before.totalCents;

    const partial = await refund(admin, orderId, { amountCents: 1000, reason: 'One cloth arrived torn' });
    expect(partial.statusCode).toBe(201);
    expect(partial.json().refund).toMatchObject({
      amountCents: 1000,
      provider: 'test',
      status: 'succeeded',
      reason: 'One cloth arrived torn',
      restock: false,
    });
    expect(partial.json().refund.providerRefundId).toMatch(/^tre_/);
    expect(partial.json().order).toMatchObject({ paymentStatus: 'partially_refunded', refundedCents: 1000, netCents: total - 1000 });
    expect(partial.json().order.refunds).toHaveLength(1);
    expect(await stock(t, 'mon-r')).toBe(8);

    // More than what is left: 400, nothing recorded.
    const over = await refund(admin, orderId, { amountCents: total - 1000 + 1 });
    expect(over.statusCode).toBe(400);
    expect(over.json().error).toContain('is more than what is left to refund');
    expect(over.json().error).toContain(`of the $${(total / 100).toFixed(2)} paid`);
    expect((await adminOrder(admin, orderId)).refundedCents).toBe(1000);

    const rest = await refund(admin, orderId, { amountCents: total - 1000, restock: true });
    expect(rest.statusCode).toBe(201);
    expect(rest.json().order).toMatchObject({ paymentStatus: 'refunded', refundedCents: total, netCents: 0 });
    expect(await stock(t, 'mon-r')).toBe(10);
    // Cancelling now returns nothing more: the units are back already.
    expect((await setStatus(admin, orderId, 'cancelled')).statusCode).toBe(200);
    expect(await stock(t, 'mon-r')).toBe(10);

    const none = await refund(admin, orderId, { amountCents: 1 });
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toBe('This order has been refunded in full: nothing is left to refund.');

    const mails = await t.db
      .selectFrom('email_outbox')
      .selectAll()
      .where('template_id', '=', 'order-refunded')
      .where('to_address', '=', 'rae@example.com')
      .orderBy('created_at')
      .execute();
    const mine = mails.filter((m) => m.html.includes(before.orderNumber));
    expect(mine).toHaveLength(2);
    expect(mine[0]!.subject).toBe(`Refund of $10.00 for order #${before.orderNumber}`);
    expect(mine[1]!.text).toContain(`Refunded in all: $${(total / 100).toFixed(2)}`);
    expect(await events(t, orderId, 'refunded')).toBe(2);

    // The customer's receipt shows what was refunded.
    const own = await client.get(`/api/orders/${orderId}`);
    expect(own.statusCode).toBe(200);
    expect(own.json().order).toMatchObject({ paymentStatus: 'refunded', refundedCents: total });
    expect(own.json().order.refunds).toBeUndefined();
  });

  it('never refunds more than was paid when refunds arrive at once', async () => {
    await createProduct(t.db, { id: 'mon-p', priceCents: 3000, inventory: 10 });
    const { orderId } = await testOrder([{ productId: 'mon-p', quantity: 1 }]);
    const total = (await adminOrder(admin, orderId)).totalCents;
    const half = Math.floor(total / 2);
    const results = await Promise.all(Array.from({ length: 5 }, () => refund(admin, orderId, { amountCents: half })));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 400, 400, 400]);
    const order = await adminOrder(admin, orderId);
    expect(order.refundedCents).toBe(2 * half);
    expect(order.refunds!.filter((r) => r.status === 'succeeded')).toHaveLength(2);
    const row = await t.db.selectFrom('orders').select(['refunded_cents']).where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(Number(row.refunded_cents)).toBeLessThanOrEqual(total);
  });

  it('answers 404, 409 and 400 for an unknown order, an unpaid one and a bad amount', async () => {
    expect((await refund(admin, 'order_nope', { amountCents: 100 })).statusCode).toBe(404);
    await createProduct(t.db, { id: 'mon-u', priceCents: 1000, inventory: 5 });
    const { orderId } = await testOrder([{ productId: 'mon-u', quantity: 1 }], { pay: false });
    const unpaid = await refund(admin, orderId, { amountCents: 100 });
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().error).toBe('Only a paid order can be refunded: this one has no payment to give back.');
    for (const body of [{ amountCents: 0 }, { amountCents: 12.5 }, { amountCents: '100' }, {}, { amountCents: 100, extra: 1 }]) {
      expect((await refund(admin, orderId, body)).statusCode).toBe(400);
    }
    const anon = new TestClient(t.app);
    expect((await refund(anon, orderId, { amountCents: 100 })).statusCode).toBe(401);
  });

  it('has an editable built-in refund template with a preview', async () => {
    const res = await admin.get('/api/admin/email-templates/order-refunded/preview');
    expect(res.statusCode).toBe(200);
    expect(JSON.stringify(res.json())).toContain('Refund of $25.00 for order #A1B2C3D4');
  });
});

describe('paid orders stay on the books', () => {
  it('refuses to delete a paid or refunded order (409) and deletes unpaid and owner-entered ones', async () => {
    await createProduct(t.db, { id: 'mon-del', priceCents: 1200, inventory: 10 });
    const paid = await testOrder([{ productId: 'mon-del', quantity: 1 }]);
    const refused = await admin.request('DELETE', `/api/admin/orders/${paid.orderId}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(ADMIN_MESSAGES.paidOrderNotDeletable);
    expect(await adminOrder(admin, paid.orderId)).toBeTruthy();
    await refund(admin, paid.orderId, { amountCents: (await adminOrder(admin, paid.orderId)).totalCents });
    expect((await admin.request('DELETE', `/api/admin/orders/${paid.orderId}`)).statusCode).toBe(409);

    const unpaid = await testOrder([{ productId: 'mon-del', quantity: 2 }], { pay: false });
    expect((await admin.request('DELETE', `/api/admin/orders/${unpaid.orderId}`)).statusCode).toBe(200);
    expect((await admin.get(`/api/admin/orders/${unpaid.orderId}`)).statusCode).toBe(404);

    const entered = await admin.post('/api/admin/orders', {
      user_id: 'guest',
      shipping_address: '1 Phone Order Rd',
      total_amount: 42,
      status: 'pending',
      elapsedMs: 5000,
    });
    expect(entered.statusCode).toBe(201);
    expect((await admin.request('DELETE', `/api/admin/orders/${entered.json().order.id}`)).statusCode).toBe(200);
    expect((await admin.request('DELETE', '/api/admin/orders/order_nope')).statusCode).toBe(404);
  });
});

describe('payment state in the order list', () => {
  it('shows placed orders by default and filters by payment, with the hold’s end for open checkouts', async () => {
    await createProduct(t.db, { id: 'mon-l', priceCents: 1100, inventory: 100 });
    const paid = await testOrder([{ productId: 'mon-l', quantity: 1 }]);
    const partial = await testOrder([{ productId: 'mon-l', quantity: 2 }]);
    const full = await testOrder([{ productId: 'mon-l', quantity: 1 }]);
    const open = await testOrder([{ productId: 'mon-l', quantity: 1 }], { pay: false });
    const entered = (
      await admin.post('/api/admin/orders', {
        user_id: 'guest',
        shipping_address: '2 Counter Sale St',
        total_amount: 10,
        status: 'pending',
        elapsedMs: 5000,
      })
    ).json().order.id as string;
    expect((await refund(admin, partial.orderId, { amountCents: 500 })).statusCode).toBe(201);
    expect((await refund(admin, full.orderId, { amountCents: (await adminOrder(admin, full.orderId)).totalCents })).statusCode).toBe(201);

    const mine = [paid.orderId, partial.orderId, full.orderId, open.orderId, entered];
    const list = async (query: string) => {
      const res = await admin.get(`/api/admin/orders?pageSize=100${query}`);
      expect(res.statusCode).toBe(200);
      const body = res.json() as {
        items: {
          id: string;
          paymentStatus: string;
          refundedCents: number;
          holdEndsAt: string | null;
          ownerEntered: boolean;
          tookStock: boolean;
        }[];
        total: number;
      };
      return { ...body, mine: body.items.filter((i) => mine.includes(i.id)) };
    };
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

    const placed = await list('');
    expect(ids(placed.mine)).toEqual([paid.orderId, partial.orderId, full.orderId, entered].sort());
    expect(placed.items.find((i) => i.id === partial.orderId)).toMatchObject({
      paymentStatus: 'partially_refunded',
      refundedCents: 500,
      holdEndsAt: null,
    });
    expect(placed.items.find((i) => i.id === entered)).toMatchObject({ ownerEntered: true, paymentStatus: 'unpaid', tookStock: true });
    // The server says which orders took their units (the stock side of a cancel asks which go back): placed ones.
    expect(placed.items.find((i) => i.id === paid.orderId)?.tookStock).toBe(true);
    expect((await adminOrder(admin, entered)).tookStock).toBe(true);
    expect(placed.total).toBe(placed.items.length);

    const paidOnly = await list('&payment=paid');
    expect(ids(paidOnly.mine)).toEqual([paid.orderId]);
    // Counted as every order less the unpaid and refunded ones: the same as the rows.
    expect(paidOnly.total).toBe(paidOnly.items.length);
    expect(paidOnly.items.every((i) => i.paymentStatus === 'paid')).toBe(true);
    expect(ids((await list('&payment=partially_refunded')).mine)).toEqual([partial.orderId]);
    expect(ids((await list('&payment=refunded')).mine)).toEqual([full.orderId]);
    expect(ids((await list('&payment=unpaid')).mine)).toEqual([open.orderId, entered].sort());
    const abandoned = await list('&payment=abandoned');
    expect(ids(abandoned.mine)).toEqual([open.orderId]);
    const hold = abandoned.items.find((i) => i.id === open.orderId)!.holdEndsAt;
    expect(hold).toEqual(expect.any(String));
    expect(new Date(hold!).getTime()).toBeGreaterThan(Date.now());
    expect(abandoned.total).toBe(abandoned.items.length);
    expect(ids((await list('&payment=all')).mine)).toEqual([...mine].sort());
    expect((await list('&payment=paid&status=completed')).mine.map((r) => r.id)).toEqual([paid.orderId]);
    expect((await admin.get('/api/admin/orders?payment=nope')).statusCode).toBe(400);
  });

  it('counts revenue net of refunds in the overview and the dashboard', async () => {
    await createProduct(t.db, { id: 'mon-rev', priceCents: 5000, inventory: 10 });
    const revenue = async () => {
      const overview = (await admin.get('/api/admin/orders/overview?days=7')).json() as { totals: { revenueCents: number } };
      const stats = (await admin.get('/api/admin/stats')).json() as { stats: { revenueCents: number } };
      return { overview: overview.totals.revenueCents, stats: stats.stats.revenueCents };
    };
    const { orderId } = await testOrder([{ productId: 'mon-rev', quantity: 1 }]);
    const total = (await adminOrder(admin, orderId)).totalCents;
    const before = await revenue();
    expect((await refund(admin, orderId, { amountCents: 1234 })).statusCode).toBe(201);
    const after = await revenue();
    expect(after.overview).toBe(before.overview - 1234);
    expect(after.stats).toBe(before.stats - 1234);
    expect((await refund(admin, orderId, { amountCents: total - 1234 })).statusCode).toBe(201);
    const end = await revenue();
    expect(end.overview).toBe(before.overview - total);
    expect(end.stats).toBe(before.stats - total);
  });

  it('keeps refunded orders in the customer’s order list', async () => {
    const buyer = await createUser(t.db, { email: 'kept@example.com' });
    const c = new TestClient(t.app, '10.8.0.1');
    await c.signIn(buyer.email, buyer.password);
    await createProduct(t.db, { id: 'mon-k', priceCents: 800, inventory: 10 });
    const { orderId } = await testOrder([{ productId: 'mon-k', quantity: 1 }], { buyer: c });
    await refund(admin, orderId, { amountCents: (await adminOrder(admin, orderId)).totalCents });
    const mine = (await c.get('/api/orders')).json() as { items: OrderView[] };
    expect(mine.items.map((o) => [o.id, o.paymentStatus])).toContainEqual([orderId, 'refunded']);
  });
});

describe('refunds through Stripe (the local fake)', () => {
  const fake = fakeStripe();
  let s: TestApp;
  let sAdmin: TestClient;

  beforeAll(async () => {
    const base = await fake.listen();
    s = await createTestApp({
      env: {
        ...LIMITS,
        STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
        STRIPE_API_BASE: base,
      },
    });
    sAdmin = new TestClient(s.app);
    await sAdmin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  });
  afterAll(async () => {
    await s?.close();
    await fake.close();
  });

  async function stripeOrder(productId: string, quantity: number) {
    const c = new TestClient(s.app, `10.7.0.${++ipCount % 250}`);
    const res = await c.post('/api/create-checkout-session', {
      items: [{ productId, quantity }],
      customerEmail: 'sky@example.com',
      shippingAddress: address,
      appliedCouponCode: null,
    });
    expect(res.statusCode).toBe(200);
    const { sessionId, orderId } = res.json() as { sessionId: string; orderId: string };
    const { payload, signature } = signedStripeEvent(
      'checkout.session.completed',
      { id: sessionId, object: 'checkout.session', payment_status: 'paid', metadata: { orderId } },
      `evt_${sessionId}`,
    );
    const hook = await s.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload,
    });
    expect(hook.statusCode).toBe(200);
    const redeliver = () =>
      s.app.inject({
        method: 'POST',
        url: '/api/webhooks/stripe',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload,
      });
    return { orderId, sessionId, redeliver, pi: fake.sessions.get(sessionId)!.payment_intent as string };
  }

  it('refunds half through stripe.refunds.create with the payment intent and an idempotency key, then the rest', async () => {
    await createProduct(s.db, { id: 'sr-a', priceCents: 2500, inventory: 10 });
    const { orderId, pi, redeliver } = await stripeOrder('sr-a', 2);
    const total = (await adminOrder(sAdmin, orderId)).totalCents;
    const half = Math.floor(total / 2);

    const res = await refund(sAdmin, orderId, { amountCents: half, reason: 'Customer asked', restock: true });
    expect(res.statusCode).toBe(201);
    const sent = fake.requests.filter((r) => r.path === '/v1/refunds');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body.get('payment_intent')).toBe(pi);
    expect(sent[0]!.body.get('amount')).toBe(String(half));
    expect(sent[0]!.idempotencyKey).toBe(`refund-${res.json().refund.id}`);
    expect(res.json().refund).toMatchObject({
      provider: 'stripe',
      status: 'succeeded',
      amountCents: half,
      providerRefundId: expect.stringMatching(/^re_fake/),
    });
    expect(res.json().order).toMatchObject({ paymentStatus: 'partially_refunded', refundedCents: half, netCents: total - half });
    expect(await stock(s, 'sr-a')).toBe(10);

    // Checked here first: Stripe is not even asked for more than is left.
    const over = await refund(sAdmin, orderId, { amountCents: total - half + 1 });
    expect(over.statusCode).toBe(400);
    expect(fake.requests.filter((r) => r.path === '/v1/refunds')).toHaveLength(1);

    const rest = await refund(sAdmin, orderId, { amountCents: total - half });
    expect(rest.statusCode).toBe(201);
    expect(rest.json().order).toMatchObject({ paymentStatus: 'refunded', refundedCents: total });
    expect([...fake.refunds.values()].filter((r) => r.payment_intent === pi).reduce((a, r) => a + (r.amount as number), 0)).toBe(total);
    const mail = await s.db
      .selectFrom('email_outbox')
      .select('subject')
      .where('template_id', '=', 'order-refunded')
      .where('to_address', '=', 'sky@example.com')
      .execute();
    expect(mail.map((m) => m.subject)).toContain(`Refund of $${(half / 100).toFixed(2)} for order #${rest.json().order.orderNumber}`);
    // A late duplicate of the payment webhook after the refund takes no stock and changes nothing.
    expect((await redeliver()).statusCode).toBe(200);
    expect(await stock(s, 'sr-a')).toBe(10);
    expect(await adminOrder(sAdmin, orderId)).toMatchObject({ paymentStatus: 'refunded', refundedCents: total });
  });

  it('keeps a refund Stripe refused as failed, changes no money, and answers 502 with Stripe’s message', async () => {
    await createProduct(s.db, { id: 'sr-b', priceCents: 1000, inventory: 10 });
    const { orderId } = await stripeOrder('sr-b', 1);
    fake.failOnce(402, 'Your card was declined for refunds');
    const res = await refund(sAdmin, orderId, { amountCents: 300 });
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toBe('The payment provider refused the refund: Your card was declined for refunds');
    const order = await adminOrder(sAdmin, orderId);
    expect(order).toMatchObject({ paymentStatus: 'paid', refundedCents: 0 });
    expect(order.refunds).toEqual([expect.objectContaining({ status: 'failed', amountCents: 300, error: res.json().error })]);
    // The failed attempt holds nothing back: the whole payment can still be refunded.
    expect((await refund(sAdmin, orderId, { amountCents: order.totalCents })).statusCode).toBe(201);
  });

  it('keeps a refund Stripe never answered pending, its amount held back, so nothing is refunded twice', { timeout: 30_000 }, async () => {
    await createProduct(s.db, { id: 'sr-c', priceCents: 1000, inventory: 10 });
    const { orderId } = await stripeOrder('sr-c', 1);
    const total = (await adminOrder(sAdmin, orderId)).totalCents;
    fake.dropRefunds(10);
    const res = await refund(sAdmin, orderId, { amountCents: 400 });
    fake.dropRefunds(0);
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toContain('Stripe did not answer');
    const order = await adminOrder(sAdmin, orderId);
    expect(order).toMatchObject({ paymentStatus: 'paid', refundedCents: 0 });
    expect(order.refunds).toEqual([expect.objectContaining({ status: 'pending', amountCents: 400, error: res.json().error })]);
    // The 400 may have reached Stripe: only the rest can be refunded now.
    const over = await refund(sAdmin, orderId, { amountCents: total });
    expect(over.statusCode).toBe(400);
    expect((await refund(sAdmin, orderId, { amountCents: total - 400 })).statusCode).toBe(201);
  });

  it(
    'settles a refund whose answer was lost by retrying it under the same key: refunded once, however many retries',
    { timeout: 60_000 },
    async () => {
      await createProduct(s.db, { id: 'sr-d', priceCents: 1000, inventory: 10 });
      const { orderId, pi } = await stripeOrder('sr-d', 1);
      // Stripe makes the refund, but its answer never arrives (every SDK retry gets the same fate).
      fake.loseRefundAnswers(10);
      const res = await refund(sAdmin, orderId, { amountCents: 400, restock: true });
      fake.loseRefundAnswers(0);
      expect(res.statusCode).toBe(502);
      const pending = (await adminOrder(sAdmin, orderId)).refunds![0]!;
      expect(pending).toMatchObject({ status: 'pending', amountCents: 400 });
      expect([...fake.refunds.values()].filter((r) => r.payment_intent === pi)).toHaveLength(1);

      const retry = (refundId: string) => sAdmin.post(`/api/admin/orders/${orderId}/refunds/${refundId}/retry`, {});
      // Three retries at once: Stripe answers each with the refund it already made; it is counted once.
      const answers = await Promise.all([retry(pending.id), retry(pending.id), retry(pending.id)]);
      // Each is settled (200) or, arriving after another settled it, told so (409).
      const codes = answers.map((a) => a.statusCode);
      expect(codes.every((c) => c === 200 || c === 409)).toBe(true);
      const settled = answers.filter((a) => a.statusCode === 200);
      expect(settled.length).toBeGreaterThanOrEqual(1);
      for (const a of settled)
        expect(a.json().refund).toMatchObject({ id: pending.id, status: 'succeeded', providerRefundId: expect.stringMatching(/^re_fake/) });
      expect([...fake.refunds.values()].filter((r) => r.payment_intent === pi)).toHaveLength(1);
      const order = await adminOrder(sAdmin, orderId);
      expect(order).toMatchObject({ paymentStatus: 'partially_refunded', refundedCents: 400 });
      expect(await stock(s, 'sr-d')).toBe(10);
      const events = await s.db
        .selectFrom('order_events')
        .select('type')
        .where('order_id', '=', orderId)
        .where('type', '=', 'refunded')
        .execute();
      expect(events).toHaveLength(1);
      const mails = await s.db
        .selectFrom('email_outbox')
        .select('id')
        .where('order_id', '=', orderId)
        .where('template_id', '=', 'order-refunded')
        .execute();
      expect(mails).toHaveLength(1);

      // Settled: a retry is refused; an unknown refund or another order's is 404.
      const again = await retry(pending.id);
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toBe('This refund is already settled: only a pending refund can be retried.');
      expect((await retry('refund_nope')).statusCode).toBe(404);
      const other = await stripeOrder('sr-d', 1);
      expect((await sAdmin.post(`/api/admin/orders/${other.orderId}/refunds/${pending.id}/retry`, {})).statusCode).toBe(404);

      // Past Stripe's idempotency window a retry could refund twice: refused.
      fake.dropRefunds(10);
      expect((await refund(sAdmin, other.orderId, { amountCents: 100 })).statusCode).toBe(502);
      fake.dropRefunds(0);
      const stale = (await adminOrder(sAdmin, other.orderId)).refunds![0]!;
      await s.db
        .updateTable('refunds')
        .set({ created_at: new Date(Date.now() - 24 * 3600_000).toISOString() })
        .where('id', '=', stale.id)
        .execute();
      const late = await sAdmin.post(`/api/admin/orders/${other.orderId}/refunds/${stale.id}/retry`, {});
      expect(late.statusCode).toBe(409);
      expect(late.json().error).toContain('more than 23 hours ago');
    },
  );
});
