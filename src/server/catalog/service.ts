import { sql, type Kysely } from 'kysely';
import type { Database, ProductRow, CategoryRow } from '../db/schema.js';
import type { Category, Product, ProductListFilter, ProductPage } from '../../shared/schemas/catalog.js';
import { parseJson } from '../lib/json.js';
import { containsText } from '../db/query-helpers.js';
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


/**
 * The shop list: case-insensitive search on name and description, combined with the
 * category filter, in shop order (leading "N -" number first, then price), one page at a time.
 */
export async function listProducts(db: Kysely<Database>, filter: ProductListFilter): Promise<ProductPage> {
  let base = db.selectFrom('products');
  if (filter.category) base = base.where('category_id', '=', filter.category);
  if (filter.featured !== undefined) base = base.where('featured', '=', filter.featured ? 1 : 0);
  if (filter.search) {
    const text = filter.search;
    base = base.where((eb) => eb.or([containsText('name', text), containsText('description', text)]));
  }
  const [countRow, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst(),
    base
      .selectAll()
      .orderBy(sql`case when sort_number is null then 1 else 0 end`)
      .orderBy('sort_number')
      .orderBy('price_cents')
      .orderBy('name')
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize)
      .execute(),
  ]);
  const total = Number(countRow?.n ?? 0);
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
