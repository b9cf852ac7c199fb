import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { createTestApp, testDialect, type TestApp } from '../../test/harness.js';
import { placeCheckout } from '../../test/checkout-orders.js';
import { createCoupon, createProduct } from '../../db/seed/factories.js';
import { writeTogether, type PendingWrite } from '../../db/query-helpers.js';
import { randomString } from '../../lib/ids.js';
import { HttpError } from '../../http/errors.js';
import { priceCart } from '../../cart/service.js';
import { createOrder, newOrderId } from '../../orders/create-order.js';
import { SYSTEM_ACTOR } from '../../orders/events.js';
import { CHECKOUT_MESSAGES } from '../../../shared/schemas/checkout.js';
import { priceAndLock } from './price-and-lock.js';
import { checkBounds } from './check-bounds.js';
import { checkUnitCap } from './check-unit-cap.js';
import { createCheckoutOrder } from './create-checkout-order.js';
import { newCheckoutSessionId, openPayment } from './open-payment.js';
import { holdCoupon } from './hold-coupon.js';
import { reserveStock } from './reserve-stock.js';
import type { CheckoutContext, CheckoutInput, Holder } from './types.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const ADDRESS = { name: 'Pat Buyer', address: '1 Main St', city: 'Springfield', state: 'CA', zip: '90210', country: 'US' } as const;
const input = (items: { productId: string; quantity: number }[], couponCode: string | null = null): CheckoutInput => ({
  items,
  customerEmail: 'Pat@Example.com',
  shippingAddress: { ...ADDRESS },
  appliedCouponCode: couponCode,
});
function context(device = `device-${randomString(8)}`): CheckoutContext {
  return {
    userId: null,
    deviceHash: device,
    ip: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    maxUnitsHeld: 250,
    now: new Date(),
    provider: 'test',
    sessionUrl: (id) => `http://shop.test/pay/${id}`,
  };
}
const holderOf = (ctx: CheckoutContext): Holder => ({ ip: ctx.ip, deviceId: ctx.deviceHash, userId: ctx.userId, email: 'pat@example.com' });
const price = (trx: Kysely<Database>, i: CheckoutInput, ctx: CheckoutContext) =>
  priceCart(
    trx,
    t.dialect,
    { lines: i.items, couponCode: i.appliedCouponCode, shippingOptionId: null },
    { ...ctx, email: 'pat@example.com' },
    { lock: true },
  );
/** Runs `work` in a transaction that is always rolled back: the step's writes are read inside it. */
async function rolledBack<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  let out: T | undefined;
  await t.db
    .transaction()
    .execute(async (trx) => {
      out = await work(trx);
      throw new RolledBack();
    })
    .catch((err: unknown) => {
      if (!(err instanceof RolledBack)) throw err;
    });
  return out as T;
}
class RolledBack extends Error {}

