import { sql, type Kysely } from 'kysely';

/**
 * A product is Draft (the owner's alone: not in the shop, search, sitemap or feeds, and not for sale)
 * or Active (issue 40, decision 0047). Every product from before is Active.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('products')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('active')
        .check(sql`status in ('draft','active')`),
    )
    .execute();
  await db.schema.createIndex('products_status_idx').on('products').column('status').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('products_status_idx').execute();
  await db.schema.alterTable('products').dropColumn('status').execute();
}
