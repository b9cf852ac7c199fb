import { z } from 'zod';
import { IMAGE_ALT_MAX, PRODUCT_IMAGES_MAX } from '../../product-images.js';
import { pageQuery } from '../paging.js';
import { LowStockThreshold, STOCK_REASONS, StockAdjustmentInput } from '../inventory.js';
import { tooLong, tooMany, tooManyItems } from '../limits.js';
import { dollarsToCents, money, textToNumber } from './fields.js';
import { ReorderAfterDays } from '../reorder-reminders.js';

// The Products tab: a product's body and form, its SKU, the list's query and the stock form.
// Variants are in ./variants.ts.

/** One SKU, one stocked item (decision 0037): the product form, the variants editor and the database hold this one limit. */
export const SKU_MAX_LENGTH = 100;

const skuInUseOpening = (sku: string) => `SKU ${sku} is already used by `;

/** The texts of a SKU, wherever one is written. */
export const SKU_MESSAGES = {
  tooLong: tooLong('SKU', SKU_MAX_LENGTH),
  /** 409: the SKU is another stocked item's, named with its product (and variant). */
  inUse: (sku: string, where: string) => `${skuInUseOpening(sku)}${where}: choose another SKU`,
  /** 409: the item that held it changed meanwhile, so it cannot be named. */
  justTaken: (sku: string) => `SKU ${sku} was just given to another product: choose another SKU, or reload and try again`,
} as const;

/** Whether a server's answer refuses this SKU (so a form can show it at that SKU's field). */
export function refusesSku(message: string, sku: string): boolean {
  const typed = sku.trim();
  return typed !== '' && (message.startsWith(skuInUseOpening(typed)) || message === SKU_MESSAGES.justTaken(typed));
}

/** A SKU as both forms take it: trimmed, '' for none, at most {@link SKU_MAX_LENGTH} characters. */
export const SkuField = z
  .string({ message: 'A SKU must be text' })
  .trim()
  .max(SKU_MAX_LENGTH, SKU_MESSAGES.tooLong)
  .nullish()
  .transform((v) => v || null);

