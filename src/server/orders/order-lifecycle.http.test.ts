import { SHIPSTATION_PROBLEMS } from '../shipping-labels/messages.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { FAKE_SHIPSTATION_KEY, FAKE_SHIPSTATION_SECRET, FAKE_TRACKING_V2, fakeShipStation } from '../test/fake-shipstation.js';
import { createCoupon, createProduct, createShippingOption, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { fulfilPaymentSession } from '../checkout/service.js';
import { deliverDueEmails, type MailTransport } from '../email/delivery.js';
import { noteOrderEmailSent } from './events.js';

/**
 * The owner's order lifecycle (issue 16, items 2, 3, 4, 7 and 8): the timeline of every step,
 * shipping only what is paid, one label per order, and edits that keep the books.
 */
const fake = fakeShipStation();
let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  const base = await fake.listen();
  t = await createTestApp({ env: { SHIPSTATION_V1_BASE: base, SHIPSTATION_V2_BASE: base } });
  admin = new TestClient(t.app);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const res = await admin.request('PUT', '/api/admin/settings/integrations', {
    shipstation_api_key: FAKE_SHIPSTATION_KEY,
    shipstation_api_secret: FAKE_SHIPSTATION_SECRET,
    shipstation_enabled: true,
    shipstation_api_version: 'v2',
  });
  expect(res.statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});

const ADDRESS = { name: 'Ada Buyer', address: '12 Mill Lane', city: 'Boise', state: 'ID', zip: '83702', country: 'US' } as const;

type Checkout = { orderId: string; sessionId: string };

/** A checkout with a coupon and a named shipping method; paid unless `pay` is false. */
async function checkout(shopper = new TestClient(t.app), { pay = true, email = 'ada.buyer@example.com' } = {}): Promise<Checkout> {
  const p = await createProduct(t.db, {
    priceCents: 3149,
    inventory: 20,
    weightLbs: 1,
    sku: `SKU-${Math.random().toString(36).slice(2, 8)}`,
  });
  const ship = await createShippingOption(t.db, { name: 'Ground Saver', priceCents: 495 });
  const coupon = await createCoupon(t.db, { discountType: 'percentage', discountValue: 10 });
  const res = await shopper.post('/api/create-checkout-session', {
    items: [{ productId: p.id, quantity: 2 }],
    customerEmail: email,
    shippingAddress: ADDRESS,
    appliedCouponCode: coupon.code,
    shippingOptionId: ship.id,
  });
  expect(res.statusCode).toBe(200);
  const { orderId, sessionId } = res.json<Checkout>();
  if (pay) await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
  return { orderId, sessionId };
}

type Event = { type: string; actor: string; data: Record<string, unknown>; createdAt: string };
const events = async (orderId: string) => (await admin.get(`/api/admin/orders/${orderId}/events`)).json<{ events: Event[] }>().events;
const adminOrder = async (orderId: string) =>
  (await admin.get(`/api/admin/orders/${orderId}`)).json<{ order: Record<string, unknown> }>().order;
const shipmentsCreated = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v2/shipments').length;
const shippingMails = (orderId: string) =>
  t.db.selectFrom('email_outbox').select('id').where('order_id', '=', orderId).where('template_id', '=', 'shipping-notification').execute();
const buyLabel = (orderId: string) => admin.post(`/api/admin/orders/${orderId}/shipstation`);

const sentMail: string[] = [];
const transport: MailTransport = {
  send: async (m) => {
    sentMail.push(m.subject);
  },
  verify: async () => {},
  close: () => {},
};

