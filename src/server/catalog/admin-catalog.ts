import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { nowIso, randomString } from '../lib/ids.js';
import { leadingNumber, type Product } from '../../shared/schemas/catalog.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { type ADMIN_PRODUCT_SORTS, type ProductInput } from '../../shared/schemas/admin/products.js';
import { getProduct, toCategory, toProduct } from './service.js';
import { containsText, pageOf } from '../db/query-helpers.js';
import { alignImageAlts } from '../../shared/product-images.js';
import { DEFAULT_LOW_STOCK_THRESHOLD, lockStock, openStock, type StockActor } from '../inventory/stock.js';
import { createSoleVariant, refreshProductCopies, refuseTakenSku, setSoleVariantTerms, skuRefusal } from './variants.js';
import { orderByLowestLevel, productStockSummaries, setLowStockThreshold, whereStockState } from '../inventory/admin.js';
import { transactionWithRetry } from '../db/locks.js';
import { isPostgres } from '../db/query-helpers.js';
import type { Dialect } from '../db/database.js';
import { markPricesForReview } from '../lib/subscription-price-reviews.js';
import { variantLabel } from '../../shared/variants.js';
import { VARIANT_MESSAGES, type AdminLowVariant } from '../../shared/schemas/admin/variants.js';

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
    // Omitted: a new product is active (the column's default), an edited one keeps its status.
    ...(input.status ? { status: input.status } : {}),
    // Omitted: unchanged (a bulk or older client's save keeps the owner's reminder days); null: none.
    ...(input.reorderAfterDays !== undefined ? { reorder_after_days: input.reorderAfterDays } : {}),
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
 * The Products tab: newest first, by name or price, or lowest stock first; `stock=low` keeps the
 * products with a variant at or below its low-stock threshold (sold out included), `stock=out` those
 * with a sold-out variant. One row per product, however many variants it has; each carries its
 * variant count, its lowest variant's threshold, its worst stock state and its variants that are
 * low (the inventory module's items). A search matches the name, the product's SKU or id, or any
 * variant's SKU.
 */
export async function listAdminProducts(
  db: Kysely<Database>,
  q: { page: number; pageSize: number; search?: string; stock?: 'all' | 'low' | 'out'; sort?: AdminProductSort; category?: string },
) {
  let base = whereStockState(db.selectFrom('products'), q.stock ?? 'all');
  if (q.search) {
    const text = q.search;
    base = base.where((eb) =>
      eb.or([
        containsText('products.name', text),
        containsText('products.sku', text),
        eb('products.id', '=', text),
        eb.exists(
          eb
            .selectFrom('product_variants as sv')
            .select('sv.id')
            .whereRef('sv.product_id', '=', 'products.id')
            .where(containsText('sv.sku', text)),
        ),
      ]),
    );
  }
  // `none`: the products in no category (the filter's "No category").
  if (q.category === 'none') base = base.where('products.category_id', 'is', null);
  else if (q.category) base = base.where('products.category_id', '=', q.category);
  const sort = q.sort ?? 'newest';
  const selected = base.selectAll('products');
  // Each order walks an index of its own (migration 0021: name, price; created_at; stock_items_on_hand_idx).
  const ordered =
    sort === 'stock-asc'
      ? orderByLowestLevel(selected)
      : sort === 'name'
        ? selected.orderBy(sql`lower(products.name)`)
        : sort === 'price-asc'
          ? selected.orderBy('products.price_cents')
          : sort === 'price-desc'
            ? selected.orderBy('products.price_cents', 'desc')
            : selected.orderBy('products.created_at', 'desc');
  const rows = ordered
    .orderBy('products.id', 'desc')
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize)
    .execute()
    .then(async (page) => {
      const summaries = await productStockSummaries(
        db,
        page.map((r) => r.id),
      );
      const lowIds = [...summaries.values()].flatMap((s) => s.low.map((l) => l.variantId));
      const labels = new Map(
        lowIds.length
          ? (
              await db.selectFrom('product_variants').select(['id', 'option1', 'option2', 'option3']).where('id', 'in', lowIds).execute()
            ).map((v) => [v.id, variantLabel([v.option1, v.option2, v.option3])])
          : [],
      );
      return page.map((r) => ({ row: r, stock: summaries.get(r.id), labels }));
    });
  return pageOf(rows, base.select(sql<number | string>`count(*)`.as('n')).executeTakeFirst(), q, ({ row, stock, labels }) => ({
    ...toProduct(row),
    status: row.status,
    reorderAfterDays: row.reorder_after_days ?? null,
    lowStockThreshold: stock?.lowStockThreshold ?? DEFAULT_LOW_STOCK_THRESHOLD,
    variantCount: stock?.variantCount ?? 0,
    alertState: stock?.alertState ?? 'ok',
    lowVariants: (stock?.low ?? []).map((l): AdminLowVariant => ({
      variantId: l.variantId,
      label: labels.get(l.variantId) ?? '',
      onHand: l.onHand,
      threshold: l.threshold,
      alertState: l.alertState === 'out' ? 'out' : 'low',
    })),
  }));
}

