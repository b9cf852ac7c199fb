import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../../test/harness.js';
import { placeCheckout } from '../../test/checkout-orders.js';
import { createCoupon, createProduct, createUser } from '../../db/seed/factories.js';
import { lockOrderRows } from './lock-order-rows.js';
import { redeemCoupon } from './redeem-coupon.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function redeem(sessionId: string, now = new Date()): Promise<void> {
  await t.db.transaction().execute(async (trx) => {
    const locked = await lockOrderRows(trx, t.dialect, sessionId);
    if (locked.alreadyPaid) throw new Error('paid already');
    await redeemCoupon(trx, locked.rows, now);
  });
}
const uses = async (code: string) =>
  (await t.db.selectFrom('coupons').select('current_uses').where('code', '=', code).executeTakeFirstOrThrow()).current_uses;
const redemptions = (orderId: string) => t.db.selectFrom('coupon_redemptions').selectAll().where('order_id', '=', orderId).execute();

describe(`redeemCoupon on ${testDialect()}`, () => {
  it('counts the use and records the redemption for the account, the browser and the normalized e-mail', async () => {
    const p = await createProduct(t.db);
    const coupon = await createCoupon(t.db, { code: 'REDEEMME', maxUses: 5, currentUses: 1 });
    const user = await createUser(t.db);
    const { orderId, sessionId } = await placeCheckout(t.db, t.dialect, {
      items: [{ productId: p.id, quantity: 1 }],
      couponCode: coupon.code,
      userId: user.id,
      email: 'Pat.Buyer+shop@Example.com',
    });
    const now = new Date('2026-06-01T08:00:00.000Z');
    await redeem(sessionId, now);
    expect(await uses('REDEEMME')).toBe(2);
    const order = await t.db.selectFrom('orders').select('guest_token_hash').where('id', '=', orderId).executeTakeFirstOrThrow();
    const rows = await redemptions(orderId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      coupon_id: coupon.id,
      user_id: user.id,
      device_id: order.guest_token_hash,
      email_normalized: 'pat.buyer@example.com',
      created_at: now.toISOString(),
    });
  });

  it('never counts past max_uses, but still records the redemption of a paid order', async () => {
    const p = await createProduct(t.db);
    const coupon = await createCoupon(t.db, { code: 'LASTONE', maxUses: 1 });
    const { orderId, sessionId } = await placeCheckout(t.db, t.dialect, {
      items: [{ productId: p.id, quantity: 1 }],
      couponCode: coupon.code,
    });
    await t.db.updateTable('coupons').set({ current_uses: 1 }).where('id', '=', coupon.id).execute();
    await redeem(sessionId);
    expect(await uses('LASTONE')).toBe(1);
    expect(await redemptions(orderId)).toHaveLength(1);
  });

  it('does nothing for an order without a coupon', async () => {
    const p = await createProduct(t.db);
    const { orderId, sessionId } = await placeCheckout(t.db, t.dialect, { items: [{ productId: p.id, quantity: 1 }] });
    await redeem(sessionId);
    expect(await redemptions(orderId)).toEqual([]);
  });
});
