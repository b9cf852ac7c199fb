import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { FAKE_SHIPSTATION_KEY, FAKE_SHIPSTATION_SECRET, FAKE_TRACKING_V2, fakeShipStation } from '../test/fake-shipstation.js';
import { createProduct, createVariant } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { ORDER_STATE_MESSAGES } from '../../shared/schemas/admin/orders.js';
import { REFUNDED_NOT_SHIPPABLE } from '../../shared/schemas/owner-orders.js';
import type { OrderView } from '../../shared/schemas/orders.js';
import { fulfilPaymentSession } from '../checkout/service.js';

/**
 * The owner's order states (issue [1/8], items 1 to 3): the one table of allowed status moves for
 * the single change, the edit form, bulk changes and labels; voiding a label puts back the status
 * it had; a full refund of an unshipped order cancels it; sales by product agree with the ledger.
 */
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000', CHECKOUT_MAX_UNITS_HELD: '10000' };
const fake = fakeShipStation();
let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  const base = await fake.listen();
  t = await createTestApp({ env: { ...LIMITS, SHIPSTATION_V1_BASE: base, SHIPSTATION_V2_BASE: base } });
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

const ADDRESS = { name: 'Sam State', address: '4 Rule Road', city: 'Boise', state: 'ID', zip: '83702', country: 'US' } as const;
type Line = { productId: string; variantId?: string; quantity: number };

/** A checkout of `items` (a fresh product when none), paid unless `pay` is false. */
async function checkout(items?: Line[], { pay = true } = {}): Promise<string> {
  const lines = items ?? [{ productId: (await createProduct(t.db, { priceCents: 2000, inventory: 30, weightLbs: 1 })).id, quantity: 2 }];
  const res = await new TestClient(t.app).post('/api/create-checkout-session', {
    items: lines,
    customerEmail: 'sam.state@example.com',
    shippingAddress: ADDRESS,
  });
  expect(res.statusCode, res.body).toBe(200);
  const { orderId, sessionId } = res.json<{ orderId: string; sessionId: string }>();
  if (pay) await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
  return orderId;
}

const order = async (id: string): Promise<OrderView> => (await admin.get(`/api/admin/orders/${id}`)).json<{ order: OrderView }>().order;
const setStatus = (id: string, status: string, body: Record<string, unknown> = {}) =>
  admin.request('PATCH', `/api/admin/orders/${id}/status`, { status, ...body });
const buyLabel = (id: string) => admin.post(`/api/admin/orders/${id}/shipstation`);
const voidLabel = (id: string) => admin.post(`/api/admin/orders/${id}/label/void`);
const shipmentsCreated = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v2/shipments').length;
const mails = (id: string, template: string) =>
  t.db.selectFrom('email_outbox').select('id').where('order_id', '=', id).where('template_id', '=', template).execute();
type Event = { type: string; data: Record<string, unknown> };
const timeline = async (id: string) => (await admin.get(`/api/admin/orders/${id}/events`)).json<{ events: Event[] }>().events;

