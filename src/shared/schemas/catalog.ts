import { z } from 'zod';
import { pageNumber, pageOf } from './paging.js';
import { SubscriptionPlanView } from './subscription-plan.js';

export { SubscriptionPlanView };

const Dimensions = z.object({
  length: z.number().positive('Length must be more than 0'),
  width: z.number().positive('Width must be more than 0'),
  height: z.number().positive('Height must be more than 0'),
});
export type Dimensions = z.infer<typeof Dimensions>;

export const Product = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  priceCents: z.number().int(),
  category: z.string().nullable(),
  images: z.array(z.string()),
  /** One alt text per image, in `images` order ('': none written; see productImageAlt). Absent in answers from before it existed. */
  imageAlts: z.array(z.string()).default([]),
  featured: z.boolean(),
  inventory: z.number().int(),
  /** Units other shoppers' unpaid checkouts keep (present when some are): a card says so rather than "Out of stock". */
  held: z.number().int().optional(),
  createdAt: z.string(),
  sku: z.string().nullable(),
  brand: z.string().nullable(),
  stripePriceId: z.string().nullable(),
  weightLbs: z.number().nullable(),
  dimensions: Dimensions.nullable(),
  /** The highest enabled variant's price when variants differ in price ("From $X" uses `priceCents`, the lowest), else null (decision 0036). */
  maxPriceCents: z.number().int().nullable().default(null),
  /** The only enabled variant's id (a card adds it directly); null when the shopper must choose options. */
  soleVariantId: z.string().nullable().default(null),
  /**
   * Its published reviews' stars (issue [6/8]): the average as shown (one decimal, shared/reviews.ts
   * averageOf) and their count. Absent when it has no published review.
   */
  rating: z.object({ average: z.number(), count: z.number().int() }).optional(),
});
export type Product = z.infer<typeof Product>;

/** A product's option (decision 0036): its name and values, in the owner's order. At most three per product. */
export const ProductOption = z.object({ name: z.string(), values: z.array(z.string()) });
export type ProductOption = z.infer<typeof ProductOption>;

/**
 * A variant as the product page shows it (enabled ones only, in the owner's order): `options` holds
 * one value per product option, in the options' order. `available` is what can be bought now (the
 * level less units other shoppers' checkouts keep); `stock` says when kept units may come back.
 */
export const VariantView = z.object({
  id: z.string(),
  options: z.array(z.string()),
  /** 'Lavender, 1 L' ('' for a product without options). */
  label: z.string(),
  sku: z.string().nullable(),
  priceCents: z.number().int(),
  /** Shown struck through beside the price when higher; never charged. */
  compareAtCents: z.number().int().nullable(),
  /** A path from the product's images; null: the product's first image. */
  image: z.string().nullable(),
  /** How much it holds, in `unit` (16 and 'oz'): its price per unit is shown (shared/unit-price.ts). Absent: none. */
  unitQuantity: z.number().nullish(),
  unit: z.string().nullish(),
  available: z.number().int(),
  stock: z.object({ reserved: z.number().int(), reservedUntil: z.string().nullable(), lowStockThreshold: z.number().int() }),
  /** Subscribe and save (issue [4/8]): the variant's plan when the owner offers one (its own, else its product's); null or absent: none. */
  subscription: SubscriptionPlanView.nullable().optional(),
});
export type VariantView = z.infer<typeof VariantView>;

export const Category = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  imageUrl: z.string().nullable(),
});
export type Category = z.infer<typeof Category>;

/** The accessories category is shown to shoppers as "Other" and hidden from the home tiles. */
export const HIDDEN_HOME_CATEGORY_ID = 'accessories';

const trimmedOptional = z
  .string()
  .trim()
  .max(100, 'Search text cannot exceed 100 characters')
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/**
 * The shop list's orders: `shop` (the default: leading "N -" number, then price, then name), price
 * low to high and high to low, newest first, and `rating` ("Top rated": average stars high to low,
 * then more reviews first; products without a published review last). Ties keep shop order.
 */
