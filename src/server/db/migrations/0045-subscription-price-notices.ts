import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Issue [5/8], price changes told before they are charged (decision 0058, "Price changes").
 * - `subscription_items.agreed_price_cents`: the shop's price per unit, before the subscription's
 *   discount, that the customer was last told for this item (the discount terms they were told are
 *   the subscription's own columns). Existing rows take today's price: under the rule before this
 *   one every renewal charged it, so it is the last price they saw. Null only for a variant already
 *   gone (nothing renews of it).
 * - `subscription_price_notices`: one row per subscription item and change told: the unit price per
 *   delivery before and after (as the e-mail shows it), the state told (shop price and discount
 *   terms) that holds from `effective_from`, when it was told, and whether it is still pending,
 *   applied, or superseded by a later notice.
 * - `subscription_price_reviews`: products whose price or plan changed, marked in the owner's own
 *   transaction; the schedule's background pass works them (a cursor over their subscribers and a
 *   lease, so two processes never work one product at once) and deletes the mark when done.
 *
 * SQLite runs migrations outside a transaction: every step can run again after a crash.
 */
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
  if (!(await hasColumn(db, 'subscription_items', 'agreed_price_cents')))
    await db.schema.alterTable('subscription_items').addColumn('agreed_price_cents', 'integer').execute();
  await sql`update subscription_items set agreed_price_cents = (
      select v.price_cents from product_variants v where v.id = subscription_items.variant_id
    ) where agreed_price_cents is null`.execute(db);
  // The review pass walks a product's subscribers in id order.
  await db.schema
    .createIndex('subscription_items_product_idx')
    .ifNotExists()
    .on('subscription_items')
    .columns(['product_id', 'subscription_id'])
    .execute();

  await db.schema
    .createTable('subscription_price_notices')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subscription_id', 'text', (c) => c.notNull().references('subscriptions.id'))
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('variant_id', 'text', (c) => c.notNull())
    .addColumn('from_cents', 'integer', (c) => c.notNull())
    .addColumn('to_cents', 'integer', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('discount_percent', 'integer', (c) => c.notNull())
    .addColumn('later_discount_percent', 'integer')
    .addColumn('later_from_delivery', 'integer')
    .addColumn('told_at', 'text', (c) => c.notNull())
    .addColumn('effective_from', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'applied', 'superseded')`))
    .addColumn('email_id', 'text')
    .addColumn('settled_at', 'text')
    .execute();
  await db.schema
    .createIndex('subscription_price_notices_sub_idx')
    .ifNotExists()
    .on('subscription_price_notices')
    .columns(['subscription_id', 'status', 'effective_from'])
    .execute();
  await db.schema
    .createIndex('subscription_price_notices_due_idx')
    .ifNotExists()
    .on('subscription_price_notices')
    .columns(['status', 'effective_from'])
    .execute();

  await db.schema
    .createTable('subscription_price_reviews')
    .ifNotExists()
    .addColumn('product_id', 'text', (c) => c.primaryKey())
    .addColumn('marked_at', 'text', (c) => c.notNull())
    .addColumn('cursor', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('lease_until', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('subscription_price_reviews').ifExists().execute();
  await db.schema.dropTable('subscription_price_notices').ifExists().execute();
  await db.schema.dropIndex('subscription_items_product_idx').ifExists().execute();
  if (await hasColumn(db, 'subscription_items', 'agreed_price_cents'))
    await db.schema.alterTable('subscription_items').dropColumn('agreed_price_cents').execute();
}
