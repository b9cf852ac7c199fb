import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, ProductVariantsTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { transactionWithRetry } from '../db/locks.js';
import { isPostgres } from '../db/query-helpers.js';
import { HttpError } from '../http/errors.js';
import { nowIso, randomString } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import { closeStock, lockStock, openStock, readStock, variantHistory, type StockActor } from '../inventory/stock.js';
import { applyThreshold } from '../inventory/admin.js';
import { reservedByVariant } from '../inventory/reservations.js';
import { defaultVariantIdOf, lineTitle, variantLabel } from '../../shared/variants.js';
import type { ProductOption } from '../../shared/schemas/catalog.js';
import { markPricesForReview } from '../lib/subscription-price-reviews.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { SKU_MESSAGES } from '../../shared/schemas/admin/products.js';
import {
  VARIANT_MESSAGES,
  type AdminProductVariants,
  type AdminVariant,
  type ProductVariantsInput,
} from '../../shared/schemas/admin/variants.js';

/*
 * A product's variants (decision 0036), owned by the catalogue: every product has at least one, and
 * a product without options has exactly one, `var_<productId>`. The product row keeps copies that
 * lists read without a join: `price_cents` (the lowest enabled price), `max_price_cents` (the highest
 * when prices differ), `sku` (the only variant's) and `sole_variant_id` (the only enabled variant).
 * Stock is the inventory module's: one stock item per variant.
 */

/** A new product's one variant, carrying the product's price and SKU (in the product's transaction). */
export async function createSoleVariant(
  trx: Kysely<Database>,
  product: { id: string; priceCents: number; sku: string | null; at: string },
): Promise<string> {
  const id = defaultVariantIdOf(product.id);
  await trx
    .insertInto('product_variants')
    .values({
      id,
      product_id: product.id,
      position: 0,
      option1: '',
      option2: '',
      option3: '',
      sku: product.sku,
      price_cents: product.priceCents,
      compare_at_cents: null,
      weight_lbs: null,
      image: null,
      enabled: 1,
      created_at: product.at,
      updated_at: product.at,
    })
    .execute();
  await trx.updateTable('products').set({ sole_variant_id: id, max_price_cents: null }).where('id', '=', product.id).execute();
  return id;
}

/**
 * The owner's product form edits a product without options: its price and SKU are its one
 * variant's. Answers false when the product has several variants (their prices are set one by one).
 */
export async function setSoleVariantTerms(
  trx: Kysely<Database>,
  productId: string,
  terms: { priceCents: number; sku: string | null; at: string },
): Promise<boolean> {
  const variants = await trx.selectFrom('product_variants').select('id').where('product_id', '=', productId).limit(2).execute();
  if (variants.length !== 1) return false;
  await trx
    .updateTable('product_variants')
    .set({ price_cents: terms.priceCents, sku: terms.sku, updated_at: terms.at })
    .where('id', '=', variants[0]!.id)
    .execute();
  return true;
}

/** Products written without a variant (the large seed's bulk inserts): each gets its one, from its own price and SKU. */
export async function giveProductsTheirSoleVariant(db: Kysely<Database>): Promise<void> {
  const at = new Date().toISOString();
  await db
    .insertInto('product_variants')
    .columns(['id', 'product_id', 'position', 'option1', 'option2', 'option3', 'sku', 'price_cents', 'enabled', 'created_at', 'updated_at'])
    .expression(
      db
        .selectFrom('products as p')
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('product_variants as v').select('v.id').whereRef('v.product_id', '=', 'p.id'))),
        )
        .select([
          sql<string>`'var_' || p.id`.as('id'),
          'p.id as product_id',
          sql<number>`0`.as('position'),
          sql<string>`''`.as('option1'),
          sql<string>`''`.as('option2'),
          sql<string>`''`.as('option3'),
          'p.sku',
          'p.price_cents',
          sql<number>`1`.as('enabled'),
          'p.created_at',
          sql<string>`${at}`.as('updated_at'),
        ]),
    )
    .execute();
  await db
    .updateTable('products')
    .set({ sole_variant_id: sql<string>`'var_' || id` })
    .where('sole_variant_id', 'is', null)
    .execute();
}

