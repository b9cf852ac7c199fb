import { z } from 'zod';
import { pageQuery } from './paging.js';
import { LowStockThreshold, MAX_STOCK_LEVEL, ReturnLines } from './inventory.js';
import { ProductOption } from './catalog.js';
import { IMAGE_ALT_MAX, PRODUCT_IMAGES_MAX } from '../product-images.js';
import { ORDER_STATUSES, OrderStatus } from './orders.js';
import { formatCents, MAX_ORDER_TOTAL_CENTS } from '../money.js';
import { checkPeriod, PeriodFields, REPORT_MESSAGES } from './reports.js';
import { OrderSearchText } from './order-search.js';
import { CancelRefund, OWNER_ORDER_MESSAGES, OwnerOrderLineFields } from './owner-orders.js';
import { tooLong, tooMany, tooManyItems } from './limits.js';

/** The most any price or amount may be: the order ceiling, $999,999.99 (shared/money.ts). */
const tooLarge = (label: string) => `${label} cannot exceed $999,999.99`;

/** Admin texts of spec section 8, shared by the back office and the server. */
/** The largest image the shop takes, in pixels: a side, and the whole picture (megapixels). */
export const IMAGE_MAX_SIDE = 8000;
export const IMAGE_MAX_MEGAPIXELS = 25;
/** The largest image file the shop takes: the upload route's limit, checked by the browser before it sends one. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

export const ADMIN_MESSAGES = {
  orderNotFound: 'Order not found',
  couponNotFound: 'Coupon not found',
  couponUntilBeforeFrom: 'Valid until must be after valid from',
  couponCodeChars: 'Code can only contain letters, numbers, and dashes',
  productNotFound: 'Product not found',
  categoryNotFound: 'Category not found',
  shippingNotFound: 'Shipping option not found',
  userNotFound: 'User not found',
  categoryInUse: (n: number) =>
    `This category still holds ${n} product${n === 1 ? '' : 's'}. Move or delete them before deleting the category.`,
  categoryExists: 'A category with this ID already exists',
  couponCodeExists: 'A coupon with this code already exists',
  /** A coupon's free variant that is not one of its free product's variants. */
  freeVariantNotOfProduct: "The free variant must be one of the free product's variants: choose the product again",
  freeVariantWithoutProduct: 'Choose the free product before choosing which of its variants is given',
  /** Toast title and text when a coupon action asks for Stripe but no Stripe key is configured. */
  stripeFeatureDisabled: 'Feature Disabled',
  stripeCouponsDisabled: 'Stripe integration disabled in local mode',
  imageType: 'Images must be PNG, JPEG or WebP',
  imageSize: `Images must be ${IMAGE_MAX_BYTES / (1024 * 1024)} MB or smaller`,
  /** An image whose pixels would take a browser's memory (and seconds) to draw, however small its file. */
  imageDimensions: (width: number, height: number) =>
    `This image is ${width} × ${height} pixels. Images can be at most ${IMAGE_MAX_SIDE} pixels wide or high and ${IMAGE_MAX_MEGAPIXELS} megapixels in all (e.g. 6000 × 4000): make it smaller and upload it again.`,
  imageUnreadable: 'This image file is damaged or incomplete. Save it again as PNG, JPEG or WebP and upload it again.',
  requiredFields: 'Please fill in all required fields',
  ownRole: 'You cannot remove your own admin role',
  lastAdmin: 'The last admin cannot be demoted',
  /** DELETE of a paid or refunded order (a record of money stays on the books). */
  paidOrderNotDeletable:
    'This order was paid, so it stays on the books and cannot be deleted. Cancel it (its units return to stock) or refund it instead.',
  /** Shipping only what is paid (label purchase and "mark shipped"). */
  unpaidNotShippable: 'This order is not paid yet: it cannot be marked shipped or given a label until the payment arrives.',
  labelExists: 'This order already has a shipping label. Void it before buying another.',
  labelBusy: 'A label for this order is being bought or voided right now. Wait a moment and reload the order.',
  noLabel: 'This order has no shipping label to void.',
  itemTotalFixed: 'The total of an order with items comes from its items and cannot be edited.',
  totalRequired: 'Total amount is required',
} as const;

