import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/*
 * The variants a cart names, as the cart prices them (decision 0036): price and SKU from the
 * variant, name and images from its product, and the option names and values that make the line's
 * label and the specification's size and colour. One read, options joined by position. It reads
 * the catalogue's tables (catalog/ alone writes them) beneath the modules that price with it: cart,
 * orders, and inventory's checkout read (inventory/stock.ts), which catalog itself imports.
 */

/** A variant as the cart prices it. */
export type VariantForPricing = {
  variantId: string;
  productId: string;
  name: string;
  sku: string | null;
  priceCents: number;
  images: string;
  image: string | null;
  enabled: boolean;
  position: number;
  /** The option values, one per option of the product (the product's option count). */
  values: string[];
  /** The product's option names, in position order. */
  optionNames: string[];
  /** Its unit size for the price per unit (decision 0043): both null when it has none. */
  unitQuantity: number | null;
  unit: string | null;
};

type Row = {
  id: string;
  product_id: string;
  name: string;
  sku: string | null;
  price_cents: number | string;
  images: string;
  image: string | null;
  enabled: number;
  position: number;
  option1: string;
  option2: string;
  option3: string;
  name1: string | null;
  name2: string | null;
  name3: string | null;
  unit_quantity: number | string | null;
  unit: string | null;
};

/** The select list shared with the checkout's read (inventory/stock.ts variantsForCheckout), which adds the stock columns. */
export function pricingColumns() {
  return [
    'v.id',
    'v.product_id',
    'p.name',
    'v.sku',
    'v.price_cents',
    'p.images',
    'v.image',
    // A draft product is not for sale (migration 0037): its variants price as not enabled, so a cart or checkout naming one is refused.
    sql<number>`case when p.status = 'draft' then 0 else v.enabled end`.as('enabled'),
    'v.position',
    'v.option1',
    'v.option2',
    'v.option3',
    'o1.name as name1',
    'o2.name as name2',
    'o3.name as name3',
    'v.unit_quantity',
    'v.unit',
  ] as const;
}

/**
 * The named variants and every variant of the gift's product, with their products and the
 * products' option names, in product and owner's order (the caller selects the columns).
 */
export function pricingQuery(db: Kysely<Database>, variantIds: readonly string[], giftProductId: string | null) {
  return db
    .selectFrom('product_variants as v')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .leftJoin('product_options as o1', (j) => j.onRef('o1.product_id', '=', 'v.product_id').on('o1.position', '=', 1))
    .leftJoin('product_options as o2', (j) => j.onRef('o2.product_id', '=', 'v.product_id').on('o2.position', '=', 2))
    .leftJoin('product_options as o3', (j) => j.onRef('o3.product_id', '=', 'v.product_id').on('o3.position', '=', 3))
    .where((eb) =>
      eb.or([
        eb('v.id', 'in', variantIds.length ? [...variantIds] : ['']),
        ...(giftProductId ? [eb('v.product_id', '=', giftProductId)] : []),
      ]),
    )
    .orderBy('v.product_id')
    .orderBy('v.position')
    .orderBy('v.id');
}

export function toVariantForPricing(r: Row): VariantForPricing {
  const optionNames = [r.name1, r.name2, r.name3].filter((n): n is string => n !== null);
  return {
    variantId: r.id,
    productId: r.product_id,
    name: r.name,
    sku: r.sku,
    priceCents: Number(r.price_cents),
    images: r.images,
    image: r.image,
    enabled: Number(r.enabled) === 1,
    position: Number(r.position),
    values: [r.option1, r.option2, r.option3].slice(0, optionNames.length),
    optionNames,
    unitQuantity: r.unit_quantity === null ? null : Number(r.unit_quantity),
    unit: r.unit,
  };
}

/**
 * The variants a cart names (unknown ones are absent) and, with `giftProductId`, every variant of
 * the coupon's free product (the gift is its first enabled variant with a unit to give, when the
 * coupon names none).
 */
export async function variantsForPricing(
  db: Kysely<Database>,
  variantIds: readonly string[],
  giftProductId: string | null = null,
): Promise<VariantForPricing[]> {
  if (variantIds.length === 0 && !giftProductId) return [];
  const rows = await pricingQuery(db, variantIds, giftProductId)
    .select([...pricingColumns()])
    .execute();
  return rows.map((r) => toVariantForPricing(r as Row));
}
