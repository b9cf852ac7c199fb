import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { defaultVariantIdOf } from '../../shared/variants.js';

/*
 * A product's variants (decision 0036), owned by the catalogue: every product has at least one, and
 * a product without options has exactly one, `var_<productId>`. The product row keeps copies that
 * lists read without a join: `price_cents` (the lowest enabled price), `max_price_cents` (the highest
 * when prices differ), `sku` (the only variant's) and `sole_variant_id` (the only enabled variant).
 * Stock is the inventory module's: one stock item per variant.
 */

/** A variant as the cart prices it: its price and SKU, with its product's name and images. */
export type VariantForPricing = {
  variantId: string;
  productId: string;
  name: string;
  sku: string | null;
  priceCents: number;
  images: string;
  enabled: boolean;
};

/** The variants a cart names, with their products (one read). Unknown variants are absent. */
export async function variantsForPricing(db: Kysely<Database>, variantIds: readonly string[]): Promise<VariantForPricing[]> {
  if (variantIds.length === 0) return [];
  const rows = await db
    .selectFrom('product_variants as v')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .select(['v.id', 'v.product_id', 'p.name', 'v.sku', 'v.price_cents', 'p.images', 'v.enabled'])
    .where('v.id', 'in', [...variantIds])
    .execute();
  return rows.map((r) => ({
    variantId: r.id,
    productId: r.product_id,
    name: r.name,
    sku: r.sku,
    priceCents: Number(r.price_cents),
    images: r.images,
    enabled: Number(r.enabled) === 1,
  }));
}

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
