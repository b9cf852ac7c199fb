import { sql, type Kysely } from 'kysely';

/**
 * Stock gets one owner, src/server/inventory (issue [2/6], decision 0022).
 *
 * - `stock_items`: the stocked unit, one per product today (one per variant later): its level
 *   (`on_hand`), its low-stock threshold (default 10, the shop's "Only N left" line) and where its
 *   level stands against it (`alert_state`: ok, low, out), so the owner is told once per crossing.
 * - `stock_movements`: the ledger. Every change of a level is a row (opening, received, counted,
 *   damaged, correction, sold, returned, taken again), with who, the order or reference, a note
 *   and the time. A level always equals the sum of its item's rows.
 * - `stock_reservations`: what open checkouts hold, per stock item. A reservation keeps the units
 *   from other shoppers only until `firm_until` (10 minutes at most per shopper and product); it
 *   stays the holder's until `expires_at` (their payment page, for the cap on units held). Ended
 *   ones keep their row (`released_at`) for a while: the holder's window is counted from them.
 * - `back_in_stock_requests`: "Notify me when it's back".
 *
 * Nothing a shopper or the owner sees changes: each product's level is its `inventory`; today's
 * holds become reservations firm until they would have ended or 10 minutes from now, whichever
 * comes first. The ledger starts with each product's opening level such that, with a `sold` row per
 * paid order and a `returned` row per order whose units came back, it adds up to today's figure;
 * so the owner can later return units of an order placed before the ledger existed.
 * `products.inventory` stays: the inventory module's copy of the product's level, written only by
 * it in the same transaction as the ledger row, read by the catalogue.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  const now = new Date().toISOString();

  await db.schema
    .createTable('stock_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('product_id', 'text', (c) => c.notNull().unique().references('products.id').onDelete('cascade'))
    .addColumn('on_hand', 'integer', (c) => c.notNull().check(sql`on_hand >= 0`))
    .addColumn('low_stock_threshold', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(10)
        .check(sql`low_stock_threshold >= 0`),
    )
    .addColumn('alert_state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('ok')
        .check(sql`alert_state in ('ok', 'low', 'out')`),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The Products tab's filters (low, sold out: `alert_state` always says where the level stands) and its lowest-first sort.
  await db.schema.createIndex('stock_items_alert_idx').on('stock_items').columns(['alert_state', 'on_hand']).execute();
  await db.schema.createIndex('stock_items_on_hand_idx').on('stock_items').columns(['on_hand']).execute();

  await db.schema
    .createTable('stock_movements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('stock_item_id', 'text', (c) => c.notNull().references('stock_items.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in ('opening', 'received', 'counted', 'damaged', 'correction', 'sold', 'returned', 'taken')`),
    )
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('order_id', 'text')
    .addColumn('actor_user_id', 'text')
    .addColumn('actor_label', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stock_movements_item_idx').on('stock_movements').columns(['stock_item_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('stock_movements_order_idx').on('stock_movements').columns(['order_id']).execute();

  await db.schema
    .createTable('stock_reservations')
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('stock_item_id', 'text', (c) => c.notNull().references('stock_items.id').onDelete('cascade'))
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('firm_until', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('device_id', 'text')
    .addColumn('user_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('released_at', 'text')
    .addPrimaryKeyConstraint('stock_reservations_pk', ['order_id', 'stock_item_id'])
    .execute();
  // What keeps units from other shoppers: one index range per product (live rows only).
  await db.schema
    .createIndex('stock_reservations_firm_idx')
    .on('stock_reservations')
    .columns(['product_id', 'firm_until'])
    .where(sql.ref('released_at'), 'is', null)
    .execute();
  for (const column of ['ip', 'device_id', 'user_id']) {
    await db.schema.createIndex(`stock_reservations_${column}_idx`).on('stock_reservations').columns([column, 'created_at']).execute();
  }
  await db.schema.createIndex('stock_reservations_created_idx').on('stock_reservations').columns(['created_at']).execute();

  await db.schema
    .createTable('back_in_stock_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('stock_item_id', 'text', (c) => c.notNull().references('stock_items.id').onDelete('cascade'))
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('notified_at', 'text')
    .execute();
  // One open request per e-mail and item: a second "Notify me" is the same request.
  await db.schema
    .createIndex('back_in_stock_open_idx')
    .on('back_in_stock_requests')
    .columns(['stock_item_id', 'email'])
    .unique()
    .where(sql.ref('notified_at'), 'is', null)
    .execute();

  // A refund remembers which units the owner chose to return, for the step that settles it (and a retry).
  await db.schema.alterTable('refunds').addColumn('return_lines', 'text').execute();

  // Each product's stock item, at its level and threshold state today.
  await db
    .insertInto('stock_items')
    .columns(['id', 'product_id', 'on_hand', 'low_stock_threshold', 'alert_state', 'created_at', 'updated_at'])
    .expression(
      db
        .selectFrom('products')
        .select([
          sql`'stk_' || id`.as('id'),
          'id as product_id',
          sql`case when inventory < 0 then 0 else inventory end`.as('on_hand'),
          sql`10`.as('low_stock_threshold'),
          sql`case when inventory <= 0 then 'out' when inventory <= 10 then 'low' else 'ok' end`.as('alert_state'),
          'created_at',
          sql`${now}`.as('updated_at'),
        ]),
    )
    .execute();
  await db.updateTable('products').set({ inventory: 0 }).where('inventory', '<', 0).execute();

  // The ledger's past: a sale per paid order and product, a return per order whose units came back.
  const orderUnits = (restockedOnly: boolean) => {
    let q = db
      .selectFrom('order_items as i')
      .innerJoin('orders as o', 'o.id', 'i.order_id')
      .innerJoin('stock_items as s', 's.product_id', 'i.product_id')
      .where('o.payment_status', 'in', ['paid', 'refunded']);
    if (restockedOnly) q = q.where('o.restocked_at', 'is not', null);
    return q;
  };
  await db
    .insertInto('stock_movements')
    .columns(['id', 'stock_item_id', 'kind', 'quantity', 'order_id', 'actor_user_id', 'actor_label', 'reference', 'note', 'created_at'])
    .expression(
      orderUnits(false)
        .select([
          sql`'mv_sold_' || i.order_id || '_' || s.id`.as('id'),
          's.id as stock_item_id',
          sql`'sold'`.as('kind'),
          sql`-sum(i.quantity)`.as('quantity'),
          'i.order_id',
          sql`null`.as('actor_user_id'),
          sql`'Customer'`.as('actor_label'),
          sql`min(o.order_number)`.as('reference'),
          sql`null`.as('note'),
          sql`min(coalesce(o.paid_at, o.created_at))`.as('created_at'),
        ])
        .groupBy(['i.order_id', 's.id']),
    )
    .execute();
  await db
    .insertInto('stock_movements')
    .columns(['id', 'stock_item_id', 'kind', 'quantity', 'order_id', 'actor_user_id', 'actor_label', 'reference', 'note', 'created_at'])
    .expression(
      orderUnits(true)
        .select([
          sql`'mv_returned_' || i.order_id || '_' || s.id`.as('id'),
          's.id as stock_item_id',
          sql`'returned'`.as('kind'),
          sql`sum(i.quantity)`.as('quantity'),
          'i.order_id',
          sql`null`.as('actor_user_id'),
          sql`'Shop'`.as('actor_label'),
          sql`min(o.order_number)`.as('reference'),
          sql`'Returned before the stock ledger began'`.as('note'),
          sql`min(o.restocked_at)`.as('created_at'),
        ])
        .groupBy(['i.order_id', 's.id']),
    )
    .execute();
  // The opening level: today's figure less what those rows add up to, dated before all of them.
  await db
    .insertInto('stock_movements')
    .columns(['id', 'stock_item_id', 'kind', 'quantity', 'order_id', 'actor_user_id', 'actor_label', 'reference', 'note', 'created_at'])
    .expression(
      db
        .selectFrom('stock_items as s')
        .select([
          sql`'mv_opening_' || s.id`.as('id'),
          's.id as stock_item_id',
          sql`'opening'`.as('kind'),
          sql`s.on_hand - coalesce((select sum(m.quantity) from stock_movements m where m.stock_item_id = s.id), 0)`.as('quantity'),
          sql`null`.as('order_id'),
          sql`null`.as('actor_user_id'),
          sql`'Shop'`.as('actor_label'),
          sql`null`.as('reference'),
          sql`'Stock when the ledger began'`.as('note'),
          sql`coalesce((select min(m.created_at) from stock_movements m where m.stock_item_id = s.id and m.created_at < s.created_at), s.created_at)`.as(
            'created_at',
          ),
        ]),
    )
    .execute();

  // Today's holds, as reservations: firm until they would have ended, or 10 minutes from now.
  const firmCap = new Date(Date.now() + 10 * 60_000).toISOString();
  await db
    .insertInto('stock_reservations')
    .columns([
      'order_id',
      'stock_item_id',
      'product_id',
      'quantity',
      'firm_until',
      'expires_at',
      'ip',
      'device_id',
      'user_id',
      'created_at',
      'released_at',
    ])
    .expression(
      db
        .selectFrom('stock_holds as h')
        .innerJoin('stock_items as s', 's.product_id', 'h.product_id')
        .select([
          'h.order_id',
          's.id as stock_item_id',
          'h.product_id',
          'h.quantity',
          sql`case when h.expires_at < ${firmCap} then h.expires_at else ${firmCap} end`.as('firm_until'),
          'h.expires_at',
          'h.ip',
          'h.device_id',
          'h.user_id',
          sql`${now}`.as('created_at'),
          sql`null`.as('released_at'),
        ]),
    )
    .execute();
  await db.schema.dropTable('stock_holds').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stock_holds')
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('device_id', 'text')
    .addColumn('user_id', 'text')
    .addPrimaryKeyConstraint('stock_holds_pk', ['order_id', 'product_id'])
    .execute();
  await db.schema.createIndex('stock_holds_product_idx').on('stock_holds').columns(['product_id', 'expires_at']).execute();
  for (const column of ['ip', 'device_id', 'user_id']) {
    await db.schema.createIndex(`stock_holds_${column}_idx`).on('stock_holds').columns([column, 'expires_at']).execute();
  }
  await db
    .insertInto('stock_holds')
    .columns(['order_id', 'product_id', 'quantity', 'expires_at', 'ip', 'device_id', 'user_id'])
    .expression(
      db
        .selectFrom('stock_reservations')
        .select(['order_id', 'product_id', 'quantity', 'expires_at', 'ip', 'device_id', 'user_id'])
        .where('released_at', 'is', null),
    )
    .execute();
  await db.schema.alterTable('refunds').dropColumn('return_lines').execute();
  await db.schema.dropTable('back_in_stock_requests').execute();
  await db.schema.dropTable('stock_reservations').execute();
  await db.schema.dropTable('stock_movements').execute();
  await db.schema.dropTable('stock_items').execute();
}
