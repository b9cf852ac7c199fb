import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, TestClient } from '../test/http-client.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { OWNER_ORDER_MESSAGES } from '../../shared/schemas/owner-orders.js';
import { CHECKOUT_MESSAGES } from '../../shared/schemas/checkout.js';
import { PAYMENT_LINK_TTL_MS } from '../../shared/schemas/owner-orders.js';
import { localDateTimeText } from '../../shared/shop-time.js';

/*
 * Issue [2/8], "For the owner": a recorded payment's method chosen and correctable (audited); the
 * Create Order address under the checkout's rules; the payment link's expiry in the shop's time;
 * guest e-mails that link to the guest's order, not an account; a cancelled, part-refunded order's
 * refund on the customer's view.
 */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const ADDRESS = { name: 'Rita Phone', address: '5 Call St', city: 'Dover', state: 'DE', zip: '19901', country: 'US' };
const orderRow = (id: string) => t.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const events = (orderId: string, type: string) =>
  t.db.selectFrom('order_events').selectAll().where('order_id', '=', orderId).where('type', '=', type).execute();
const outbox = (orderId: string, templateId: string) =>
  t.db.selectFrom('email_outbox').selectAll().where('order_id', '=', orderId).where('template_id', '=', templateId).execute();

async function ownerOrder(body: Record<string, unknown> = {}) {
  const res = await admin.post('/api/admin/orders', {
    user_id: 'guest',
    shipping_address: ADDRESS,
    status: 'pending',
    elapsedMs: 3000,
    ...body,
  });
  expect(res.statusCode).toBe(201);
  return res.json().order as { id: string; totalCents: number; orderNumber: string };
}

describe('a payment recorded by hand', () => {
  it('needs its method chosen, and its method can be corrected afterwards: timeline and audit log say so', async () => {
    await createProduct(t.db, { id: 'olm-a', priceCents: 2000, inventory: 10 });
    const buyer = await createUser(t.db);
    const order = await ownerOrder({ user_id: buyer.id, lines: [{ productId: 'olm-a', quantity: 1 }] });

    // No method: refused with the sentence the form shows (nothing is pre-chosen for the owner).
    const none = await admin.post(`/api/admin/orders/${order.id}/payments`, {});
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toContain(OWNER_ORDER_MESSAGES.methodRequired);
    expect((await orderRow(order.id)).payment_status).toBe('unpaid');

    expect((await admin.post(`/api/admin/orders/${order.id}/payments`, { method: 'cash' })).statusCode).toBe(201);
    const paidAt = (await orderRow(order.id)).paid_at;

    // The same method again, an unknown one, an unknown order: 400, 400, 404.
    const same = await admin.request('PATCH', `/api/admin/orders/${order.id}/payments`, { method: 'cash' });
    expect(same.statusCode).toBe(400);
    expect(same.json().error).toBe(OWNER_ORDER_MESSAGES.correctSameMethod('cash'));
    expect((await admin.request('PATCH', `/api/admin/orders/${order.id}/payments`, { method: 'cheque' })).statusCode).toBe(400);
    expect((await admin.request('PATCH', `/api/admin/orders/order_nope/payments`, { method: 'cash' })).statusCode).toBe(404);

    const fixed = await admin.request('PATCH', `/api/admin/orders/${order.id}/payments`, {
      method: 'bank_transfer',
      note: 'It came by transfer',
    });
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json().order).toMatchObject({ paymentProvider: 'bank_transfer', paymentStatus: 'paid', paidAt });
    const row = await orderRow(order.id);
    expect(row).toMatchObject({ payment_provider: 'bank_transfer', payment_status: 'paid', paid_at: paidAt });
    // Still one payment: no second confirmation, the money counted once.
    expect(await events(order.id, 'paid')).toHaveLength(1);
    expect(await outbox(order.id, 'order-confirmation')).toHaveLength(1);
    const corrected = await events(order.id, 'payment.method_corrected');
    expect(corrected).toHaveLength(1);
    expect(JSON.parse(corrected[0]!.data!)).toMatchObject({ from: 'cash', to: 'bank_transfer', note: 'It came by transfer' });
    const timeline = (await admin.get(`/api/admin/orders/${order.id}/events`)).json().events as { type: string }[];
    expect(timeline.some((e) => e.type === 'payment.method_corrected')).toBe(true);
    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'order.payment_method_corrected').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.target_user_id).toBe(buyer.id);
    expect(JSON.parse(audit[0]!.details!)).toMatchObject({ orderId: order.id, from: 'cash', to: 'bank_transfer' });
    const log = await admin.get('/api/admin/audit-log?action=order.payment_method_corrected');
    expect(log.statusCode).toBe(200);
    expect(JSON.stringify(log.json())).toContain(order.id);
  });

  it('refuses to correct a payment a provider took, or one not recorded yet (409), and changes nothing', async () => {
    await createProduct(t.db, { id: 'olm-b', priceCents: 1500, inventory: 10 });
    const unpaid = await ownerOrder({ lines: [{ productId: 'olm-b', quantity: 1 }] });
    const notYet = await admin.request('PATCH', `/api/admin/orders/${unpaid.id}/payments`, { method: 'cash' });
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json().error).toBe(OWNER_ORDER_MESSAGES.correctNotRecorded);

    // A checkout paid on the card page: the provider's record.
    const paid = await ownerOrder({ lines: [{ productId: 'olm-b', quantity: 1 }] });
    await t.db
      .updateTable('orders')
      .set({ payment_provider: 'test', payment_status: 'paid', paid_at: new Date().toISOString() })
      .where('id', '=', paid.id)
      .execute();
    const card = await admin.request('PATCH', `/api/admin/orders/${paid.id}/payments`, { method: 'cash' });
    expect(card.statusCode).toBe(409);
    expect(card.json().error).toBe(OWNER_ORDER_MESSAGES.correctNotRecorded);
    expect((await orderRow(paid.id)).payment_provider).toBe('test');
    expect(await events(paid.id, 'payment.method_corrected')).toHaveLength(0);
  });
});