describe(`the order timeline on ${testDialect()}`, () => {
  it('records every step with who did it, newest first, and shows the customer their part', async () => {
    const ada = await createUser(t.db, { email: 'ada.timeline@example.com', fullName: 'Ada Timeline' });
    const shopper = new TestClient(t.app, '10.0.0.7');
    await shopper.signIn(ada.email, ada.password);
    const { orderId } = await checkout(shopper, { email: ada.email });

    let list = await events(orderId);
    expect(list.map((e) => [e.type, e.actor])).toEqual([
      ['email.queued', 'system'],
      // What the order earned, so a full refund or a cancel can take back exactly that (orders/give-back.ts).
      ['points.earned', 'system'],
      ['paid', 'customer'],
      ['placed', 'customer'],
    ]);
    expect(list[0]!.data).toMatchObject({ templateId: 'order-confirmation', to: ada.email });

    // The delivery worker sends the confirmation: the timeline says so.
    await deliverDueEmails(t.db, transport, 'shop@example.com', { onOrderEmailSent: noteOrderEmailSent });
    expect((await events(orderId))[0]).toMatchObject({ type: 'email.sent', actor: 'system', data: { templateId: 'order-confirmation' } });

    // The owner moves it along, notes something, fixes the address and buys the label.
    expect((await admin.request('PATCH', `/api/admin/orders/${orderId}/status`, { status: 'processing' })).statusCode).toBe(200);
    const note = await admin.post(`/api/admin/orders/${orderId}/notes`, { text: 'Customer asked for plain packaging' });
    expect(note.statusCode).toBe(201);
    const edited = await admin.request('PUT', `/api/admin/orders/${orderId}`, {
      user_id: ada.id,
      shipping_address: { ...ADDRESS, address: '14 Mill Lane' },
      status: 'processing',
      elapsedMs: 5000,
    });
    expect(edited.statusCode).toBe(200);
    expect((await buyLabel(orderId)).statusCode).toBe(200);

    list = await events(orderId);
    const types = list.map((e) => e.type);
    expect(types.slice(0, 8)).toEqual([
      'email.queued',
      'status.changed',
      'label.bought',
      'edited',
      'note',
      'email.queued',
      'status.changed',
      'email.sent',
    ]);
    for (const e of list.slice(0, 7)) expect(e.actor).toBe(DEMO_ADMIN.email);
    expect(list.find((e) => e.type === 'note')!.data).toEqual({ text: 'Customer asked for plain packaging' });
    expect(list.find((e) => e.type === 'edited')!.data).toEqual({
      changes: {
        shippingAddress: { from: 'Ada Buyer\n12 Mill Lane\nBoise, ID 83702\nUS', to: 'Ada Buyer\n14 Mill Lane\nBoise, ID 83702\nUS' },
      },
    });
    expect(list.find((e) => e.type === 'status.changed')!.data).toMatchObject({ from: 'processing', to: 'shipped' });
    expect(list.find((e) => e.type === 'label.bought')!.data).toMatchObject({ trackingNumber: FAKE_TRACKING_V2 });
    // Newest first.
    const times = list.map((e) => e.createdAt);
    expect([...times].sort().reverse()).toEqual(times);

    // The customer's receipt: placed, paid, shipped with its tracking number; nothing of the owner's.
    const mine = await shopper.get(`/api/orders/${orderId}`);
    expect(mine.statusCode).toBe(200);
    const timeline = mine.json<{ order: { timeline: { type: string; trackingNumber?: string | null }[] } }>().order.timeline;
    expect(timeline.map((e) => e.type)).toEqual(['placed', 'paid', 'shipped']);
    expect(timeline[2]!.trackingNumber).toBe(FAKE_TRACKING_V2);
    expect(mine.body).not.toContain('plain packaging');
    expect(mine.body).not.toContain(DEMO_ADMIN.email);

    // An admin acting as the customer opens the order: the owner's timeline keeps it.
    const acting = new TestClient(t.app, '10.0.0.8');
    await acting.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    expect((await acting.post('/api/impersonation', { userId: ada.id })).statusCode).toBe(200);
    expect((await acting.get(`/api/orders/${orderId}`)).statusCode).toBe(200);
    expect((await acting.request('DELETE', '/api/impersonation')).statusCode).toBe(200);
    expect((await events(orderId))[0]).toMatchObject({
      type: 'viewed.impersonated',
      actor: DEMO_ADMIN.email,
      data: { asEmail: ada.email },
    });
    // The customer's own views are not recorded.
    await shopper.get(`/api/orders/${orderId}`);
    expect((await events(orderId))[0]!.type).toBe('viewed.impersonated');
  });

  it('an order the owner enters is placed by them; notes are checked; unknown orders 404', async () => {
    const created = await admin.post('/api/admin/orders', {
      user_id: 'guest',
      shipping_address: 'Counter sale',
      total_amount: 10,
      status: 'pending',
      elapsedMs: 5000,
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ order: { id: string } }>().order.id;
    expect((await events(id)).map((e) => [e.type, e.actor])).toEqual([['placed', DEMO_ADMIN.email]]);
    const empty = await admin.post(`/api/admin/orders/${id}/notes`, { text: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('Note text is required');
    expect((await admin.post('/api/admin/orders/order_nope/notes', { text: 'x' })).statusCode).toBe(404);
    expect((await admin.get('/api/admin/orders/order_nope/events')).statusCode).toBe(404);
    // Customers cannot read the owner's timeline.
    expect((await new TestClient(t.app).get(`/api/admin/orders/${id}/events`)).statusCode).toBe(401);
  });
});

describe(`shipping only what is paid on ${testDialect()}`, () => {
  it('refuses a label and "mark shipped" for an unpaid order, with a clear message, and asks ShipStation nothing', async () => {
    const { orderId } = await checkout(undefined, { pay: false });
    const before = fake.requests.length;
    const label = await buyLabel(orderId);
    expect(label.statusCode).toBe(409);
    expect(label.json().error).toBe(ADMIN_MESSAGES.unpaidNotShippable);
    expect(fake.requests.length).toBe(before);
    const shipped = await admin.request('PATCH', `/api/admin/orders/${orderId}/status`, { status: 'shipped' });
    expect(shipped.statusCode).toBe(409);
    expect(shipped.json().error).toBe(ADMIN_MESSAGES.unpaidNotShippable);
    const row = await t.db.selectFrom('orders').select(['status', 'label_state']).where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'pending', label_state: null });
    expect(await shippingMails(orderId)).toHaveLength(0);

    // The edit form follows the same table of moves (orders/status-rules.ts): not shipped either.
    const order = await adminOrder(orderId);
    const byHand = await admin.request('PUT', `/api/admin/orders/${orderId}`, {
      user_id: 'guest',
      shipping_address: order.shippingAddress,
      status: 'shipped',
      elapsedMs: 5000,
    });
    expect(byHand.statusCode).toBe(409);
    expect(byHand.json().error).toBe(ADMIN_MESSAGES.unpaidNotShippable);
    expect((await adminOrder(orderId)).status).toBe('pending');
  });

  it('an order the owner entered by hand (they took the payment) may be given a label and marked shipped', async () => {
    const created = await admin.post('/api/admin/orders', {
      user_id: 'guest',
      shipping_address: ADDRESS,
      total_amount: 40,
      status: 'pending',
      elapsedMs: 5000,
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ order: { id: string } }>().order.id;
    const before = shipmentsCreated();
    const label = await buyLabel(id);
    expect(label.statusCode).toBe(200);
    expect(shipmentsCreated() - before).toBe(1);
    const other = await admin.post('/api/admin/orders', {
      user_id: 'guest',
      shipping_address: ADDRESS,
      total_amount: 15,
      status: 'pending',
      elapsedMs: 5000,
    });
    const shipped = await admin.request('PATCH', `/api/admin/orders/${other.json<{ order: { id: string } }>().order.id}/status`, {
      status: 'shipped',
    });
    expect(shipped.statusCode).toBe(200);
  });
});

describe(`one label per order on ${testDialect()}`, () => {
  it('five simultaneous requests buy one label: one shipment, one e-mail; a repeat is refused', async () => {
    const { orderId } = await checkout();
    const before = shipmentsCreated();
    const answers = await Promise.all(Array.from({ length: 5 }, () => buyLabel(orderId)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    for (const a of answers.filter((r) => r.statusCode !== 200)) {
      expect(a.statusCode).toBe(409);
      expect([ADMIN_MESSAGES.labelBusy, ADMIN_MESSAGES.labelExists]).toContain(a.json().error);
    }
    expect(shipmentsCreated() - before).toBe(1);
    expect(await shippingMails(orderId)).toHaveLength(1);
    expect((await events(orderId)).filter((e) => e.type === 'label.bought')).toHaveLength(1);

    const again = await buyLabel(orderId);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(ADMIN_MESSAGES.labelExists);
    expect(shipmentsCreated() - before).toBe(1);
    expect((await adminOrder(orderId)).labelState).toBe('bought');
  });

  it('voiding the label is the only way to buy another', async () => {
    const { orderId } = await checkout();
    expect((await buyLabel(orderId)).statusCode).toBe(200);
    const before = shipmentsCreated();

    const voided = await admin.post(`/api/admin/orders/${orderId}/label/void`);
    expect(voided.statusCode).toBe(200);
    // Back to the status it had before the label (decision 0038), not blindly processing.
    expect(voided.json().order).toMatchObject({ status: 'completed', trackingNumber: null, labelState: null });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'PUT', path: '/v2/labels/se-label-1/void' });
    const voidAgain = await admin.post(`/api/admin/orders/${orderId}/label/void`);
    expect(voidAgain.statusCode).toBe(409);
    expect(voidAgain.json().error).toBe(ADMIN_MESSAGES.noLabel);

    const rebought = await buyLabel(orderId);
    expect(rebought.statusCode).toBe(200);
    expect(rebought.json().order).toMatchObject({ status: 'shipped', trackingNumber: FAKE_TRACKING_V2, labelState: 'bought' });
    expect(shipmentsCreated() - before).toBe(1);
    expect((await events(orderId)).map((e) => e.type).filter((x) => x.startsWith('label.'))).toEqual([
      'label.bought',
      'label.voided',
      'label.bought',
    ]);
  });

  it('a failed purchase releases the claim, so the next try buys the label', async () => {
    const { orderId } = await checkout();
    fake.failAll({ status: 500, message: 'ShipStation is down' });
    try {
      const failed = await buyLabel(orderId);
      expect(failed.statusCode).toBe(502);
      // An outage is not blamed on the owner's keys (decision 0047); ShipStation's own words follow.
      expect(failed.json().error).toBe(`Failed to send order to ShipStation: ${SHIPSTATION_PROBLEMS.unavailable} (ShipStation is down)`);
    } finally {
      fake.failAll(null);
    }
    const row = await t.db.selectFrom('orders').select(['label_state', 'status']).where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(row).toEqual({ label_state: null, status: 'completed' });
    expect(await shippingMails(orderId)).toHaveLength(0);
    expect((await buyLabel(orderId)).statusCode).toBe(200);
    expect(await shippingMails(orderId)).toHaveLength(1);
  });
});

const FIGURES = [
  'subtotalCents',
  'discountCents',
  'shippingCents',
  'taxCents',
  'totalCents',
  'couponCode',
  'paidCents',
  'shippingMethod',
  'items',
] as const;
const figuresOf = (o: Record<string, unknown>) => Object.fromEntries(FIGURES.map((k) => [k, o[k]]));

describe(`edits that keep the books on ${testDialect()}`, () => {
  it('saving a paid order with no change leaves every figure and the coupon identical, and records no edit', async () => {
    const { orderId } = await checkout();
    const before = await adminOrder(orderId);
    expect(before.couponCode).toBeTruthy();
    expect(before.discountCents).toBeGreaterThan(0);
    expect(before.shippingMethod).toBe('Ground Saver');
    expect(before.paidCents).toBe(before.totalCents);
    // The detail adds up: subtotal − discount + shipping + tax = total.
    const n = (k: string) => Number(before[k]);
    expect(n('subtotalCents') - n('discountCents') + n('shippingCents') + n('taxCents')).toBe(n('totalCents'));

    const saved = await admin.request('PUT', `/api/admin/orders/${orderId}`, {
      user_id: 'guest',
      shipping_address: before.shippingAddress,
      total_amount: Number(before.totalCents) / 100,
      status: before.status,
      elapsedMs: 5000,
    });
    expect(saved.statusCode).toBe(200);
    const after = await adminOrder(orderId);
    expect(figuresOf(after)).toEqual(figuresOf(before));
    expect(after.shippingAddress).toEqual(before.shippingAddress);
    expect((await events(orderId)).some((e) => e.type === 'edited')).toBe(false);

    // A different total for an order with items is refused; nothing changes.
    const retotal = await admin.request('PUT', `/api/admin/orders/${orderId}`, {
      user_id: 'guest',
      shipping_address: before.shippingAddress,
      total_amount: 1,
      status: before.status,
      elapsedMs: 5000,
    });
    expect(retotal.statusCode).toBe(400);
    expect(retotal.json().error).toBe(ADMIN_MESSAGES.itemTotalFixed);
    expect(figuresOf(await adminOrder(orderId))).toEqual(figuresOf(before));
  });

  it('keeps the address structured (with its e-mail) and the label then goes to the new address', async () => {
    const { orderId } = await checkout();
    const moved = { name: 'Ada Buyer', address: '9 New Road', city: 'Austin', state: 'TX', zip: '78701', country: 'US' };
    const res = await admin.request('PUT', `/api/admin/orders/${orderId}`, {
      user_id: 'guest',
      shipping_address: moved,
      status: 'completed',
      elapsedMs: 5000,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().order.shippingAddress).toEqual({ ...moved, email: 'ada.buyer@example.com' });
    const label = await buyLabel(orderId);
    expect(label.statusCode).toBe(200);
    const sent = fake.requests.filter((r) => r.path === '/v2/shipments' && r.method === 'POST').at(-1)!;
    expect((sent.body!.shipments as unknown[])[0]).toMatchObject({
      ship_to: { address_line1: '9 New Road', city_locality: 'Austin', postal_code: '78701' },
    });

    const bad = await admin.request('PUT', `/api/admin/orders/${orderId}`, {
      user_id: 'guest',
      shipping_address: { name: 'A', address: '1 St' },
      status: 'completed',
      elapsedMs: 5000,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('shipping_address.city: City is required');
  });

  it('changes the customer: the order moves to their account and takes their e-mail', async () => {
    const { orderId } = await checkout();
    const bo = await createUser(t.db, { email: 'bo.new@example.com', fullName: 'Bo New' });
    const before = await adminOrder(orderId);
    const res = await admin.request('PUT', `/api/admin/orders/${orderId}`, {
      user_id: bo.id,
      shipping_address: before.shippingAddress,
      status: before.status,
      elapsedMs: 5000,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().order).toMatchObject({ userId: bo.id, email: 'bo.new@example.com' });
    expect(figuresOf(await adminOrder(orderId))).toEqual(figuresOf(before));
    expect((await events(orderId))[0]).toMatchObject({
      type: 'edited',
      data: { changes: { customer: { from: null, to: bo.id }, email: { from: 'ada.buyer@example.com', to: 'bo.new@example.com' } } },
    });
  });

  it('splits 85/8/7 only for orders the owner creates without items, on create and when their total is edited', async () => {
    const created = await admin.post('/api/admin/orders', {
      user_id: 'guest',
      shipping_address: ADDRESS,
      total_amount: 100,
      status: 'pending',
      elapsedMs: 5000,
    });
    expect(created.statusCode).toBe(201);
    const order = created.json<{ order: Record<string, unknown> }>().order;
    expect(order).toMatchObject({ subtotalCents: 8500, taxCents: 800, shippingCents: 700, totalCents: 10000, shippingAddress: ADDRESS });
    const id = String(order.id);
    const edited = await admin.request('PUT', `/api/admin/orders/${id}`, {
      user_id: 'guest',
      shipping_address: ADDRESS,
      total_amount: 200,
      status: 'pending',
      elapsedMs: 5000,
    });
    expect(edited.json().order).toMatchObject({ subtotalCents: 17000, taxCents: 1600, shippingCents: 1400, totalCents: 20000 });
    expect((await events(id))[0]).toMatchObject({ type: 'edited', data: { changes: { totalCents: { from: 10000, to: 20000 } } } });
    // Creating without a total is refused.
    const noTotal = await admin.post('/api/admin/orders', {
      user_id: 'guest',
      shipping_address: ADDRESS,
      status: 'pending',
      elapsedMs: 5000,
    });
    expect(noTotal.statusCode).toBe(400);
    expect(noTotal.json().error).toBe(ADMIN_MESSAGES.totalRequired);
  });
});

describe(`the list names the customer on ${testDialect()}`, () => {
  it('guests too: the name and e-mail from checkout, never an internal id', async () => {
    const { orderId } = await checkout(undefined, { email: 'guest.list@example.com' });
    const list = (await admin.get('/api/admin/orders?search=guest.list@example.com')).json<{ items: Record<string, unknown>[] }>();
    expect(list.items.find((r) => r.id === orderId)).toMatchObject({ customerName: 'Ada Buyer', email: 'guest.list@example.com' });
  });
});