export const PRODUCT_SORTS = ['shop', 'price-asc', 'price-desc', 'newest', 'rating'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

/** A price bound in the URL, in dollars ("12" or "12.50"); cents once read. */
const priceBound = (name: string) =>
  z
    .string()
    .trim()
    .regex(/^(\d{1,6})(\.\d{1,2})?$/, `${name} must be an amount in dollars, like 12 or 12.50`)
    .optional()
    .or(z.literal(''))
    .transform((v) => (v === undefined || v === '' ? undefined : Math.round(Number(v) * 100)));

export const ProductListQuery = z
  .object({
    search: trimmedOptional,
    category: z
      .string()
      .trim()
      .max(50, 'Category cannot exceed 50 characters')
      .regex(/^[a-z0-9-]*$/, 'Category can only contain lowercase letters, numbers, and hyphens')
      .optional()
      .transform((v) => (v === '' || v === 'all' ? undefined : v)),
    featured: z
      .enum(['true', 'false'], { message: "featured must be 'true' or 'false'" })
      .optional()
      .transform((v) => (v === undefined ? undefined : v === 'true')),
    sort: z
      .enum(PRODUCT_SORTS, { message: `sort must be one of: ${PRODUCT_SORTS.join(', ')}` })
      .optional()
      .transform((v) => (v === 'shop' ? undefined : v)),
    minPrice: priceBound('minPrice'),
    maxPrice: priceBound('maxPrice'),
    page: pageNumber,
    pageSize: z.coerce
      .number({ message: 'pageSize must be a number' })
      .int('pageSize must be a whole number')
      .min(1, 'pageSize must be at least 1')
      .max(100, 'pageSize cannot exceed 100')
      .default(24),
  })
  .strict()
  .transform(({ minPrice, maxPrice, ...rest }) => ({ ...rest, minPriceCents: minPrice, maxPriceCents: maxPrice }))
  .refine((f) => f.minPriceCents === undefined || f.maxPriceCents === undefined || f.minPriceCents <= f.maxPriceCents, {
    message: 'minPrice cannot be more than maxPrice',
    path: ['minPrice'],
  });
export type ProductListQuery = z.input<typeof ProductListQuery>;
export type ProductListFilter = z.output<typeof ProductListQuery>;

export const ProductPage = pageOf(Product);
export type ProductPage = z.infer<typeof ProductPage>;

export const ProductIdParam = z.object({
  id: z.string().min(1, 'Product id is required').max(100, 'Product id cannot exceed 100 characters'),
});

export const Faq = z.object({
  id: z.string(),
  question: z.string(),
  answer: z.string(),
  category: z.string().nullable(),
});
export type Faq = z.infer<typeof Faq>;

/** Settings keys that anybody may read; secrets (ShipStation keys, workflow endpoint) never leave the server. */
/** The About page's words and picture, edited on the admin About tab. */
export const ABOUT_SETTING_KEYS = [
  'about_title',
  'about_hero_image',
  'about_mission_title',
  'about_mission_content',
  'about_mission_quote',
  'about_history_title',
  'about_history_content',
  'about_values_title',
  'about_values_content',
  'about_commitment_title',
  'about_commitment_content',
] as const;

export const PUBLIC_SETTING_KEYS = [
  'contact_email',
  'contact_phone',
  'contact_hours',
  'social_media_facebook',
  'social_media_youtube',
  'hero_video_url',
  'homepage_hero_title',
  'homepage_hero_subtitle',
  'homepage_hero_description',
  'homepage_hero_image',
  'homepage_about_title',
  'homepage_about_description',
  'homepage_about_image',
  ...ABOUT_SETTING_KEYS,
] as const;
export type PublicSettingKey = (typeof PUBLIC_SETTING_KEYS)[number];
export const PublicSettings = z.record(z.string(), z.string());
export type PublicSettings = Record<PublicSettingKey, string>;

/** A leading "N - " in a product name sets its place in the shop list. */
export function leadingNumber(name: string): number | null {
  const m = /^\s*(\d+)\s*-/.exec(name);
  return m ? Number(m[1]) : null;
}

/**
 * Shop order: products whose name starts with "N -" come first by N ascending,
 * the rest after them; ties by price ascending, then name.
 */
export function compareShopOrder(a: { name: string; priceCents: number }, b: { name: string; priceCents: number }): number {
  const na = leadingNumber(a.name);
  const nb = leadingNumber(b.name);
  if (na !== nb) {
    if (na === null) return 1;
    if (nb === null) return -1;
    return na - nb;
  }
  if (a.priceCents !== b.priceCents) return a.priceCents - b.priceCents;
  return a.name.localeCompare(b.name);
}

/** Case-insensitive match of the search text on name or description. */
export function matchesSearch(p: { name: string; description: string }, search: string | undefined): boolean {
  if (!search) return true;
  const q = search.toLowerCase();
  return p.name.toLowerCase().includes(q) || p.description.toLowerCase().includes(q);
}