/** Why a status move or a label is refused (orders/status-rules.ts: the one table of allowed moves). */
export const ORDER_STATE_MESSAGES = {
  cancelledNotShippable:
    'This order is cancelled: it cannot be marked shipped or given a label. Reopen it (set it to processing) first if it should still ship.',
  cancelledNotDelivered: 'This order is cancelled: it cannot be marked delivered. Reopen it (set it to processing) first if it did ship.',
  paidNotPending:
    'This order is paid, so it cannot go back to pending (waiting for payment). Set it to processing, or cancel it to give the payment back.',
  refundedNotReopened:
    'This order was refunded in full: there is nothing left to prepare or deliver. Take the payment again as a new order if it should still ship.',
  unpaidNotPrepared: 'This order is not paid yet: it cannot be prepared or delivered until the payment arrives.',
  labelledNotBack: (status: string) =>
    `This order has a shipping label: void the label first to move it back to ${status} (the label would otherwise still be used).`,
  labelBusyNoMove: 'A label for this order is being bought or voided right now. Wait a moment and reload the order.',
  /** A full refund of an order that had not shipped: the timeline's cause of its cancel. */
  cancelledByFullRefund: 'Refunded in full before it shipped, so it was cancelled',
} as const;

const page = z.coerce
  .number({ message: 'page must be a number' })
  .int('page must be a whole number')
  .min(1, 'page must be at least 1')
  .max(100000, 'page cannot exceed 100000')
  .default(1);
const pageSize = (d: number) =>
  z.coerce
    .number({ message: 'pageSize must be a number' })
    .int()
    .min(1, 'pageSize must be at least 1')
    .max(100, 'pageSize cannot exceed 100')
    .default(d);
const search = z
  .string()
  .trim()
  .max(100, 'Search text cannot exceed 100 characters')
  .optional()
  .transform((v) => v || undefined);

/**
 * The order list's payment filter. Without one the list shows placed orders (paid, refunded in
 * part or in full, and orders the owner entered); unpaid checkouts appear only under `unpaid`
 * (every order not paid, the owner's unpaid ones too) or `abandoned` (checkouts never paid,
 * whether their payment page is still open or ended); `all` shows every order.
 */
export const PAYMENT_FILTERS = ['paid', 'unpaid', 'refunded', 'partially_refunded', 'abandoned', 'all'] as const;
export type PaymentFilter = (typeof PAYMENT_FILTERS)[number];

/**
 * The order list's status filter: one of the spec's statuses, or `to_ship`, the pile the owner
 * works from: paid orders (refunded in part or not at all) that are completed (paid, nothing done
 * yet) or processing, not yet shipped.
 */
export const ORDER_STATUS_FILTERS = [...ORDER_STATUSES, 'to_ship'] as const;
export type OrderStatusFilter = (typeof ORDER_STATUS_FILTERS)[number];

const AdminOrderListFields = z
  .object({
    page,
    pageSize: pageSize(20),
    search: OrderSearchText,
    status: z.enum(ORDER_STATUS_FILTERS, { message: `status must be one of ${ORDER_STATUS_FILTERS.join(', ')}` }).optional(),
    payment: z.enum(PAYMENT_FILTERS, { message: `payment must be one of ${PAYMENT_FILTERS.join(', ')}` }).optional(),
    // Placed from one of the shop's days to another (schemas/reports.ts).
    ...PeriodFields,
  })
  .strict();
export const AdminOrderListQuery = AdminOrderListFields.superRefine(checkPeriod);

/** GET /api/admin/exports/orders.csv: the list's filters, and `lines=1` for one row per line item. */
export const AdminOrderExportQuery = AdminOrderListFields.omit({ page: true, pageSize: true })
  .extend({
    lines: z.enum(['0', '1'], { message: 'lines must be 0 or 1' }).optional(),
  })
  .superRefine(checkPeriod);

/** A refund's amount missing, unreadable or not above zero (the refund dialog's own text). */
const REFUND_AMOUNT_REQUIRED = 'Enter an amount greater than $0.00';

/** POST /api/admin/orders/:id/refunds: an amount in cents (what remains of the payment at most), why, and whether the units return to stock. */
export const RefundInput = z
  .object({
    amountCents: z
      .number({ message: REFUND_AMOUNT_REQUIRED })
      .int('Refund amount must be in whole cents (at most 2 decimals)')
      .min(1, REFUND_AMOUNT_REQUIRED)
      .max(MAX_ORDER_TOTAL_CENTS, tooLarge('Refund amount')),
    reason: z
      .string()
      .trim()
      .max(500, 'A reason cannot exceed 500 characters')
      .optional()
      .transform((v) => v || undefined),
    /** Every unit still out of stock for the order goes back (the old all-or-nothing box). */
    restock: z.boolean({ message: 'restock must be true or false' }).optional(),
    /** The units the owner chose to return, line by line (nothing when absent). */
    returnLines: ReturnLines.optional(),
  })
  .strict();
