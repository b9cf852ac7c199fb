import type { Kysely } from 'kysely';
import * as productSearch from './0009-product-search.js';

/**
 * The product search moved into each server process (src/server/catalog/search-index.ts, decision
 * 0010): the database-side search index of migration 0009 (SQLite FTS5 table and triggers,
 * PostgreSQL pg_trgm indexes) is no longer read, so it goes, and product writes stop paying for it.
 *
 * `products.updated_at` gets an index: each process looks for products written since its last look
 * (stock taken by a payment, given back by a cancel) with one range of it, and the shop's change
 * signal reads its latest value (src/server/http/shop-changes.ts).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await productSearch.down(db);
  await db.schema.createIndex('products_updated_at_idx').on('products').column('updated_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('products_updated_at_idx').ifExists().execute();
  await productSearch.up(db);
}
