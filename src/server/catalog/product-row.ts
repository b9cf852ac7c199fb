import type { ProductRow } from '../db/schema.js';
import type { Product } from '../../shared/schemas/catalog.js';
import { parseJson } from '../lib/json.js';
import { alignImageAlts } from '../../shared/product-images.js';

export function toProduct(row: ProductRow): Product {
  const hasDims = row.length_in != null && row.width_in != null && row.height_in != null;
  const images = parseJson<string[]>(row.images, []);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    priceCents: row.price_cents,
    category: row.category_id,
    images,
    // One per image, always (rows from before alt texts existed hold '[]').
    imageAlts: alignImageAlts(images, parseJson<unknown>(row.image_alts, [])),
    featured: Boolean(row.featured),
    inventory: row.inventory,
    createdAt: row.created_at,
    sku: row.sku,
    brand: row.brand,
    stripePriceId: row.stripe_price_id,
    weightLbs: row.weight_lbs,
    dimensions: hasDims ? { length: row.length_in!, width: row.width_in!, height: row.height_in! } : null,
    // The catalogue's copies of its variants (catalog/variants.ts): the highest price when they differ, the only enabled one.
    maxPriceCents: row.max_price_cents ?? null,
    soleVariantId: row.sole_variant_id ?? null,
  };
}
