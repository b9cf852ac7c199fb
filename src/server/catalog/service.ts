import type { Kysely } from 'kysely';
import type { Database, CategoryRow } from '../db/schema.js';
import type { Category, Product, ProductListFilter, ProductPage } from '../../shared/schemas/catalog.js';
import type { ProductDetail } from '../../shared/page-declaration.js';
import { toProduct } from './product-row.js';
import { catalogueIndex } from './search-index.js';
import { stockNoticeOf, variantStock, variantStockView, withBuyableStock } from '../inventory/service.js';
import { stockStamp } from '../inventory/stock-watch.js';
import { readProductVariants } from './variant-reads.js';
import { planView, readPlanRows, resolvePlans } from '../lib/subscription-plans.js';
import { cardRating, readCardRatings, readFirstReviewPage } from '../lib/product-reviews.js';

export { toProduct };

export function toCategory(row: CategoryRow): Category {
  return { id: row.id, name: row.name, description: row.description, imageUrl: row.image_url };
}

/**
 * The shop list: case-insensitive search on name and description, combined with the category and
 * featured filters, in shop order (leading "N -" number first, then price, then name), one page at
 * a time. A search in shop order ranks the products whose name holds the text first (decision 0033). Answered from this process's in-memory index of the catalogue (search-index.ts, decision
 * 0010): a search costs what it finds, on either database.
 */
export function listProducts(db: Kysely<Database>, filter: ProductListFilter): Promise<ProductPage> {
  return catalogueIndex(db).page(filter);
}

/** listProducts' answer as the API sends it (JSON text, built without an object per product). */
export function listProductsJson(db: Kysely<Database>, filter: ProductListFilter): Promise<string> {
  return catalogueIndex(db).pageJson(filter);
}

const FEATURED_LIMIT = 4;

/** The home page's featured products, each with the stock the shop shows and its stars (when it has a published review). */
export async function listFeaturedProducts(db: Kysely<Database>): Promise<Product[]> {
  const rows = await db
    .selectFrom('products')
    .selectAll()
    .where('featured', '=', 1)
    .where('status', '=', 'active')
    .orderBy('created_at')
    .orderBy('id')
    .limit(FEATURED_LIMIT)
    .execute();
  const [products, ratings] = await Promise.all([
    withBuyableStock(db, rows.map(toProduct)),
    readCardRatings(
      db,
      rows.map((r) => r.id),
    ),
  ]);
  return products.map((p) => {
    const rating = ratings.get(p.id);
    return rating ? { ...p, rating } : p;
  });
}

/**
 * A product as the shop shows it: `inventory` is what can be bought (stock less open holds).
 * The back office passes `{ stock: 'recorded' }` to see and edit the recorded stock itself.
 */
export async function getProduct(
  db: Kysely<Database>,
  id: string,
  { stock = 'buyable' }: { stock?: 'buyable' | 'recorded' } = {},
): Promise<Product | null> {
  const row = await db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  return stock === 'recorded' ? toProduct(row) : ((await withBuyableStock(db, [toProduct(row)]))[0] ?? null);
}

/**
 * The product page's data (GET /api/products/:id): the product, whose `inventory` is what can be
 * bought of its enabled variants; its options; its enabled variants, each with what can be bought
 * of it, when units other checkouts keep may come back, and its subscription plan if offered; and
 * the product's own stock notice (a product with one variant, older tabs); its stars and the first
 * page of its published reviews, newest first (issue [6/8]). The stock's stamp first (the page's
 * stock watch starts from it), then every read at once: the row, the options, the variants, the
 * stock items, the reservations grouped by variant, the plans, the ratings row and the first reviews.
 */
export async function getProductDetail(db: Kysely<Database>, id: string, now = new Date()): Promise<ProductDetail | null> {
  // Before the stock is read, so the stamp is never newer than the figures it goes with.
  const { stamp } = await stockStamp(db, [id]);
  const [row, shown, stocks, planRows, reviews] = await Promise.all([
    // A draft product is the owner's alone: its page answers 404 to shoppers (migration 0037).
    db.selectFrom('products').selectAll().where('id', '=', id).where('status', '=', 'active').executeTakeFirst(),
    readProductVariants(db, id),
    variantStock(db, id, now),
    // Subscribe and save: the product's plan and its variants' own (issue [4/8]), in the page's data (and its cache).
    readPlanRows(db, [id]),
    // The page shows these, and its JSON-LD the same ones (pages/structured-data.ts).
    readFirstReviewPage(db, id),
  ]);
  if (!row) return null;
  const plans = resolvePlans(
    planRows,
    shown.variants.map((v) => ({ productId: id, variantId: v.id })),
  );
  const variants = shown.variants.map((v) => ({ ...v, ...variantStockView(stocks.get(v.id)), subscription: planView(plans.get(v.id)) }));
  // What shoppers can buy: the sum over enabled variants (withBuyableStock's figure, from these reads).
  const inventory = variants.reduce((n, v) => n + v.available, 0);
  const rating = cardRating(reviews.summary);
  return {
    product: { ...toProduct(row), inventory, ...(rating ? { rating } : {}) },
    options: shown.options,
    variants,
    stock: stockNoticeOf(id, stocks),
    rating: reviews.summary,
    reviews,
    stockStamp: stamp,
  };
}

/**
 * The categories shoppers see: those with at least one active product (in stock or not). An empty
 * category, or one holding only drafts, stays hidden until it has one; the back office lists them all.
 */
export async function listCategories(db: Kysely<Database>): Promise<Category[]> {
  const rows = await db
    .selectFrom('categories')
    .selectAll()
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('products')
          .select('products.id')
          .whereRef('products.category_id', '=', 'categories.id')
          .where('products.status', '=', 'active'),
      ),
    )
    .orderBy('sort_order')
    .orderBy('name')
    .execute();
  return rows.map(toCategory);
}

/** Every product id and update time, for the sitemap; bounded so a huge catalogue cannot stall it. */
export async function listProductSitemapEntries(db: Kysely<Database>, limit = 45000): Promise<{ id: string; updatedAt: string }[]> {
  const rows = await db
    .selectFrom('products')
    .select(['id', 'updated_at'])
    .where('status', '=', 'active')
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, updatedAt: r.updated_at }));
}