export type RefundInput = z.output<typeof RefundInput>;

/** The texts of cancel, refund, restock and delete (src/server/orders/refunds.ts). */
export const ORDER_MONEY_MESSAGES = {
  orderNotFound: ADMIN_MESSAGES.orderNotFound,
  paidNotDeletable: ADMIN_MESSAGES.paidOrderNotDeletable,
  notPaid: 'Only a paid order can be refunded: this one has no payment to give back.',
  nothingLeft: 'This order has been refunded in full: nothing is left to refund.',
  /** The refund dialog's check of the same rule, before asking. */
  atMostLeft: (left: number) => `At most ${formatCents(left)} is left to refund`,
  tooMuch: (asked: number, left: number, paid: number) =>
    `A refund of ${formatCents(asked)} is more than what is left to refund: ${formatCents(left)} of the ${formatCents(paid)} paid.`,
  noPayment: 'Stripe has no payment for this order to refund.',
  stripeNotConfigured: 'This order was paid with Stripe, but Stripe is not configured: set STRIPE_SECRET_KEY to refund it.',
  providerFailed: (message: string) => `The payment provider refused the refund: ${message}`,
  providerNoAnswer:
    'Stripe did not answer, so this refund may or may not have gone through. It stays pending and its amount is held back: use Retry on the pending refund (Stripe makes it at most once).',
  refundNotFound: 'Refund not found',
  refundSettled: 'This refund is already settled: only a pending refund can be retried.',
  retryTooLate:
    'This refund was first asked more than 23 hours ago, past the window in which Stripe recognises a retry: check the payment in the Stripe dashboard before refunding again.',
  notEnoughToReopen: (name: string, wanted: number, left: number, status: string) =>
    `Not enough stock to move this cancelled order to ${status}: it needs ${wanted} × ${name}, and ${left} ${left === 1 ? 'is' : 'are'} left. Restock the product first.`,
} as const;

/**
 * A status change. Cancelling a paid order may say which units go back to stock; without it, an
 * order not yet shipped returns every unit and a shipped one none.
 */
export const OrderStatusInput = z
  .object({
    status: OrderStatus,
    returnLines: ReturnLines.optional(),
    /** false: the change is made without e-mailing the customer (recorded on the timeline). */
    notify: OwnerOrderLineFields.notify,
    /** Cancelling a paid order: the refund that goes with it, in the same request (orders/cancel-order.ts). */
    refund: CancelRefund.optional(),
  })
  .strict()
  .refine((v) => !v.refund || v.status === 'cancelled', { message: OWNER_ORDER_MESSAGES.refundOnlyOnCancel, path: ['refund'] });

/** A note the owner adds to an order's timeline. */
export const OrderNoteInput = z
  .object({
    text: z
      .string({ message: 'Note text is required' })
      .trim()
      .min(1, 'Note text is required')
      .max(2000, 'A note cannot exceed 2000 characters'),
  })
  .strict();

/**
 * The orders overview: how many of the shop's days back, today included (7–90, 30 by default), or
 * a period of the shop's days from one date to another (schemas/reports.ts), not both.
 */
const OVERVIEW_DAY_RANGE = { min: 7, max: 90, default: 30 } as const;
export const AdminOrdersOverviewQuery = z
  .object({
    days: z.coerce
      .number({ message: 'days must be a number' })
      .int('days must be a whole number')
      .min(OVERVIEW_DAY_RANGE.min, `days must be at least ${OVERVIEW_DAY_RANGE.min}`)
      .max(OVERVIEW_DAY_RANGE.max, `days cannot exceed ${OVERVIEW_DAY_RANGE.max}`)
      .optional(),
    ...PeriodFields,
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.days !== undefined && (v.from || v.to)) ctx.addIssue({ code: 'custom', message: REPORT_MESSAGES.daysAndDates, path: ['days'] });
    else checkPeriod(v, ctx);
  })
  .transform((v) => ({ ...v, days: v.days ?? OVERVIEW_DAY_RANGE.default }));