/**
 * The product row's copies of its variants (lists read them without a join), written in the
 * transaction that changed the variants: the lowest and highest enabled prices, the SKU and id of
 * the only enabled variant. A product whose variants are all switched off keeps its last price.
 */
export async function refreshProductCopies(trx: Kysely<Database>, productId: string, at = new Date().toISOString()): Promise<void> {
  const enabled = await trx
    .selectFrom('product_variants')
    .select(['id', 'sku', 'price_cents'])
    .where('product_id', '=', productId)
    .where('enabled', '=', 1)
    .orderBy('position')
    .orderBy('id')
    .execute();
  if (enabled.length === 0) {
    await trx
      .updateTable('products')
      .set({ sole_variant_id: null, max_price_cents: null, updated_at: at })
      .where('id', '=', productId)
      .execute();
    return;
  }
  const prices = enabled.map((v) => Number(v.price_cents));
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  const sole = enabled.length === 1 ? enabled[0]! : null;
  await trx
    .updateTable('products')
    .set({
      price_cents: low,
      max_price_cents: high > low ? high : null,
      sku: sole ? sole.sku : null,
      sole_variant_id: sole ? sole.id : null,
      updated_at: at,
    })
    .where('id', '=', productId)
    .execute();
}

/** A product's options in position order, each with its values in the owner's order. */
export async function productOptions(db: Kysely<Database>, productId: string): Promise<ProductOption[]> {
  const rows = await db
    .selectFrom('product_options')
    .select(['name', 'values'])
    .where('product_id', '=', productId)
    .orderBy('position')
    .execute();
  return rows.map((r) => ({ name: r.name, values: parseJson<string[]>(r.values, []) }));
}

type VariantRow = Selectable<ProductVariantsTable>;

const valuesOf = (v: Pick<VariantRow, 'option1' | 'option2' | 'option3'>) => [v.option1, v.option2, v.option3];

/**
 * The variants editor's read: the product's options and every variant, switched off ones too, in
 * the owner's order (position, then id), each with its stock and whether it has history. 404 for
 * an unknown product.
 */
export async function productVariantsView(db: Kysely<Database>, productId: string, now = new Date()): Promise<AdminProductVariants> {
  const [product, options, variants, stock] = await Promise.all([
    db.selectFrom('products').select('id').where('id', '=', productId).executeTakeFirst(),
    productOptions(db, productId),
    db.selectFrom('product_variants').selectAll().where('product_id', '=', productId).orderBy('position').orderBy('id').execute(),
    readStock(db, [productId]),
  ]);
  if (!product) throw new HttpError(404, ADMIN_MESSAGES.productNotFound);
  const ids = variants.map((v) => v.id);
  const [held, history] = await Promise.all([
    reservedByVariant(
      db,
      ids.map((variantId) => ({ productId, variantId })),
      now,
    ),
    variantHistory(db, ids),
  ]);
  return {
    options,
    variants: variants.map((v): AdminVariant => {
      const item = stock.get(v.id);
      const onHand = item?.onHand ?? 0;
      const reserved = Math.min(onHand, held.get(v.id) ?? 0);
      const past = history.get(v.id);
      return {
        id: v.id,
        options: valuesOf(v).slice(0, options.length),
        label: variantLabel(valuesOf(v)),
        sku: v.sku,
        priceCents: Number(v.price_cents),
        compareAtCents: v.compare_at_cents === null ? null : Number(v.compare_at_cents),
        weightLbs: v.weight_lbs === null ? null : Number(v.weight_lbs),
        image: v.image,
        enabled: Number(v.enabled) === 1,
        position: Number(v.position),
        unitQuantity: v.unit_quantity === null ? null : Number(v.unit_quantity),
        unit: v.unit,
        stock: {
          ...(item ? { itemId: item.itemId } : {}),
          onHand,
          reserved,
          available: onHand - reserved,
          lowStockThreshold: item?.threshold ?? 0,
          alertState: item?.alertState ?? 'out',
        },
        sold: past?.sold ?? false,
        removable: !past,
      };
    }),
  };
}