describe(`a cancelled order gets no label on ${testDialect()}`, () => {
  it('refuses "Send to ShipStation", bulk labels and "mark shipped" for a cancelled, part-refunded order, and says so on the order', async () => {
    const id = await checkout();
    expect((await admin.post(`/api/admin/orders/${id}/refunds`, { amountCents: 500 })).statusCode).toBe(201);
    expect((await setStatus(id, 'cancelled')).statusCode).toBe(200);
    const before = shipmentsCreated();

    const single = await buyLabel(id);
    expect(single.statusCode).toBe(409);
    expect(single.json().error).toBe(ORDER_STATE_MESSAGES.cancelledNotShippable);
    const bulk = await admin.post('/api/admin/orders/bulk/labels', { ids: [id] });
    expect(bulk.json().results).toEqual([
      { id, label: expect.stringMatching(/^#/), result: 'skipped', message: ORDER_STATE_MESSAGES.cancelledNotShippable },
    ]);
    const shipped = await setStatus(id, 'shipped');
    expect(shipped.statusCode).toBe(409);
    expect(shipped.json().error).toBe(ORDER_STATE_MESSAGES.cancelledNotShippable);

    expect(shipmentsCreated()).toBe(before);
    expect(await mails(id, 'shipping-notification')).toHaveLength(0);
    const now = await order(id);
    expect(now).toMatchObject({ status: 'cancelled', labelState: null, labelRefusal: ORDER_STATE_MESSAGES.cancelledNotShippable });
    expect(now.allowedStatuses).not.toContain('shipped');
    expect(now.allowedStatuses).not.toContain('delivered');
  });

  it('a label bought and a cancel asked at once: never a label bought for an order already cancelled', async () => {
    for (let round = 0; round < 3; round++) {
      const id = await checkout();
      const [label, cancel] = await Promise.all([buyLabel(id), setStatus(id, 'cancelled')]);
      const events = (await timeline(id)).reverse().map((e) => e.type);
      const bought = events.indexOf('label.bought');
      const cancelled = events.indexOf('cancelled');
      if (label.statusCode === 200) expect(cancelled === -1 || cancelled > bought).toBe(true);
      else {
        expect(label.statusCode).toBe(409);
        expect([ORDER_STATE_MESSAGES.cancelledNotShippable, ORDER_STATE_MESSAGES.labelBusyNoMove]).toContain(label.json().error);
        expect(bought).toBe(-1);
      }
      // The cancel is refused only while the label is being bought.
      if (cancel.statusCode !== 200) expect(cancel.json().error).toBe(ORDER_STATE_MESSAGES.labelBusyNoMove);
    }
  });
});

describe(`voiding a label puts back the status it had on ${testDialect()}`, () => {
  it('a paid order goes back to completed, one the owner was packing to processing, one cancelled meanwhile stays cancelled', async () => {
    const paid = await checkout();
    expect((await buyLabel(paid)).statusCode).toBe(200);
    expect((await voidLabel(paid)).json().order).toMatchObject({ status: 'completed', labelState: null, shippedAt: null });

    const packing = await checkout();
    expect((await setStatus(packing, 'processing')).statusCode).toBe(200);
    expect((await buyLabel(packing)).statusCode).toBe(200);
    expect((await voidLabel(packing)).json().order).toMatchObject({ status: 'processing', labelState: null });

    const cancelledAfter = await checkout();
    expect((await buyLabel(cancelledAfter)).statusCode).toBe(200);
    expect((await setStatus(cancelledAfter, 'cancelled')).statusCode).toBe(200);
    expect((await voidLabel(cancelledAfter)).json().order).toMatchObject({ status: 'cancelled', labelState: null });
  });

  it('a cancelled order given a label before this rule (the bug) goes back to cancelled, not processing', async () => {
    const id = await checkout();
    expect((await setStatus(id, 'cancelled')).statusCode).toBe(200);
    // What the old purchase left: shipped, a v2 label, and its move from cancelled on the timeline.
    const at = new Date().toISOString();
    await t.db
      .updateTable('orders')
      .set({
        status: 'shipped',
        label_state: 'bought',
        shipped_at: at,
        shipstation_tracking_number: FAKE_TRACKING_V2,
        shipstation_data: JSON.stringify({ version: 'v2', shipmentId: 'se-ship-1', label: { label_id: 'se-label-1' } }),
      })
      .where('id', '=', id)
      .execute();
    await t.db
      .insertInto('order_events')
      .values({
        id: `evt_legacy_${id}`,
        order_id: id,
        type: 'status.changed',
        actor_user_id: null,
        actor_label: DEMO_ADMIN.email,
        data: JSON.stringify({ from: 'cancelled', to: 'shipped', trackingNumber: FAKE_TRACKING_V2 }),
        customer_visible: 0,
        created_at: at,
      })
      .execute();
    const voided = await voidLabel(id);
    expect(voided.statusCode).toBe(200);
    expect(voided.json().order).toMatchObject({ status: 'cancelled', labelState: null });
  });
});

describe(`one table of status moves on ${testDialect()}`, () => {
  it('a paid order cannot go back to pending, by the menu or the edit form; the detail offers what the server allows', async () => {
    const id = await checkout();
    const res = await setStatus(id, 'pending');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(ORDER_STATE_MESSAGES.paidNotPending);
    const edit = await admin.request('PUT', `/api/admin/orders/${id}`, {
      user_id: 'guest',
      shipping_address: ADDRESS,
      status: 'pending',
      elapsedMs: 5000,
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().error).toBe(ORDER_STATE_MESSAGES.paidNotPending);
    const now = await order(id);
    expect(now.status).toBe('completed');
    expect(now.allowedStatuses).toEqual(['processing', 'shipped', 'delivered', 'cancelled', 'completed']);
    expect(now.labelRefusal).toBeNull();
  });

  it('an order refunded in full after it shipped cannot be delivered; an unpaid checkout cannot be prepared', async () => {
    const id = await checkout();
    expect((await setStatus(id, 'shipped')).statusCode).toBe(200);
    const total = (await order(id)).totalCents;
    expect((await admin.post(`/api/admin/orders/${id}/refunds`, { amountCents: total })).statusCode).toBe(201);
    expect((await order(id)).status).toBe('shipped');
    const delivered = await setStatus(id, 'delivered');
    expect(delivered.statusCode).toBe(409);
    expect(delivered.json().error).toBe(ORDER_STATE_MESSAGES.refundedNotReopened);
    expect((await order(id)).allowedStatuses).toEqual(['shipped', 'cancelled']);

    const unpaid = await checkout(undefined, { pay: false });
    const prepared = await setStatus(unpaid, 'processing');
    expect(prepared.statusCode).toBe(409);
    expect(prepared.json().error).toBe(ORDER_STATE_MESSAGES.unpaidNotPrepared);
    expect((await order(unpaid)).allowedStatuses).toEqual(['pending', 'cancelled']);
  });

  it('bulk "processing" skips a shipped, labelled order with the reason and moves the others, by the same rule as one change', async () => {
    const labelled = await checkout();
    expect((await buyLabel(labelled)).statusCode).toBe(200);
    const paid = await checkout();
    const refunded = await checkout();
    expect((await setStatus(refunded, 'shipped')).statusCode).toBe(200);
    const total = (await order(refunded)).totalCents;
    expect((await admin.post(`/api/admin/orders/${refunded}/refunds`, { amountCents: total })).statusCode).toBe(201);

    const res = await admin.post('/api/admin/orders/bulk/status', { ids: [labelled, paid, refunded], status: 'processing', notify: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().results.map((r: { result: string; message: string | null }) => [r.result, r.message])).toEqual([
      ['skipped', ORDER_STATE_MESSAGES.labelledNotBack('processing')],
      ['changed', null],
      ['skipped', ORDER_STATE_MESSAGES.refundedNotReopened],
    ]);
    expect((await order(labelled)).status).toBe('shipped');
    expect(await mails(labelled, 'order-status-update')).toHaveLength(0);
    const single = await setStatus(labelled, 'processing');
    expect(single.statusCode).toBe(409);
    expect(single.json().error).toBe(ORDER_STATE_MESSAGES.labelledNotBack('processing'));
    // Bulk "shipped" for the refunded one says why, as the label does.
    const ship = await admin.post('/api/admin/orders/bulk/status', { ids: [refunded], status: 'delivered', notify: false });
    expect(ship.json().results[0]).toMatchObject({ result: 'skipped', message: ORDER_STATE_MESSAGES.refundedNotReopened });
  });

  it('a full refund of an unshipped order cancels it: its timeline says why, no label is offered, nothing more returns to stock', async () => {
    const p = await createProduct(t.db, { priceCents: 1500, inventory: 10, weightLbs: 1 });
    const id = await checkout([{ productId: p.id, quantity: 3 }]);
    expect((await setStatus(id, 'processing')).statusCode).toBe(200);
    const total = (await order(id)).totalCents;
    const res = await admin.post(`/api/admin/orders/${id}/refunds`, {
      amountCents: total,
      returnLines: [{ productId: p.id, quantity: 1 }],
    });
    expect(res.statusCode).toBe(201);
    const now = res.json<{ order: OrderView }>().order;
    expect(now).toMatchObject({ status: 'cancelled', paymentStatus: 'refunded', labelRefusal: ORDER_STATE_MESSAGES.cancelledNotShippable });
    expect(now.allowedStatuses).toEqual(['cancelled']);
    const moved = (await timeline(id)).find((e) => e.type === 'status.changed' && e.data.to === 'cancelled');
    expect(moved?.data).toMatchObject({ from: 'processing', cause: ORDER_STATE_MESSAGES.cancelledByFullRefund, notified: false });
    // The refund's own e-mail is the customer's news; no second one about the cancel.
    expect(await mails(id, 'order-refunded')).toHaveLength(1);
    expect(await mails(id, 'order-cancelled')).toHaveLength(0);
    // The owner chose to return 1 of 3: the cancel returns no more.
    const level = await t.db.selectFrom('products').select('inventory').where('id', '=', p.id).executeTakeFirstOrThrow();
    expect(level.inventory).toBe(8);
    const label = await buyLabel(id);
    expect(label.statusCode).toBe(409);
    expect(label.json().error).toBe(ORDER_STATE_MESSAGES.cancelledNotShippable);
  });

  it('two full refunds asked at once of an unshipped order: one goes through, and the order is cancelled once', async () => {
    const id = await checkout();
    const total = (await order(id)).totalCents;
    const answers = await Promise.all([1, 2, 3].map(() => admin.post(`/api/admin/orders/${id}/refunds`, { amountCents: total })));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect((await order(id)).status).toBe('cancelled');
    expect((await timeline(id)).filter((e) => e.type === 'cancelled')).toHaveLength(1);
  });

  it('a shipped order refunded in full stays shipped, and answers a label as refunded', async () => {
    const id = await checkout();
    expect((await setStatus(id, 'shipped')).statusCode).toBe(200);
    const total = (await order(id)).totalCents;
    expect((await admin.post(`/api/admin/orders/${id}/refunds`, { amountCents: total })).statusCode).toBe(201);
    expect((await order(id)).labelRefusal).toBe(REFUNDED_NOT_SHIPPABLE);
    expect((await buyLabel(id)).json().error).toBe(REFUNDED_NOT_SHIPPABLE);
    expect(ADMIN_MESSAGES.unpaidNotShippable).not.toBe(REFUNDED_NOT_SHIPPABLE);
  });
});

type ProductSales = {
  productId: string;
  units: number;
  netSalesCents: number;
  variants: { variantId: string; units: number; netSalesCents: number }[];
};

describe(`sales by product agree with the stock ledger on ${testDialect()}`, () => {
  it('after a sale, a partial refund with return, a cancel with refund and restock and a cancel of an unpaid order, by product and variant', async () => {
    const p = await createProduct(t.db, { priceCents: 1000, inventory: 40, weightLbs: 1, name: 'Ledger Soap' });
    const a = `var_${p.id}`;
    const b = await createVariant(t.db, p.id, { options: ['Large'], priceCents: 2500, inventory: 40 });
    const other = await createProduct(t.db, { priceCents: 700, inventory: 40, name: 'Ledger Brush' });

    // A sale: 3 small, 2 large and 1 brush.
    const sale = await checkout([
      { productId: p.id, variantId: a, quantity: 3 },
      { productId: p.id, variantId: b, quantity: 2 },
      { productId: other.id, quantity: 1 },
    ]);
    // A partial refund with one small soap back on the shelf.
    const part = await admin.post(`/api/admin/orders/${sale}/refunds`, {
      amountCents: 1000,
      returnLines: [{ productId: p.id, variantId: a, quantity: 1 }],
    });
    expect(part.statusCode).toBe(201);
    // A cancel with its refund: the 2 large go back, the small one stays out (the owner's choice).
    const cancelled = await checkout([
      { productId: p.id, variantId: b, quantity: 2 },
      { productId: p.id, variantId: a, quantity: 1 },
    ]);
    const total = (await order(cancelled)).totalCents;
    const cancel = await setStatus(cancelled, 'cancelled', {
      refund: { amountCents: total },
      returnLines: [
        { productId: p.id, variantId: b, quantity: 2 },
        { productId: p.id, variantId: a, quantity: 0 },
      ],
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    // A checkout never paid, cancelled.
    const unpaid = await checkout([{ productId: p.id, variantId: a, quantity: 4 }], { pay: false });
    expect((await setStatus(unpaid, 'cancelled')).statusCode).toBe(200);

    // The cancel's refund row names what came back with it, by variant.
    const refundRow = await t.db
      .selectFrom('refunds')
      .select(['return_lines', 'restock'])
      .where('order_id', '=', cancelled)
      .executeTakeFirstOrThrow();
    expect(refundRow.restock).toBe(1);
    expect(JSON.parse(refundRow.return_lines ?? 'null')).toEqual([{ productId: p.id, variantId: b, quantity: 2 }]);

    // The ledger: per variant, sold less returned (net of taken again), over these orders.
    const ledger = await t.db
      .selectFrom('stock_movements as m')
      .innerJoin('stock_items as s', 's.id', 'm.stock_item_id')
      .select(['s.product_id', 's.variant_id', 'm.quantity'])
      .where('m.order_id', 'in', [sale, cancelled, unpaid])
      .where('m.kind', 'in', ['sold', 'returned', 'taken'])
      .execute();
    const out = (key: 'product_id' | 'variant_id', id: string) =>
      -ledger.filter((m) => m[key] === id).reduce((n, m) => n + Number(m.quantity), 0);

    const today = new Date().toISOString().slice(0, 10);
    const overview = await admin.get(`/api/admin/orders/overview?days=7`);
    expect(overview.statusCode, today).toBe(200);
    const products = overview.json<{ products: ProductSales[] }>().products;
    const soap = products.find((x) => x.productId === p.id)!;
    expect(soap.units).toBe(out('product_id', p.id));
    expect(soap.units).toBe(5);
    const byVariant = new Map(soap.variants.map((v) => [v.variantId, v]));
    expect(byVariant.get(a)?.units).toBe(out('variant_id', a));
    expect(byVariant.get(a)).toMatchObject({ units: 3, netSalesCents: 3000 });
    expect(byVariant.get(b)?.units).toBe(out('variant_id', b));
    expect(byVariant.get(b)).toMatchObject({ units: 2, netSalesCents: 5000 });
    expect(soap.netSalesCents).toBe(8000);
    const brush = products.find((x) => x.productId === other.id)!;
    expect(brush).toMatchObject({ units: out('product_id', other.id), netSalesCents: 700 });
    expect(brush.variants).toEqual([{ variantId: `var_${other.id}`, label: '', units: 1, netSalesCents: 700 }]);
  });
});
