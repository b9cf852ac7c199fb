import { z } from 'zod';

import { CHECKOUT_LIMITS, CHECKOUT_MESSAGES, US_STATE_CODES } from '../checkout-text.js';
import { SUBSCRIPTION_LIMITS } from '../subscription-words.js';

export {
  CHECKOUT_FIELD_LABELS,
  CHECKOUT_LIMITS,
  CHECKOUT_MESSAGES,
  DEFAULT_STATE,
  SHIPS_TO_TEXT,
  US_STATE_CODES,
  US_STATES,
} from '../checkout-text.js';

const required = (message: string, max = 100) => z.string({ message }).trim().min(1, message).max(max, `Cannot exceed ${max} characters`);

const EVERY_WEEKS_MESSAGE = `everyWeeks must be a whole number of weeks from ${SUBSCRIPTION_LIMITS.minWeeks} to ${SUBSCRIPTION_LIMITS.maxWeeks}`;
const everyWeeksField = z
  .number({ message: EVERY_WEEKS_MESSAGE })
  .int(EVERY_WEEKS_MESSAGE)
  .min(SUBSCRIPTION_LIMITS.minWeeks, EVERY_WEEKS_MESSAGE)
  .max(SUBSCRIPTION_LIMITS.maxWeeks, EVERY_WEEKS_MESSAGE)
  .optional();

export const CartLineInput = z
  .object({
    productId: z.string().min(1, 'productId is required').max(100, 'productId cannot exceed 100 characters'),
    /** The version bought; absent: the product's first variant (`var_<productId>`, shared/variants.ts). */
    variantId: z.string().min(1, 'variantId cannot be empty').max(120, 'variantId cannot exceed 120 characters').optional(),
    quantity: z
      .number({ message: 'quantity must be a number' })
      .int('quantity must be a whole number')
      .min(1, 'quantity must be at least 1')
      .max(CHECKOUT_LIMITS.maxLineQuantity, CHECKOUT_MESSAGES.lineQuantity),
    size: z.string().max(50, 'size cannot exceed 50 characters').optional(),
    color: z.string().max(50, 'color cannot exceed 50 characters').optional(),
    /** A subscription line: delivered every this many weeks (absent: bought once). One-time and subscription lines of a variant are separate lines. */
    everyWeeks: everyWeeksField,
  })
  .strict();
export type CartLineInput = z.infer<typeof CartLineInput>;

const couponCode = z
  .string()
  .max(50, 'Coupon code cannot exceed 50 characters')
  .nullish()
  .transform((v) => (v == null ? null : v.trim().toUpperCase() || null));

const CART_COOKIE_BAD = 'The cart cookie is not one this shop wrote';

/** The `cart` cookie's JSON (see shared/cart-cookie.ts): the lines and coupon the browser's cart holds. */
export const CartCookieValue = z.object({
  // The shop's own cookie: a bad one is dropped (never shown), so one sentence covers every limit.
  l: z
    .array(
      z.tuple([
        z.string().min(1, CART_COOKIE_BAD).max(100, CART_COOKIE_BAD),
        z.number().int().min(1, CART_COOKIE_BAD).max(10_000, CART_COOKIE_BAD),
        z.string().max(50, CART_COOKIE_BAD),
        z.string().max(50, CART_COOKIE_BAD),
        z.string().min(1, CART_COOKIE_BAD).max(120, CART_COOKIE_BAD).optional(),
        // A subscription line's interval in weeks (written only when set; the variant is then always written).
        z.number().int().min(SUBSCRIPTION_LIMITS.minWeeks, CART_COOKIE_BAD).max(SUBSCRIPTION_LIMITS.maxWeeks, CART_COOKIE_BAD).optional(),
      ]),
    )
    .max(100, CART_COOKIE_BAD),
  c: z.string().max(50, CART_COOKIE_BAD).nullable(),
});

export const QuoteInput = z
  .object({
    lines: z.array(CartLineInput).max(100, 'A cart holds at most 100 lines'),
    couponCode,
    shippingOptionId: z.string().max(100, 'shippingOptionId cannot exceed 100 characters').nullish(),
  })
  .strict();