export async function createProduct(
  db: Kysely<Database>,
  input: ParsedProduct & { inventory: number },
  actor: StockActor,
): Promise<Product> {
  await checkCategory(db, input.category);
  const id = newProductId();
  const at = nowIso();
  await transactionWithRetry(db, async (trx) => {
    const refusal = await skuRefusal(trx, [input.sku], id);
    if (refusal) throw refusal;
    await trx
      .insertInto('products')
      .values({ id, ...productColumns(input), ...imageColumns(input.images ?? [], input.imageAlts), created_at: at, updated_at: at })
      .execute();
    const variantId = await createSoleVariant(trx, { id, priceCents: input.priceCents, sku: input.sku ?? null, at });
    await openStock(trx, { productId: id, variantId }, { quantity: input.inventory, threshold: input.lowStockThreshold, actor });
  }).catch(refuseTakenSku(db, id, [input.sku]));
  return adminProduct(db, id);
}

/** A product as the back office reads it: the recorded level, its lowest variant's low-stock threshold and its variant count. */
async function adminProduct(
  db: Kysely<Database>,
  id: string,
): Promise<Product & { lowStockThreshold: number; variantCount: number; status: 'draft' | 'active'; reorderAfterDays: number | null }> {
  const [product, stock, row] = await Promise.all([
    getProduct(db, id, { stock: 'recorded' }),
    productStockSummaries(db, [id]),
    db.selectFrom('products').select(['status', 'reorder_after_days']).where('id', '=', id).executeTakeFirst(),
  ]);
  if (!product || !row) throw new HttpError(404, ADMIN_MESSAGES.productNotFound);
  const summary = stock.get(id);
  return {
    ...product,
    status: row.status,
    reorderAfterDays: row.reorder_after_days ?? null,
    lowStockThreshold: summary?.lowStockThreshold ?? DEFAULT_LOW_STOCK_THRESHOLD,
    variantCount: summary?.variantCount ?? 0,
  };
}

/**
 * Existing images (and their alt texts) are kept unless the form sends a new list; a variant whose
 * image left the list falls back to the product's first. The price, SKU and low-stock threshold are
 * the one variant's. A product sold in several variants has them set variant by variant: the form
 * may send them back unchanged (so a new name still saves), and answers 400 when it changes them.
 */
export async function updateProduct(db: Kysely<Database>, id: string, input: ParsedProduct): Promise<Product> {
  await checkCategory(db, input.category);
  const at = nowIso();
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  const sole = await transactionWithRetry(db, async (trx) => {
    // The product's lock first (the back office's one order): the variants editor may be writing it.
    const stock = await lockStock(trx, dialect, [id]);
    const current = await trx.selectFrom('products').select(['price_cents', 'sku']).where('id', '=', id).executeTakeFirst();
    if (!current) throw new HttpError(404, ADMIN_MESSAGES.productNotFound);
    const items = [...stock.values()];
    const several = items.length > 1;
    if (several) {
      if (input.priceCents !== Number(current.price_cents) || (input.sku !== null && input.sku !== current.sku))
        throw new HttpError(400, VARIANT_MESSAGES.perVariant);
      if (input.lowStockThreshold !== undefined && !items.some((s) => s.threshold === input.lowStockThreshold))
        throw new HttpError(400, VARIANT_MESSAGES.perVariantThreshold);
    }
    // Several variants: the row's price and SKU are copies of theirs (refreshed below), never the form's.
    const { price_cents, sku, ...others } = productColumns(input);
    await trx
      .updateTable('products')
      .set({
        ...others,
        ...(several ? {} : { price_cents, sku }),
        ...(input.images ? imageColumns(input.images, input.imageAlts) : {}),
        updated_at: at,
      })
      .where('id', '=', id)
      .execute();
    if (input.images) {
      let gone = trx
        .updateTable('product_variants')
        .set({ image: null, updated_at: at })
        .where('product_id', '=', id)
        .where('image', 'is not', null);
      if (input.images.length > 0) gone = gone.where('image', 'not in', input.images);
      await gone.execute();
    }
    // The price and SKU are the one variant's; the product row keeps its copies of the variants.
    if (!several) {
      const refusal = await skuRefusal(trx, [input.sku], id);
      if (refusal) throw refusal;
      await setSoleVariantTerms(trx, id, { priceCents: input.priceCents, sku: input.sku ?? null, at });
      // Subscribers are told a new price before it is charged: the schedule's pass tells them (decision 0058).
      if (input.priceCents !== Number(current.price_cents)) await markPricesForReview(trx, [id], at);
    }
    await refreshProductCopies(trx, id, at);
    return !several;
  }).catch(refuseTakenSku(db, id, [input.sku]));
  if (sole && input.lowStockThreshold !== undefined) await setLowStockThreshold(db, id, input.lowStockThreshold);
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
/**
 * Every category for the back office, each with its products counted: `activeProducts` (what
 * shoppers can see) and `draftProducts`. A category with no active product is hidden from shoppers
 * (catalog/service.ts listCategories); the owner still sees it here, marked so.
 */
export async function listAdminCategories(db: Kysely<Database>) {
  const [rows, counts] = await Promise.all([
    db.selectFrom('categories').selectAll().orderBy('sort_order').orderBy('name').execute(),
    db
      .selectFrom('products')
      .select(['category_id', 'status', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('category_id', 'is not', null)
      .groupBy(['category_id', 'status'])
      .execute(),
  ]);
  const count = (id: string, status: 'active' | 'draft') => Number(counts.find((c) => c.category_id === id && c.status === status)?.n ?? 0);
  return rows.map((r) => {
    const activeProducts = count(r.id, 'active');
    return { ...toCategory(r), activeProducts, draftProducts: count(r.id, 'draft'), shownToShoppers: activeProducts > 0 };
  });
}

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
