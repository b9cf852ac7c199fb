import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../../test/harness.js';
import { placeCheckout } from '../../test/checkout-orders.js';
import { createCoupon, createProduct } from '../../db/seed/factories.js';
import { lockOrderRows } from './lock-order-rows.js';
import { markOrderPaid } from './mark-order-paid.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function markPaid(sessionId: string, shortfall: string[], now: Date): Promise<void> {
  await t.db.transaction().execute(async (trx) => {
    const locked = await lockOrderRows(trx, t.dialect, sessionId);
    if (locked.alreadyPaid) throw new Error('paid already');
    await markOrderPaid(trx, locked.rows, shortfall, now);
  });
}

describe(`markOrderPaid on ${testDialect()}`, () => {
  it('marks the order paid, completes the session, releases its coupon hold (its stock reservation goes with the units: takeStock) and records who was paid', async () => {
    const p = await createProduct(t.db, { inventory: 9 });
    const coupon = await createCoupon(t.db);
    const { orderId, sessionId } = await placeCheckout(t.db, t.dialect, {
      items: [{ productId: p.id, quantity: 2 }],
      couponCode: coupon.code,
    });
    expect(await t.db.selectFrom('stock_reservations').select('order_id').where('order_id', '=', orderId).execute()).toHaveLength(1);
    expect(await t.db.selectFrom('coupon_holds').select('order_id').where('order_id', '=', orderId).execute()).toHaveLength(1);
    const now = new Date('2026-05-01T12:00:00.000Z');
    await markPaid(sessionId, [], now);

    const order = await t.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      payment_status: 'paid',
      status: 'completed',
      paid_at: now.toISOString(),
      updated_at: now.toISOString(),
      stock_shortfall: null,
    });
    const session = await t.db.selectFrom('payment_sessions').selectAll().where('id', '=', sessionId).executeTakeFirstOrThrow();
    expect(session).toMatchObject({ status: 'complete', completed_at: now.toISOString() });
    expect(await t.db.selectFrom('stock_reservations').select('order_id').where('order_id', '=', orderId).execute()).toHaveLength(1);
    expect(await t.db.selectFrom('coupon_holds').select('order_id').where('order_id', '=', orderId).execute()).toEqual([]);
    const paid = await t.db.selectFrom('order_events').selectAll().where('order_id', '=', orderId).where('type', '=', 'paid').execute();
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ actor_label: 'customer', created_at: now.toISOString() });
    expect(JSON.parse(paid[0]!.data)).toEqual({ amountCents: order.total_cents, provider: 'test', sessionId });
  });

  it('flags a shortfall on the order and on its paid event; a Stripe payment is recorded as Stripe', async () => {
    const p = await createProduct(t.db);
    const { orderId, sessionId } = await placeCheckout(t.db, t.dialect, { items: [{ productId: p.id, quantity: 1 }] });
    await t.db.updateTable('orders').set({ payment_provider: 'stripe' }).where('id', '=', orderId).execute();
    await markPaid(sessionId, ['Cloth: 2 ordered, 1 in stock', 'Mop: 1 ordered, 0 in stock'], new Date());
    const order = await t.db.selectFrom('orders').select('stock_shortfall').where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(order.stock_shortfall).toBe('Cloth: 2 ordered, 1 in stock; Mop: 1 ordered, 0 in stock');
    const paid = await t.db
      .selectFrom('order_events')
      .selectAll()
      .where('order_id', '=', orderId)
      .where('type', '=', 'paid')
      .executeTakeFirstOrThrow();
    expect(paid.actor_label).toBe('Stripe');
    expect(JSON.parse(paid.data)).toMatchObject({
      provider: 'stripe',
      stockShortfall: 'Cloth: 2 ordered, 1 in stock; Mop: 1 ordered, 0 in stock',
    });
  });
});
