import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, TestClient } from '../test/http-client.js';
import { createCoupon, createProduct, createUser } from '../db/seed/factories.js';
import { placeCheckout } from '../test/checkout-orders.js';
import { ledgerAndLevel } from '../test/stock-checks.js';
import { fulfilPaymentSession, expireStaleSessions } from '../checkout/service.js';
import { OWNER_ORDER_MESSAGES, REFUNDED_NOT_SHIPPABLE } from '../../shared/schemas/owner-orders.js';
import { ORDER_STATE_MESSAGES } from '../../shared/schemas/admin/orders.js';
import { CARD_MESSAGES } from '../payments/test-checkout-page.js';

let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const ADDRESS = { name: 'Rita Phone', address: '5 Call St', city: 'Dover', state: 'DE', zip: '19901', country: 'US' };
const level = async (productId: string) => (await ledgerAndLevel(t.db, productId)).level;
const outbox = (orderId: string, templateId?: string) => {
  let q = t.db.selectFrom('email_outbox').selectAll().where('order_id', '=', orderId);
  if (templateId) q = q.where('template_id', '=', templateId);
  return q.execute();
};
const events = (orderId: string, type: string) =>
  t.db.selectFrom('order_events').selectAll().where('order_id', '=', orderId).where('type', '=', type).execute();
const orderRow = (id: string) => t.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function createWithLines(body: Record<string, unknown>) {
  return admin.post('/api/admin/orders', { user_id: 'guest', shipping_address: ADDRESS, status: 'pending', elapsedMs: 3000, ...body });
}

