import { z } from 'zod';
import { laterDiscountText, SUBSCRIPTION_LIMITS, SubscriptionPlanInput } from '../../subscriptions.js';
import { textToNumber } from './fields.js';

// The back office's Subscribe and save (issue [4/8]): the owner's plans of a product and its
// variants (GET/PUT/DELETE /api/admin/products/:productId/…subscription-plan…), the product
// dialog's form over SubscriptionPlanInput, and the shop-wide subscription settings.

/** A stored plan row as the back office shows it (the product's own, or a variant's own). */
export const AdminSubscriptionPlan = z.object({
  enabled: z.boolean(),
  intervals: z.array(z.number().int()),
  discountPercent: z.number().int(),
  laterDiscountPercent: z.number().int().nullable(),
  laterFromDelivery: z.number().int().nullable(),
  updatedAt: z.string(),
});
export type AdminSubscriptionPlan = z.infer<typeof AdminSubscriptionPlan>;

/**
 * A product's plans: its own (null: none set, so nothing is offered) and each variant's own (null:
 * it follows the product). Switched-off variants are listed too, marked, so the form can say why
 * they cannot be offered.
 */
export const AdminSubscriptionPlans = z.object({
  productId: z.string(),
  plan: AdminSubscriptionPlan.nullable(),
  variants: z.array(
    z.object({
      id: z.string(),
      /** 'Lavender, 16 oz'; '' for the sole variant of a product without options. */
      label: z.string(),
      enabled: z.boolean(),
      plan: AdminSubscriptionPlan.nullable(),
    }),
  ),
});
export type AdminSubscriptionPlans = z.infer<typeof AdminSubscriptionPlans>;

/** The terms a new plan's form starts with: the seed's, the common ones for refills. */
export const DEFAULT_PLAN_TERMS = { intervals: [2, 4, 6, 8], discountPercent: 10 } as const;

/** "2, 4, 6, 8" → [2, 4, 6, 8]; anything not a number stays NaN, which the plan's schema refuses with its message. */
export function intervalsFromText(text: string): number[] {
  return text
    .split(/[\s,;]+/)
    .filter((part) => part !== '')
    .map((part) => Number(part));
}

export function intervalsToText(intervals: readonly number[]): string {
  return intervals.join(', ');
}

/** "Every 4 weeks", "Every 2, 4, 6 or 8 weeks", "Every week or 2 weeks" (never one week as "1 weeks"). */
export function intervalsText(intervals: readonly number[]): string {
  if (intervals.length === 0) return 'No interval';
  if (intervals.length === 1) return intervals[0] === 1 ? 'Every week' : `Every ${intervals[0]} weeks`;
  const words = intervals.map((w, i) => (w === 1 && i === 0 ? 'week' : String(w)));
  return `Every ${words.slice(0, -1).join(', ')} or ${words[words.length - 1]} weeks`;
}

/** A plan in a line, as the back office lists it: "Every 2, 4, 6 or 8 weeks · 10% off · 15% off from the 4th delivery". */
export function planTermsText(
  plan: Pick<AdminSubscriptionPlan, 'intervals' | 'discountPercent' | 'laterDiscountPercent' | 'laterFromDelivery'>,
): string {
  const parts = [intervalsText(plan.intervals), plan.discountPercent > 0 ? `${plan.discountPercent}% off` : 'no discount'];
  if (plan.laterDiscountPercent !== null && plan.laterFromDelivery !== null)
    parts.push(laterDiscountText(plan.laterDiscountPercent, plan.laterFromDelivery));
  return parts.join(' · ');
}

/** The plan's fields as the form holds them (text as typed), before SubscriptionPlanInput reads them. */
export const SubscriptionPlanFormFields = z.object({
  enabled: z.boolean(),
  intervals: z.string(),
  discountPercent: z.string(),
  /** The "from delivery N, M% off" pair is given only when this is ticked. */
  laterOn: z.boolean(),
  laterDiscountPercent: z.string(),
  laterFromDelivery: z.string(),
});
export type SubscriptionPlanFormFields = z.infer<typeof SubscriptionPlanFormFields>;

