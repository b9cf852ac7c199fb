import { z } from 'zod';
import { MAX_ORDER_TOTAL_CENTS } from '../../money.js';
import { tooLong } from '../limits.js';
import { dollarsToCents, money, tooLarge } from './fields.js';

// The Shipping tab: a shipping option's body and form.

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

/** The shipping-option dialog: price and minimum order in dollars. */
export const ShippingOptionForm = z
  .object({
    name: z.string(),
    description: z.string(),
    /** Dollars. */
    priceCents: z.string(),
    estimatedDays: z.string(),
    enabled: z.boolean(),
    /** Dollars. */
    minimumOrderCents: z.string(),
  })
  .transform((v): z.input<typeof ShippingOptionInput> => ({
    name: v.name,
    description: v.description,
    priceCents: dollarsToCents(v.priceCents, NaN),
    estimatedDays: v.estimatedDays,
    enabled: v.enabled,
    minimumOrderCents: dollarsToCents(v.minimumOrderCents, null),
  }))
  .pipe(ShippingOptionInput);
export type ShippingOptionForm = z.input<typeof ShippingOptionForm>;
