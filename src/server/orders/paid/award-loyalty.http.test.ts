import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../../test/harness.js';
import { placeCheckout } from '../../test/checkout-orders.js';
import { createProduct, createUser } from '../../db/seed/factories.js';
import { lockOrderRows } from '../../checkout/fulfilment/lock-order-rows.js';
import { awardLoyalty } from './award-loyalty.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function award(sessionId: string, now = new Date()): Promise<void> {
  await t.db.transaction().execute(async (trx) => {
    const locked = await lockOrderRows(trx, t.dialect, sessionId);
    if (locked.alreadyPaid) throw new Error('paid already');
    await awardLoyalty(trx, locked.rows, now);
  });
}
const points = (id: string) =>
  t.db.selectFrom('users').select(['loyalty_points', 'total_points_earned']).where('id', '=', id).executeTakeFirstOrThrow();
const rewardCoupons = (userId: string) => t.db.selectFrom('coupons').selectAll().where('owner_user_id', '=', userId).execute();
const rewardMails = (to: string) =>
  t.db.selectFrom('email_outbox').selectAll().where('to_address', '=', to).where('template_id', '=', 'loyalty-reward').execute();

describe(`awardLoyalty on ${testDialect()}`, () => {
  it('adds 10 points for an order of $50 or more, 3 below; no reward before 300', async () => {
    const big = await createProduct(t.db, { priceCents: 6000 });
    const small = await createProduct(t.db, { priceCents: 1000 });
    const user = await createUser(t.db, { loyaltyPoints: 100, totalPointsEarned: 150 });
    await award((await placeCheckout(t.db, t.dialect, { items: [{ productId: big.id, quantity: 1 }], userId: user.id })).sessionId);
    expect(await points(user.id)).toEqual({ loyalty_points: 110, total_points_earned: 160 });
    await award((await placeCheckout(t.db, t.dialect, { items: [{ productId: small.id, quantity: 1 }], userId: user.id })).sessionId);
    expect(await points(user.id)).toEqual({ loyalty_points: 113, total_points_earned: 163 });
    expect(await rewardCoupons(user.id)).toEqual([]);
    expect(await rewardMails(user.email)).toEqual([]);
  });

  it('crossing 300 points gives the customer a one-use 15% coupon valid 90 days, and its e-mail', async () => {
    const p = await createProduct(t.db, { priceCents: 6000 });
    const user = await createUser(t.db, { loyaltyPoints: 295, totalPointsEarned: 295, fullName: 'Loyal Lou' });
    const { orderId, sessionId } = await placeCheckout(t.db, t.dialect, { items: [{ productId: p.id, quantity: 1 }], userId: user.id });
    const now = new Date('2026-07-01T00:00:00.000Z');
    await award(sessionId, now);
    expect(await points(user.id)).toEqual({ loyalty_points: 305, total_points_earned: 305 });
    const coupons = await rewardCoupons(user.id);
    expect(coupons).toHaveLength(1);
    expect(coupons[0]).toMatchObject({
      discount_type: 'percentage',
      discount_value: 15,
      max_uses: 1,
      current_uses: 0,
      valid_until: '2026-09-29T00:00:00.000Z',
      is_active: 1,
    });
    expect(coupons[0]!.code).toMatch(/^REWARD-[A-Z0-9]{8}$/);
    const mails = await rewardMails(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ order_id: orderId });
    expect(mails[0]!.html).toContain(coupons[0]!.code);
    expect(mails[0]!.text).toContain('Hi Loyal Lou');
    expect(mails[0]!.text).toContain('You have reached 305 loyalty points');
    expect(mails[0]!.text).toContain('valid until 2026-09-29');
  });

  it('gives a guest nothing', async () => {
    const p = await createProduct(t.db, { priceCents: 6000 });
    const { orderId, sessionId } = await placeCheckout(t.db, t.dialect, {
      items: [{ productId: p.id, quantity: 1 }],
      email: 'guest-loyal@example.com',
    });
    const before = await t.db.selectFrom('users').select(['id', 'loyalty_points']).orderBy('id').execute();
    await award(sessionId);
    expect(await t.db.selectFrom('users').select(['id', 'loyalty_points']).orderBy('id').execute()).toEqual(before);
    expect(await t.db.selectFrom('email_outbox').select('id').where('order_id', '=', orderId).execute()).toEqual([]);
  });
});