describe('the Create Order address', () => {
  it('follows the checkout rules: a ZIP of letters, a state written out, another country are refused with the checkout words', async () => {
    const post = (shipping_address: Record<string, string>) =>
      admin.post('/api/admin/orders', { user_id: 'guest', shipping_address, status: 'pending', total_amount: 10, elapsedMs: 3000 });
    const before = (await t.db.selectFrom('orders').select('id').execute()).length;
    const zip = await post({ ...ADDRESS, zip: 'abcde' });
    expect(zip.statusCode).toBe(400);
    expect(zip.json().error).toContain(CHECKOUT_MESSAGES.zip);
    const state = await post({ ...ADDRESS, state: 'Delaware-ish' });
    expect(state.statusCode).toBe(400);
    expect(state.json().error).toContain(CHECKOUT_MESSAGES.shipsTo);
    const noState = await post({ ...ADDRESS, state: '' });
    expect(noState.statusCode).toBe(400);
    expect(noState.json().error).toContain(CHECKOUT_MESSAGES.state);
    const country = await post({ ...ADDRESS, country: 'Narnia' });
    expect(country.statusCode).toBe(400);
    expect(country.json().error).toContain('We ship within the US only');
    expect((await t.db.selectFrom('orders').select('id').execute()).length).toBe(before);
    // The checkout's forms pass: a ZIP+4.
    expect((await post({ ...ADDRESS, zip: '19901-1234' })).statusCode).toBe(201);
  });
});

describe('the payment link e-mail', () => {
  it("gives the link's end in the shop's time zone, named, not in UTC", async () => {
    expect((await admin.request('PUT', '/api/admin/settings/time-zone', { shop_time_zone: 'America/Los_Angeles' })).statusCode).toBe(200);
    await createProduct(t.db, { id: 'olm-c', priceCents: 2500, inventory: 5 });
    const order = await ownerOrder({ email: 'tz@example.com', lines: [{ productId: 'olm-c', quantity: 1 }] });
    const before = Date.now();
    const sent = await admin.post(`/api/admin/orders/${order.id}/payment-link`, {});
    expect(sent.statusCode).toBe(201);
    const expiresAt = sent.json().link.expiresAt as string;
    expect(Date.parse(expiresAt) - before).toBeLessThanOrEqual(PAYMENT_LINK_TTL_MS + 5000);
    const [mail] = await outbox(order.id, 'order-payment-link');
    const local = localDateTimeText(expiresAt, 'America/Los_Angeles');
    expect(mail!.text).toMatch(new RegExp(`works until ${local} P[SD]T`));
    expect(mail!.text).not.toContain('UTC');
    expect(mail!.html).toContain(local);
    expect((await admin.request('PUT', '/api/admin/settings/time-zone', { shop_time_zone: 'America/New_York' })).statusCode).toBe(200);
  });
});

