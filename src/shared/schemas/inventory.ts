import { z } from 'zod';
import { pageOf, pageQuery } from './paging.js';
import { formatCount } from '../money.js';

/*
 * Stock as the back office and the shop see it (src/server/inventory, decision 0022).
 */

/** Why the owner changes a level: units arrived, were damaged, a correction, or a count of the shelf. */
export const STOCK_REASONS = ['received', 'damaged', 'correction', 'counted'] as const;
export type StockReason = (typeof STOCK_REASONS)[number];

export const STOCK_REASON_LABELS: Record<StockReason, string> = {
  received: 'Received',
  damaged: 'Damaged or lost',
  correction: 'Correction (+/−)',
  counted: 'Counted (set the level)',
};

/** Every kind of ledger row, as the history names it. */
export const STOCK_MOVEMENT_LABELS = {
  opening: 'Opening stock',
  received: 'Received',
  counted: 'Counted',
  damaged: 'Damaged or lost',
  correction: 'Correction',
  sold: 'Sold',
  returned: 'Returned',
  taken: 'Taken again',
} as const;
export type StockMovementKindName = keyof typeof STOCK_MOVEMENT_LABELS;

export const MAX_STOCK_LEVEL = 1_000_000;

export const INVENTORY_MESSAGES = {
  productNotFound: 'Product not found',
  variantNotFound: 'Variant not found',
  /** A product-level stock route asked of a product sold in several variants. */
  chooseVariant: 'This product has several variants: choose one to see or change its stock',
  quantityNeeded: 'Enter how many units (1 or more)',
  correctionNeeded: 'Enter a correction other than 0 (use − to take units away)',
  countNeeded: 'Enter the number of units you counted (0 or more)',
  tooLarge: `Stock cannot exceed ${formatCount(MAX_STOCK_LEVEL)} units`,
  /** Checkout refused for units other shoppers' unpaid checkouts keep (for 10 minutes at most). */
  reservedElsewhere: (name: string, available: number, reserved: number) =>
    available > 0
      ? `Only ${available} of ${name} left: ${reserved} more ${reserved === 1 ? 'is' : 'are'} in other shoppers' checkouts and may be back within 10 minutes`
      : `${name}: the last ${reserved === 1 ? 'one is' : `${reserved} are`} in other shoppers' checkouts and may be back within 10 minutes`,
  belowZero: (onHand: number, change: number) =>
    `Only ${onHand} in stock: a change of ${change} would take the level below 0. Count the shelf and enter what is there instead.`,
} as const;

/**
 * One stock change by the owner. `quantity` is the units received, the units damaged or lost, the
 * signed correction, or the level counted on the shelf (turned into a change under lock).
 */
export const StockAdjustmentInput = z
  .object({
    reason: z.enum(STOCK_REASONS, { message: `Choose a reason: ${STOCK_REASONS.join(', ')}` }),
    quantity: z
      .number({ message: 'Quantity must be a number' })
      .int('Quantity must be a whole number')
      .min(-MAX_STOCK_LEVEL, INVENTORY_MESSAGES.tooLarge)
      .max(MAX_STOCK_LEVEL, INVENTORY_MESSAGES.tooLarge),
    note: z
      .string()
      .trim()
      .max(500, 'A note cannot exceed 500 characters')
      .optional()
      .transform((v) => v || undefined),
  })
  .strict()
  .superRefine((v, ctx) => {
    const bad = (message: string) => ctx.addIssue({ code: 'custom', path: ['quantity'], message });
    if ((v.reason === 'received' || v.reason === 'damaged') && v.quantity < 1) bad(INVENTORY_MESSAGES.quantityNeeded);
    if (v.reason === 'correction' && v.quantity === 0) bad(INVENTORY_MESSAGES.correctionNeeded);
    if (v.reason === 'counted' && v.quantity < 0) bad(INVENTORY_MESSAGES.countNeeded);
  });
