import type { Kysely } from 'kysely';

/**
 * One row counting the back office's writes (`shop_changes.version`), so every process can tell
 * within a moment that what the storefront shows may have changed and drop its cached pages
 * (src/server/http/shop-changes.ts). Bumped after the write commits, never inside a shopper's
 * transaction: checkouts never wait on it.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shop_changes')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.insertInto('shop_changes').values({ id: 1, version: 0 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('shop_changes').execute();
}