describe('e-mails to a guest', () => {
  it("link a guest to their order's own page, never to an account; an account holder to their orders", async () => {
    await createProduct(t.db, { id: 'olm-d', priceCents: 1200, inventory: 10 });
    const guest = await ownerOrder({ email: 'guest@example.com', lines: [{ productId: 'olm-d', quantity: 1 }] });
    expect((await admin.post(`/api/admin/orders/${guest.id}/payments`, { method: 'cash' })).statusCode).toBe(201);
    expect((await admin.request('PATCH', `/api/admin/orders/${guest.id}/status`, { status: 'processing' })).statusCode).toBe(200);
    const [mail] = await outbox(guest.id, 'order-status-update');
    expect(mail!.to_address).toBe('guest@example.com');
    for (const body of [mail!.text!, mail!.html]) expect(body).not.toMatch(/your account/i);
    expect(mail!.text).toContain(`You can see your order at any time on its page: http://`);
    expect(mail!.text).toContain(`/order-confirmation?orderId=${guest.id}`);
    // Handlebars escapes the link's "=" in HTML; a mail client reads it back.
    expect(mail!.html).toContain(`/order-confirmation?orderId&#x3D;${guest.id}" style="color:#2f7d4a;">its page</a>`);

    const buyer = await createUser(t.db);
    const member = await ownerOrder({ user_id: buyer.id, lines: [{ productId: 'olm-d', quantity: 1 }] });
    expect((await admin.post(`/api/admin/orders/${member.id}/payments`, { method: 'cash' })).statusCode).toBe(201);
    expect((await admin.request('PATCH', `/api/admin/orders/${member.id}/status`, { status: 'processing' })).statusCode).toBe(200);
    const [theirs] = await outbox(member.id, 'order-status-update');
    expect(theirs!.text).toMatch(/from your account: http\S+\/orders\n/);
    expect(theirs!.text).not.toContain('order-confirmation');
  });
});

describe("the customer's view of a cancelled, part-refunded order", () => {
  it('carries what was refunded, from the refund records, so the page can say it and the net paid', async () => {
    await createProduct(t.db, { id: 'olm-e', priceCents: 4000, inventory: 10 });
    const buyer = await createUser(t.db);
    const order = await ownerOrder({ user_id: buyer.id, lines: [{ productId: 'olm-e', quantity: 1 }] });
    expect((await admin.post(`/api/admin/orders/${order.id}/payments`, { method: 'card_phone' })).statusCode).toBe(201);
    const cancel = await admin.request('PATCH', `/api/admin/orders/${order.id}/status`, {
      status: 'cancelled',
      refund: { amountCents: 1500, reason: 'Kept one part' },
      returnLines: [],
    });
    expect(cancel.statusCode).toBe(200);
    const refunds = await t.db.selectFrom('refunds').select(['amount_cents', 'status']).where('order_id', '=', order.id).execute();
    expect(refunds).toEqual([{ amount_cents: 1500, status: 'succeeded' }]);

    const customer = new TestClient(t.app, '10.7.7.7');
    expect((await customer.signIn(buyer.email, buyer.password)).statusCode).toBe(200);
    const view = (await customer.get(`/api/orders/${order.id}`)).json().order;
    expect(view).toMatchObject({
      status: 'cancelled',
      paymentStatus: 'partially_refunded',
      totalCents: order.totalCents,
      refundedCents: 1500,
    });
    expect(view.paidAt).not.toBeNull();
  });
});
