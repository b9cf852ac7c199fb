import { z } from 'zod';
import { MAX_ORDER_TOTAL_CENTS } from '../../money.js';
import { tooLong } from '../limits.js';
import { ADMIN_MESSAGES } from './messages.js';
import { dollarsToCents, localToIso, textToNumber, tooLarge } from './fields.js';

// The Coupons tab: a coupon's body and form, and its Stripe copy.

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

/**
 * Each body has a form-shaped twin beside it (…Form): what the back office's inputs hold (text,
 * dollars, local date-times) mapped onto the body, then parsed by the very schema the server uses.
 * A form adds no rule and no message of its own; a field's error comes from the body schema, at the
 * body key (each form names its fields after the body's keys so the errors land on the right input).
 */

/** The coupon dialog: discount value in percent or dollars, minimum order in dollars, dates as datetime-local text. */
export const CouponForm = z
  .object({
    code: z.string(),
    description: z.string(),
    discountType: z.enum(['percentage', 'fixed']),
    /** Percent, or dollars for a fixed coupon. */
    discountValue: z.string(),
    /** Dollars. */
    minOrderCents: z.string(),
    maxUses: z.string(),
    validFrom: z.string(),
    validUntil: z.string(),
    isActive: z.boolean(),
    /** A product id, or 'none'. */
    freeProductId: z.string(),
    syncStripe: z.boolean(),
  })
  .transform((v): z.input<typeof CouponInput> => ({
    code: v.code,
    description: v.description,
    discountType: v.discountType,
    discountValue: v.discountType === 'fixed' ? dollarsToCents(v.discountValue, NaN) : textToNumber(v.discountValue, NaN),
    minOrderCents: dollarsToCents(v.minOrderCents, null),
    maxUses: textToNumber(v.maxUses, null),
    validFrom: localToIso(v.validFrom) ?? new Date().toISOString(),
    validUntil: localToIso(v.validUntil),
    isActive: v.isActive,
    freeProductId: v.freeProductId,
    syncStripe: v.syncStripe,
  }))
  .pipe(CouponInput);
export type CouponForm = z.input<typeof CouponForm>;