/** Draft: the owner's alone (not shown, searched, listed or sold); Active: in the shop (migration 0037). */
export const PRODUCT_STATUSES = ['draft', 'active'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

const ProductFields = z
  .object({
    /** Omitted: a new product is active, an edited one keeps its status. */
    status: z.enum(PRODUCT_STATUSES, { message: 'status must be draft or active' }).optional(),
    name: z.string({ message: 'Name is required' }).trim().min(1, 'Name is required').max(200, tooLong('Name', 200)),
    description: z
      .string({ message: 'Description is required' })
      .trim()
      .min(1, 'Description is required')
      .max(5000, tooLong('Description', 5000)),
    priceCents: money('Price'),
    inventory: z
      .number({ message: 'Inventory must be a number' })
      .int('Inventory must be a whole number')
      .min(0, 'Inventory cannot be negative')
      .max(1_000_000, tooMany('Inventory', 1_000_000)),
    /** At or below it the shop says "Only N left" and the owner is told (default 10). */
    lowStockThreshold: LowStockThreshold.optional(),
    category: z.string().max(50, tooLong('Category', 50)).nullish(),
    featured: z.boolean().default(false),
    sku: SkuField,
    brand: z
      .string()
      .trim()
      .max(100, tooLong('Brand', 100))
      .nullish()
      .transform((v) => v || null),
    stripePriceId: z
      .string()
      .trim()
      .max(100, tooLong('Stripe price ID', 100))
      .nullish()
      .transform((v) => v || null),
    weightLbs: z
      .number({ message: 'Weight must be a number' })
      .min(0, 'Weight cannot be negative')
      .max(100_000, 'Weight cannot exceed 100,000 lbs')
      .nullish(),
    dimensions: z
      .object({
        length: z.number({ message: 'Length must be a number' }).positive('Length must be more than 0').nullish(),
        width: z.number({ message: 'Width must be a number' }).positive('Width must be more than 0').nullish(),
        height: z.number({ message: 'Height must be a number' }).positive('Height must be more than 0').nullish(),
      })
      .nullish(),
    /** Days after a one-time purchase its buyer is reminded to reorder; null: none; omitted: unchanged (issue [7/8] item 4). */
    reorderAfterDays: ReorderAfterDays,
    images: z
      .array(z.string().max(500, tooLong('An image address', 500)))
      .max(PRODUCT_IMAGES_MAX, `A product can have at most ${PRODUCT_IMAGES_MAX} images`)
      .optional(),
    /** One per image, in the same order ('' for none); sent with `images`. */
    imageAlts: z
      .array(z.string().trim().max(IMAGE_ALT_MAX, `Alt text cannot exceed ${IMAGE_ALT_MAX} characters`))
      .max(PRODUCT_IMAGES_MAX, tooManyItems('alt texts (one per image)', PRODUCT_IMAGES_MAX))
      .optional(),
  })
  .strict();

function imageAltsRule(p: { images?: string[]; imageAlts?: string[] }, ctx: z.RefinementCtx): void {
  if (p.imageAlts === undefined) return;
  if (p.images === undefined) ctx.addIssue({ code: 'custom', path: ['imageAlts'], message: 'Send the images with their alt texts' });
  else if (p.imageAlts.length !== p.images.length)
    ctx.addIssue({ code: 'custom', path: ['imageAlts'], message: 'Send one alt text per image' });
}

/** A new product: its inventory is the opening stock (the ledger's first row). */
export const ProductInput = ProductFields.superRefine(imageAltsRule);

/** The Products tab's orders: newest first, by name, by price either way, lowest stock first. */
export const ADMIN_PRODUCT_SORTS = ['newest', 'name', 'price-asc', 'price-desc', 'stock-asc'] as const;

/** The Products tab's list: search, a stock filter (low: at or below the threshold; out: sold out), a category and sort. */
export const AdminProductListQuery = pageQuery(50).extend({
  stock: z.enum(['all', 'low', 'out'], { message: 'stock must be all, low or out' }).default('all'),
  sort: z.enum(ADMIN_PRODUCT_SORTS, { message: `sort must be one of ${ADMIN_PRODUCT_SORTS.join(', ')}` }).default('newest'),
  /** A category's id, or `none` for the products in no category. */
  category: z
    .string()
    .trim()
    .max(50, 'category cannot exceed 50 characters')
    .optional()
    .transform((v) => v || undefined),
});

export const STOCK_NOT_IN_PRODUCT_FORM =
  'Saving a product does not change its stock: use Adjust stock (POST /api/admin/products/:id/stock) with a reason, so no sale is undone.';

/**
 * An edited product. It never carries a stock figure: one read when the form opened would undo
 * every sale made since (decision 0022). Stock changes by adjustment only.
 */
export const ProductUpdateInput = ProductFields.omit({ inventory: true })
  .extend({ inventory: z.unknown().optional() })
  .superRefine((p, ctx) => {
    imageAltsRule(p, ctx);
    if (p.inventory !== undefined) ctx.addIssue({ code: 'custom', path: ['inventory'], message: STOCK_NOT_IN_PRODUCT_FORM });
  })
  .transform(({ inventory: _inventory, ...rest }) => rest);
export type ProductUpdateInput = z.input<typeof ProductUpdateInput>;
export type ProductInput = z.input<typeof ProductInput>;

/**
 * Each body has a form-shaped twin beside it (…Form): what the back office's inputs hold (text,
 * dollars, local date-times) mapped onto the body, then parsed by the very schema the server uses.
 * A form adds no rule and no message of its own; a field's error comes from the body schema, at the
 * body key (each form names its fields after the body's keys so the errors land on the right input).
 */

/** The product dialog's fields, for a new product and an edited one alike (an edited one has no inventory field). */
const ProductFormFields = z.object({
  name: z.string(),
  description: z.string(),
  /** Dollars. */
  priceCents: z.string(),
  /** The opening stock of a new product; an edited product's stock changes by adjustment only. */
  inventory: z.string(),
  /** '' keeps the default (10) on a new product and the current one on an edited product. */
  lowStockThreshold: z.string(),
  /** A category id, or '' for none. */
  category: z.string(),
  featured: z.boolean(),
  /** Draft: saved for the owner alone, not in the shop until made active. */
  draft: z.boolean().optional(),
  sku: z.string(),
  brand: z.string(),
  weightLbs: z.string(),
  /** Whole days, or '' for no reorder reminders (a form without the field leaves the product's as it is). */
  reorderAfterDays: z.string().optional(),
  dimensions: z.object({ length: z.string(), width: z.string(), height: z.string() }),
  images: z.array(z.object({ url: z.string(), alt: z.string() })),
});
type ProductFormFields = z.infer<typeof ProductFormFields>;

/** Everything the product body holds besides its stock. */
function productBody(v: ProductFormFields) {
  return {
    name: v.name,
    description: v.description,
    priceCents: dollarsToCents(v.priceCents, NaN),
    lowStockThreshold: textToNumber(v.lowStockThreshold, undefined),
    category: v.category || null,
    featured: v.featured,
    ...(v.draft !== undefined ? { status: v.draft ? ('draft' as const) : ('active' as const) } : {}),
    sku: v.sku,
    brand: v.brand,
    weightLbs: textToNumber(v.weightLbs, null),
    ...(v.reorderAfterDays === undefined ? {} : { reorderAfterDays: textToNumber(v.reorderAfterDays, null) }),
    // The server keeps dimensions only when all three are given.
    dimensions: {
      length: textToNumber(v.dimensions.length, null),
      width: textToNumber(v.dimensions.width, null),
      height: textToNumber(v.dimensions.height, null),
    },
    // The whole list, in the owner's order, each image with its alt text.
    images: v.images.map((im) => im.url),
    imageAlts: v.images.map((im) => im.alt),
  };
}

/** The product dialog for a new product: price in dollars, numbers as typed, its inventory the opening stock. */
export const ProductForm = ProductFormFields.transform((v): z.input<typeof ProductInput> => ({
  ...productBody(v),
  inventory: textToNumber(v.inventory, NaN),
})).pipe(ProductInput);
export type ProductForm = z.input<typeof ProductForm>;

/**
 * The product dialog for an edited product: never a stock figure (the server refuses one), since a
 * level read when the dialog opened would undo every sale made since; stock changes by adjustment.
 */
export const ProductEditForm = ProductFormFields.transform((v): z.input<typeof ProductUpdateInput> => productBody(v)).pipe(
  ProductUpdateInput,
);

/**
 * The Adjust stock form: the quantity as typed. An empty one reads as the one value its reason
 * refuses, so the message is the reason's own ("Enter how many units (1 or more)").
 */
export const StockAdjustmentForm = z
  .object({ reason: z.enum(STOCK_REASONS), quantity: z.string(), note: z.string() })
  .transform((v): z.input<typeof StockAdjustmentInput> => ({
    reason: v.reason,
    quantity: textToNumber(v.quantity, v.reason === 'counted' ? -1 : 0),
    note: v.note,
  }))
  .pipe(StockAdjustmentInput);
export type StockAdjustmentForm = z.input<typeof StockAdjustmentForm>;
