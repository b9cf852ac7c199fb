import { z } from 'zod';
import { CHECKOUT_LIMITS } from '../checkout-text.js';
import { SUBSCRIPTION_LIMITS } from '../subscription-words.js';
import { formatCount } from '../money.js';

/** The saved cart's bounds and answers (decision 0030); tests use the same strings. */
export const SAVED_CART_LIMITS = { maxLines: 100, maxLineQuantity: CHECKOUT_LIMITS.maxLineQuantity } as const;

export const SAVED_CART_MESSAGES = {
  tooManyLines: `A cart holds at most ${SAVED_CART_LIMITS.maxLines} lines`,
  quantity: `Each line's quantity must be a whole number from 1 to ${formatCount(SAVED_CART_LIMITS.maxLineQuantity)}`,
  productId: 'Each line needs a productId of at most 100 characters',
  option: 'A size or colour cannot exceed 50 characters',
  couponCode: 'Coupon code cannot exceed 50 characters',
  everyWeeks: `A subscription line's interval is a whole number of weeks from ${SUBSCRIPTION_LIMITS.minWeeks} to ${SUBSCRIPTION_LIMITS.maxWeeks}`,
  impersonating: 'While you act as a customer, their saved cart is read-only: it stays as they left it.',
} as const;

export const SavedCartLine = z
  .object({
    productId: z
      .string({ message: SAVED_CART_MESSAGES.productId })
      .min(1, SAVED_CART_MESSAGES.productId)
      .max(100, SAVED_CART_MESSAGES.productId),
    /** The variant; absent: the product's first. */
    variantId: z
      .string({ message: SAVED_CART_MESSAGES.productId })
      .min(1, SAVED_CART_MESSAGES.productId)
      .max(120, SAVED_CART_MESSAGES.productId)
      .optional(),
    quantity: z
      .number({ message: SAVED_CART_MESSAGES.quantity })
      .int(SAVED_CART_MESSAGES.quantity)
      .min(1, SAVED_CART_MESSAGES.quantity)
      .max(SAVED_CART_LIMITS.maxLineQuantity, SAVED_CART_MESSAGES.quantity),
    size: z.string({ message: SAVED_CART_MESSAGES.option }).max(50, SAVED_CART_MESSAGES.option),
    color: z.string({ message: SAVED_CART_MESSAGES.option }).max(50, SAVED_CART_MESSAGES.option),
    /** A subscription line's interval in weeks (absent: bought once). */
    everyWeeks: z
      .number({ message: SAVED_CART_MESSAGES.everyWeeks })
      .int(SAVED_CART_MESSAGES.everyWeeks)
      .min(SUBSCRIPTION_LIMITS.minWeeks, SAVED_CART_MESSAGES.everyWeeks)
      .max(SUBSCRIPTION_LIMITS.maxWeeks, SAVED_CART_MESSAGES.everyWeeks)
      .optional(),
  })
  .strict();
export type SavedCartLine = z.infer<typeof SavedCartLine>;

/** PUT /api/account/cart (replace) and POST /api/account/cart/merge (a guest cart to add in). */
export const SavedCartInput = z
  .object({
    lines: z.array(SavedCartLine).max(SAVED_CART_LIMITS.maxLines, SAVED_CART_MESSAGES.tooManyLines),
    couponCode: z
      .string({ message: SAVED_CART_MESSAGES.couponCode })
      .max(50, SAVED_CART_MESSAGES.couponCode)
      .nullable()
      .transform((v) => (v === null ? null : v.trim().toUpperCase() || null)),
  })
  .strict();
export type SavedCartInput = z.infer<typeof SavedCartInput>;

/** The account's cart: lines without prices (the quote prices them), its coupon, when it last changed. */
export const SavedCartView = z.object({
  lines: z.array(SavedCartLine),
  couponCode: z.string().nullable(),
  updatedAt: z.string().nullable(),
  /** Read-only: an admin acting as the customer sees it but cannot change it. */
  readOnly: z.boolean(),
});
export type SavedCartView = z.infer<typeof SavedCartView>;