/** Longer than any option value (40 characters), so a variant parked under it can clash with no combination. */
const PARKED = '~'.repeat(41);

/** The unique index that holds each SKU once, lower-cased and trimmed (migration 0028, decision 0037). */
const SKU_INDEX = 'product_variants_sku_uq';

/** A SKU as the index keys it: `lower(trim(sku))`, computed by the database, so both engines fold case their own way. */
const skuKey = (value: string) => sql<string>`lower(trim(${value}))`;

/**
 * The first of `skus` that a variant of another product holds (SKUs compared as the unique index
 * compares them), answered as the 409 that names it and its holder; undefined when all are free.
 */
export async function skuRefusal(
  db: Kysely<Database>,
  skus: readonly (string | null)[],
  productId: string,
): Promise<HttpError | undefined> {
  const typed = skus.filter((s): s is string => Boolean(s && s.trim()));
  if (typed.length === 0) return undefined;
  // The index's own expression and predicate, so both engines answer from it.
  const clash = await db
    .selectFrom('product_variants as v')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .select(['v.sku', 'p.name', 'v.option1', 'v.option2', 'v.option3'])
    .where(sql<string>`lower(trim(${sql.ref('v.sku')}))`, 'in', typed.map(skuKey))
    .where(sql<string>`trim(${sql.ref('v.sku')})`, '<>', '')
    .where('v.product_id', '<>', productId)
    .orderBy('v.id')
    .limit(1)
    .executeTakeFirst();
  if (!clash?.sku) return undefined;
  const asTyped = typed.find((s) => s.trim().toLowerCase() === clash.sku!.trim().toLowerCase()) ?? clash.sku.trim();
  return new HttpError(409, SKU_MESSAGES.inUse(asTyped, lineTitle(clash.name, variantLabel(valuesOf(clash)))));
}

/** True when a write failed on the unique SKU index: PostgreSQL names the index, SQLite says it in its message. */
function isSkuTaken(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown };
  if (e.code === '23505') return e.constraint === SKU_INDEX;
  return typeof e.code === 'string' && e.code.startsWith('SQLITE_CONSTRAINT') && String(e.message).includes(SKU_INDEX);
}

/**
 * What a write that gave `skus` to a product's variants throws when it fails. The check inside the
 * write names the holder; the unique index decides a race two writers both passed that check in
 * (PostgreSQL: the later one waits for the first to commit, then fails on the index). That failure
 * becomes the same 409, read once the losing transaction is gone, never a 500.
 */
export function refuseTakenSku(db: Kysely<Database>, productId: string, skus: readonly (string | null)[]) {
  return async (err: unknown): Promise<never> => {
    if (!isSkuTaken(err)) throw err;
    const refusal = await skuRefusal(db, skus, productId);
    const first = skus.find((s): s is string => Boolean(s && s.trim()));
    throw refusal ?? new HttpError(409, SKU_MESSAGES.justTaken(first?.trim() ?? ''));
  };
}

/**
 * Replaces a product's options and variants with the owner's set (PUT /api/admin/products/:id/variants),
 * in one transaction under the product's lock (the first lock of the back office's order; stock
 * items after it). A listed id keeps its row, its stock and its history, and takes the new values,
 * price and the rest; a new variant gets `var_<random>` and a stock item opened with its opening
 * stock. A variant left out is deleted only when it has no history (inventory's closeStock),
 * otherwise the whole change is refused (409: switch it off instead). Stock on hand of existing
 * variants never changes here (decision 0022): only adjustments change it. The product row's
 * copies follow in the same transaction. Answers the set as the editor reads it.
 */