/** A structured shipping address, as labels need it: name, street, city, state, ZIP and country. */
export const AdminOrderAddress = z
  .object({
    name: z.string({ message: 'Name is required' }).trim().min(1, 'Name is required').max(100, tooLong('Name', 100)),
    address: z.string({ message: 'Street is required' }).trim().min(1, 'Street is required').max(200, tooLong('Street', 200)),
    city: z.string({ message: 'City is required' }).trim().min(1, 'City is required').max(100, tooLong('City', 100)),
    state: z.string().trim().max(50, tooLong('State', 50)).default(''),
    zip: z.string({ message: 'ZIP is required' }).trim().min(1, 'ZIP is required').max(20, tooLong('ZIP', 20)),
    country: z.string().trim().min(2, 'Country is required').max(56, tooLong('Country', 56)).default('US'),
    /** The e-mail checkout keeps with the address (left as it was when absent). */
    email: z.string().trim().max(254, tooLong('Email', 254)).optional(),
  })
  .strict();
export type AdminOrderAddress = z.input<typeof AdminOrderAddress>;
const ADDRESS_TEXT = z
  .string({ message: 'Shipping address is required' })
  .trim()
  .min(1, 'Shipping address is required')
  .max(500, tooLong('Shipping address', 500));

/**
 * The admin order form: user_id and shipping_address required (a structured address, or free text
 * as before); total_amount (≥ 0, cents precision) is required to create an order and is only
 * taken on edit for orders without items (their figures are re-split 85/8/7). A note is added to
 * the order's timeline.
 */
export const AdminOrderInput = z
  .object({
    user_id: z.string({ message: 'User ID is required' }).trim().min(1, 'User ID is required').max(100, tooLong('User ID', 100)),
    shipping_address: z.unknown().transform((value, ctx): string | z.output<typeof AdminOrderAddress> => {
      // Text or an address object; the object's own messages ("City is required") reach the caller.
      const schema = value !== null && typeof value === 'object' ? AdminOrderAddress : ADDRESS_TEXT;
      const result = schema.safeParse(value);
      if (result.success) return result.data;
      for (const issue of result.error.issues)
        ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path as (string | number)[] });
      return z.NEVER;
    }),
    total_amount: z
      .number({ message: 'Total amount must be a number' })
      .min(0, 'Total amount cannot be negative')
      .max(MAX_ORDER_TOTAL_CENTS / 100, tooLarge('Total amount'))
      .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'Total amount can have at most 2 decimals')
      .optional(),
    note: z
      .string()
      .trim()
      .max(2000, 'A note cannot exceed 2000 characters')
      .optional()
      .transform((v) => v || undefined),
    status: OrderStatus.default('pending'),
    email: z
      .email({ message: 'Please enter a valid email address' })
      .optional()
      .or(z.literal('').transform(() => undefined)),
    elapsedMs: z.number().int().min(0, 'elapsedMs cannot be negative').optional(),
    website: z.string().max(200, tooLong('website', 200)).optional(),
    // Product lines priced from the catalogue, with a discount and shipping (owner-orders.ts).
    ...OwnerOrderLineFields,
  })
  .strict();
export type AdminOrderInput = z.input<typeof AdminOrderInput>;

/** Admin-created orders carry only a total: split 85% subtotal, 8% tax, 7% shipping. */
export function splitAdminTotal(totalCents: number): { subtotalCents: number; taxCents: number; shippingCents: number } {
  const subtotalCents = Math.round(totalCents * 0.85);
  const taxCents = Math.round(totalCents * 0.08);
  return { subtotalCents, taxCents, shippingCents: totalCents - subtotalCents - taxCents };
}

const money = (label: string) =>
  z
    .number({ message: `${label} must be a number` })
    .int(`${label} must be in whole cents (at most 2 decimals)`)
    .min(0, `${label} cannot be negative`)
    .max(MAX_ORDER_TOTAL_CENTS, tooLarge(label));

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
const SkuField = z
  .string({ message: 'A SKU must be text' })
  .trim()
  .max(SKU_MAX_LENGTH, SKU_MESSAGES.tooLong)
  .nullish()
  .transform((v) => v || null);