describe('orders the owner types in with products', () => {
  it('prices lines from the catalogue, adds discount, shipping and tax, takes the stock, and e-mails a typed guest address', async () => {
    await createProduct(t.db, { id: 'own-a', name: 'Glass Cloth', priceCents: 1250, inventory: 10, sku: 'GC-1' });
    await createProduct(t.db, { id: 'own-b', name: 'Mop Refill', priceCents: 800, inventory: 5 });
    const res = await createWithLines({
      email: 'rita@example.com',
      lines: [
        { productId: 'own-a', quantity: 2 },
        { productId: 'own-b', quantity: 1 },
      ],
      discountCents: 300,
      shippingCents: 599,
    });
    expect(res.statusCode).toBe(201);
    const order = res.json().order;
    // 2 × 12.50 + 8.00 = 33.00; − 3.00 + 5.99 = 35.99; tax 8% = 2.88; total 38.87
    expect(order).toMatchObject({
      subtotalCents: 3300,
      discountCents: 300,
      shippingCents: 599,
      taxCents: 288,
      totalCents: 3887,
      paymentStatus: 'unpaid',
      paymentProvider: null,
      email: 'rita@example.com',
      status: 'pending',
    });
    expect(
      order.items.map((i: { name: string; quantity: number; priceCents: number; sku: string | null }) => [
        i.name,
        i.quantity,
        i.priceCents,
        i.sku,
      ]),
    ).toEqual([
      ['Glass Cloth', 2, 1250, 'GC-1'],
      ['Mop Refill', 1, 800, null],
    ]);
    expect(await level('own-a')).toBe(8);
    expect(await level('own-b')).toBe(4);
    // Typed in, not paid: no money received yet (money-taken.ts), but on the books.
    const stats = (await admin.get('/api/admin/stats')).json().stats;
    expect(stats.revenueCents).toBe(0);
  });

  it('never takes a price from the browser; refuses a short stock (409, nothing written) and mixed or empty bodies (400)', async () => {
    await createProduct(t.db, { id: 'own-c', name: 'Laundry Powder', priceCents: 1500, inventory: 3 });
    const priced = await createWithLines({ lines: [{ productId: 'own-c', quantity: 1, priceCents: 1 }] });
    expect(priced.statusCode).toBe(400);
    const before = await t.db.selectFrom('orders').select('id').execute();
    const short = await createWithLines({ lines: [{ productId: 'own-c', quantity: 4 }] });
    expect(short.statusCode).toBe(409);
    expect(short.json().error).toBe(OWNER_ORDER_MESSAGES.notEnoughStock(['Laundry Powder: 4 ordered, 3 in stock']));
    expect(await t.db.selectFrom('orders').select('id').execute()).toEqual(before);
    expect(await level('own-c')).toBe(3);
    // Units an open checkout keeps are not the owner's to sell.
    await placeCheckout(t.db, t.dialect, { items: [{ productId: 'own-c', quantity: 2 }] });
    expect((await createWithLines({ lines: [{ productId: 'own-c', quantity: 2 }] })).statusCode).toBe(409);
    expect((await createWithLines({ lines: [{ productId: 'own-c', quantity: 1 }] })).statusCode).toBe(201);

    const both = await createWithLines({ lines: [{ productId: 'own-c', quantity: 1 }], total_amount: 10 });
    expect(both.json().error).toBe(OWNER_ORDER_MESSAGES.linesAndTotal);
    expect((await createWithLines({ shippingCents: 500, total_amount: 10 })).json().error).toBe(OWNER_ORDER_MESSAGES.moneyWithoutLines);
    expect((await createWithLines({ lines: [{ productId: 'nope', quantity: 1 }] })).json().error).toBe(
      OWNER_ORDER_MESSAGES.productGone('nope'),
    );
    expect((await createWithLines({ lines: [{ productId: 'own-c', quantity: 0 }] })).json().error).toContain(
      OWNER_ORDER_MESSAGES.quantityMin,
    );
    expect((await createWithLines({ lines: [{ productId: 'own-c', quantity: 1 }], discountCents: 2000 })).json().error).toBe(
      OWNER_ORDER_MESSAGES.discountOverSubtotal(1500),
    );
    // The specification's total-only order stays possible.
    const totalOnly = await createWithLines({ total_amount: 20 });
    expect(totalOnly.statusCode).toBe(201);
    expect(totalOnly.json().order).toMatchObject({ totalCents: 2000, items: [] });
  });

  it('records a payment once: paid by that method, points earned, confirmation e-mailed, no stock taken again', async () => {
    await createProduct(t.db, { id: 'own-d', priceCents: 6000, inventory: 4 });
    const buyer = await createUser(t.db, { loyaltyPoints: 10, totalPointsEarned: 10 });
    const { order } = (await createWithLines({ user_id: buyer.id, lines: [{ productId: 'own-d', quantity: 1 }] })).json();
    expect(await level('own-d')).toBe(3);
    const unknown = await admin.post(`/api/admin/orders/${order.id}/payments`, { method: 'cheque' });
    expect(unknown.json().error).toContain(OWNER_ORDER_MESSAGES.methodRequired);
    const [a, b] = await Promise.all([
      admin.post(`/api/admin/orders/${order.id}/payments`, { method: 'cash', note: 'Paid at the counter' }),
      admin.post(`/api/admin/orders/${order.id}/payments`, { method: 'bank_transfer' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const row = await orderRow(order.id);
    expect(row).toMatchObject({ payment_status: 'paid', status: 'completed' });
    expect(['cash', 'bank_transfer']).toContain(row.payment_provider);
    expect(await events(order.id, 'paid')).toHaveLength(1);
    expect(await outbox(order.id, 'order-confirmation')).toHaveLength(1);
    const points = await t.db.selectFrom('users').select('loyalty_points').where('id', '=', buyer.id).executeTakeFirstOrThrow();
    expect(points.loyalty_points).toBe(20);
    expect(await level('own-d')).toBe(3);
    expect((await admin.get('/api/admin/stats')).json().stats.revenueCents).toBeGreaterThanOrEqual(order.totalCents);
    // A payment taken by hand is refunded by hand: recorded, no provider call.
    const refund = await admin.post(`/api/admin/orders/${order.id}/refunds`, { amountCents: 1000 });
    expect(refund.statusCode).toBe(201);
  });

  it('e-mails a payment link that pays exactly the total, once; a new link, a recorded payment or a new total ends the old one', async () => {
    await createProduct(t.db, { id: 'own-e', name: 'Sweeper', priceCents: 2500, inventory: 6 });
    const { order } = (await createWithLines({ email: 'link@example.com', lines: [{ productId: 'own-e', quantity: 2 }] })).json();
    const sent = await admin.post(`/api/admin/orders/${order.id}/payment-link`, {});
    expect(sent.statusCode).toBe(201);
    const link = sent.json().link;
    expect(link).toMatchObject({ amountCents: order.totalCents, sentTo: 'link@example.com' });
    const expires = Date.parse(link.expiresAt) - Date.now();
    expect(expires).toBeGreaterThan(22 * 3600_000);
    expect(expires).toBeLessThanOrEqual(23 * 3600_000);
    const mails = await outbox(order.id, 'order-payment-link');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to_address).toBe('link@example.com');
    expect(mails[0]!.text).toContain(link.url);
    expect(sent.json().order.paymentLink).toMatchObject({ url: link.url, amountCents: order.totalCents });

    const sessionId = link.url.split('/pay/')[1];
    const customer = new TestClient(t.app, '10.9.9.9');
    const page = await customer.get(`/pay/${sessionId}`);
    expect(page.body).toContain('$54.00');
    const card = new URLSearchParams({ cardNumber: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123', name: 'Link Payer' });
    const [p1, p2] = await Promise.all([customer.post(`/pay/${sessionId}`, card), customer.post(`/pay/${sessionId}`, card)]);
    expect([p1.statusCode, p2.statusCode]).toContain(200);
    expect([p1.body, p2.body].some((b) => b.includes('Thank you: your payment of $54.00'))).toBe(true);
    const paid = await orderRow(order.id);
    expect(paid).toMatchObject({ payment_status: 'paid', payment_provider: 'test', status: 'completed' });
    expect(await events(order.id, 'paid')).toHaveLength(1);
    expect(await outbox(order.id, 'order-confirmation')).toHaveLength(1);
    expect(await level('own-e')).toBe(4);
    expect((await customer.get(`/pay/${sessionId}`)).body).toContain(CARD_MESSAGES.paid);
    expect((await admin.post(`/api/admin/orders/${order.id}/payment-link`, {})).json().error).toBe(OWNER_ORDER_MESSAGES.alreadyPaid);

    // A second link replaces the first; recording the payment ends the second.
    const other = (await createWithLines({ email: 'link2@example.com', total_amount: 30 })).json().order;
    const first = (await admin.post(`/api/admin/orders/${other.id}/payment-link`, {})).json().link;
    const second = (await admin.post(`/api/admin/orders/${other.id}/payment-link`, {})).json().link;
    expect((await customer.get(new URL(first.url).pathname)).body).toContain(CARD_MESSAGES.expired);
    // A changed total ends the link sent for the old one.
    await admin.request('PUT', `/api/admin/orders/${other.id}`, {
      user_id: 'guest',
      shipping_address: ADDRESS,
      total_amount: 31,
      status: 'pending',
      elapsedMs: 3000,
    });
    expect((await customer.get(new URL(second.url).pathname)).body).toContain(CARD_MESSAGES.expired);
    // The housekeeping that ends stale checkouts leaves the order as it is.
    await admin.post(`/api/admin/orders/${other.id}/payment-link`, {});
    await expireStaleSessions(t.db, new Date(Date.now() + 48 * 3600_000));
    expect(await orderRow(other.id)).toMatchObject({ payment_status: 'unpaid', status: 'pending' });
    const noMail = (await createWithLines({ total_amount: 5 })).json().order;
    expect((await admin.post(`/api/admin/orders/${noMail.id}/payment-link`, {})).json().error).toBe(OWNER_ORDER_MESSAGES.noEmailForLink);
  });

  it('cancelling or deleting an unpaid typed-in order gives its units back; reopening takes them again', async () => {
    await createProduct(t.db, { id: 'own-f', priceCents: 1000, inventory: 5 });
    const { order } = (await createWithLines({ lines: [{ productId: 'own-f', quantity: 3 }] })).json();
    expect(await level('own-f')).toBe(2);
    await admin.request('PATCH', `/api/admin/orders/${order.id}/status`, { status: 'cancelled' });
    expect(await level('own-f')).toBe(5);
    await admin.request('PATCH', `/api/admin/orders/${order.id}/status`, { status: 'processing' });
    expect(await level('own-f')).toBe(2);
    expect((await admin.request('DELETE', `/api/admin/orders/${order.id}`)).statusCode).toBe(200);
    expect(await level('own-f')).toBe(5);
    const ledger = await ledgerAndLevel(t.db, 'own-f');
    expect(ledger.ledger).toBe(ledger.level);
  });
});

describe('status changes say who hears about them', () => {
  it('notify false sends nothing and says so on the timeline; true (the default) sends one', async () => {
    const order = (await createWithLines({ email: 'quiet@example.com', total_amount: 12 })).json().order;
    const quiet = await admin.request('PATCH', `/api/admin/orders/${order.id}/status`, { status: 'processing', notify: false });
    expect(quiet.statusCode).toBe(200);
    expect(await outbox(order.id)).toHaveLength(0);
    const changed = await events(order.id, 'status.changed');
    expect(JSON.parse(changed[0]!.data)).toMatchObject({ from: 'pending', to: 'processing', notified: false });
    await admin.request('PATCH', `/api/admin/orders/${order.id}/status`, { status: 'delivered', notify: true });
    expect(await outbox(order.id, 'order-status-update')).toHaveLength(1);
    // The edit form's status change honours it too.
    const edit = (notify: boolean, status: string) =>
      admin.request('PUT', `/api/admin/orders/${order.id}`, {
        user_id: 'guest',
        shipping_address: ADDRESS,
        total_amount: 12,
        status,
        notify,
        elapsedMs: 3000,
      });
    await edit(false, 'shipped');
    expect(await outbox(order.id)).toHaveLength(1);
    await edit(true, 'processing');
    expect(await outbox(order.id)).toHaveLength(2);
    expect((await admin.request('PATCH', `/api/admin/orders/${order.id}/status`, { status: 'shipped', notify: 'no' })).statusCode).toBe(
      400,
    );
  });
});

describe('cancel and refund together', () => {
  async function paidCheckout(o: { coupon?: string; userId?: string; quantity?: number } = {}) {
    const { orderId, sessionId } = await placeCheckout(t.db, t.dialect, {
      items: [{ productId: 'own-g', quantity: o.quantity ?? 2 }],
      couponCode: o.coupon ?? null,
      userId: o.userId ?? null,
      email: 'canceller@example.com',
    });
    await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
    return orderId;
  }
  const couponUses = async (code: string) =>
    (await t.db.selectFrom('coupons').select('current_uses').where('code', '=', code).executeTakeFirstOrThrow()).current_uses;
  const pointsOf = async (id: string) =>
    (await t.db.selectFrom('users').select('loyalty_points').where('id', '=', id).executeTakeFirstOrThrow()).loyalty_points;

  it('one request refunds, cancels, restocks, gives back the coupon use and the points, and sends one e-mail saying so', async () => {
    await createProduct(t.db, { id: 'own-g', name: 'Cloth Pack', priceCents: 3000, inventory: 50 });
    const coupon = await createCoupon(t.db, { code: 'BACKAGAIN', discountType: 'fixed', discountValue: 500 });
    const user = await createUser(t.db, { loyaltyPoints: 100, totalPointsEarned: 100 });
    const orderId = await paidCheckout({ coupon: coupon.code, userId: user.id });
    expect(await couponUses('BACKAGAIN')).toBe(1);
    expect(await pointsOf(user.id)).toBe(110);
    const before = await level('own-g');
    const paid = await orderRow(orderId);
    const res = await admin.request('PATCH', `/api/admin/orders/${orderId}/status`, {
      status: 'cancelled',
      refund: { amountCents: paid.total_cents, reason: 'Customer called' },
      returnLines: [{ productId: 'own-g', quantity: 2 }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().order).toMatchObject({ status: 'cancelled', paymentStatus: 'refunded', refundedCents: paid.total_cents });
    expect(await level('own-g')).toBe(before + 2);
    expect(await couponUses('BACKAGAIN')).toBe(0);
    expect(await pointsOf(user.id)).toBe(100);
    expect(await events(orderId, 'coupon.released')).toHaveLength(1);
    expect(await events(orderId, 'points.reversed')).toHaveLength(1);
    const mails = await outbox(orderId);
    const after = mails.filter((m) => m.template_id !== 'order-confirmation');
    expect(after.map((m) => m.template_id)).toEqual(['order-cancelled']);
    expect(after[0]!.text).toContain(
      `We have refunded the $${(paid.total_cents / 100).toFixed(2)} you paid in full, to the card you paid with.`,
    );

    // Refunded in full, nothing is left to prepare: it is not reopened, nor called "not paid yet".
    const reopen = await admin.request('PATCH', `/api/admin/orders/${orderId}/status`, { status: 'processing' });
    expect(reopen.statusCode).toBe(409);
    expect(reopen.json().error).toBe(ORDER_STATE_MESSAGES.refundedNotReopened);
    expect(reopen.json().error).toContain(REFUNDED_NOT_SHIPPABLE.split(':')[0]);
    const ship = await admin.request('PATCH', `/api/admin/orders/${orderId}/status`, { status: 'shipped' });
    expect(ship.statusCode).toBe(409);
    expect(ship.json().error).toBe(ORDER_STATE_MESSAGES.cancelledNotShippable);
    // Nothing was given back twice: the coupon and points stay given back.
    expect(await couponUses('BACKAGAIN')).toBe(0);
    expect(await pointsOf(user.id)).toBe(100);
  });

  it('refuses a refund with any other status, and more than was paid, before any money moves', async () => {
    const orderId = await paidCheckout();
    const other = await admin.request('PATCH', `/api/admin/orders/${orderId}/status`, { status: 'shipped', refund: { amountCents: 100 } });
    expect(other.json().error).toContain(OWNER_ORDER_MESSAGES.refundOnlyOnCancel);
    const tooMuch = await admin.request('PATCH', `/api/admin/orders/${orderId}/status`, {
      status: 'cancelled',
      refund: { amountCents: 99_999_999 },
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(await orderRow(orderId)).toMatchObject({ status: 'completed', refunded_cents: 0 });
    expect(await t.db.selectFrom('refunds').select('id').where('order_id', '=', orderId).execute()).toHaveLength(0);
  });

  it('a cancel without a refund says the money was kept; an unpaid one says nothing was charged', async () => {
    const orderId = await paidCheckout();
    await admin.request('PATCH', `/api/admin/orders/${orderId}/status`, { status: 'cancelled' });
    const [mail] = await outbox(orderId, 'order-cancelled');
    expect(mail!.text).toContain('has not been refunded');
    const unpaid = (await createWithLines({ email: 'unpaid@example.com', total_amount: 9 })).json().order;
    await admin.request('PATCH', `/api/admin/orders/${unpaid.id}/status`, { status: 'cancelled' });
    expect((await outbox(unpaid.id, 'order-cancelled'))[0]!.text).toContain('This order was not paid, so nothing was charged.');
  });

  it('gives back the coupon use and the points once: refund then cancel, replays, and two tabs at once', async () => {
    const coupon = await createCoupon(t.db, { code: 'ONCEONLY', discountType: 'fixed', discountValue: 100 });
    const user = await createUser(t.db, { loyaltyPoints: 50, totalPointsEarned: 50 });
    // Refund in full, then cancel (twice at once, and once more).
    const a = await paidCheckout({ coupon: coupon.code, userId: user.id, quantity: 1 });
    const totalA = (await orderRow(a)).total_cents;
    await admin.post(`/api/admin/orders/${a}/refunds`, { amountCents: totalA });
    await Promise.all([
      admin.request('PATCH', `/api/admin/orders/${a}/status`, { status: 'cancelled' }),
      admin.request('PATCH', `/api/admin/orders/${a}/status`, { status: 'cancelled' }),
    ]);
    await admin.request('PATCH', `/api/admin/orders/${a}/status`, { status: 'cancelled' });
    expect(await couponUses('ONCEONLY')).toBe(0);
    expect(await pointsOf(user.id)).toBe(50);
    expect(await events(a, 'coupon.released')).toHaveLength(1);
    expect(await events(a, 'points.reversed')).toHaveLength(1);

    // Two tabs cancel and refund the same order at once: one refund, one give-back.
    const b = await paidCheckout({ coupon: coupon.code, userId: user.id, quantity: 1 });
    const totalB = (await orderRow(b)).total_cents;
    expect(await pointsOf(user.id)).toBe(53);
    const both = await Promise.all([
      admin.request('PATCH', `/api/admin/orders/${b}/status`, { status: 'cancelled', refund: { amountCents: totalB } }),
      admin.request('PATCH', `/api/admin/orders/${b}/status`, { status: 'cancelled', refund: { amountCents: totalB } }),
      admin.post(`/api/admin/orders/${b}/refunds`, { amountCents: totalB }),
    ]);
    expect(both.filter((r) => r.statusCode < 300)).toHaveLength(1);
    expect((await orderRow(b)).refunded_cents).toBe(totalB);
    expect(await couponUses('ONCEONLY')).toBe(0);
    expect(await pointsOf(user.id)).toBe(50);
    expect(await events(b, 'coupon.released')).toHaveLength(1);
    expect(await events(b, 'points.reversed')).toHaveLength(1);
  });
});
