import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Database, ProductRow, CategoryRow } from '../db/schema.js';
import type { Category, Product, ProductListFilter, ProductPage } from '../../shared/schemas/catalog.js';
import { parseJson } from '../lib/json.js';
import { isPostgres, likePattern } from '../db/query-helpers.js';
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


/** The FTS5 phrase of a lowered search text (trigram: three characters at least), or null for the scan. */
function trigramPhrase(text: string): string | null {
  const lowered = text.toLowerCase();
  if ([...lowered].length < 3) return null;
  // One phrase in double quotes: every character in it is literal text.
  return `"${lowered.replaceAll('"', '""')}"`;
}

/** The shop order (leading "N -" number first, then price, then name). */
const SHOP_ORDER = `order by case when "sort_number" is null then 1 else 0 end, "sort_number", "price_cents", "name"`;
/** The search rule as a predicate: name or description contains the text (two parameters, likePattern). */
const CONTAINS = `(lower("name") like ? escape '\\' or lower("description") like ? escape '\\')`;
/** The units open checkouts hold of a page's product `p` (one index range each; null when none). */
const HELD = `(select sum(h.quantity) from "stock_holds" h where h.product_id = p.id and h.expires_at > ?) as "held"`;

/**
 * `keys` (SQLite): the matches an FTS5 phrase found are fetched by their keys and sorted. `like`:
 * the rule is checked on each product (PostgreSQL's pg_trgm indexes serve it; on SQLite, texts under three
 * characters). `walk` (SQLite): the products are read in shop order along the shop-order index
 * and the rule checked on each until the page is full, for texts found in much of the catalogue.
 */
type SearchShape = { rule: 'keys' | 'like' | 'walk'; category: boolean; featured: boolean; windowCount: boolean };
type SearchSql = { page: string; count: string };

/**
 * The SQL of a search, written once per database and filter shape (no query builder per request).
 * `?` placeholders are numbered for PostgreSQL. On SQLite the page carries each product's held
 * units; with `windowCount` (PostgreSQL) it carries the count of every match.
 */
const searchSqlCache = new Map<string, SearchSql>();
function searchSql(postgres: boolean, shape: SearchShape): SearchSql {
  const key = `${postgres}|${shape.rule}|${shape.category}|${shape.featured}|${shape.windowCount}`;
  let found = searchSqlCache.get(key);
  if (found) return found;
  const filters = [...(shape.category ? [`"category_id" = ?`] : []), ...(shape.featured ? [`"featured" = ?`] : [])];
  const where = [...filters, CONTAINS].join(' and ');
  const numbered = (text: string) => {
    if (!postgres) return text;
    let n = 0;
    // No literal in these statements holds a question mark.
    return text.replaceAll('?', () => `$${++n}`);
  };
  const matches = shape.windowCount ? `, count(*) over () as "matches"` : '';
  if (shape.rule === 'keys') {
    // From the matched keys to the products (CROSS JOIN keeps that join order), sorted on the
    // products' rowids and sort columns only; the page's 24 rows are then read whole.
    const matched = `from json_each(?) j cross join "product_search_keys" k on k.search_key = j.value cross join "products" on "products"."id" = k.product_id${filters.length ? ` where ${filters.join(' and ')}` : ''}`;
    found = {
      page: `select p.*, ${HELD} from (select "products".rowid as r ${matched} ${SHOP_ORDER} limit ? offset ?) o cross join "products" p on p.rowid = o.r`,
      count: `select count(*) as "n" ${matched}`,
    };
    searchSqlCache.set(key, found);
    return found;
  }
  // The walk: shop order is "numbered products first, by number, price and name; then the others
  // by price and name". Each half is one range of products_shop_order_idx (or, with a category,
  // products_category_order_idx), already in order, so each stops after `limit` matches; the
  // first half is read in full before the second (UNION ALL keeps its arms' order).
  const inner =
    shape.rule === 'walk'
      ? `select * from (select * from "products" where ${where} and "sort_number" is not null order by "sort_number", "price_cents", "name" limit ?)` +
        ` union all select * from (select * from "products" where ${where} and "sort_number" is null order by "price_cents", "name" limit ?)` +
        ` limit ? offset ?`
      : `select *${matches} from "products" where ${where} ${SHOP_ORDER} limit ? offset ?`;
  found = {
    // SQLite: the page is limited first, then each of its products looks up its holds; the outer
    // query reads the inner one in its order (a subquery with an offset is not flattened).
    // PostgreSQL plans every statement it is sent, and planning the holds beside the page cost
    // more (measured: 130 µs of the server's CPU more per search, found or not) than asking for
    // them afterwards, only when the page has products (70 µs).
    page: postgres ? numbered(inner) : `select p.*, ${HELD} from (${inner}) p`,
    count: numbered(`select count(*) as "n" from "products" where ${where}`),
  };
  searchSqlCache.set(key, found);
  return found;
}

type SearchRow = ProductRow & { held: number | null };

/**
 * A searched page: the shop's stock rule of withBuyableStock, with the held units read beside the
 * page (same rule: once any product on the page has holds, every one shows max(0, stock − held)).
 */
function searchedItems(rows: SearchRow[]): Product[] {
  const anyHeld = rows.some((r) => r.held !== null);
  return rows.map((r) => {
    const p = toProduct(r);
    if (anyHeld) p.inventory = Math.max(0, p.inventory - Number(r.held ?? 0));
    return p;
  });
}

async function runSql<R>(db: Kysely<Database>, text: string, params: unknown[]): Promise<R[]> {
  return (await db.executeQuery<R>(CompiledQuery.raw(text, params))).rows;
}