export type StockAdjustmentInput = z.infer<typeof StockAdjustmentInput>;

export const LowStockThreshold = z
  .number({ message: 'Low-stock threshold must be a number' })
  .int('Low-stock threshold must be a whole number')
  .min(0, 'Low-stock threshold cannot be negative')
  .max(MAX_STOCK_LEVEL, INVENTORY_MESSAGES.tooLarge);

export const StockThresholdInput = z.object({ lowStockThreshold: LowStockThreshold }).strict();

/** A variant's stock now: on hand, kept by open checkouts, buyable, and its low-stock line. */
export const StockView = z.object({
  productId: z.string(),
  /** The variant whose stock this is (a product without options: its one variant). */
  variantId: z.string(),
  /** The variant's option values, 'Lavender, 1 L' ('' for a product without options). */
  label: z.string(),
  onHand: z.number().int(),
  reserved: z.number().int(),
  available: z.number().int(),
  lowStockThreshold: z.number().int(),
  alertState: z.enum(['ok', 'low', 'out']),
});
export type StockView = z.infer<typeof StockView>;

/** One ledger row, with the level it left. */
export const StockMovementView = z.object({
  id: z.string(),
  kind: z.enum(Object.keys(STOCK_MOVEMENT_LABELS) as [StockMovementKindName, ...StockMovementKindName[]]),
  quantity: z.number().int(),
  levelAfter: z.number().int(),
  orderId: z.string().nullable(),
  reference: z.string().nullable(),
  actor: z.string(),
  note: z.string().nullable(),
  createdAt: z.string(),
});
export type StockMovementView = z.infer<typeof StockMovementView>;

export const StockHistoryPage = pageOf(StockMovementView).extend({ stock: StockView });
export type StockHistoryPage = z.infer<typeof StockHistoryPage>;

/** What the shop tells a shopper about a product's stock beyond the buyable count (the product page). */
export const StockNotice = z.object({
  /** Units kept in other shoppers' unpaid checkouts. */
  reserved: z.number().int(),
  /** When the first of them may be on sale again (ISO), or null. */
  reservedUntil: z.string().nullable(),
  /** At or below it the product page says "Only N left" (the owner's per-product threshold, default 10). */
  lowStockThreshold: z.number().int(),
});
export type StockNotice = z.infer<typeof StockNotice>;

/** "Notify me when it's back". */
export const BackInStockInput = z
  .object({
    email: z
      .string({ message: 'Enter your e-mail address' })
      .trim()
      .max(254, 'An e-mail address cannot exceed 254 characters')
      .email('Enter a valid e-mail address'),
    /** The variant awaited; absent: the product's first (pages from before variants). */
    variantId: z.string().min(1, 'variantId cannot be empty').max(120, 'variantId cannot exceed 120 characters').optional(),
  })
  .strict();

/** The back office's list of what shoppers wait for (decision 0041): a page of variants, most awaited first. */
export const BackInStockWaitingQuery = pageQuery(20, 100).omit({ search: true });
export type BackInStockWaitingQuery = z.infer<typeof BackInStockWaitingQuery>;

/** The back office's texts for what shoppers wait for (UI and tests). */
export const BACK_IN_STOCK_ADMIN_TEXT = {
  title: 'Waiting for stock',
  intro: 'Shoppers who asked "Notify me when it\'s back". Each gets one e-mail when the version they chose is in stock again.',
  empty: 'Nobody is waiting for a product to come back.',
  summary: (people: number, versions: number) =>
    `${people} ${people === 1 ? 'request' : 'requests'} waiting for ${versions} ${versions === 1 ? 'product or version' : 'products or versions'}.`,
} as const;

