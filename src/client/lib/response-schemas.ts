/**
 * Every API response schema the storefront parses. This module is loaded lazily (see
 * load-response-schemas.ts) because zod is ~25 KB gzipped and the first paint does not need it:
 * the server already embedded the page's data in the HTML.
 */
import './zod-config.js';
import { z } from 'zod';
import { Category, Faq, Product, ProductOption, ProductPage, PublicSettings, VariantView } from '../../shared/schemas/catalog.js';
import { StockNotice } from '../../shared/schemas/inventory.js';

export const FeaturedProductsResponse = z.object({ items: z.array(Product) });
export type FeaturedProductsResponse = z.infer<typeof FeaturedProductsResponse>;

/**
 * GET /api/products/:id: the product (`inventory`: what can be bought now), its options and enabled
 * variants (absent from answers cached before variants: none), and what else to say of its stock.
 */
export const ProductResponse = z.object({
  product: Product,
  options: z.array(ProductOption).default([]),
  variants: z.array(VariantView).default([]),
  stock: StockNotice,
});
export type ProductResponse = z.infer<typeof ProductResponse>;

export const CategoriesResponse = z.object({ items: z.array(Category) });
export type CategoriesResponse = z.infer<typeof CategoriesResponse>;

export const SettingsResponse = z.object({ settings: PublicSettings });
export type SettingsResponse = z.infer<typeof SettingsResponse>;

export const FaqsResponse = z.object({ items: z.array(Faq) });
export type FaqsResponse = z.infer<typeof FaqsResponse>;

export { ProductPage };

/**
 * The product lists as the server embeds them in a page's HTML: each item only what its card reads
 * (src/shared/product-card.ts), and nothing more (strict: the HTTP suite checks the embedded data
 * against these, so a page that embeds whole products again fails it).
 */
const ProductCardItem = Product.pick({
  id: true,
  name: true,
  priceCents: true,
  maxPriceCents: true,
  images: true,
  inventory: true,
  soleVariantId: true,
  held: true,
}).strict();
export const EmbeddedProductCardPage = ProductPage.extend({ items: z.array(ProductCardItem) });
export const EmbeddedFeaturedProducts = z.object({ items: z.array(ProductCardItem) });
/** "You may also like" (GET /api/products/:id/related and the product page's HTML): cards only. */
export const RelatedProductsResponse = z.object({ items: z.array(ProductCardItem) });
export type RelatedProductsResponse = z.infer<typeof RelatedProductsResponse>;
