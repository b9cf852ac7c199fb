import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Products with options and variants (issue [6/6], decision 0036).
 *
 * - `product_options`: up to three options per product (Scent, Size…), each a name and its values
 *   (a JSON array, in the owner's order), by position 1..3.
 * - `product_variants`: what is sold. A flat `option1..3` holds the value of the option at that
 *   position, `''` when the product has no such option (NULLs are distinct in a unique index, so
 *   `''` is what makes "one variant per combination" a plain unique index on both databases).
 * - Every product gets one variant, `var_<productId>`, with its SKU and price and no options;
 *   weight and image stay null (they inherit the product's), so nothing a shopper sees changes.
 *   `products.sole_variant_id` names it; `products.max_price_cents` (null: one price) is the
 *   catalogue's copy for "from $X".
 * - `stock_items`: one per variant (`variant_id`, unique), so `product_id` loses its UNIQUE and
 *   gets a plain index. Migrated items keep `stk_<productId>`: the ledger, reservations and
 *   back-in-stock requests keep pointing at them and need no rewrite.
 * - `stock_reservations.variant_id`, `order_items.variant_id` (no foreign key: the line outlives
 *   the catalogue) and `variant_label` ('' for a product without options), and
 *   `coupons.free_variant_id` (null: the gift is the free product's first enabled variant).
 *
 * SQLite runs migrations outside a transaction, so every step before the stock_items rebuild can
 * run again after a crash (tables and indexes "if not exists", columns added only when missing,
 * rows inserted only when absent), and the rebuild itself is one transaction. An inline UNIQUE
 * cannot be dropped on SQLite, hence the rebuild, by SQLite's documented procedure (see
 * `rebuildStockItemsOnSqlite`). Money is bigint on PostgreSQL, as in 0004.
 *
 * Everything below is frozen as of this migration (it imports nothing from the app).
 */

/** `order_items` rows backfilled per statement (keyset on id). */
const ORDER_ITEMS_BATCH = 20_000;

/* eslint-disable @typescript-eslint/no-explicit-any */
const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

async function hasColumn(db: Kysely<any>, table: string, column: string): Promise<boolean> {
  const found = isPostgres(db)
    ? await sql`select 1 as found from information_schema.columns
        where table_schema = current_schema() and table_name = ${table} and column_name = ${column}`.execute(db)
    : await sql`select 1 as found from pragma_table_info(${table}) where name = ${column}`.execute(db);
  return found.rows.length > 0;
}

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  const money = postgres ? 'bigint' : 'integer';
  const now = new Date().toISOString();

  // 1. Tables.
  await db.schema
    .createTable('product_options')
    .ifNotExists()
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().check(sql`"position" between 1 and 3`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('values', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('product_options_pk', ['product_id', 'position'])
    .execute();
  await db.schema
    .createTable('product_variants')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('option1', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('option2', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('option3', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sku', 'text')
    .addColumn('price_cents', money, (c) => c.notNull().check(sql`price_cents >= 0`))
    .addColumn('compare_at_cents', money, (c) => c.check(sql`compare_at_cents is null or compare_at_cents >= 0`))
    .addColumn('weight_lbs', sql`double precision`)
    .addColumn('image', 'text')
    .addColumn('enabled', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`enabled in (0, 1)`),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // One variant per combination ('' for an unused option, never NULL).
  await db.schema
    .createIndex('product_variants_combo_uq')
    .ifNotExists()
    .on('product_variants')
    .columns(['product_id', 'option1', 'option2', 'option3'])
    .unique()
    .execute();
  await db.schema
    .createIndex('product_variants_product_idx')
    .ifNotExists()
    .on('product_variants')
    .columns(['product_id', 'position'])
    .execute();
  // A SKU found as the owner types it (the admin's duplicate check and search).
  await sql`create index if not exists product_variants_sku_idx on product_variants (lower(sku))`.execute(db);
  if (postgres) {
    // The admin search's `lower(sku) like '%text%'`, as 0021 does for products, where pg_trgm is installed.
    const trgm = (
      await sql<{ schema: string }>`
        select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
        where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0];
    if (trgm) {
      const ops = sql.id(trgm.schema, 'gin_trgm_ops');
      await sql`create index if not exists product_variants_sku_trgm_idx on product_variants using gin (lower(sku) ${ops})`.execute(db);
    }
  }

  // 2. One variant per product: its SKU and price, no options; weight and image inherit the product's.
  await sql`
    insert into product_variants
      (id, product_id, position, option1, option2, option3, sku, price_cents, compare_at_cents, weight_lbs, image, enabled, created_at, updated_at)
    select 'var_' || p.id, p.id, 0, '', '', '', p.sku, p.price_cents, null, null, null, 1, p.created_at, ${now}
    from products p
    where not exists (select 1 from product_variants v where v.id = 'var_' || p.id)`.execute(db);

  // 3. The catalogue's copies on the product row.
  if (!(await hasColumn(db, 'products', 'max_price_cents')))
    await db.schema.alterTable('products').addColumn('max_price_cents', money).execute();
  if (!(await hasColumn(db, 'products', 'sole_variant_id')))
    await db.schema.alterTable('products').addColumn('sole_variant_id', 'text').execute();
  await sql`update products set sole_variant_id = 'var_' || id where sole_variant_id is null`.execute(db);

  // 4. A stock item per variant.
  if (postgres) await addStockItemVariantOnPostgres(db);
  else if (!(await hasColumn(db, 'stock_items', 'variant_id'))) await rebuildStockItemsOnSqlite(db, 'up');

  // 5. Open holds name their variant; `stock_item_id`, `counted` and the times stay, so every open checkout stays payable.
  if (!(await hasColumn(db, 'stock_reservations', 'variant_id')))
    await db.schema
      .alterTable('stock_reservations')
      .addColumn('variant_id', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  await sql`update stock_reservations set variant_id = 'var_' || product_id where variant_id = ''`.execute(db);
  if (postgres) await sql`alter table stock_reservations alter column variant_id drop default`.execute(db);

  // 6. Order lines: the variant sold and its label. Nothing else on the line or the order changes.
  if (!(await hasColumn(db, 'order_items', 'variant_id')))
    await db.schema.alterTable('order_items').addColumn('variant_id', 'text').execute();
  if (!(await hasColumn(db, 'order_items', 'variant_label')))
    await db.schema
      .alterTable('order_items')
      .addColumn('variant_label', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  let after = '';
  for (;;) {
    // The last id of the next batch (keyset on the primary key), so each update is one index range.
    const edge: { id: string } | undefined = await db
      .selectFrom('order_items')
      .select('id')
      .where('id', '>', after)
      .orderBy('id')
      .limit(1)
      .offset(ORDER_ITEMS_BATCH - 1)
      .executeTakeFirst();
    let update = db
      .updateTable('order_items')
      .set({ variant_id: sql`'var_' || product_id` })
      .where('id', '>', after)
      .where('variant_id', 'is', null);
    if (edge) update = update.where('id', '<=', edge.id);
    await update.execute();
    if (!edge) break;
    after = edge.id;
  }
  await db.schema.createIndex('order_items_variant_idx').ifNotExists().on('order_items').column('variant_id').execute();

  // 7. A free-gift coupon may name the variant it gives (null: as today, the product's only one).
  if (!(await hasColumn(db, 'coupons', 'free_variant_id')))
    await db.schema
      .alterTable('coupons')
      .addColumn('free_variant_id', 'text', (c) => c.references('product_variants.id').onDelete('set null'))
      .execute();
}

/**
 * PostgreSQL (inside the migration's transaction): `variant_id` added, filled, made NOT NULL with
 * its foreign key and unique index; then the UNIQUE on `product_id` is dropped by the name
 * PostgreSQL gave it in this schema (tests run one schema each, so the name is looked up).
 */
async function addStockItemVariantOnPostgres(db: Kysely<any>): Promise<void> {
  await sql`alter table stock_items add column variant_id text`.execute(db);
  await sql`update stock_items set variant_id = 'var_' || product_id`.execute(db);
  await sql`alter table stock_items alter column variant_id set not null`.execute(db);
  await sql`alter table stock_items add constraint stock_items_variant_id_fkey
    foreign key (variant_id) references product_variants (id) on delete cascade`.execute(db);
  await sql`create unique index stock_items_variant_uq on stock_items (variant_id)`.execute(db);
  const uniques = (
    await sql<{ name: string }>`
      select c.conname as name
      from pg_constraint c
      join pg_class t on t.oid = c.conrelid
      join pg_namespace n on n.oid = t.relnamespace
      join pg_attribute a on a.attrelid = t.oid and a.attname = 'product_id'
      where n.nspname = current_schema() and t.relname = 'stock_items' and c.contype = 'u' and c.conkey = array[a.attnum]`.execute(db)
  ).rows;
  if (uniques.length === 0)
    throw new Error('Migration 0027: the UNIQUE constraint on stock_items.product_id was not found in the current schema.');
  for (const u of uniques) await sql`alter table stock_items drop constraint ${sql.id(u.name)}`.execute(db);
  await sql`create index stock_items_product_idx on stock_items (product_id)`.execute(db);
}

/** stock_items' columns as 0017 and 0018 made them (the only columns and CHECKs it has had). */
const stockItemColumns = (productUnique: boolean) => `
  "id" text primary key,
  "product_id" text not null${productUnique ? ' unique' : ''} references "products" ("id") on delete cascade,
  "on_hand" integer not null check (on_hand >= 0),
  "low_stock_threshold" integer default 10 not null check (low_stock_threshold >= 0),
  "alert_state" text default 'ok' not null check (alert_state in ('ok', 'low', 'out')),
  "created_at" text not null,
  "updated_at" text not null,
  "reserved" integer default 0 not null`;
const STOCK_ITEM_COPIED = 'id, product_id, on_hand, low_stock_threshold, alert_state, created_at, updated_at, reserved';
/** Tables whose foreign keys the rebuild could break: stock_items itself and the three that reference it. */
const STOCK_ITEM_FK_TABLES = ['stock_items', 'stock_movements', 'stock_reservations', 'back_in_stock_requests'];

/**
 * SQLite's 12-step table rebuild (https://sqlite.org/lang_altertable.html#otheralter), for
 * stock_items with `variant_id` and without UNIQUE(product_id) (`up`), or back (`down`).
 *
 * Foreign keys must be off while the old table is dropped: with them on, DROP TABLE deletes the
 * rows first and the cascade would empty the ledger, the reservations and the back-in-stock
 * requests. `pragma foreign_keys` is a no-op inside a transaction, so it is set on the bare
 * connection and read back: the migrator hands the migration the shop's one connection with no
 * transaction open (the group-commit driver begins one only for `db.transaction()`, and this
 * migration's own `begin immediate` is a plain statement to it), and should that ever change this
 * stops before anything is dropped. The new table is created, filled, and renamed over the old
 * name (never the old one renamed away: SQLite would repoint the children's foreign keys at it).
 */
async function rebuildStockItemsOnSqlite(db: Kysely<any>, direction: 'up' | 'down'): Promise<void> {
  const fkBefore = await foreignKeysSetting(db);
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    if ((await foreignKeysSetting(db)) !== 0)
      throw new Error('Migration 0027: foreign keys could not be turned off (a transaction is open); stock_items was not rebuilt.');
    await sql`begin immediate`.execute(db);
    try {
      await sql`drop table if exists stock_items_new`.execute(db);
      const variantColumn =
        direction === 'up' ? `,\n  "variant_id" text not null references "product_variants" ("id") on delete cascade` : '';
      await sql.raw(`create table stock_items_new (${stockItemColumns(direction === 'down')}${variantColumn})`).execute(db);
      await sql
        .raw(
          direction === 'up'
            ? `insert into stock_items_new (${STOCK_ITEM_COPIED}, variant_id) select ${STOCK_ITEM_COPIED}, 'var_' || product_id from stock_items`
            : `insert into stock_items_new (${STOCK_ITEM_COPIED}) select ${STOCK_ITEM_COPIED} from stock_items`,
        )
        .execute(db);
      const count = async (table: string) =>
        Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n);
      if ((await count('stock_items_new')) !== (await count('stock_items')))
        throw new Error('Migration 0027: stock_items rows were not all copied.');
      await sql`drop table stock_items`.execute(db);
      await sql`alter table stock_items_new rename to stock_items`.execute(db);
      // Every index the old table had (0017, 0018), then this migration's.
      await sql`create index stock_items_alert_idx on stock_items (alert_state, on_hand)`.execute(db);
      await sql`create index stock_items_on_hand_idx on stock_items (on_hand)`.execute(db);
      await sql`create index stock_items_changed_idx on stock_items (updated_at)`.execute(db);
      if (direction === 'up') {
        await sql`create unique index stock_items_variant_uq on stock_items (variant_id)`.execute(db);
        await sql`create index stock_items_product_idx on stock_items (product_id)`.execute(db);
      }
      for (const table of STOCK_ITEM_FK_TABLES) {
        const broken = (await sql.raw(`pragma foreign_key_check(${table})`).execute(db)).rows;
        if (broken.length > 0)
          throw new Error(`Migration 0027: ${broken.length} row(s) of ${table} would break a foreign key after the stock_items rebuild.`);
      }
      await sql`commit`.execute(db);
    } catch (err) {
      await sql`rollback`.execute(db).catch(() => undefined);
      throw err;
    }
  } finally {
    await sql.raw(`pragma foreign_keys = ${fkBefore === 0 ? 'off' : 'on'}`).execute(db);
  }
}

async function foreignKeysSetting(db: Kysely<any>): Promise<number> {
  return Number((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows[0]?.foreign_keys);
}

/**
 * Possible only while the shop could be described without variants: every product has exactly one
 * variant, with no options and nothing of its own (compare-at price, weight, image, switched off),
 * no coupon names a variant and no order line carries a variant label. Otherwise it refuses.
 */
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  const blockers = (
    await sql<Record<string, number | string>>`
      select
        (select count(*) from product_options) as options,
        (select count(*) from products p where (select count(*) from product_variants v where v.product_id = p.id) <> 1) as not_one_variant,
        (select count(*) from product_variants
          where option1 <> '' or option2 <> '' or option3 <> '' or compare_at_cents is not null
            or weight_lbs is not null or image is not null or enabled <> 1) as own_data,
        (select count(*) from coupons where free_variant_id is not null) as coupons,
        (select count(*) from order_items where variant_label <> '') as labelled_lines`.execute(db)
  ).rows[0]!;
  const found = Object.entries(blockers).filter(([, n]) => Number(n) > 0);
  if (found.length > 0)
    throw new Error(
      `Migration 0027 cannot be undone while products have variants: ${found.map(([what, n]) => `${what} ${Number(n)}`).join(', ')}.`,
    );

  // The product row holds the sole variant's SKU and price again (they are its copies already).
  await sql`update products set
    price_cents = (select v.price_cents from product_variants v where v.product_id = products.id),
    sku = (select v.sku from product_variants v where v.product_id = products.id)`.execute(db);

  if (postgres) {
    await sql`alter table stock_items add constraint stock_items_product_id_key unique (product_id)`.execute(db);
    await sql`drop index stock_items_product_idx`.execute(db);
    await sql`drop index stock_items_variant_uq`.execute(db);
    await sql`alter table stock_items drop column variant_id`.execute(db);
  } else {
    await rebuildStockItemsOnSqlite(db, 'down');
  }
  await db.schema.alterTable('stock_reservations').dropColumn('variant_id').execute();
  await db.schema.dropIndex('order_items_variant_idx').execute();
  await db.schema.alterTable('order_items').dropColumn('variant_label').execute();
  await db.schema.alterTable('order_items').dropColumn('variant_id').execute();
  // Before the table it references: a SQLite column left pointing at a dropped table fails every write of a coupon.
  await db.schema.alterTable('coupons').dropColumn('free_variant_id').execute();
  await db.schema.alterTable('products').dropColumn('sole_variant_id').execute();
  await db.schema.alterTable('products').dropColumn('max_price_cents').execute();
  await db.schema.dropTable('product_variants').execute();
  await db.schema.dropTable('product_options').execute();
}