const ProductFields = z
  .object({
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

/** The largest number of options, values per option and variants a product can have (decision 0036). */
export const VARIANT_LIMITS = { options: 3, values: 20, variants: 100, optionName: 30, value: 40, sku: SKU_MAX_LENGTH } as const;

/** The texts of the variants editor, shared by its form and the server (PUT /api/admin/products/:id/variants). */
export const VARIANT_MESSAGES = {
  optionNameRequired: 'Give each option a name (e.g. Size or Colour)',
  optionNameTooLong: tooLong('An option name', VARIANT_LIMITS.optionName),
  optionNameTwice: (name: string) => `Two options are named "${name}": give each option its own name`,
  tooManyOptions: `A product can have at most ${VARIANT_LIMITS.options} options`,
  valuesRequired: 'Give each option at least one value',
  tooManyValues: `An option can have at most ${VARIANT_LIMITS.values} values`,
  valueRequired: 'An option value cannot be empty',
  valueTooLong: tooLong('An option value', VARIANT_LIMITS.value),
  valueTwice: (option: string, value: string) => `Option "${option}" lists "${value}" twice: each value once`,
  variantsRequired: 'A product needs at least one variant',
  tooManyVariants: `A product can have at most ${VARIANT_LIMITS.variants} variants`,
  valueCount: (count: number) =>
    count === 0
      ? 'This product has no options, so its variant takes no option values'
      : `Give each variant exactly one value for each of the ${count} option${count === 1 ? '' : 's'}, in the options' order`,
  notAValue: (option: string, value: string) => `"${value}" is not a value of option "${option}": add it to the option's values first`,
  combinationTwice: (label: string) =>
    label
      ? `${label} is listed twice: each combination of values can have one variant`
      : 'A product without options has exactly one variant: add an option to sell several',
  skuTooLong: SKU_MESSAGES.tooLong,
  skuTwice: (sku: string) => `SKU ${sku} is given to two variants: each variant needs its own SKU`,
  compareAtNotAbove: 'A compare-at price must be higher than the price (or left empty)',
  idTwice: (id: string) => `Variant ${id} is listed twice`,
  openingStock: 'Opening stock must be a whole number, 0 or more',
  openingTooLarge: tooMany('Opening stock', MAX_STOCK_LEVEL),
  /** 409: the SKU is another variant's, named with its product. */
  skuInUse: SKU_MESSAGES.inUse,
  notThisProduct: (id: string) =>
    `${id} is not a variant of this product (it may have been removed meanwhile): reload the product and try again`,
  imageNotInGallery: (image: string) => `${image} is not one of this product's images: add it to the gallery first, or choose another`,
  /** 409: a variant left out of the list that has history is kept. */
  sold: (label: string) => `${label} has been sold: switch it off instead`,
  moved: (label: string) => `${label} has stock history (units received, counted or taken): switch it off instead`,
  held: (label: string) => `${label} is in a shopper's checkout right now: switch it off instead`,
  /** The product form (PUT /api/admin/products/:id) of a product sold in several variants. */
  perVariant: 'Set prices and SKUs per variant',
  perVariantThreshold: 'Set low-stock thresholds per variant',
} as const;

const OptionValue = z
  .string({ message: VARIANT_MESSAGES.valueRequired })
  .trim()
  .min(1, VARIANT_MESSAGES.valueRequired)
  .max(VARIANT_LIMITS.value, VARIANT_MESSAGES.valueTooLong);

/** One option of a product: its name and its values, in the owner's order. */
export const ProductOptionInput = z
  .object({
    name: z
      .string({ message: VARIANT_MESSAGES.optionNameRequired })
      .trim()
      .min(1, VARIANT_MESSAGES.optionNameRequired)
      .max(VARIANT_LIMITS.optionName, VARIANT_MESSAGES.optionNameTooLong),
    values: z
      .array(OptionValue, { message: VARIANT_MESSAGES.valuesRequired })
      .min(1, VARIANT_MESSAGES.valuesRequired)
      .max(VARIANT_LIMITS.values, VARIANT_MESSAGES.tooManyValues),
  })
  .strict();
export type ProductOptionInput = z.infer<typeof ProductOptionInput>;

/**
 * One variant of the set: `id` for an existing one (it keeps its stock and history), none for a new
 * one (opened with `openingStock`). `options` holds one value per option, in the options' order.
 */
export const ProductVariantInput = z
  .object({
    id: z
      .string({ message: 'A variant id must be text' })
      .min(1, 'A variant id cannot be empty')
      .max(120, tooLong('A variant id', 120))
      .optional(),
    options: z
      .array(z.string({ message: VARIANT_MESSAGES.valueRequired }).trim().max(VARIANT_LIMITS.value, VARIANT_MESSAGES.valueTooLong), {
        message: 'options must be a list of option values',
      })
      .max(VARIANT_LIMITS.options, VARIANT_MESSAGES.tooManyOptions),
    sku: SkuField,
    priceCents: money('Price'),
    compareAtCents: money('Compare-at price')
      .nullish()
      .transform((v) => v ?? null),
    weightLbs: z
      .number({ message: 'Weight must be a number' })
      .min(0, 'Weight cannot be negative')
      .max(100_000, 'Weight cannot exceed 100,000 lbs')
      .nullish()
      .transform((v) => v ?? null),
    image: z
      .string({ message: 'An image must be an address' })
      .trim()
      .max(500, tooLong('An image address', 500))
      .nullish()
      .transform((v) => v || null),
    enabled: z.boolean({ message: 'enabled must be true or false' }),
    /** A new variant's first units (the ledger's opening row); ignored for an existing variant. */
    openingStock: z
      .number({ message: VARIANT_MESSAGES.openingStock })
      .int(VARIANT_MESSAGES.openingStock)
      .min(0, VARIANT_MESSAGES.openingStock)
      .max(MAX_STOCK_LEVEL, VARIANT_MESSAGES.openingTooLarge)
      .optional(),
    lowStockThreshold: LowStockThreshold.optional(),
  })
  .strict()
  .refine((v) => v.compareAtCents === null || v.compareAtCents > v.priceCents, {
    message: VARIANT_MESSAGES.compareAtNotAbove,
    path: ['compareAtCents'],
  });

const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * PUT /api/admin/products/:id/variants: a product's whole set of options and variants, in the
 * owner's order. Every combination of values at most once, and only from the options' values; SKUs
 * unique within the set (the server checks the rest of the shop).
 */
export const ProductVariantsInput = z
  .object({
    options: z
      .array(ProductOptionInput, { message: 'options must be a list' })
      .max(VARIANT_LIMITS.options, VARIANT_MESSAGES.tooManyOptions),
    variants: z
      .array(ProductVariantInput, { message: VARIANT_MESSAGES.variantsRequired })
      .min(1, VARIANT_MESSAGES.variantsRequired)
      .max(VARIANT_LIMITS.variants, VARIANT_MESSAGES.tooManyVariants),
  })
  .strict()
  .superRefine((input, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    input.options.forEach((o, i) => {
      if (input.options.findIndex((x) => sameText(x.name, o.name)) !== i)
        issue(['options', i, 'name'], VARIANT_MESSAGES.optionNameTwice(o.name));
      o.values.forEach((v, j) => {
        if (o.values.findIndex((x) => sameText(x, v)) !== j) issue(['options', i, 'values', j], VARIANT_MESSAGES.valueTwice(o.name, v));
      });
    });
    const combinations = new Set<string>();
    const skus = new Set<string>();
    const ids = new Set<string>();
    input.variants.forEach((v, i) => {
      if (v.id !== undefined) {
        if (ids.has(v.id)) issue(['variants', i, 'id'], VARIANT_MESSAGES.idTwice(v.id));
        ids.add(v.id);
      }
      if (v.options.length !== input.options.length) {
        issue(['variants', i, 'options'], VARIANT_MESSAGES.valueCount(input.options.length));
        return;
      }
      const wrong = v.options.findIndex((value, k) => !input.options[k]!.values.includes(value));
      if (wrong >= 0) {
        issue(['variants', i, 'options', wrong], VARIANT_MESSAGES.notAValue(input.options[wrong]!.name, v.options[wrong]!));
        return;
      }
      const key = JSON.stringify(v.options);
      if (combinations.has(key)) issue(['variants', i, 'options'], VARIANT_MESSAGES.combinationTwice(v.options.join(', ')));
      combinations.add(key);
      if (v.sku) {
        if (skus.has(v.sku.toLowerCase())) issue(['variants', i, 'sku'], VARIANT_MESSAGES.skuTwice(v.sku));
        skus.add(v.sku.toLowerCase());
      }
    });
  });
export type ProductVariantsInput = z.output<typeof ProductVariantsInput>;

/** A variant's stock as the variants editor shows it (the inventory module's item). */
export const AdminVariantStock = z.object({
  itemId: z.string().optional(),
  onHand: z.number().int(),
  reserved: z.number().int(),
  available: z.number().int(),
  lowStockThreshold: z.number().int(),
  alertState: z.enum(['ok', 'low', 'out']),
});

/**
 * A variant as the back office sees it, switched off or not. `sold`: an order line names it (it can
 * be switched off, never removed); `removable`: it has no history at all (no sale, no movement
 * beyond its opening stock), so leaving it out of the set deletes it.
 */
export const AdminVariant = z.object({
  id: z.string(),
  options: z.array(z.string()),
  label: z.string(),
  sku: z.string().nullable(),
  priceCents: z.number().int(),
  compareAtCents: z.number().int().nullable(),
  weightLbs: z.number().nullable(),
  image: z.string().nullable(),
  enabled: z.boolean(),
  position: z.number().int(),
  stock: AdminVariantStock,
  sold: z.boolean(),
  removable: z.boolean(),
});
export type AdminVariant = z.infer<typeof AdminVariant>;

/** GET and PUT /api/admin/products/:id/variants: the product's options and all its variants, in the owner's order. */
export const AdminProductVariants = z.object({ options: z.array(ProductOption), variants: z.array(AdminVariant) });
export type AdminProductVariants = z.infer<typeof AdminProductVariants>;

/** A variant at or below its low-stock threshold, as a Products tab row lists it. */
export const AdminLowVariant = z.object({
  variantId: z.string(),
  label: z.string(),
  onHand: z.number().int(),
  threshold: z.number().int(),
  alertState: z.enum(['low', 'out']),
});
export type AdminLowVariant = z.infer<typeof AdminLowVariant>;

export const CATEGORY_MESSAGES = {
  idMin: 'ID must be at least 3 characters',
  idMax: 'ID cannot exceed 50 characters',
  idPattern: 'ID can only contain lowercase letters, numbers, and hyphens',
  nameMin: 'Name must be at least 2 characters',
  nameMax: 'Name cannot exceed 50 characters',
} as const;

export const CategoryInput = z
  .object({
    id: z
      .string()
      .trim()
      .min(3, CATEGORY_MESSAGES.idMin)
      .max(50, CATEGORY_MESSAGES.idMax)
      .regex(/^[a-z0-9-]+$/, CATEGORY_MESSAGES.idPattern),
    name: z.string().trim().min(2, CATEGORY_MESSAGES.nameMin).max(50, CATEGORY_MESSAGES.nameMax),
    description: z
      .string()
      .trim()
      .max(500, tooLong('Description', 500))
      .nullish()
      .transform((v) => v || null),
    imageUrl: z
      .string()
      .trim()
      .max(500, tooLong('Image address', 500))
      .nullish()
      .transform((v) => v || null),
  })
  .strict();

export const CouponInput = z
  .object({
    code: z
      .string({ message: 'Code is required' })
      .trim()
      .min(1, 'Code is required')
      .max(50, tooLong('Code', 50))
      // Shoppers type the code: no spaces or look-alike punctuation to get wrong (upper-cased, as the cart compares it).
      .regex(/^[A-Za-z0-9-]+$/, ADMIN_MESSAGES.couponCodeChars)
      .transform((v) => v.toUpperCase()),
    description: z
      .string()
      .trim()
      .max(500, tooLong('Description', 500))
      .nullish()
      .transform((v) => v || null),
    discountType: z.enum(['percentage', 'fixed']).default('percentage'),
    /** Percent for percentage coupons (0–100), cents for fixed ones. */
    discountValue: z
      .number({ message: 'Discount value is required' })
      .int('Discount value must be a whole percentage, or an amount in whole cents (at most 2 decimals)')
      .min(0, 'Discount value cannot be negative')
      .max(MAX_ORDER_TOTAL_CENTS, tooLarge('Discount value')),
    minOrderCents: z
      .number({ message: 'Minimum order must be a number' })
      .int('Minimum order must be in whole cents (at most 2 decimals)')
      .min(0, 'Minimum order cannot be negative')
      .max(MAX_ORDER_TOTAL_CENTS, tooLarge('Minimum order'))
      .nullish()
      .transform((v) => v ?? null),
    maxUses: z
      .number({ message: 'Max uses must be a number' })
      .int('Max uses must be a whole number')
      .min(0, 'Max uses cannot be negative')
      .nullish()
      .transform((v) => v ?? null),
    validFrom: z.iso.datetime({ message: 'Valid from must be a date and time' }).optional(),
    validUntil: z.iso
      .datetime({ message: 'Valid until must be a date and time' })
      .nullish()
      .transform((v) => v ?? null),
    isActive: z.boolean().default(true),
    freeProductId: z
      .string()
      .max(100, tooLong('Free product', 100))
      .nullish()
      .transform((v) => (v && v !== 'none' ? v : null)),
    /**
     * Which of the free product's variants is given (null: its first enabled one with a unit to
     * give). Absent on an edit: the coupon keeps the one it has while its free product stays.
     */
    freeVariantId: z
      .string({ message: 'freeVariantId must be a variant id or null' })
      .max(120, tooLong('Free variant', 120))
      .nullish()
      .transform((v) => (v === undefined ? undefined : v && v !== 'none' ? v : null)),
    /** On create: also create the coupon in Stripe (the local coupon is saved either way). Ignored on update. */
    syncStripe: z.boolean({ message: 'syncStripe must be true or false' }).optional(),
  })
  .strict()
  .refine((c) => c.discountType !== 'percentage' || c.discountValue <= 100, {
    message: 'A percentage cannot exceed 100',
    path: ['discountValue'],
  })
  // Without a "valid from" the server compares with the one it will use (now, or the saved one).
  .refine((c) => !c.validFrom || !c.validUntil || Date.parse(c.validUntil) > Date.parse(c.validFrom), {
    message: ADMIN_MESSAGES.couponUntilBeforeFrom,
    path: ['validUntil'],
  });

/** DELETE /api/admin/coupons/:id?syncStripe=true asks for the Stripe copy to go too, even when none is recorded. */
export const CouponDeleteQuery = z
  .object({ syncStripe: z.enum(['true', 'false'], { message: 'syncStripe must be true or false' }).optional() })
  .strict();

/**
 * What happened to a coupon's Stripe copy: synced, disabled (no Stripe key, message
 * ADMIN_MESSAGES.stripeCouponsDisabled) or failed (Stripe's message). Absent when Stripe was not asked.
 */
export const CouponStripeSync = z.object({ status: z.enum(['synced', 'disabled', 'failed']), message: z.string().optional() });
export type CouponStripeSync = z.infer<typeof CouponStripeSync>;

export const ShippingOptionInput = z
  .object({
    name: z.string({ message: 'Name is required' }).trim().min(1, 'Name is required').max(100, tooLong('Name', 100)),
    description: z
      .string()
      .trim()
      .max(500, tooLong('Description', 500))
      .nullish()
      .transform((v) => v || null),
    priceCents: money('Price'),
    estimatedDays: z
      .string()
      .trim()
      .max(50, tooLong('Estimated days', 50))
      .optional()
      .transform((v) => v || '5-7'),
    enabled: z.boolean().default(true),
    minimumOrderCents: z
      .number({ message: 'Minimum order must be a number' })
      .int('Minimum order must be in whole cents (at most 2 decimals)')
      .min(0, 'Minimum order cannot be negative')
      .max(MAX_ORDER_TOTAL_CENTS, tooLarge('Minimum order'))
      .nullish()
      .transform((v) => v ?? null),
  })
  .strict();

export const ShippingEnabledInput = z.object({ enabled: z.boolean({ message: 'enabled must be true or false' }) }).strict();

export const AdminUserListQuery = z.object({ page, pageSize: pageSize(20), search }).strict();

const LOYALTY_POINTS_WHOLE = 'Loyalty points must be a whole number.';
/** A customer earns 10 points an order: a million is far past any real balance, and far from a typo's 1e21. */
export const LOYALTY_POINTS_MAX = 1_000_000;
export const LOYALTY_POINTS_TOO_MANY = `Loyalty points cannot exceed ${LOYALTY_POINTS_MAX.toLocaleString('en-US')}.`;

export const UserPatchInput = z
  .object({
    emailVerified: z.boolean().optional(),
    role: z.enum(['client', 'admin']).optional(),
    /** Clamped to a minimum of 0. */
    loyaltyPoints: z
      .number({ message: LOYALTY_POINTS_WHOLE })
      // Too big is said before "not whole": 1e21 is past the safe integers, and the owner should hear the limit.
      .max(LOYALTY_POINTS_MAX, LOYALTY_POINTS_TOO_MANY)
      .int(LOYALTY_POINTS_WHOLE)
      .transform((v) => Math.max(0, v))
      .optional(),
  })
  .strict();
