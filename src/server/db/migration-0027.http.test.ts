import { afterAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { createTestDatabase, testDialect, type TestDb } from '../test/harness.js';
import { openDatabase } from './database.js';
import { tablesOf } from '../test/db-tables.js';
import { migrateToLatest, migrateUpTo } from './migrate.js';

const dbs: TestDb[] = [];
afterAll(async () => {
  for (const d of dbs) await d.drop();
});

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
/** More order lines than one backfill batch (20,000), so the keyset walk crosses a boundary. */
const BULK_LINES = 20_003;

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyDb = Kysely<any>;
type Row = Record<string, unknown>;

/**
 * A shop as migration 0026 left it, written with plain inserts (the app's factories write today's
 * schema): four products with stock items `stk_<id>` and a ledger that adds up to each level; a
 * paid order, a refunded one whose units came back, a cancelled paid one whose units came back, a
 * pending refund with return lines of the old shape, an open checkout holding counted firm
 * reservations (and an ended one), an expired order with more lines than a backfill batch, an
 * open back-in-stock request, a free-gift coupon, a saved cart of 4-tuples and a product nobody
 * bought.
 */
async function seedBefore0027(db: AnyDb): Promise<void> {
  const products = [
    {
      id: 'cloth',
      price_cents: 500,
      sku: 'CL-40',
      weight_lbs: 1.5,
      images: '["/uploads/cloth-1.webp","/uploads/cloth-2.webp"]',
      inventory: 40,
    },
    { id: 'mop', price_cents: 1299, sku: 'MOP-2', weight_lbs: 3.25, images: '["/uploads/mop-1.webp","/uploads/mop-2.webp"]', inventory: 7 },
    { id: 'refill', price_cents: 350, sku: null, weight_lbs: null, images: '[]', inventory: 0 },
    { id: 'quiet', price_cents: 800, sku: 'Q-1', weight_lbs: 0.75, images: '["/uploads/quiet.webp"]', inventory: 12 },
  ];
  for (const p of products)
    await db
      .insertInto('products')
      .values({ ...p, name: `The ${p.id}`, description: 'd', featured: 0, created_at: at(900), updated_at: at(800) })
      .execute();
  const items = [
    { product_id: 'cloth', on_hand: 40, low_stock_threshold: 10, alert_state: 'ok', reserved: 5 },
    { product_id: 'mop', on_hand: 7, low_stock_threshold: 8, alert_state: 'low', reserved: 2 },
    { product_id: 'refill', on_hand: 0, low_stock_threshold: 10, alert_state: 'out', reserved: 0 },
    { product_id: 'quiet', on_hand: 12, low_stock_threshold: 3, alert_state: 'ok', reserved: 0 },
  ];
  for (const i of items)
    await db
      .insertInto('stock_items')
      .values({ ...i, id: `stk_${i.product_id}`, created_at: at(700), updated_at: at(60) })
      .execute();

  const orders = [
    { id: 'o-paid', payment_status: 'paid', status: 'completed', restocked_at: null, refunded_cents: 0, lines: { cloth: 3, mop: 1 } },
    { id: 'o-refunded', payment_status: 'refunded', status: 'completed', restocked_at: at(100), refunded_cents: 1000, lines: { cloth: 2 } },
    { id: 'o-cancelled', payment_status: 'paid', status: 'cancelled', restocked_at: at(90), refunded_cents: 0, lines: { mop: 2 } },
    { id: 'o-open', payment_status: 'unpaid', status: 'pending', restocked_at: null, refunded_cents: 0, lines: { cloth: 5, mop: 2 } },
    { id: 'o-ended', payment_status: 'expired', status: 'cancelled', restocked_at: null, refunded_cents: 0, lines: { refill: 1 } },
  ];
  for (const [n, o] of orders.entries()) {
    await db
      .insertInto('orders')
      .values({
        id: o.id,
        order_number: `EC-${1000 + n}`,
        email: 'buyer@example.com',
        status: o.status,
        payment_status: o.payment_status,
        guest_token_hash: `dev-${o.id}`,
        subtotal_cents: 2000 + n,
        discount_cents: 100 + n,
        shipping_cents: 500,
        tax_cents: 150 + n,
        total_cents: 2550 + n,
        refunded_cents: o.refunded_cents,
        coupon_code: n === 0 ? 'GIFT' : null,
        created_at: at(300 - n),
        updated_at: at(200 - n),
        paid_at: o.payment_status === 'paid' || o.payment_status === 'refunded' ? at(299 - n) : null,
        restocked_at: o.restocked_at,
      })
      .execute();
    let line = 0;
    for (const [productId, quantity] of Object.entries(o.lines)) {
      const p = products.find((x) => x.id === productId)!;
      await db
        .insertInto('order_items')
        .values({
          id: `${o.id}-${++line}`,
          order_id: o.id,
          product_id: productId,
          product_name: `The ${productId}`,
          product_image: JSON.parse(p.images)[0] ?? null,
          sku: p.sku,
          quantity,
          price_cents: p.price_cents,
          size: 'One Size',
          color: 'Default',
          is_free_gift: 0,
        })
        .execute();
    }
  }
  await sql`
    with recursive n(i) as (select 1 union all select i + 1 from n where i < ${BULK_LINES})
    insert into order_items (id, order_id, product_id, product_name, product_image, sku, quantity, price_cents, size, color, is_free_gift)
    select 'o-ended-bulk-' || i, 'o-ended', case when i % 2 = 0 then 'quiet' else 'gone' end, 'Bulk line', null, null, 1, 100, 'One Size', 'Default', 0
    from n`.execute(db);

  // The ledger: an opening level, a sale per paid order, a return per restocked one; it adds up to each on_hand.
  const movement = (id: string, item: string, kind: string, quantity: number, orderId: string | null) => ({
    id,
    stock_item_id: `stk_${item}`,
    kind,
    quantity,
    order_id: orderId,
    actor_user_id: null,
    actor_label: kind === 'sold' ? 'Customer' : 'Shop',
    reference: orderId,
    note: null,
    created_at: at(kind === 'opening' ? 800 : 250),
  });
  await db
    .insertInto('stock_movements')
    .values([
      movement('mv_opening_stk_cloth', 'cloth', 'opening', 43, null),
      movement('mv_sold_o-paid_cloth', 'cloth', 'sold', -3, 'o-paid'),
      movement('mv_sold_o-refunded_cloth', 'cloth', 'sold', -2, 'o-refunded'),
      movement('mv_returned_o-refunded_cloth', 'cloth', 'returned', 2, 'o-refunded'),
      movement('mv_opening_stk_mop', 'mop', 'opening', 8, null),
      movement('mv_sold_o-paid_mop', 'mop', 'sold', -1, 'o-paid'),
      movement('mv_sold_o-cancelled_mop', 'mop', 'sold', -2, 'o-cancelled'),
      movement('mv_returned_o-cancelled_mop', 'mop', 'returned', 2, 'o-cancelled'),
      movement('mv_opening_stk_refill', 'refill', 'opening', 0, null),
      movement('mv_opening_stk_quiet', 'quiet', 'opening', 12, null),
    ])
    .execute();

  const firm = new Date(Date.now() + 8 * 60_000).toISOString();
  const expires = new Date(Date.now() + 30 * 60_000).toISOString();
  const reservation = (order_id: string, product_id: string, quantity: number, counted: number, released_at: string | null) => ({
    order_id,
    stock_item_id: `stk_${product_id}`,
    product_id,
    quantity,
    firm_until: released_at ? at(20) : firm,
    expires_at: released_at ? at(10) : expires,
    ip: '10.0.0.1',
    device_id: `dev-${order_id}`,
    user_id: null,
    created_at: at(2),
    released_at,
    counted,
  });
  await db
    .insertInto('stock_reservations')
    .values([
      reservation('o-open', 'cloth', 5, 1, null),
      reservation('o-open', 'mop', 2, 1, null),
      reservation('o-ended', 'refill', 1, 0, at(10)),
    ])
    .execute();

  await db
    .insertInto('refunds')
    .values([
      {
        id: 'rf-done',
        order_id: 'o-refunded',
        amount_cents: 1000,
        provider: 'stripe',
        status: 'succeeded',
        restock: 1,
        return_lines: '[{"productId":"cloth","quantity":2}]',
        actor_label: 'Owner',
        created_at: at(101),
        settled_at: at(100),
      },
      {
        id: 'rf-pending',
        order_id: 'o-paid',
        amount_cents: 1299,
        provider: 'stripe',
        status: 'pending',
        restock: 1,
        return_lines: '[{"productId":"mop","quantity":1}]',
        actor_label: 'Owner',
        created_at: at(5),
      },
    ])
    .execute();
  await db
    .insertInto('back_in_stock_requests')
    .values({
      id: 'bis-1',
      stock_item_id: 'stk_refill',
      product_id: 'refill',
      email: 'waiting@example.com',
      created_at: at(50),
      notified_at: null,
    })
    .execute();
  await db
    .insertInto('coupons')
    .values({
      id: 'cp-gift',
      code: 'GIFT',
      discount_type: 'fixed',
      discount_value: 0,
      valid_from: at(1000),
      is_active: 1,
      free_product_id: 'quiet',
      created_at: at(1000),
      updated_at: at(1000),
    })
    .execute();
  await db
    .insertInto('users')
    .values({ id: 'u-1', email: 'saver@example.com', full_name: 'Saver', password_hash: 'x', created_at: at(1000), updated_at: at(1000) })
    .execute();
  await db
    .insertInto('saved_carts')
    .values({
      user_id: 'u-1',
      lines: '[["cloth",2,"One Size","Default"],["mop",1,"One Size","Default"]]',
      coupon_code: 'GIFT',
      updated_at: at(30),
    })
    .execute();
}

const all = async (db: AnyDb, table: string, orderBy: string[]): Promise<Row[]> => {
  let q = db.selectFrom(table).selectAll();
  for (const column of orderBy) q = q.orderBy(column);
  return (await q.execute()) as Row[];
};
const without = (rows: Row[], ...columns: string[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).filter(([column]) => !columns.includes(column))));
const count = async (db: AnyDb, table: string) =>
  Number(
    (
      await db
        .selectFrom(table)
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const SNAPSHOT: [table: string, orderBy: string[]][] = [
  ['products', ['id']],
  ['stock_items', ['id']],
  ['stock_movements', ['id']],
  ['stock_reservations', ['order_id', 'stock_item_id']],
  ['back_in_stock_requests', ['id']],
  ['orders', ['id']],
  ['order_items', ['id']],
  ['refunds', ['id']],
  ['coupons', ['id']],
  ['saved_carts', ['user_id']],
];
/** What 0027 adds to each table (everything else must read exactly as before). */
/** Columns this migration adds, and later ones (the test migrates to the latest): 0033's last_units, 0037's status, 0052's reorder_after_days. */
const ADDED: Record<string, string[]> = {
  products: ['max_price_cents', 'sole_variant_id', 'status', 'reorder_after_days'],
  stock_items: ['variant_id'],
  stock_reservations: ['variant_id', 'last_units'],
  order_items: ['variant_id', 'variant_label', 'every_weeks', 'plan_discount_percent'],
  coupons: ['free_variant_id'],
  orders: ['origin'],
};

async function snapshot(db: AnyDb): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {};
  for (const [table, orderBy] of SNAPSHOT) out[table] = without(await all(db, table, orderBy), ...(ADDED[table] ?? []));
  return out;
}

async function sqliteForeignKeys(db: AnyDb): Promise<{ enabled: number; broken: unknown[] }> {
  const enabled = Number((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows[0]!.foreign_keys);
  return { enabled, broken: (await sql`pragma foreign_key_check`.execute(db)).rows };
}

const variantRow = (id: string, productId: string, option1: string, priceCents = 500) => ({
  id,
  product_id: productId,
  position: 1,
  option1,
  sku: `${id}-sku`,
  price_cents: priceCents,
  created_at: at(0),
  updated_at: at(0),
});

describe(`migration 0027 (product variants) on ${testDialect()}`, () => {
  it('gives every product one variant and every stock unit its variant, without changing a figure or a row', async () => {
    const testDb = await createTestDatabase();
    dbs.push(testDb);
    const { db: typed, schema, close } = openDatabase(testDb.url);
    const db = typed as unknown as AnyDb;
    try {
      await migrateUpTo(typed, schema, '0026-saved-carts');
      await seedBefore0027(db);
      const before = await snapshot(db);
      const ledgerRows = await count(db, 'stock_movements');

      expect(await migrateToLatest(typed, schema)).toContain('0027-product-variants');

      // Not a column of a row that existed changed, bar the ones this migration adds.
      expect(await snapshot(db)).toEqual(before);

      // One variant per product: `var_<id>`, its SKU and price, no options, weight and image inherited.
      const variants = await all(db, 'product_variants', ['id']);
      const products = before.products!;
      expect(variants).toEqual(
        products.map((p) => ({
          id: `var_${String(p.id)}`,
          product_id: p.id,
          position: 0,
          option1: '',
          option2: '',
          option3: '',
          sku: p.sku,
          price_cents: p.price_cents,
          compare_at_cents: null,
          weight_lbs: null,
          image: null,
          enabled: 1,
          // Migration 0034's unit size: none given.
          unit_quantity: null,
          unit: null,
          created_at: p.created_at,
          updated_at: expect.any(String),
        })),
      );
      expect(await count(db, 'product_options')).toBe(0);
      expect(
        (await db.selectFrom('products').select(['id', 'sole_variant_id', 'max_price_cents']).orderBy('id').execute()).map((p) => [
          p.id,
          p.sole_variant_id,
          p.max_price_cents,
        ]),
      ).toEqual([
        ['cloth', 'var_cloth', null],
        ['mop', 'var_mop', null],
        ['quiet', 'var_quiet', null],
        ['refill', 'var_refill', null],
      ]);

      // Each stock item is its product's variant's; the ledger is whole and adds up to each level, and `reserved` to its counted holds.
      const items = await db
        .selectFrom('stock_items')
        .select(['id', 'product_id', 'variant_id', 'on_hand', 'reserved'])
        .orderBy('id')
        .execute();
      expect(items.map((i) => [i.id, i.variant_id])).toEqual([
        ['stk_cloth', 'var_cloth'],
        ['stk_mop', 'var_mop'],
        ['stk_quiet', 'var_quiet'],
        ['stk_refill', 'var_refill'],
      ]);
      expect(await count(db, 'stock_movements')).toBe(ledgerRows);
      for (const i of items) {
        const ledger = await db
          .selectFrom('stock_movements')
          .select(sql<number>`coalesce(sum(quantity), 0)`.as('q'))
          .where('stock_item_id', '=', i.id)
          .executeTakeFirstOrThrow();
        expect(Number(ledger.q), i.id).toBe(Number(i.on_hand));
        const counted = await db
          .selectFrom('stock_reservations')
          .select(sql<number>`coalesce(sum(quantity), 0)`.as('q'))
          .where('stock_item_id', '=', i.id)
          .where('counted', '=', 1)
          .executeTakeFirstOrThrow();
        expect(Number(counted.q), i.id).toBe(Number(i.reserved));
      }
      const reservations = await db
        .selectFrom('stock_reservations')
        .select(['order_id', 'product_id', 'variant_id', 'quantity', 'counted'])
        .orderBy('order_id')
        .orderBy('product_id')
        .execute();
      expect(reservations).toEqual([
        { order_id: 'o-ended', product_id: 'refill', variant_id: 'var_refill', quantity: 1, counted: 0 },
        { order_id: 'o-open', product_id: 'cloth', variant_id: 'var_cloth', quantity: 5, counted: 1 },
        { order_id: 'o-open', product_id: 'mop', variant_id: 'var_mop', quantity: 2, counted: 1 },
      ]);

      // Every order line (across backfill batches) names its variant; none has a label.
      const lines = await db.selectFrom('order_items').select(['id', 'product_id', 'variant_id', 'variant_label']).execute();
      expect(lines).toHaveLength(7 + BULK_LINES);
      expect(lines.filter((l) => l.variant_id !== `var_${l.product_id}` || l.variant_label !== '')).toEqual([]);
      // A line whose product is gone still names the variant it would have been.
      expect(lines.find((l) => l.id === 'o-ended-bulk-1')).toMatchObject({ product_id: 'gone', variant_id: 'var_gone' });
      expect((await db.selectFrom('coupons').select('free_variant_id').execute()).map((c) => c.free_variant_id)).toEqual([null]);

      if (testDb.dialect === 'sqlite') expect(await sqliteForeignKeys(db)).toEqual({ enabled: 1, broken: [] });

      // A product may now have several variants, each with its own stock item; never two of one combination.
      await db
        .insertInto('product_options')
        .values({ product_id: 'cloth', position: 1, name: 'Scent', values: '["Unscented","Lavender"]' })
        .execute();
      await db.updateTable('product_variants').set({ option1: 'Unscented' }).where('id', '=', 'var_cloth').execute();
      await db
        .insertInto('product_variants')
        .values(variantRow('var_cloth_lav', 'cloth', 'Lavender', 650))
        .execute();
      await db
        .insertInto('stock_items')
        .values({
          id: 'stk_var_cloth_lav',
          product_id: 'cloth',
          variant_id: 'var_cloth_lav',
          on_hand: 4,
          created_at: at(0),
          updated_at: at(0),
        })
        .execute();
      expect(await db.selectFrom('stock_items').select('id').where('product_id', '=', 'cloth').orderBy('id').execute()).toEqual([
        { id: 'stk_cloth' },
        { id: 'stk_var_cloth_lav' },
      ]);
      await expect(
        db
          .insertInto('product_variants')
          .values(variantRow('var_cloth_lav2', 'cloth', 'Lavender'))
          .execute(),
      ).rejects.toThrow();
      await expect(
        db
          .insertInto('stock_items')
          .values({ id: 'stk_twice', product_id: 'cloth', variant_id: 'var_cloth_lav', on_hand: 1, created_at: at(0), updated_at: at(0) })
          .execute(),
      ).rejects.toThrow();
      await expect(
        db
          .insertInto('stock_items')
          .values({ id: 'stk_nobody', product_id: 'cloth', variant_id: 'var_nobody', on_hand: 1, created_at: at(0), updated_at: at(0) })
          .execute(),
      ).rejects.toThrow();

      // A product goes with its options, variants, stock items and their ledger; a coupon's gift variant is cleared.
      await db
        .insertInto('coupons')
        .values({
          id: 'cp-lav',
          code: 'LAV',
          discount_type: 'fixed',
          discount_value: 0,
          valid_from: at(0),
          free_product_id: 'cloth',
          free_variant_id: 'var_cloth_lav',
          created_at: at(0),
          updated_at: at(0),
        })
        .execute();
      await db.deleteFrom('products').where('id', '=', 'cloth').execute();
      expect(await db.selectFrom('product_variants').select('id').where('product_id', '=', 'cloth').execute()).toEqual([]);
      expect(await db.selectFrom('product_options').select('name').where('product_id', '=', 'cloth').execute()).toEqual([]);
      expect(await db.selectFrom('stock_items').select('id').where('product_id', '=', 'cloth').execute()).toEqual([]);
      expect(await db.selectFrom('stock_movements').select('id').where('stock_item_id', '=', 'stk_cloth').execute()).toEqual([]);
      expect(
        await db.selectFrom('coupons').select(['free_product_id', 'free_variant_id']).where('id', '=', 'cp-lav').executeTakeFirstOrThrow(),
      ).toEqual({
        free_product_id: null,
        free_variant_id: null,
      });
      // Deleting a variant alone takes its stock item with it.
      await db.deleteFrom('product_variants').where('id', '=', 'var_mop').execute();
      expect(await db.selectFrom('stock_items').select('id').where('product_id', '=', 'mop').execute()).toEqual([]);
      if (testDb.dialect === 'sqlite') expect(await sqliteForeignKeys(db)).toEqual({ enabled: 1, broken: [] });
    } finally {
      await close();
    }
  });

  it('is undone only while every product has one plain variant, and then gives stock back its one item per product', async () => {
    const testDb = await createTestDatabase();
    dbs.push(testDb);
    const { db: typed, schema, close } = openDatabase(testDb.url);
    const db = typed as unknown as AnyDb;
    try {
      await migrateUpTo(typed, schema, '0026-saved-carts');
      await seedBefore0027(db);
      const before = await snapshot(db);
      await migrateUpTo(typed, schema, '0027-product-variants');

      await db
        .insertInto('product_variants')
        .values(variantRow('var_mop_big', 'mop', 'Big'))
        .execute();
      await expect(migrateUpTo(typed, schema, '0026-saved-carts')).rejects.toThrow(/cannot be undone/);
      await db.deleteFrom('product_variants').where('id', '=', 'var_mop_big').execute();

      expect(await migrateUpTo(typed, schema, '0026-saved-carts')).toEqual(['0027-product-variants']);
      expect(await snapshot(db)).toEqual(before);
      const tables = [...(await tablesOf(db, schema)).keys()];
      expect(tables).not.toContain('product_variants');
      // One item per product again.
      await expect(
        db
          .insertInto('stock_items')
          .values({ id: 'stk_mop_2', product_id: 'mop', on_hand: 1, created_at: at(0), updated_at: at(0) })
          .execute(),
      ).rejects.toThrow();
      if (testDb.dialect === 'sqlite') expect(await sqliteForeignKeys(db)).toEqual({ enabled: 1, broken: [] });

      expect(await migrateUpTo(typed, schema, '0027-product-variants')).toEqual(['0027-product-variants']);
      expect(await count(db, 'product_variants')).toBe(4);
    } finally {
      await close();
    }
  });
});