export const BackInStockWaitingRow = z.object({
  productId: z.string(),
  productName: z.string(),
  variantId: z.string(),
  /** The variant's option values ('Lavender, 32 oz'), or null for a product sold in one version. */
  variantLabel: z.string().nullable(),
  /** How many addresses wait for this variant now. */
  waiting: z.number().int(),
  /** When the oldest of them asked (ISO). */
  oldestRequestAt: z.string(),
  /** Units on hand now (0 while it is sold out). */
  onHand: z.number().int(),
});
export type BackInStockWaitingRow = z.infer<typeof BackInStockWaitingRow>;

export const BackInStockWaitingList = pageOf(BackInStockWaitingRow).extend({
  /** Addresses waiting in all, over every variant. */
  totalWaiting: z.number().int(),
});
export type BackInStockWaitingList = z.infer<typeof BackInStockWaitingList>;

/** Returning an order's units: never more than the order has out of stock (the server's rule, the dialogs' check). */
export const ORDER_STOCK_MESSAGES = {
  notOut: (name: string, asked: number, out: number) =>
    out === 0
      ? `${name}: none of this order's units are out of stock to return.`
      : `${name}: only ${out} of this order's units can be returned (asked ${asked}).`,
  notInOrder: 'Choose lines of this order to return.',
} as const;

/** A line of an order to return to stock, on a refund or a cancel. */
export const ReturnLine = z
  .object({
    productId: z.string().min(1, 'productId is required').max(100, 'productId cannot exceed 100 characters'),
    /** The variant returned; absent: the product's first (lines written before variants). */
    variantId: z.string().min(1, 'variantId cannot be empty').max(120, 'variantId cannot exceed 120 characters').optional(),
    quantity: z
      .number({ message: 'Quantity to return must be a number' })
      .int('Quantity to return must be a whole number')
      .min(0, 'Quantity to return cannot be negative')
      .max(10_000, 'Quantity to return cannot exceed 10,000'),
  })
  .strict();
export const ReturnLines = z.array(ReturnLine).max(200, 'At most 200 lines can be returned at once');
export type ReturnLine = z.infer<typeof ReturnLine>;

/** The order's lines as the refund and cancel dialogs list them. */
export const OrderStockLine = z.object({
  productId: z.string(),
  variantId: z.string(),
  name: z.string(),
  ordered: z.number().int(),
  /** Units of this line out of stock for the order now (what can still be returned). */
  out: z.number().int(),
  returned: z.number().int(),
});
export type OrderStockLine = z.infer<typeof OrderStockLine>;

/** At most this many products are watched by one open page (the cart's lines held elsewhere, a product page). */
export const STOCK_WATCH_MAX_PRODUCTS = 20;

/**
 * GET /api/stock/watch?products=a,b&seen=<stamp>: answered at once when the stock of these
 * products is not what `seen` says (or `seen` is absent), else when it changes, or after a while
 * with nothing changed. Open pages wait on it to show a hold or a release within a second.
 */
export const StockWatchQuery = z
  .object({
    products: z
      .string({ message: 'Name the products to watch: products=id1,id2' })
      .min(1, 'Name the products to watch: products=id1,id2')
      .max(STOCK_WATCH_MAX_PRODUCTS * 101, `Watch at most ${STOCK_WATCH_MAX_PRODUCTS} products at once`)
      .transform((s) => [...new Set(s.split(','))])
      .pipe(
        z
          .array(z.string().min(1, 'A product id cannot be empty').max(100, 'Product id cannot exceed 100 characters'))
          .max(STOCK_WATCH_MAX_PRODUCTS, `Watch at most ${STOCK_WATCH_MAX_PRODUCTS} products at once`),
      ),
    seen: z.string().max(64, 'seen: use the stamp the last answer gave').optional(),
  })
  .strict();
export type StockWatchQuery = z.infer<typeof StockWatchQuery>;

/** The watch's answer: whether the stock moved since `seen`, and the stamp of what it is now. */
export const StockWatchAnswer = z.object({ changed: z.boolean(), stamp: z.string() });
export type StockWatchAnswer = z.infer<typeof StockWatchAnswer>;
