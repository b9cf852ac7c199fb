import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ProductOption, VariantView } from '../../shared/schemas/catalog.js';
import { variantLabel } from '../../shared/variants.js';
import { parseJson } from '../lib/json.js';

/*
 * What the storefront reads of a product's options and variants (decision 0036): the product page's
 * pickers and the catalogue index's search texts. Reads only; the back office writes them
 * (variants.ts). Stock is the inventory module's: the caller joins each variant to its stock.
 */

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** An option with its position (1..3): a variant's value for it is in `option<position>`. */
type PlacedOption = ProductOption & { position: number };

/** An enabled variant as the product page shows it, before its stock is known. */
export type ShownVariant = Omit<VariantView, 'available' | 'stock'>;

/** A product's options in position order, and its enabled variants in the owner's order (position, then id). */
export async function readProductVariants(
  db: Kysely<Database>,
  productId: string,
): Promise<{ options: ProductOption[]; variants: ShownVariant[] }> {
  const [optionRows, variantRows] = await Promise.all([
    db
      .selectFrom('product_options')
      .select(['position', 'name', 'values'])
      .where('product_id', '=', productId)
      .orderBy('position')
      .execute(),
    db
      .selectFrom('product_variants')
      .select(['id', 'option1', 'option2', 'option3', 'sku', 'price_cents', 'compare_at_cents', 'image', 'unit_quantity', 'unit'])
      .where('product_id', '=', productId)
      .where('enabled', '=', 1)
      .orderBy('position')
      .orderBy('id')
      .execute(),
  ]);
  const options: PlacedOption[] = optionRows.map((o) => ({
    position: Number(o.position),
    name: o.name,
    values: stringsOf(parseJson<unknown>(o.values, [])),
  }));
  const variants = variantRows.map((v): ShownVariant => {
    const byPosition = [v.option1, v.option2, v.option3];
    // One value per option of the product, in the options' order (a product without options: none).
    const values = options.map((o) => byPosition[o.position - 1] ?? '');
    return {
      id: v.id,
      options: values,
      label: variantLabel(values),
      sku: v.sku,
      priceCents: Number(v.price_cents),
      compareAtCents: v.compare_at_cents === null ? null : Number(v.compare_at_cents),
      image: v.image,
      unitQuantity: v.unit_quantity === null ? null : Number(v.unit_quantity),
      unit: v.unit,
    };
  });
  return { options: options.map(({ name, values }) => ({ name, values })), variants };
}

/**
 * What the shop search matches in each product besides its name and description (decision 0036):
 * its options' values, and the SKUs of its enabled variants when it has several (a product with
 * one has that variant's SKU on its own row: `products.sku`). Each text lowered by the database, as
 * the name and description are; by product id (all products, or these), in options' then
 * variants' order. Products with neither are absent.
 */
export async function variantSearchTexts(db: Kysely<Database>, productIds?: readonly string[]): Promise<Map<string, string[]>> {
  if (productIds && productIds.length === 0) return new Map();
  let options = db
    .selectFrom('product_options as o')
    .select([
      'o.product_id',
      sql<number>`0`.as('kind'),
      'o.position',
      sql<string>`''`.as('variant_id'),
      sql<string>`lower(${sql.ref('o.values')})`.as('text'),
    ]);
  let skus = db
    .selectFrom('product_variants as v')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .select(['v.product_id', sql<number>`1`.as('kind'), 'v.position', 'v.id as variant_id', sql<string>`lower(v.sku)`.as('text')])
    .where('v.enabled', '=', 1)
    .where('v.sku', 'is not', null)
    .where('v.sku', '<>', '')
    .where('p.sole_variant_id', 'is', null);
  if (productIds) {
    options = options.where('o.product_id', 'in', [...productIds]);
    skus = skus.where('v.product_id', 'in', [...productIds]);
  }
  const rows = await options.unionAll(skus).execute();
  rows.sort(
    (a, b) =>
      (a.product_id < b.product_id ? -1 : a.product_id > b.product_id ? 1 : 0) ||
      Number(a.kind) - Number(b.kind) ||
      Number(a.position) - Number(b.position) ||
      (a.variant_id < b.variant_id ? -1 : a.variant_id > b.variant_id ? 1 : 0),
  );
  const texts = new Map<string, string[]>();
  for (const r of rows) {
    const found = Number(r.kind) === 0 ? stringsOf(parseJson<unknown>(r.text, [])) : [r.text];
    const list = texts.get(r.product_id) ?? [];
    for (const t of found) if (t !== '') list.push(t);
    if (list.length > 0) texts.set(r.product_id, list);
  }
  return texts;
}
