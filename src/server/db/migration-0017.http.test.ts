import { afterAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { createTestDatabase, testDialect, type TestDb } from '../test/harness.js';
import { openDatabase } from './database.js';
import { migrateToLatest, migrateUpTo } from './migrate.js';
import { reservedUnits } from '../inventory/reservations.js';
import { orderStockLines } from '../inventory/order-stock.js';

const dbs: TestDb[] = [];
afterAll(async () => {
  for (const d of dbs) await d.drop();
});

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

/**
 * A shop as migration 0016 left it: stock on the product rows, a paid order, a refunded one whose
 * units came back, a cancelled paid one whose units came back, a paid shipped one, and an open
 * checkout holding units (its hold row), plus a product nobody bought.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function seedBefore0017(db: Kysely<any>): Promise<void> {
  for (const [id, inventory] of [
    ['cloth', 40],
    ['mop', 7],
    ['refill', 0],
    ['quiet', 12],
  ] as const) {
    await db
      .insertInto('products')
      .values({
        id,
        name: id,
        description: 'd',
        price_cents: 500,
        images: '[]',
        featured: 0,
        inventory,
        created_at: at(600),
        updated_at: at(600),
      })
      .execute();
  }
  const orders = [
    { id: 'o-paid', payment_status: 'paid', status: 'completed', restocked_at: null, lines: { cloth: 3, mop: 1 } },
    { id: 'o-refunded', payment_status: 'refunded', status: 'completed', restocked_at: at(100), lines: { cloth: 2 } },
    { id: 'o-cancelled', payment_status: 'paid', status: 'cancelled', restocked_at: at(90), lines: { mop: 2, refill: 1 } },
    { id: 'o-shipped', payment_status: 'paid', status: 'shipped', restocked_at: null, lines: { refill: 4 } },
    { id: 'o-open', payment_status: 'unpaid', status: 'pending', restocked_at: null, lines: { cloth: 5, mop: 2 } },
  ];
  for (const o of orders) {
    await db
      .insertInto('orders')
      .values({
        id: o.id,
        order_number: o.id.toUpperCase(),
        email: 'buyer@example.com',
        status: o.status,
        payment_status: o.payment_status,
        guest_token_hash: `dev-${o.id}`,
        total_cents: 1000,
        created_at: at(200),
        updated_at: at(200),
        paid_at: o.payment_status === 'unpaid' ? null : at(199),
        restocked_at: o.restocked_at,
      })
      .execute();
    let n = 0;
    for (const [productId, quantity] of Object.entries(o.lines)) {
      await db
        .insertInto('order_items')
        .values({
          id: `${o.id}-${++n}`,
          order_id: o.id,
          product_id: productId,
          product_name: productId,
          quantity,
          price_cents: 500,
          size: 'One Size',
          color: 'Default',
          is_free_gift: 0,
        })
        .execute();
    }
  }
  const holdEnds = new Date(Date.now() + 30 * 60_000).toISOString();
  await db
    .insertInto('stock_holds')
    .values([
      {
        order_id: 'o-open',
        product_id: 'cloth',
        quantity: 5,
        expires_at: holdEnds,
        ip: '10.0.0.1',
        device_id: 'dev-o-open',
        user_id: null,
      },
      { order_id: 'o-open', product_id: 'mop', quantity: 2, expires_at: holdEnds, ip: '10.0.0.1', device_id: 'dev-o-open', user_id: null },
    ])
    .execute();
}

describe(`migration 0017 (inventory) on ${testDialect()}`, () => {
  it('moves stock and holds into the inventory tables without changing a figure anyone sees', async () => {
    const testDb = await createTestDatabase();
    dbs.push(testDb);
    const { db, schema, close } = openDatabase(testDb.url);
    try {
      await migrateUpTo(db, schema, '0016-audit-log');
      await seedBefore0017(db);
      const products = ['cloth', 'mop', 'quiet', 'refill'];
      // What the owner saw (the recorded level) and what a shopper could buy (level less holds).
      const recorded = async () =>
        Object.fromEntries(
          (await db.selectFrom('products').select(['id', 'inventory']).orderBy('id').execute()).map((p) => [p.id, Number(p.inventory)]),
        );
      const before = await recorded();
      const buyableBefore = { cloth: 35, mop: 5, quiet: 12, refill: 0 };

      expect(await migrateToLatest(db, schema)).toContain('0017-inventory');

      // The owner's figures: the product's copy and the stock item's level, unchanged.
      expect(await recorded()).toEqual(before);
      const items = await db.selectFrom('stock_items').select(['product_id', 'on_hand', 'alert_state']).orderBy('product_id').execute();
      expect(items.map((i) => [i.product_id, Number(i.on_hand), i.alert_state])).toEqual([
        ['cloth', 40, 'ok'],
        ['mop', 7, 'low'],
        ['quiet', 12, 'ok'],
        ['refill', 0, 'out'],
      ]);
      // A shopper's figures: the open checkout still keeps its units.
      const held = await reservedUnits(db, products, new Date());
      for (const id of products) expect(before[id]! - (held.get(id) ?? 0), id).toBe(buyableBefore[id as keyof typeof buyableBefore]);
      const reservation = await db.selectFrom('stock_reservations').selectAll().where('product_id', '=', 'cloth').executeTakeFirstOrThrow();
      expect(reservation).toMatchObject({ order_id: 'o-open', quantity: 5, ip: '10.0.0.1', device_id: 'dev-o-open', released_at: null });
      expect(Date.parse(reservation.firm_until)).toBeLessThanOrEqual(Date.now() + 10 * 60_000);

      // The ledger adds up to each level, and knows what each order took and what came back.
      const sums = await db
        .selectFrom('stock_movements as m')
        .innerJoin('stock_items as s', 's.id', 'm.stock_item_id')
        .select(['s.product_id', sql<number | string>`sum(m.quantity)`.as('q')])
        .groupBy('s.product_id')
        .orderBy('s.product_id')
        .execute();
      expect(sums.map((r) => [r.product_id, Number(r.q)])).toEqual([
        ['cloth', 40],
        ['mop', 7],
        ['quiet', 12],
        ['refill', 0],
      ]);
      expect(await orderStockLines(db, 'o-paid')).toEqual([
        { productId: 'cloth', variantId: 'var_cloth', name: 'cloth', ordered: 3, out: 3, returned: 0 },
        { productId: 'mop', variantId: 'var_mop', name: 'mop', ordered: 1, out: 1, returned: 0 },
      ]);
      expect(await orderStockLines(db, 'o-refunded')).toEqual([
        { productId: 'cloth', variantId: 'var_cloth', name: 'cloth', ordered: 2, out: 0, returned: 2 },
      ]);
      expect((await orderStockLines(db, 'o-cancelled')).map((l) => [l.productId, l.out, l.returned])).toEqual([
        ['mop', 0, 2],
        ['refill', 0, 1],
      ]);
      expect((await orderStockLines(db, 'o-shipped')).map((l) => [l.productId, l.out])).toEqual([['refill', 4]]);
      expect((await orderStockLines(db, 'o-open')).map((l) => l.out)).toEqual([0, 0]);
      // The opening row comes first in each history.
      const first = await db
        .selectFrom('stock_movements')
        .select(['kind', 'quantity'])
        .where('stock_item_id', '=', 'stk_cloth')
        .orderBy('created_at')
        .orderBy('id')
        .executeTakeFirstOrThrow();
      expect(first).toEqual({ kind: 'opening', quantity: 43 });
    } finally {
      await close();
    }
  });
});