export async function replaceProductVariants(
  db: Kysely<Database>,
  productId: string,
  input: ProductVariantsInput,
  actor: StockActor,
): Promise<AdminProductVariants> {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  const skus = input.variants.map((v) => v.sku);
  await transactionWithRetry(db, async (trx) => {
    const stock = await lockStock(trx, dialect, [productId]);
    const product = await trx.selectFrom('products').select(['name', 'images']).where('id', '=', productId).executeTakeFirst();
    if (!product) throw new HttpError(404, ADMIN_MESSAGES.productNotFound);
    const existing = await trx.selectFrom('product_variants').selectAll().where('product_id', '=', productId).orderBy('id').execute();
    const byId = new Map(existing.map((v) => [v.id, v]));
    for (const v of input.variants)
      if (v.id !== undefined && !byId.has(v.id)) throw new HttpError(400, VARIANT_MESSAGES.notThisProduct(v.id));
    const images = parseJson<string[]>(product.images, []);
    for (const v of input.variants)
      if (v.image && !images.includes(v.image)) throw new HttpError(400, VARIANT_MESSAGES.imageNotInGallery(v.image));
    const refusal = await skuRefusal(trx, skus, productId);
    if (refusal) throw refusal;

    // First the variants left out (their combinations may be taken again below), in id order.
    const kept = new Set(input.variants.flatMap((v) => (v.id ? [v.id] : [])));
    for (const v of existing.filter((x) => !kept.has(x.id))) {
      const refusal = await closeStock(trx, v.id);
      if (refusal) throw new HttpError(409, VARIANT_MESSAGES[refusal](variantLabel(valuesOf(v)) || product.name));
      await trx.deleteFrom('product_variants').where('id', '=', v.id).execute();
    }
    // Kept variants whose combination changes are parked first: two may swap values, and the unique
    // index (product_id, option1, option2, option3) is checked row by row.
    const combination = (values: readonly string[]) => ({ option1: values[0] ?? '', option2: values[1] ?? '', option3: values[2] ?? '' });
    const moving = input.variants.filter(
      (v) => v.id && JSON.stringify(valuesOf(byId.get(v.id)!)) !== JSON.stringify(valuesOf(combination(v.options))),
    );
    for (const v of moving) {
      await trx.updateTable('product_variants').set({ option1: v.id!, option2: '', option3: PARKED }).where('id', '=', v.id!).execute();
    }

    // Kept variants whose SKU changes let go of it first: two may swap SKUs, and the unique index
    // (migration 0028) is checked row by row.
    const regiven = input.variants.flatMap((v) => (v.id && byId.get(v.id)!.sku !== null && byId.get(v.id)!.sku !== v.sku ? [v.id] : []));
    if (regiven.length > 0) await trx.updateTable('product_variants').set({ sku: null }).where('id', 'in', regiven).execute();

    const at = nowIso();
    for (const [position, v] of input.variants.entries()) {
      const columns = {
        position,
        ...combination(v.options),
        sku: v.sku,
        price_cents: v.priceCents,
        compare_at_cents: v.compareAtCents,
        weight_lbs: v.weightLbs,
        image: v.image,
        enabled: v.enabled ? 1 : 0,
        unit_quantity: v.unitQuantity,
        unit: v.unit,
        updated_at: at,
      };
      if (v.id) {
        await trx.updateTable('product_variants').set(columns).where('id', '=', v.id).execute();
        const item = stock.get(v.id);
        if (!item) await openStock(trx, { productId, variantId: v.id }, { quantity: 0, threshold: v.lowStockThreshold, actor });
        else if (v.lowStockThreshold !== undefined) await applyThreshold(trx, item, v.lowStockThreshold);
        continue;
      }
      const variantId = `var_${randomString(10)}`;
      await trx
        .insertInto('product_variants')
        .values({ id: variantId, product_id: productId, ...columns, created_at: at })
        .execute();
      await openStock(trx, { productId, variantId }, { quantity: v.openingStock ?? 0, threshold: v.lowStockThreshold, actor });
    }

    await trx.deleteFrom('product_options').where('product_id', '=', productId).execute();
    if (input.options.length > 0) {
      await trx
        .insertInto('product_options')
        .values(input.options.map((o, i) => ({ product_id: productId, position: i + 1, name: o.name, values: JSON.stringify(o.values) })))
        .execute();
    }
    // Subscribers are told a new price before it is charged: the schedule's pass tells them (decision 0058).
    if (input.variants.some((v) => v.id && Number(byId.get(v.id)!.price_cents) !== v.priceCents))
      await markPricesForReview(trx, [productId], at);
    await refreshProductCopies(trx, productId, at);
  }).catch(refuseTakenSku(db, productId, skus));
  return productVariantsView(db, productId);
}
