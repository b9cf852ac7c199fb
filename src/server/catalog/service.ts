import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database, ProductRow, CategoryRow } from '../db/schema.js';
import type { Category, Product, ProductListFilter, ProductPage } from '../../shared/schemas/catalog.js';
import { parseJson } from '../lib/json.js';
import { containsText, isPostgres } from '../db/query-helpers.js';
import { heldUnits } from '../cart/service.js';

/**
 * The shop shows what can be bought: recorded stock less the units open checkouts hold (one
 * index range per product, for the products on the page only). Otherwise a product whose every
 * unit sits in unpaid checkouts would read "181 in stock" while nothing could be bought.
 */
async function withBuyableStock(db: Kysely<Database>, products: Product[], now = new Date()): Promise<Product[]> {
  if (products.length === 0) return products;
  const held = await heldUnits(db, products.map((p) => p.id), now);
  if (held.size === 0) return products;
  return products.map((p) => ({ ...p, inventory: Math.max(0, p.inventory - (held.get(p.id) ?? 0)) }));
}

export function toProduct(row: ProductRow): Product {
  const hasDims = row.length_in != null && row.width_in != null && row.height_in != null;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    priceCents: row.price_cents,
    category: row.category_id,
    images: parseJson<string[]>(row.images, []),
    featured: Boolean(row.featured),
    inventory: row.inventory,
    createdAt: row.created_at,
    sku: row.sku,
    brand: row.brand,
    stripePriceId: row.stripe_price_id,
    weightLbs: row.weight_lbs,
    dimensions: hasDims ? { length: row.length_in!, width: row.width_in!, height: row.height_in! } : null,
  };
}

export function toCategory(row: CategoryRow): Category {
  return { id: row.id, name: row.name, description: row.description, imageUrl: row.image_url };
}


/** Above this many matches a search's page is read by the scan (see listProducts). */
const BROAD_MATCHES = 2000;

/** The FTS5 phrase of a lowered search text (trigram: three characters at least), or null for the scan. */
function trigramPhrase(db: Kysely<Database>, text: string): string | null {
  const lowered = text.toLowerCase();
  if (isPostgres(db) || [...lowered].length < 3) return null;
  // One phrase in double quotes: every character in it is literal text.
  return `"${lowered.replaceAll('"', '""')}"`;
}

/**
 * The shop list: case-insensitive search on name and description, combined with the
 * category filter, in shop order (leading "N -" number first, then price), one page at a time.
 *
 * The search rule is `lower(column) like '%text%'` on name or description (wildcards in the text
 * are plain text), and an index answers it on both databases (migration 0009) so a search costs
 * what it finds. PostgreSQL: pg_trgm indexes on lower(name) and lower(description) serve that very
 * predicate. SQLite: an FTS5 trigram phrase over the same lowered columns, compared
 * case-sensitively, matches exactly the same rows. A text under three characters (which matches
 * most of a catalogue anyway) is scanned.
 */
export async function listProducts(db: Kysely<Database>, filter: ProductListFilter): Promise<ProductPage> {
  let filtered = db.selectFrom('products');
  if (filter.category) filtered = filtered.where('category_id', '=', filter.category);
  if (filter.featured !== undefined) filtered = filtered.where('featured', '=', filter.featured ? 1 : 0);
  const phrase = filter.search ? trigramPhrase(db, filter.search) : null;
  const text = filter.search;
  const scanned = text ? filtered.where((eb) => eb.or([containsText('name', text), containsText('description', text)])) : filtered;
  const base = phrase
    ? filtered.where(
        sql<SqlBool>`products.id in (select k.product_id from product_search_keys k where k.search_key in (select rowid from product_search where product_search match ${phrase}))`,
      )
    : scanned;
  const pageOf = (from: typeof base) =>
    from
      .selectAll()
      .orderBy(sql`case when sort_number is null then 1 else 0 end`)
      .orderBy('sort_number')
      .orderBy('price_cents')
      .orderBy('name')
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize);
  const ordered = pageOf(base);
  const countAll = async () => Number((await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst())?.n ?? 0);
  let rows: ProductRow[];
  let total: number;
  if (filter.search && isPostgres(db)) {
    // A search's page and count in one statement (the count is taken over every match before
    // the limit): one round trip, and the index is read once. A page past the end has no row
    // to carry the count. (The unsearched catalogue keeps its own count: there the page is a
    // top-N sort and the count an index scan.)
    const found = await ordered.select(sql<number | string>`count(*) over ()`.as('matches')).execute();
    rows = found;
    total = found.length > 0 ? Number(found[0]!.matches) : filter.page === 1 ? 0 : await countAll();
  } else if (phrase && !filter.category && filter.featured === undefined) {
    // On SQLite the phrase alone counts the matches (the index holds exactly the rule; measured,
    // that beat a window count beside the page). When the text is found in much of the
    // catalogue, reading the products in order beats fetching thousands of matches one by one
    // (measured crossover: about 2,000 of 10,000).
    const counted = await sql<{ n: number }>`select count(*) as n from product_search where product_search match ${phrase}`.execute(db);
    total = Number(counted.rows[0]?.n ?? 0);
    rows = total === 0 ? [] : await (total > BROAD_MATCHES ? pageOf(scanned) : ordered).execute();
  } else {
    [rows, total] = await Promise.all([ordered.execute(), countAll()]);
  }
  return {
    items: await withBuyableStock(db, rows.map(toProduct)),
    page: filter.page,
    pageSize: filter.pageSize,
    total,
    totalPages: Math.max(1, Math.ceil(total / filter.pageSize)),
  };
}

export const FEATURED_LIMIT = 4;

export async function listFeaturedProducts(db: Kysely<Database>): Promise<Product[]> {
  const rows = await db
    .selectFrom('products')
    .selectAll()
    .where('featured', '=', 1)
    .orderBy('created_at')
    .orderBy('id')
    .limit(FEATURED_LIMIT)
    .execute();
  return withBuyableStock(db, rows.map(toProduct));
}

/**
 * A product as the shop shows it: `inventory` is what can be bought (stock less open holds).
 * The back office passes `{ stock: 'recorded' }` to see and edit the recorded stock itself.
 */
export async function getProduct(db: Kysely<Database>, id: string, { stock = 'buyable' }: { stock?: 'buyable' | 'recorded' } = {}): Promise<Product | null> {
  const row = await db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  return stock === 'recorded' ? toProduct(row) : ((await withBuyableStock(db, [toProduct(row)]))[0] ?? null);
}

export async function listCategories(db: Kysely<Database>): Promise<Category[]> {
  const rows = await db.selectFrom('categories').selectAll().orderBy('sort_order').orderBy('name').execute();
  return rows.map(toCategory);
}

export async function getCategory(db: Kysely<Database>, id: string): Promise<Category | null> {
  const row = await db.selectFrom('categories').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toCategory(row) : null;
}

/** Every product id and update time, for the sitemap; bounded so a huge catalogue cannot stall it. */
export async function listProductSitemapEntries(
  db: Kysely<Database>,
  limit = 45000,
): Promise<{ id: string; updatedAt: string }[]> {
  const rows = await db
    .selectFrom('products')
    .select(['id', 'updated_at'])
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, updatedAt: r.updated_at }));
}
