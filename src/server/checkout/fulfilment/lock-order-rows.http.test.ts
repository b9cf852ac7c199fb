import { SelectQueryNode, type KyselyPlugin, type OperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../../test/harness.js';
import { placeCheckout } from '../../test/checkout-orders.js';
import { createCoupon, createProduct, createUser } from '../../db/seed/factories.js';
import { lockOrderRows } from './lock-order-rows.js';
import { paymentRefusal } from './check-payment.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Read = { table: string; locked: boolean };

/** Records every SELECT the step runs: its table and whether it locks (FOR UPDATE; PostgreSQL only). */
function recorder(reads: Read[]): KyselyPlugin {
  const tableOf = (node: SelectQueryNode): string => {
    type Table = { table?: { identifier?: { name?: string } } };
    // `from x as y` is an alias node around the table node.
    const from = node.from?.froms[0] as (OperationNode & Table & { node?: Table }) | undefined;
    return (from?.table ?? from?.node?.table)?.identifier?.name ?? '?';
  };
  return {
    transformQuery: ({ node }) => {
      if (SelectQueryNode.is(node)) {
        reads.push({ table: tableOf(node), locked: (node.endModifiers ?? []).some((m) => 'modifier' in m && m.modifier === 'ForUpdate') });
      }
      return node;
    },
    transformResult: async ({ result }) => result,
  };
}

describe(`lockOrderRows on ${testDialect()}`, () => {
  it('reads the order unlocked, then locks the coupon, the order, the session and the user, in that order (the stock is taken last, unlocked before)', async () => {
    const b = await createProduct(t.db, { id: 'lor-b', priceCents: 1000, inventory: 5 });
    const a = await createProduct(t.db, { id: 'lor-a', priceCents: 2000, inventory: 7 });
    const coupon = await createCoupon(t.db, { code: 'LOCKSTEP' });
    const user = await createUser(t.db);
    const { orderId, sessionId } = await placeCheckout(t.db, t.dialect, {
      items: [
        { productId: b.id, quantity: 1 },
        { productId: a.id, quantity: 2 },
      ],
      couponCode: coupon.code,
      userId: user.id,
    });

    const reads: Read[] = [];
    const result = await t.db.transaction().execute((trx) => lockOrderRows(trx.withPlugin(recorder(reads)), t.dialect, sessionId));
    expect(result.alreadyPaid).toBe(false);
    if (result.alreadyPaid) return;
    const { rows } = result;
    expect(rows.order).toMatchObject({ id: orderId, payment_status: 'unpaid', coupon_code: 'LOCKSTEP' });
    expect(rows.session).toMatchObject({ id: sessionId, status: 'open' });
    expect(rows.items.map((i) => i.product_id)).toEqual(['lor-a', 'lor-b']);
    expect(rows.productIds).toEqual(['lor-a', 'lor-b']);
    expect(rows.coupon?.code).toBe('LOCKSTEP');
    expect(rows.user?.id).toBe(user.id);

    // The order as seen and its lines come with one unlocked read (the session joined to the order and
    // its lines). The order and its session come in one statement: locked on PostgreSQL (orders first in its FROM).
    expect(reads).toEqual(
      t.dialect === 'postgres'
        ? [
            { table: 'payment_sessions', locked: false },
            { table: 'coupons', locked: true },
            { table: 'orders', locked: true },
            { table: 'users', locked: true },
          ]
        : [
            { table: 'payment_sessions', locked: false },
            { table: 'coupons', locked: false },
            { table: 'orders', locked: false },
            { table: 'users', locked: false },
          ],
    );
  });

  it('stops before any lock when the session took its payment already (paid, or refunded since)', async () => {
    const p = await createProduct(t.db, { priceCents: 500 });
    for (const status of ['paid', 'refunded'] as const) {
      const { orderId, sessionId } = await placeCheckout(t.db, t.dialect, { items: [{ productId: p.id, quantity: 1 }] });
      await t.db.updateTable('orders').set({ payment_status: status }).where('id', '=', orderId).execute();
      await t.db.updateTable('payment_sessions').set({ status: 'complete' }).where('id', '=', sessionId).execute();
      const reads: Read[] = [];
      const result = await t.db.transaction().execute((trx) => lockOrderRows(trx.withPlugin(recorder(reads)), t.dialect, sessionId));
      expect(result).toEqual({ alreadyPaid: true, orderId });
      expect(reads.map((r) => r.table)).toEqual(['payment_sessions']);
    }
  });

  it('an order paid another way is locked, not answered as paid: its payment is for the caller to refuse (check-payment.ts)', async () => {
    const p = await createProduct(t.db, { priceCents: 500 });
    const { orderId, sessionId } = await placeCheckout(t.db, t.dialect, { items: [{ productId: p.id, quantity: 1 }] });
    await t.db.updateTable('orders').set({ payment_status: 'paid' }).where('id', '=', orderId).execute();
    const result = await t.db.transaction().execute((trx) => lockOrderRows(trx, t.dialect, sessionId));
    expect(result.alreadyPaid).toBe(false);
    if (result.alreadyPaid) return;
    expect(paymentRefusal(result.rows, null, new Date())).toBe('order_paid');
  });

  it('locks no coupon and no user for a guest without a coupon', async () => {
    const p = await createProduct(t.db, { priceCents: 500 });
    const { sessionId } = await placeCheckout(t.db, t.dialect, { items: [{ productId: p.id, quantity: 1 }] });
    const reads: Read[] = [];
    const result = await t.db.transaction().execute((trx) => lockOrderRows(trx.withPlugin(recorder(reads)), t.dialect, sessionId));
    expect(result.alreadyPaid).toBe(false);
    if (!result.alreadyPaid) expect([result.rows.coupon, result.rows.user]).toEqual([undefined, undefined]);
    expect(reads.map((r) => r.table)).toEqual(['payment_sessions', 'orders']);
  });

  it('answers 404 for an unknown session', async () => {
    await expect(t.db.transaction().execute((trx) => lockOrderRows(trx, t.dialect, 'cs_test_nope'))).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});
