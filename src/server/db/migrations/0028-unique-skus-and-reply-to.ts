import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * One SKU, one stocked item, and replies that reach a person (decision 0037).
 *
 * - `product_variants_sku_uq`: a unique index on the lower-cased, trimmed SKU of every variant (a
 *   variant is what is stocked: one stock item each, migration 0027), so 'ECO-1', 'eco-1' and
 *   ' ECO-1 ' are one SKU across the whole shop. `products.sku` is only the product row's copy of
 *   its sole variant's SKU (0027, catalog/variants.ts), so it takes no index of its own: a product
 *   and its own default variant showing one SKU are one item. SKUs that are empty after trimming
 *   mean "none" and are left out.
 * - SKUs at most 100 characters, on both tables: a CHECK on PostgreSQL; on SQLite, where a CHECK
 *   cannot be added without rebuilding the table, triggers that abort the write.
 * - `email_outbox.reply_to`: the address an answer goes to (the visitor, for a contact notice; the
 *   shop's contact address, for e-mails to customers).
 *
 * Existing duplicates and over-long SKUs are refused, not renamed: a SKU is printed on shelves,
 * labels and the carrier's paperwork, so which item keeps it is the owner's choice. `up` changes
 * nothing and names every one of them, with the product and variant that carry it.
 *
 * SQLite runs migrations outside a transaction, so every step can run again after a crash.
 * Everything below is frozen as of this migration (it imports nothing from the app).
 */

/** The longest SKU (SKU_MAX_LENGTH in src/shared/schemas/admin.ts, as of this migration). */
const SKU_MAX = 100;

/* eslint-disable @typescript-eslint/no-explicit-any */
const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

async function hasColumn(db: Kysely<any>, table: string, column: string): Promise<boolean> {
  const found = isPostgres(db)
    ? await sql`select 1 as found from information_schema.columns
        where table_schema = current_schema() and table_name = ${table} and column_name = ${column}`.execute(db)
    : await sql`select 1 as found from pragma_table_info(${table}) where name = ${column}`.execute(db);
  return found.rows.length > 0;
}

type Holder = {
  sku: string;
  key: string;
  variant_id: string;
  product_id: string;
  name: string;
  option1: string;
  option2: string;
  option3: string;
};

const describe = (h: Holder) => {
  const label = [h.option1, h.option2, h.option3].filter((v) => v !== '').join(', ');
  return `${h.name}${label ? ` — ${label}` : ''} (product ${h.product_id}, variant ${h.variant_id})`;
};

/** Every SKU two variants share, and every SKU too long, as one message; null when there is none. */
async function skuProblems(db: Kysely<any>): Promise<string | null> {
  const shared = (
    await sql<Holder>`
      select v.sku, lower(trim(v.sku)) as key, v.id as variant_id, p.id as product_id, p.name, v.option1, v.option2, v.option3
      from product_variants v join products p on p.id = v.product_id
      where trim(v.sku) <> '' and lower(trim(v.sku)) in (
        select lower(trim(sku)) from product_variants where trim(sku) <> '' group by lower(trim(sku)) having count(*) > 1)
      order by lower(trim(v.sku)), v.created_at, v.id`.execute(db)
  ).rows;
  const long = (
    await sql<{ where: string; id: string; length: number }>`
      select 'variant' as "where", id, length(sku) as length from product_variants where length(sku) > ${SKU_MAX}
      union all
      select 'product' as "where", id, length(sku) as length from products where length(sku) > ${SKU_MAX}
      order by 1, 2`.execute(db)
  ).rows;
  if (shared.length === 0 && long.length === 0) return null;
  const groups = new Map<string, Holder[]>();
  for (const h of shared) groups.set(h.key, [...(groups.get(h.key) ?? []), h]);
  const lines = [
    ...[...groups.values()].map((hs) => `  SKU ${hs[0]!.sku.trim()} is used by ${hs.map(describe).join('; ')}`),
    ...long.map((l) => `  the SKU of ${l.where} ${l.id} has ${Number(l.length)} characters (at most ${SKU_MAX})`),
  ];
  return [
    `Migration 0028 stopped, and changed nothing: every SKU must belong to one stocked item and have at most ${SKU_MAX} characters.`,
    ...lines,
    'Give each of these its own SKU (in the back office of the version you ran before, or in the database), then start the shop again.',
  ].join('\n');
}

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  const problems = await skuProblems(db);
  if (problems) throw new Error(problems);

  await sql`create unique index if not exists product_variants_sku_uq
    on product_variants (lower(trim(sku))) where trim(sku) <> ''`.execute(db);

  if (postgres) {
    await sql
      .raw(`alter table product_variants add constraint product_variants_sku_length check (char_length(sku) <= ${SKU_MAX})`)
      .execute(db);
    await sql.raw(`alter table products add constraint products_sku_length check (char_length(sku) <= ${SKU_MAX})`).execute(db);
  } else {
    for (const table of ['product_variants', 'products']) {
      for (const [event, suffix] of [
        ['insert', 'insert'],
        ['update of sku', 'update'],
      ] as const) {
        await sql
          .raw(
            `create trigger if not exists ${table}_sku_length_${suffix} before ${event} on ${table}
             when length(new.sku) > ${SKU_MAX}
             begin select raise(abort, 'SKU cannot exceed ${SKU_MAX} characters'); end`,
          )
          .execute(db);
      }
    }
  }

  if (!(await hasColumn(db, 'email_outbox', 'reply_to')))
    await db.schema.alterTable('email_outbox').addColumn('reply_to', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (await hasColumn(db, 'email_outbox', 'reply_to')) await db.schema.alterTable('email_outbox').dropColumn('reply_to').execute();
  if (isPostgres(db)) {
    await sql`alter table products drop constraint if exists products_sku_length`.execute(db);
    await sql`alter table product_variants drop constraint if exists product_variants_sku_length`.execute(db);
  } else {
    for (const table of ['product_variants', 'products'])
      for (const suffix of ['insert', 'update']) await sql.raw(`drop trigger if exists ${table}_sku_length_${suffix}`).execute(db);
  }
  await sql`drop index if exists product_variants_sku_uq`.execute(db);
}
