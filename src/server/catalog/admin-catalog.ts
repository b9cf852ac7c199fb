import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { nowIso, randomString } from '../lib/ids.js';
import { leadingNumber, type Product } from '../../shared/schemas/catalog.js';
import { ADMIN_MESSAGES, type ADMIN_PRODUCT_SORTS, type ProductInput } from '../../shared/schemas/admin.js';
import { getProduct, toCategory, toProduct } from './service.js';
import { containsText, pageOf } from '../db/query-helpers.js';
import { alignImageAlts } from '../../shared/product-images.js';
import { DEFAULT_LOW_STOCK_THRESHOLD, openStock, readStock, type StockActor } from '../inventory/stock.js';
import { createSoleVariant, setSoleVariantTerms } from './variants.js';
import { orderByStock, productsWithStock, setLowStockThreshold, stockColumns } from '../inventory/admin.js';

type AdminProductSort = (typeof ADMIN_PRODUCT_SORTS)[number];

/** New products get `prod-{timestamp}-{6 random characters}`. */
function newProductId(): string {
  return `prod-${Date.now()}-${randomString(6)}`;
}

type ParsedProduct = Omit<ProductInput, 'featured' | 'inventory'> & {
  featured: boolean;
  sku: string | null;
  brand: string | null;
  stripePriceId: string | null;
};

/** The product's own columns: never its stock, which only the inventory module writes (decision 0022). */
function productColumns(input: ParsedProduct) {
  const d = input.dimensions;
  const allDims = d?.length && d?.width && d?.height;
  return {
    name: input.name,
    description: input.description,
    price_cents: input.priceCents,
    category_id: input.category || null,
    featured: input.featured ? 1 : 0,
    sort_number: leadingNumber(input.name),
    sku: input.sku,
    brand: input.brand,
    stripe_price_id: input.stripePriceId,
    weight_lbs: input.weightLbs ?? null,
    // Dimensions are stored only when all three are given.
    length_in: allDims ? d!.length! : null,
    width_in: allDims ? d!.width! : null,
    height_in: allDims ? d!.height! : null,
  };
}

/** The images in the owner's order, each with its alt text ('' when none was sent). */
function imageColumns(images: readonly string[], alts: readonly string[] | undefined) {
  return { images: JSON.stringify(images), image_alts: JSON.stringify(alignImageAlts(images, alts)) };
}

async function checkCategory(db: Kysely<Database>, id: string | null | undefined): Promise<void> {
  if (!id) return;
  const c = await db.selectFrom('categories').select('id').where('id', '=', id).executeTakeFirst();
  if (!c) throw new HttpError(400, ADMIN_MESSAGES.categoryNotFound);
}

/**
 * The Products tab: newest first, or lowest stock first; `stock=low` keeps the products at or below
 * their low-stock threshold (sold out included), `stock=out` the sold-out ones. Each row carries its
 * threshold (the inventory module's stock item).
 */
export async function listAdminProducts(
  db: Kysely<Database>,
  q: { page: number; pageSize: number; search?: string; stock?: 'all' | 'low' | 'out'; sort?: AdminProductSort; category?: string },
) {
  let base = productsWithStock(db, q.stock ?? 'all');
  if (q.search) {
    const text = q.search;
    base = base.where((eb) =>
      eb.or([containsText('products.name', text), containsText('products.sku', text), eb('products.id', '=', text)]),
    );
  }
  // `none`: the products in no category (the filter's "No category").
  if (q.category === 'none') base = base.where('products.category_id', 'is', null);
  else if (q.category) base = base.where('products.category_id', '=', q.category);
  const sort = q.sort ?? 'newest';
  const selected = base.selectAll('products').select(stockColumns);
  // Each order walks an index of its own (migration 0021: name, price), newest and stock as before.
  const rows =
    sort === 'name'
      ? selected.orderBy(sql`lower(products.name)`)
      : sort === 'price-asc'
        ? selected.orderBy('products.price_cents')
        : sort === 'price-desc'
          ? selected.orderBy('products.price_cents', 'desc')
          : orderByStock(selected, sort === 'stock-asc');
  return pageOf(
    rows
      .orderBy('products.id', 'desc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute(),
    base.select(sql<number | string>`count(*)`.as('n')).executeTakeFirst(),
    q,
    (r) => ({ ...toProduct(r), lowStockThreshold: Number(r.low_stock_threshold) }),
  );
}

export async function createProduct(
  db: Kysely<Database>,
  input: ParsedProduct & { inventory: number },
  actor: StockActor,
): Promise<Product> {
  await checkCategory(db, input.category);
  const id = newProductId();
  const at = nowIso();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('products')
      .values({ id, ...productColumns(input), ...imageColumns(input.images ?? [], input.imageAlts), created_at: at, updated_at: at })
      .execute();
    const variantId = await createSoleVariant(trx, { id, priceCents: input.priceCents, sku: input.sku ?? null, at });
    await openStock(trx, { productId: id, variantId }, { quantity: input.inventory, threshold: input.lowStockThreshold, actor });
  });
  return adminProduct(db, id);
}