describe(`checkout creation steps on ${testDialect()}`, () => {
  it("priceAndLock prices the cart and ends the browser's earlier open checkout", async () => {
    const p = await createProduct(t.db, { priceCents: 1200 });
    const ctx = context();
    const earlier = await placeCheckout(t.db, t.dialect, { items: [{ productId: p.id, quantity: 1 }] });
    // The earlier checkout of this browser: the same device.
    await t.db.updateTable('stock_reservations').set({ device_id: ctx.deviceHash }).where('order_id', '=', earlier.orderId).execute();
    const out = await rolledBack(async (trx) => {
      const r = await priceAndLock(trx, t.dialect, input([{ productId: p.id, quantity: 2 }]), ctx, holderOf(ctx));
      const order = await trx.selectFrom('orders').select('payment_status').where('id', '=', earlier.orderId).executeTakeFirstOrThrow();
      return { ...r, earlierStatus: order.payment_status };
    });
    expect(out.priced.subtotalCents).toBe(2400);
    expect(out.superseded.map((s) => s.orderId)).toEqual([earlier.orderId]);
    expect(out.earlierStatus).toBe('expired');
  });

  it('checkBounds refuses a product gone and a cart short of stock, and passes a good cart', async () => {
    const p = await createProduct(t.db, { inventory: 2 });
    const ctx = context();
    await rolledBack(async (trx) => {
      const gone = await price(trx, input([{ productId: 'prod_gone', quantity: 1 }]), ctx);
      await expect(checkBounds(trx, gone, ctx.now)).rejects.toMatchObject({ statusCode: 400, message: CHECKOUT_MESSAGES.missingProduct });
      const short = await price(trx, input([{ productId: p.id, quantity: 3 }]), ctx);
      await expect(checkBounds(trx, short, ctx.now)).rejects.toMatchObject({ statusCode: 409 });
      const fine = await price(trx, input([{ productId: p.id, quantity: 2 }]), ctx);
      await expect(checkBounds(trx, fine, ctx.now)).resolves.toBeUndefined();
    });
  });

  it('checkUnitCap counts what the shopper holds, less the checkouts just ended', async () => {
    const p = await createProduct(t.db);
    const ctx = context();
    const priced = await rolledBack((trx) => price(trx, input([{ productId: p.id, quantity: 3 }]), ctx));
    const mine = {
      ordersOfDevice: [],
      unitsByOrder: new Map([
        ['order_a', 4],
        ['order_b', 3],
      ]),
      firstByProduct: new Map(),
    };
    expect(() => checkUnitCap(priced, mine, [], 9)).toThrow(HttpError);
    expect(() => checkUnitCap(priced, mine, [{ orderId: 'order_b', sessionId: 's', provider: 'test' }], 9)).not.toThrow();
    expect(() => checkUnitCap(priced, mine, [], 10)).not.toThrow();
  });

  it('createCheckoutOrder and openPayment write the order, its lines, search terms, placed event and session', async () => {
    const p = await createProduct(t.db, { priceCents: 500 });
    const ctx = context();
    const orderId = newOrderId();
    const sessionId = newCheckoutSessionId('test');
    const i = input([{ productId: p.id, quantity: 2 }]);
    const out = await rolledBack(async (trx) => {
      const priced = await price(trx, i, ctx);
      const writes: PendingWrite[] = [];
      await createCheckoutOrder(trx, { orderId, sessionId, priced, input: i, ctx }, writes);
      const { url } = openPayment(trx, { orderId, sessionId, amountCents: priced.totalCents, ctx }, writes);
      const before = await trx.selectFrom('orders').select('id').where('id', '=', orderId).execute();
      await writeTogether(trx, writes);
      return {
        url,
        total: priced.totalCents,
        before,
        order: await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst(),
        lines: await trx.selectFrom('order_items').selectAll().where('order_id', '=', orderId).execute(),
        terms: await trx.selectFrom('order_search_terms').select('term').where('order_id', '=', orderId).execute(),
        events: await trx.selectFrom('order_events').select(['type', 'actor_label']).where('order_id', '=', orderId).execute(),
        session: await trx.selectFrom('payment_sessions').selectAll().where('id', '=', sessionId).executeTakeFirst(),
      };
    });
    // Nothing is written until the caller runs the writes (with the reservation).
    expect(out.before).toEqual([]);
    expect(out.order).toMatchObject({
      origin: 'checkout',
      status: 'pending',
      payment_status: 'unpaid',
      payment_provider: 'test',
      email: 'pat@example.com',
      payment_session_id: sessionId,
      total_cents: out.total,
      guest_token_hash: ctx.deviceHash,
    });
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0]).toMatchObject({ product_id: p.id, quantity: 2, price_cents: 500 });
    expect(out.terms.map((x) => x.term)).toContain('pat@example.com');
    expect(out.events).toEqual([{ type: 'placed', actor_label: 'customer' }]);
    expect(out.session).toMatchObject({
      order_id: orderId,
      status: 'open',
      amount_cents: out.total,
      url: `http://shop.test/pay/${sessionId}`,
    });
  });

  it('holdCoupon writes the order first, then holds one use of the coupon; nothing without one', async () => {
    const p = await createProduct(t.db);
    const coupon = await createCoupon(t.db, { code: `HOLD${randomString(5).toUpperCase()}`, maxUses: 5 });
    const ctx = context();
    const orderId = newOrderId();
    const i = input([{ productId: p.id, quantity: 1 }], coupon.code);
    const out = await rolledBack(async (trx) => {
      const priced = await price(trx, i, ctx);
      const writes: PendingWrite[] = [];
      await createCheckoutOrder(trx, { orderId, sessionId: newCheckoutSessionId('test'), priced, input: i, ctx }, writes);
      const noCoupon = { ...priced, coupon: null };
      await holdCoupon(trx, { orderId, priced: noCoupon, who: holderOf(ctx), expiresAt: new Date(Date.now() + 60_000) }, writes);
      const left = writes.length;
      await holdCoupon(trx, { orderId, priced, who: holderOf(ctx), expiresAt: new Date(Date.now() + 60_000) }, writes);
      return {
        left,
        after: writes.length,
        holds: await trx.selectFrom('coupon_holds').selectAll().where('order_id', '=', orderId).execute(),
      };
    });
    expect(out.left).toBeGreaterThan(0);
    expect(out.after).toBe(0);
    expect(out.holds).toHaveLength(1);
  });

  it('reserveStock reserves the units with the writes, or refuses 409 when short', async () => {
    const p = await createProduct(t.db, { inventory: 2 });
    const ctx = context();
    const orderId = newOrderId();
    const sessionId = newCheckoutSessionId('test');
    const i = input([{ productId: p.id, quantity: 2 }]);
    const reserved = await rolledBack(async (trx) => {
      const priced = await price(trx, i, ctx);
      const writes: PendingWrite[] = [];
      await createCheckoutOrder(trx, { orderId, sessionId, priced, input: i, ctx }, writes);
      openPayment(trx, { orderId, sessionId, amountCents: priced.totalCents, ctx }, writes);
      const stock = {
        orderId,
        priced,
        who: holderOf(ctx),
        now: ctx.now,
        expiresAt: new Date(Date.now() + 60_000),
        giveBack: new Map(),
        atCommit: false,
      };
      await reserveStock(trx, stock, writes);
      // Another shopper's order for the same units: short now.
      const otherCtx = context();
      const other = { ...stock, orderId: newOrderId(), who: holderOf(otherCtx) };
      const otherWrites: PendingWrite[] = [];
      await createCheckoutOrder(
        trx,
        { orderId: other.orderId, sessionId: newCheckoutSessionId('test'), priced, input: i, ctx: otherCtx },
        otherWrites,
      );
      const refused = await reserveStock(trx, other, otherWrites).then(
        () => null,
        (err: unknown) => err,
      );
      return { rows: await trx.selectFrom('stock_reservations').select(['quantity']).where('order_id', '=', orderId).execute(), refused };
    });
    expect(reserved.rows.reduce((n, r) => n + r.quantity, 0)).toBe(2);
    expect(reserved.refused).toBeInstanceOf(HttpError);
    expect((reserved.refused as HttpError).statusCode).toBe(409);
  });

  it("createOrder makes the owner's order: origin owner, no provider until paid, placed by the owner", async () => {
    const id = newOrderId();
    await t.db.transaction().execute((trx) =>
      createOrder(trx, {
        id,
        origin: 'owner',
        status: 'processing',
        lines: [],
        money: { subtotalCents: 850, discountCents: 0, shippingCents: 70, taxCents: 80, totalCents: 1000 },
        customer: { userId: null, email: 'walkin@example.com', shippingAddress: JSON.stringify('At the counter') },
        placed: { actor: SYSTEM_ACTOR, data: { totalCents: 1000, enteredByOwner: true } },
        at: new Date(),
      }),
    );
    const order = await t.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      origin: 'owner',
      payment_provider: null,
      payment_session_id: null,
      guest_token_hash: null,
      status: 'processing',
    });
    const events = await t.db.selectFrom('order_events').select(['type', 'data']).where('order_id', '=', id).execute();
    expect(events.map((e) => e.type)).toEqual(['placed']);
    const terms = await t.db.selectFrom('order_search_terms').select('term').where('order_id', '=', id).execute();
    expect(terms.map((x) => x.term)).toContain('walkin@example.com');
  });
});
