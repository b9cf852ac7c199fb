import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * An index for the shop's product search (a case-insensitive "contains" on name and description,
 * see catalog/service.ts), so a search costs what it finds instead of reading every product.
 *
 * SQLite: an FTS5 table with the trigram tokenizer answers "which products contain this text" for
 * texts of three characters or more. It indexes lower(name) and lower(description), SQLite's own
 * lowering (ASCII letters only), and compares case-sensitively: a phrase of the lowered search text
 * then matches exactly the rows `lower(column) like '%text%'` matches, so the rules stay as they
 * were (ASCII-only case folding, accents kept, wildcards as plain text). The table is contentless
 * (the text stays in `products`) and keyed by `product_search_keys.search_key`, an integer of our
 * own: a product's implicit rowid may change on VACUUM (its primary key is text), which would
 * silently unhook an index keyed by it. Triggers keep both tables in step with every insert,
 * update and delete of a product.
 *
 * PostgreSQL: pg_trgm GIN indexes on lower(name) and lower(description), which serve the very
 * predicate the search already uses (`lower(column) like '%text%'`). Where the extension cannot be
 * created, the migration says so once and leaves the search to its scan, which gives the same answers.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return upPostgres(db);

  await db.schema
    .createTable('product_search_keys')
    .addColumn('search_key', 'integer', (c) => c.primaryKey())
    .addColumn('product_id', 'text', (c) => c.notNull().unique())
    .execute();
  await sql`create virtual table product_search using fts5(name, description, content='', contentless_delete=1, tokenize='trigram case_sensitive 1')`.execute(
    db,
  );
  // Leaves of 1,000 bytes instead of 4,050: a phrase walks the long doclists of its common
  // trigrams ("e c", "ner") by skipping from leaf to leaf, so smaller leaves skip closer to the
  // rows the rare trigrams name (about 3× faster for a product name on the 10,000-product seed).
  await sql`insert into product_search (product_search, rank) values ('pgsz', 1000)`.execute(db);
  await sql`
    create trigger products_search_insert after insert on products begin
      insert into product_search_keys (product_id) values (new.id);
      insert into product_search (rowid, name, description)
        values ((select search_key from product_search_keys where product_id = new.id), lower(new.name), lower(new.description));
    end`.execute(db);
  await sql`
    create trigger products_search_update after update of id, name, description on products begin
      delete from product_search where rowid = (select search_key from product_search_keys where product_id = old.id);
      update product_search_keys set product_id = new.id where product_id = old.id;
      insert into product_search (rowid, name, description)
        values ((select search_key from product_search_keys where product_id = new.id), lower(new.name), lower(new.description));
    end`.execute(db);
  await sql`
    create trigger products_search_delete after delete on products begin
      delete from product_search where rowid = (select search_key from product_search_keys where product_id = old.id);
      delete from product_search_keys where product_id = old.id;
    end`.execute(db);

  // File the products that already exist.
  await sql`insert into product_search_keys (product_id) select id from products order by id`.execute(db);
  await sql`
    insert into product_search (rowid, name, description)
    select k.search_key, lower(p.name), lower(p.description) from product_search_keys k join products p on p.id = k.product_id`.execute(db);
  await sql`insert into product_search (product_search) values ('optimize')`.execute(db);
}

/** The schema pg_trgm lives in, creating it (in `public`, shared by every schema) when it is missing. */
async function trigramSchema(db: Kysely<any>): Promise<string | null> {
  const installed = async () =>
    (
      await sql<{ schema: string }>`
        select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
        where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema ?? null;
  const found = await installed();
  if (found) return found;
  // Migrations run in one transaction: a failed CREATE EXTENSION (no permission, not packaged)
  // must not abort it, so each attempt gets its own savepoint.
  let failure = '';
  for (const create of [sql`create extension if not exists pg_trgm with schema public`, sql`create extension if not exists pg_trgm`]) {
    await sql`savepoint product_search_trgm`.execute(db);
    try {
      await create.execute(db);
      await sql`release savepoint product_search_trgm`.execute(db);
      return await installed();
    } catch (err) {
      await sql`rollback to savepoint product_search_trgm`.execute(db);
      await sql`release savepoint product_search_trgm`.execute(db);
      failure = (err as Error).message;
      // The second attempt (into the current schema) is only worth it when `public` was the problem.
      if (!/schema/i.test(failure)) break;
    }
  }
  console.warn(
    `Product search: pg_trgm is not available (${failure}); searches will scan the products. ` +
      'Once it can be installed, see docs/decisions/0010-product-search-index.md to add the indexes.',
  );
  return null;
}

async function upPostgres(db: Kysely<any>): Promise<void> {
  const schema = await trigramSchema(db);
  if (!schema) return;
  const ops = sql.id(schema, 'gin_trgm_ops');
  await sql`create index products_name_trgm_idx on products using gin (lower(name) ${ops})`.execute(db);
  await sql`create index products_description_trgm_idx on products using gin (lower(description) ${ops})`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // pg_trgm stays: other schemas of this database may use it.
    await sql`drop index if exists products_description_trgm_idx`.execute(db);
    await sql`drop index if exists products_name_trgm_idx`.execute(db);
    return;
  }
  await sql`drop trigger if exists products_search_delete`.execute(db);
  await sql`drop trigger if exists products_search_update`.execute(db);
  await sql`drop trigger if exists products_search_insert`.execute(db);
  await sql`drop table if exists product_search`.execute(db);
  await db.schema.dropTable('product_search_keys').ifExists().execute();
}