/** A search (a non-empty text): see listProducts. */
async function searchProducts(db: Kysely<Database>, filter: ProductListFilter, text: string): Promise<ProductPage> {
  const postgres = isPostgres(db);
  const phrase = postgres ? null : trigramPhrase(text);
  const filters: unknown[] = [];
  if (filter.category) filters.push(filter.category);
  if (filter.featured !== undefined) filters.push(filter.featured ? 1 : 0);
  const shape = { category: !!filter.category, featured: filter.featured !== undefined };
  const like = likePattern(text);
  const likeParams = [...filters, like, like];
  const limits = [filter.pageSize, (filter.page - 1) * filter.pageSize];
  let rows: SearchRow[];
  let total: number;
  if (postgres) {
    // A search's page and count in one statement (the count is taken over every match before
    // the limit): one round trip, and the index is read once. A page past the end has no row
    // to carry the count.
    const q = searchSql(true, { rule: 'like', ...shape, windowCount: true });
    const found = await runSql<ProductRow & { matches: number | string }>(db, q.page, [...likeParams, ...limits]);
    total =
      found.length > 0 ? Number(found[0]!.matches) : filter.page === 1 ? 0 : Number((await runSql<{ n: number | string }>(db, q.count, likeParams))[0]?.n ?? 0);
    return pageOfSearch(filter, await withBuyableStock(db, found.map(toProduct)), total);
  }
  const now = new Date().toISOString();
  if (phrase) {
    // The FTS5 phrase is evaluated once: it gives the number of matches (the index holds exactly
    // the rule), the catalogue's size (the largest search key, as good as a count for this) and
    // the matches' keys, which the page then looks up (json_each) instead of matching again.
    const found = (await runSql<{ n: number; size: number | null; keys: string | null }>(db, FTS_KEYS, [phrase]))[0];
    const matches = Number(found?.n ?? 0);
    const upTo = filter.page * filter.pageSize;
    if (matches === 0) {
      rows = [];
      total = 0;
    } else if (!shape.category && !shape.featured && matches * matches >= upTo * Number(found?.size ?? 0)) {
      // Found in much of the catalogue: walking the products in shop order reaches a page of
      // matches after about upTo × size / matches products, which beats fetching and sorting every
      // match once matches² passes upTo × size (measured on 10,000 products: `mop`, 2,356
      // matches, 0.2 ms walking against 2.2 ms fetching; `fern mop`, 98, 3.7 ms against 0.2 ms).
      rows = await runSql<SearchRow>(db, searchSql(false, { rule: 'walk', ...shape, windowCount: false }).page, [now, like, like, upTo, like, like, upTo, ...limits]);
      total = matches;
    } else {
      const q = searchSql(false, { rule: 'keys', ...shape, windowCount: false });
      const params = [found?.keys ?? '[]', ...filters];
      rows = await runSql<SearchRow>(db, q.page, [now, ...params, ...limits]);
      total = shape.category || shape.featured ? Number((await runSql<{ n: number }>(db, q.count, params))[0]?.n ?? 0) : matches;
    }
  } else {
    // A text under three characters, which trigrams cannot look up: the rule is checked on each product.
    const q = searchSql(false, { rule: 'like', ...shape, windowCount: false });
    rows = await runSql<SearchRow>(db, q.page, [now, ...likeParams, ...limits]);
    total = Number((await runSql<{ n: number }>(db, q.count, likeParams))[0]?.n ?? 0);
  }
  return pageOfSearch(filter, searchedItems(rows), total);
}

function pageOfSearch(filter: ProductListFilter, items: Product[], total: number): ProductPage {
  return { items, page: filter.page, pageSize: filter.pageSize, total, totalPages: Math.max(1, Math.ceil(total / filter.pageSize)) };
}

/**
 * Merges the SQLite search index into one segment. Every product write (seed, back office) adds a
 * small segment and, with contentless_delete, tombstones, which every phrase must then look up:
 * on the bench's freshly seeded 31-product shop a phrase cost 57–400 µs before and 7–28 µs after.
 * Measured on 10,000 products: 19 ms from scratch, 46 ms after 50 edits, nothing when already merged.
 */
export async function tidySearchIndex(db: Kysely<Database>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`insert into product_search (product_search) values ('optimize')`.execute(db);
}

/** A phrase's matches on SQLite: how many, their keys (a JSON array) and the catalogue's size. */
const FTS_KEYS =
  `select count(*) as "n", '[' || group_concat(rowid) || ']' as "keys", (select max(search_key) from product_search_keys) as "size" ` +
  `from product_search where product_search match ?`;

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
 *
 * A search runs statements written once per filter shape (see searchSql; no query builder per
 * request): on PostgreSQL one for the page and its count, then the page's holds (withBuyableStock)
 * when it has products; on SQLite one for the phrase and one for the page with its holds beside
 * it (none when nothing is found). See
 * docs/decisions/0010-product-search-index.md for the measurements.
 */
export async function listProducts(db: Kysely<Database>, filter: ProductListFilter): Promise<ProductPage> {
  if (filter.search) return searchProducts(db, filter, filter.search);
  let filtered = db.selectFrom('products');
  if (filter.category) filtered = filtered.where('category_id', '=', filter.category);
  if (filter.featured !== undefined) filtered = filtered.where('featured', '=', filter.featured ? 1 : 0);
  const [rows, counted] = await Promise.all([
    filtered
      .selectAll()
      .orderBy(sql`case when sort_number is null then 1 else 0 end`)
      .orderBy('sort_number')
      .orderBy('price_cents')
      .orderBy('name')
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst(),
  ]);
  const total = Number(counted?.n ?? 0);
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