/** The product dialog's plan form: the text it holds, read into the body the server checks with the same schema. */
export const SubscriptionPlanForm = SubscriptionPlanFormFields.transform((v): z.input<typeof SubscriptionPlanInput> => ({
  enabled: v.enabled,
  intervals: intervalsFromText(v.intervals),
  discountPercent: textToNumber(v.discountPercent, NaN),
  laterDiscountPercent: v.laterOn ? textToNumber(v.laterDiscountPercent, null) : null,
  laterFromDelivery: v.laterOn ? textToNumber(v.laterFromDelivery, null) : null,
})).pipe(SubscriptionPlanInput);
export type SubscriptionPlanForm = z.input<typeof SubscriptionPlanForm>;

/** The form's values for a stored plan (or, without one, a switched-off plan with the default terms). */
export function planFormValues(
  plan: Pick<AdminSubscriptionPlan, 'enabled' | 'intervals' | 'discountPercent' | 'laterDiscountPercent' | 'laterFromDelivery'> | null,
): SubscriptionPlanFormFields {
  const later = plan !== null && plan.laterDiscountPercent !== null && plan.laterFromDelivery !== null;
  return {
    enabled: plan?.enabled ?? false,
    intervals: intervalsToText(plan?.intervals ?? DEFAULT_PLAN_TERMS.intervals),
    discountPercent: String(plan?.discountPercent ?? DEFAULT_PLAN_TERMS.discountPercent),
    laterOn: later,
    laterDiscountPercent: later ? String(plan.laterDiscountPercent) : '',
    laterFromDelivery: later ? String(plan.laterFromDelivery) : '',
  };
}

/** The owner's shop-wide subscription settings (settings keys `subscriptions.*`). */
export const SUBSCRIPTION_SETTINGS_LIMITS = { minSkipAfterDays: 1, maxSkipAfterDays: 60 } as const;

export const SUBSCRIPTION_SETTINGS_MESSAGES = {
  skipAfterDays: `Enter a whole number of days from ${SUBSCRIPTION_SETTINGS_LIMITS.minSkipAfterDays} to ${SUBSCRIPTION_SETTINGS_LIMITS.maxSkipAfterDays}.`,
  saved: 'Subscription settings have been saved successfully.',
  planSaved: 'Subscribe and save terms saved',
  variantPlanSaved: (label: string) => `${label}: subscription terms saved`,
} as const;

const skipDays = z
  .number({ message: SUBSCRIPTION_SETTINGS_MESSAGES.skipAfterDays })
  .int(SUBSCRIPTION_SETTINGS_MESSAGES.skipAfterDays)
  .min(SUBSCRIPTION_SETTINGS_LIMITS.minSkipAfterDays, SUBSCRIPTION_SETTINGS_MESSAGES.skipAfterDays)
  .max(SUBSCRIPTION_SETTINGS_LIMITS.maxSkipAfterDays, SUBSCRIPTION_SETTINGS_MESSAGES.skipAfterDays);

/** GET /api/admin/subscription-settings, and the PUT's answer. */
export const SubscriptionSettings = z.object({ freeShipping: z.boolean(), skipOutOfStockAfterDays: z.number().int() });
export type SubscriptionSettings = z.infer<typeof SubscriptionSettings>;

/** PUT /api/admin/subscription-settings: both settings, or either. */
export const SubscriptionSettingsInput = z
  .object({
    freeShipping: z.boolean({ message: 'freeShipping must be true or false' }).optional(),
    skipOutOfStockAfterDays: skipDays.optional(),
  })
  .strict();
export type SubscriptionSettingsInput = z.input<typeof SubscriptionSettingsInput>;

/** The Settings tab's form: the days as typed. */
export const SubscriptionSettingsForm = z
  .object({ freeShipping: z.boolean(), skipOutOfStockAfterDays: z.string() })
  .transform((v): z.input<typeof SubscriptionSettingsInput> => ({
    freeShipping: v.freeShipping,
    skipOutOfStockAfterDays: textToNumber(v.skipOutOfStockAfterDays, NaN),
  }))
  .pipe(SubscriptionSettingsInput);
export type SubscriptionSettingsForm = z.input<typeof SubscriptionSettingsForm>;

/** The default the renewal engine uses until the owner sets one. */
export const DEFAULT_SUBSCRIPTION_SETTINGS: SubscriptionSettings = {
  freeShipping: false,
  skipOutOfStockAfterDays: SUBSCRIPTION_LIMITS.defaultSkipAfterDays,
};