export type QuoteInput = z.input<typeof QuoteInput>;

export const ShippingOptionView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  priceCents: z.number().int(),
  estimatedDays: z.string(),
  minimumOrderCents: z.number().int().nullable(),
});
export type ShippingOptionView = z.infer<typeof ShippingOptionView>;

export const QuoteLine = z.object({
  productId: z.string(),
  /** The variant priced (the product's first when the line named none). */
  variantId: z.string(),
  /** The line's title: 'Concentrated Cleaner — Lavender, 1 L', or the product's name alone. */
  name: z.string(),
  productName: z.string().default(''),
  /** The variant's option values ('' for a product without options). */
  variantLabel: z.string().default(''),
  /** The product's own option names and values ([] without options), worded by shared/line-options.ts. */
  options: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
  image: z.string().nullable(),
  priceCents: z.number().int(),
  /** The variant's unit size (16 and 'oz'): the cart shows its price per unit (shared/unit-price.ts). Absent: none. */
  unitQuantity: z.number().optional(),
  unit: z.string().optional(),
  quantity: z.number().int(),
  inventory: z.number().int(),
  size: z.string(),
  color: z.string(),
  lineTotalCents: z.number().int(),
  isFreeGift: z.boolean(),
  /** The product no longer exists. */
  missing: z.boolean(),
  /** More units asked than are available. */
  insufficientStock: z.boolean(),
  /** Units of this variant other shoppers' unpaid checkouts keep now (they may come back). */
  held: z.number().int().optional(),
  /** When enough of them come back for this line (ISO; a line short only for them), else null. */
  heldUntil: z.string().nullable().optional(),
  // Subscribe and save (issue [4/8]); the server always sends these (optional for answers cached before them).
  /** A subscription line's interval in weeks; null: bought once. */
  everyWeeks: z.number().int().nullable().optional(),
  /** The plan's discount taken off `priceCents` (first delivery); null on a one-time line (or one whose plan is off). */
  planDiscountPercent: z.number().int().nullable().optional(),
  /** The plan's later discount from its delivery on, for the terms; null: none. */
  planLater: z.object({ discountPercent: z.number().int(), fromDelivery: z.number().int() }).nullable().optional(),
  /** The variant's own price, bought once (what `priceCents` is before the plan's discount). */
  oneTimePriceCents: z.number().int().optional(),
  /** A subscription line that cannot be bought so (plan off, interval not offered): why. The cart offers to buy it once. */
  subscriptionError: z.string().nullable().optional(),
});
export type QuoteLine = z.infer<typeof QuoteLine>;

export const Quote = z.object({
  lines: z.array(QuoteLine),
  coupon: z
    .object({
      code: z.string(),
      discountType: z.enum(['percentage', 'fixed']),
      discountValue: z.number(),
      freeProduct: z.object({ id: z.string(), variantId: z.string().optional(), name: z.string() }).nullable(),
    })
    .nullable(),
  couponError: z.string().nullable(),
  shippingOptions: z.array(ShippingOptionView),
  allShippingOptions: z.array(ShippingOptionView),
  selectedShippingOptionId: z.string().nullable(),
  nextShippingUnlock: z
    .object({ optionId: z.string(), optionName: z.string(), optionPriceCents: z.number().int(), amountCents: z.number().int() })
    .nullable(),
  subtotalCents: z.number().int(),
  discountCents: z.number().int(),
  shippingCents: z.number().int(),
  taxCents: z.number().int(),
  totalCents: z.number().int(),
});
export type Quote = z.infer<typeof Quote>;

export const ShippingAddressInput = z
  .object({
    name: required(CHECKOUT_MESSAGES.firstName, 101),
    address: required(CHECKOUT_MESSAGES.address, 200),
    city: required(CHECKOUT_MESSAGES.city, 100),
    state: z.enum(US_STATE_CODES, {
      // Empty: the spec's "State is required"; a code the list does not hold: where the shop ships.
      error: (iss) => (typeof iss.input === 'string' && iss.input.trim() !== '' ? CHECKOUT_MESSAGES.shipsTo : CHECKOUT_MESSAGES.state),
    }),
    zip: z
      .string({ message: CHECKOUT_MESSAGES.zip })
      .trim()
      .regex(/^\d{5}(-\d{4})?$/, CHECKOUT_MESSAGES.zip),
    country: z.literal('US', { message: 'We ship within the US only' }).default('US'),
  })
  .strict();
