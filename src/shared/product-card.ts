/**
 * What a product card (the shop list, the home page's featured products) reads of a product: the
 * shape the server embeds in those pages' HTML as their first data (src/server/pages/page-data.ts).
 * A full product (the API's answers) is one too, so the browser's later fetches fill the same
 * queries; the card never sees the description, SKU, weight or the rest, which the page's own
 * HTML does not show either and which made the shop page's HTML a fifth larger compressed.
 *
 * Loaded in the first-load bundle: no zod here (the schema is in src/client/lib/response-schemas.ts).
 */
import type { Product, ProductPage } from './schemas/catalog.js';

/**
 * `maxPriceCents` (not null: "From $X") and `soleVariantId` (null: the card links to the product to
 * choose options instead of adding it) are the product's copies of its variants (decision 0036).
 * `rating` (its stars and count, absent without a published review) is shown under the name.
 */
export const PRODUCT_CARD_FIELDS = [
  'id',
  'name',
  'priceCents',
  'maxPriceCents',
  'images',
  'inventory',
  'soleVariantId',
  'held',
  'rating',
] as const;
export type ProductCardItem = Pick<Product, (typeof PRODUCT_CARD_FIELDS)[number]>;
/** A page of the product list as its cards read it. */
export type ProductCardPage = Omit<ProductPage, 'items'> & { items: ProductCardItem[] };

/** Only the fields a card reads (a new object: nothing else of the product is carried along). */
export function toProductCard(p: ProductCardItem): ProductCardItem {
  const { id, name, priceCents, maxPriceCents, images, inventory, soleVariantId, held, rating } = p;
  return {
    id,
    name,
    priceCents,
    maxPriceCents,
    images,
    inventory,
    soleVariantId,
    ...(held ? { held } : {}),
    ...(rating ? { rating } : {}),
  };
}
