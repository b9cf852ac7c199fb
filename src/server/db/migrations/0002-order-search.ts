import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * How an order was filed when this migration was written, frozen here: a migration imports
 * nothing from the app, whose rules move on (the live rule is src/server/orders/search-terms.ts).
 */
const MAX_TERM = 120;
const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
function emailTerms(email: string | null | undefined): string[] {
  if (!email) return [];
  const e = email.trim().toLowerCase();
  const [local = '', domain = ''] = e.split('@');
  return [e, local, domain, ...words(local)].filter(Boolean);
}
type OrderSearchRow = {
  id: string;
  order_number: string;
  email: string | null;
  shipping_address: string | null;
  user_email: string | null;
  full_name: string | null;
};
function searchRowsOf(o: OrderSearchRow): { term: string; order_id: string }[] {
  let address: unknown = null;
  try {
    address = o.shipping_address ? JSON.parse(o.shipping_address) : null;
  } catch {
    address = null;
  }
  const field = (key: 'name' | 'email') =>
    address && typeof address === 'object' && typeof (address as Record<string, unknown>)[key] === 'string'
      ? ((address as Record<string, string>)[key] as string)
      : null;
  const terms = new Set<string>([
    o.id.toLowerCase(),
    o.order_number.toLowerCase(),
    `EC${o.id.slice(-6)}`.toLowerCase(),
    ...emailTerms(o.email),
    ...emailTerms(o.user_email),
    ...emailTerms(field('email')),
    ...words(field('name') ?? ''),
    ...words(o.full_name ?? ''),
  ]);
  return [...terms].filter((t) => t.length > 0).map((term) => ({ term: term.slice(0, MAX_TERM), order_id: o.id }));
}

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
    for (let i = 0; i < rows.length; i += 1000)
      await db
        .insertInto('order_search_terms')
        .values(rows.slice(i, i + 1000))
        .execute();
    after = batch[batch.length - 1]!.id;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_order_number_idx').execute();
  await db.schema.dropTable('order_search_terms').execute();
}
