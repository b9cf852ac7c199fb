import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../../test/harness.js';
import { placeCheckout } from '../../test/checkout-orders.js';
import { createProduct } from '../../db/seed/factories.js';
import { lockOrderRows } from './lock-order-rows.js';
import { takeStock } from './take-stock.js';
import { adjustStock } from '../../inventory/admin.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const stock = async (id: string) =>
  (await t.db.selectFrom('products').select('inventory').where('id', '=', id).executeTakeFirstOrThrow()).inventory;

class Short extends Error {
  constructor(readonly shortfall: string[]) {
    super('short');
  }
}

/** Locks the session's rows and takes its stock in one transaction, rolled back on a shortfall, as fulfilment does. */
async function take(sessionId: string, now = new Date()): Promise<string[]> {
  return t.db
    .transaction()
    .execute(async (trx) => {
      const locked = await lockOrderRows(trx, t.dialect, sessionId);
      if (locked.alreadyPaid) throw new Error('paid already');
      const shortfall = await takeStock(trx, locked.rows, now);
      if (shortfall.length) throw new Short(shortfall);
      return shortfall;
    })
    .catch((err: unknown) => {
      if (err instanceof Short) return err.shortfall;
      throw err;
    });
}

describe(`takeStock on ${testDialect()}`, () => {
  it('takes the ordered units while the order holds them, and reports no shortfall', async () => {
    const p = await createProduct(t.db, { name: 'Cloth', inventory: 5 });
    const { sessionId } = await placeCheckout(t.db, t.dialect, { items: [{ productId: p.id, quantity: 2 }] });
    // Others hold the other 3: this order's own hold is not counted against it.
    await placeCheckout(t.db, t.dialect, { items: [{ productId: p.id, quantity: 3 }] });
    expect(await take(sessionId)).toEqual([]);
    expect(await stock(p.id)).toBe(3);
  });

  it('after its hold lapsed takes nothing when others keep the units (the payment is refunded), and says what fell short', async () => {
    const p = await createProduct(t.db, { name: 'Sponge', inventory: 4 });
    // Two hours ago: its hold lapsed, and its firm time is outside the hour over which a product's last
    // units may be held firm (LAST_UNITS_WINDOW_MS). An hour ago, that firm time still used up the
    // hour's ten minutes, so the other checkout below held its units firm for only the milliseconds
    // between the two, and a loaded machine took longer than that to reach the take (seen side by side).
    const long = new Date(Date.now() - 2 * 60 * 60_000);
    const { sessionId } = await placeCheckout(t.db, t.dialect, { items: [{ productId: p.id, quantity: 3 }], now: long });
    await placeCheckout(t.db, t.dialect, { items: [{ productId: p.id, quantity: 2 }] });
    expect(await take(sessionId)).toEqual(['Sponge: 3 ordered, 2 in stock']);
    expect(await stock(p.id)).toBe(4);

    const q = await createProduct(t.db, { name: 'Brush', inventory: 1 });
    const late = await placeCheckout(t.db, t.dialect, { items: [{ productId: q.id, quantity: 1 }], now: long });
    await adjustStock(t.db, q.id, { reason: 'counted', quantity: 0 }, { userId: null, label: 'test' });
    expect(await take(late.sessionId)).toEqual(['Brush: 1 ordered, 0 in stock']);
    expect(await stock(q.id)).toBe(0);
  });

  it('names a product that left the catalogue', async () => {
    const p = await createProduct(t.db, { name: 'Gone Mop', inventory: 3 });
    const { sessionId } = await placeCheckout(t.db, t.dialect, { items: [{ productId: p.id, quantity: 1 }] });
    // The product's stock item went with it (its reservation too).
    await t.db.deleteFrom('stock_items').where('product_id', '=', p.id).execute();
    const shortfall = await take(sessionId);
    expect(shortfall).toEqual(['Gone Mop: 1 ordered, product no longer in the catalogue']);
    expect(await stock(p.id)).toBe(3);
  });
});
