import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { searchRowsOf, type OrderSearchRow } from '../../orders/search-terms.js';

/**
 * The admin order search's word index (see orders/search-terms.ts). On PostgreSQL the term is
 * compared byte by byte (collation "C"), as SQLite does, so a prefix is one index range on both.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('order_search_terms')
    .addColumn('term', postgres ? sql`text collate "C"` : 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('order_search_terms_pk', ['term', 'order_id'])
    .execute();
  await db.schema.createIndex('order_search_terms_order_idx').on('order_search_terms').column('order_id').execute();
  // Orders are looked up by number (and tracking code) from the storefront and the back office.
  await db.schema.createIndex('orders_order_number_idx').on('orders').column('order_number').execute();

  // File the orders that already exist, a batch at a time.
  let after = '';
  for (;;) {
    const batch = await db
      .selectFrom('orders as o')
      .leftJoin('users as u', 'u.id', 'o.user_id')
      .select(['o.id', 'o.order_number', 'o.email', 'o.shipping_address', 'u.email as user_email', 'u.full_name'])
      .where('o.id', '>', after)
      .orderBy('o.id')
      .limit(500)
      .execute();
    if (batch.length === 0) break;
    const rows = batch.flatMap((o: OrderSearchRow) => searchRowsOf(o));
    for (let i = 0; i < rows.length; i += 1000) await db.insertInto('order_search_terms').values(rows.slice(i, i + 1000)).execute();
    after = batch[batch.length - 1]!.id;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_order_number_idx').execute();
  await db.schema.dropTable('order_search_terms').execute();
}
