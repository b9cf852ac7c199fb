import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The Products tab's search, category filter and orders (issue 28), each an indexed read:
 * - by name and by price (either way): `products_name_idx`, `products_price_idx`, walked in order
 *   for a page (newest first and lowest stock first have theirs already);
 * - a category with any order: the category index (0001) narrows first;
 * - a search (name or SKU contains the text): on PostgreSQL, where pg_trgm is installed (0009),
 *   trigram indexes on lower(name) and lower(sku) serve the very `lower(column) like '%text%'`.
 *   Migration 0011 dropped the name's when the shop's search moved into memory; the back office
 *   still asks the database. SQLite reads the names and SKUs (the embedded engine's small
 *   catalogue; decision 0027).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // By name as a person reads a list: 'apple' before 'Banana' (lower(name), on both databases).
  await sql`create index products_name_idx on products (lower(name))`.execute(db);
  await db.schema.createIndex('products_price_idx').on('products').column('price_cents').execute();
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const found = (
    await sql<{ schema: string }>`
      select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
      where e.extname = 'pg_trgm'`.execute(db)
  ).rows[0];
  if (!found) return;
  const ops = sql.id(found.schema, 'gin_trgm_ops');
  await sql`create index if not exists products_admin_name_trgm_idx on products using gin (lower(name) ${ops})`.execute(db);
  await sql`create index if not exists products_admin_sku_trgm_idx on products using gin (lower(sku) ${ops})`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists products_admin_sku_trgm_idx`.execute(db);
  await sql`drop index if exists products_admin_name_trgm_idx`.execute(db);
  await db.schema.dropIndex('products_price_idx').ifExists().execute();
  await sql`drop index if exists products_name_idx`.execute(db);
}
