/**
 * Every API response schema the storefront parses. This module is loaded lazily (see
 * load-response-schemas.ts) because zod is ~25 KB gzipped and the first paint does not need it:
 * the server already embedded the page's data in the HTML.
 */
import './zod-config.js';
import { z } from 'zod';
import { Category, Faq, Product, ProductOption, ProductPage, PublicSettings, VariantView } from '../../shared/schemas/catalog.js';
import { StockNotice } from '../../shared/schemas/inventory.js';
import {
  REVIEW_SORTS,
  type PublicReview as PublicReviewShape,
  type RatingSummary as RatingSummaryShape,
  type ReviewPage as ReviewPageShape,
} from '../../shared/reviews.js';

export const FeaturedProductsResponse = z.object({ items: z.array(Product) });
export type FeaturedProductsResponse = z.infer<typeof FeaturedProductsResponse>;

const reviewCount = z.number().int().min(0);

/** A product's stars (src/shared/reviews.ts): count, average and each star's count, 1 to 5. */
export const RatingSummary = z.object({
  count: reviewCount,
  average: z.number(),
  stars: z.tuple([reviewCount, reviewCount, reviewCount, reviewCount, reviewCount]),
}) satisfies z.ZodType<RatingSummaryShape>;

/** `id`: what an edit's `keepPhotos` may name, when the answer carries it (the address does too). */
const ReviewPhoto = z.object({ id: z.string().optional(), url: z.string(), width: z.number(), height: z.number() });

export const PublicReview = z.object({
  id: z.string(),
  rating: z.number().int().min(1).max(5),
  title: z.string(),
  body: z.string(),
  displayName: z.string(),
  verified: z.boolean(),
  variantLabel: z.string(),
  photos: z.array(ReviewPhoto),
  publishedAt: z.string(),
  editedAt: z.string().nullable(),
  reply: z.object({ text: z.string(), at: z.string() }).nullable(),
}) satisfies z.ZodType<PublicReviewShape>;

/** A page of a product's published reviews (GET /api/products/:id/reviews, and the product's first page). */
export const ReviewPage = z.object({
  summary: RatingSummary,
  items: z.array(PublicReview),
  total: reviewCount,
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
  sort: z.enum(REVIEW_SORTS),
  rating: z.number().int().min(1).max(5).nullable(),
}) satisfies z.ZodType<ReviewPageShape>;

/**
 * GET /api/products/:id: the product (`inventory`: what can be bought now), its options and enabled
 * variants (absent from answers cached before variants: none), what else to say of its stock, and
 * its stars and first page of reviews (issue [6/8]; absent from answers cached before reviews).
 */
export const ProductResponse = z.object({
  product: Product,
  options: z.array(ProductOption).default([]),
  variants: z.array(VariantView).default([]),
  stock: StockNotice,
  rating: RatingSummary.optional(),
  reviews: ReviewPage.optional(),
  stockStamp: z.string().optional(),
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
  rating: true,
}).strict();
export const EmbeddedProductCardPage = ProductPage.extend({ items: z.array(ProductCardItem) });
export const EmbeddedFeaturedProducts = z.object({ items: z.array(ProductCardItem) });
/** "You may also like" (GET /api/products/:id/related and the product page's HTML): cards only. */
export const RelatedProductsResponse = z.object({ items: z.array(ProductCardItem) });
export type RelatedProductsResponse = z.infer<typeof RelatedProductsResponse>;