/** A product as the back office reads it: the recorded level and its low-stock threshold. */
async function adminProduct(db: Kysely<Database>, id: string): Promise<Product & { lowStockThreshold: number }> {
  const [product, stock] = await Promise.all([getProduct(db, id, { stock: 'recorded' }), readStock(db, [id])]);
  if (!product) throw new HttpError(404, ADMIN_MESSAGES.productNotFound);
  return { ...product, lowStockThreshold: [...stock.values()][0]?.threshold ?? DEFAULT_LOW_STOCK_THRESHOLD };
}

/** Existing images (and their alt texts) are kept unless the form sends a new list. */
export async function updateProduct(db: Kysely<Database>, id: string, input: ParsedProduct): Promise<Product> {
  await checkCategory(db, input.category);
  const at = nowIso();
  await db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('products')
      .set({ ...productColumns(input), ...(input.images ? imageColumns(input.images, input.imageAlts) : {}), updated_at: at })
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new HttpError(404, ADMIN_MESSAGES.productNotFound);
    // The price and SKU are the one variant's (a product with several is edited variant by variant).
    await setSoleVariantTerms(trx, id, { priceCents: input.priceCents, sku: input.sku ?? null, at });
  });
  if (input.lowStockThreshold !== undefined) await setLowStockThreshold(db, id, input.lowStockThreshold);
  return adminProduct(db, id);
}

export async function deleteProduct(db: Kysely<Database>, id: string): Promise<void> {
  const r = await db.deleteFrom('products').where('id', '=', id).executeTakeFirst();
  if (Number(r.numDeletedRows) !== 1) throw new HttpError(404, ADMIN_MESSAGES.productNotFound);
}

export async function upsertCategory(
  db: Kysely<Database>,
  input: { id: string; name: string; description: string | null; imageUrl: string | null },
  mode: 'create' | 'update',
) {
  const existing = await db.selectFrom('categories').select('id').where('id', '=', input.id).executeTakeFirst();
  if (mode === 'create') {
    if (existing) throw new HttpError(409, ADMIN_MESSAGES.categoryExists);
    const max = await db
      .selectFrom('categories')
      .select(sql<number>`coalesce(max(sort_order), 0)`.as('m'))
      .executeTakeFirst();
    await db
      .insertInto('categories')
      .values({
        id: input.id,
        name: input.name,
        description: input.description,
        image_url: input.imageUrl,
        sort_order: Number(max?.m ?? 0) + 1,
        created_at: nowIso(),
      })
      .execute();
  } else {
    if (!existing) throw new HttpError(404, ADMIN_MESSAGES.categoryNotFound);
    await db
      .updateTable('categories')
      .set({ name: input.name, description: input.description, ...(input.imageUrl ? { image_url: input.imageUrl } : {}) })
      .where('id', '=', input.id)
      .execute();
  }
  return toCategory(await db.selectFrom('categories').selectAll().where('id', '=', input.id).executeTakeFirstOrThrow());
}

/** A category that still holds products is kept, with a message saying why, instead of orphaning them. */
export async function deleteCategory(db: Kysely<Database>, id: string): Promise<void> {
  const exists = await db.selectFrom('categories').select('id').where('id', '=', id).executeTakeFirst();
  if (!exists) throw new HttpError(404, ADMIN_MESSAGES.categoryNotFound);
  const n = Number(
    (
      await db
        .selectFrom('products')
        .select(sql<number | string>`count(*)`.as('n'))
        .where('category_id', '=', id)
        .executeTakeFirst()
    )?.n ?? 0,
  );
  if (n > 0) throw new HttpError(409, ADMIN_MESSAGES.categoryInUse(n));
  await db.deleteFrom('categories').where('id', '=', id).execute();
}