export type ShippingAddressInput = z.infer<typeof ShippingAddressInput>;

/** The specification's payload, plus the shipping option; prices, totals and discounts sent by the browser are ignored. */
export const CreateCheckoutSessionInput = z
  .object({
    items: z.array(CartLineInput).min(1, CHECKOUT_MESSAGES.emptyCart).max(100, 'A cart holds at most 100 lines'),
    customerEmail: z
      .string({ message: CHECKOUT_MESSAGES.email })
      .trim()
      .max(254, CHECKOUT_MESSAGES.email)
      .pipe(z.email({ message: CHECKOUT_MESSAGES.email })),
    shippingAddress: ShippingAddressInput,
    appliedCouponCode: couponCode,
    appliedCouponDiscount: z.number().optional(),
    orderId: z.string().max(100, 'orderId cannot exceed 100 characters').optional(),
    shippingOptionId: z.string().max(100, 'shippingOptionId cannot exceed 100 characters').nullish(),
    website: z.string().max(200, 'website cannot exceed 200 characters').optional(),
    /** The shopper ticked "I agree to these subscription terms" (required when a line has `everyWeeks`). */
    acceptSubscriptionTerms: z.boolean().optional(),
    /** The unticked "Send me offers and reminders" box, ticked (issue [7/8]). */
    marketing: z.boolean({ message: 'marketing must be true or false' }).optional(),
  })
  .strict();
export type CreateCheckoutSessionInput = z.input<typeof CreateCheckoutSessionInput>;

/** The part of the checkout body the checkout form fills in; the rest (lines, coupon, shipping) is the cart's. */
const CheckoutFormBody = CreateCheckoutSessionInput.pick({ customerEmail: true, shippingAddress: true, website: true });

/**
 * The checkout form: the body's own field schemas (so each field's message is the one the server
 * answers with), the name split in two as the specification asks, and the bot trap's hidden
 * fields. It gives the body's customer and address; a filled trap sets the body's `website`.
 */
export const CheckoutForm = z
  .object({
    firstName: required(CHECKOUT_MESSAGES.firstName, 50),
    lastName: required(CHECKOUT_MESSAGES.lastName, 50),
    email: CreateCheckoutSessionInput.shape.customerEmail,
    address: ShippingAddressInput.shape.address,
    city: ShippingAddressInput.shape.city,
    state: ShippingAddressInput.shape.state,
    zip: ShippingAddressInput.shape.zip,
    /** Bot trap: fields people never see or reach. */
    contact_name: z.string(),
    contact_email: z.string(),
    consent: z.boolean(),
  })
  .transform((v): z.input<typeof CheckoutFormBody> => ({
    customerEmail: v.email,
    shippingAddress: { name: `${v.firstName} ${v.lastName}`, address: v.address, city: v.city, state: v.state, zip: v.zip, country: 'US' },
    ...(v.contact_name.trim() || v.contact_email.trim() || v.consent ? { website: 'filled' } : {}),
  }))
  .pipe(CheckoutFormBody);
export type CheckoutForm = z.input<typeof CheckoutForm>;

/** The answer of POST /api/create-checkout-session: where the shopper pays. */
export const CheckoutSessionCreated = z.object({ url: z.string().min(1, 'url is required'), sessionId: z.string(), orderId: z.string() });
export type CheckoutSessionCreated = z.infer<typeof CheckoutSessionCreated>;

export const CheckoutSessionView = z.object({
  id: z.string(),
  status: z.enum(['open', 'complete', 'expired']),
  payment_status: z.enum(['paid', 'unpaid']),
  amount_total: z.number().int(),
  currency: z.literal('usd'),
  metadata: z.object({ orderId: z.string() }),
  /** Set when this session's payment came after its order no longer needed it: what the payer reads (it is refunded). */
  refund_note: z.string().nullable().optional(),
});
export type CheckoutSessionView = z.infer<typeof CheckoutSessionView>;
