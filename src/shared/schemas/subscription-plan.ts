import { z } from 'zod';

/**
 * The owner's Subscribe and save plan as the shop shows and prices it (issue [4/8]; a variant's own
 * plan, else its product's). Re-exported by shared/subscriptions.ts with the rest of the feature.
 */
export const SubscriptionPlanView = z.object({
  intervals: z.array(z.number().int()),
  discountPercent: z.number().int(),
  /** From the `laterFromDelivery`th delivery on, this discount instead (null: the same throughout). */
  laterDiscountPercent: z.number().int().nullable(),
  laterFromDelivery: z.number().int().nullable(),
});
export type SubscriptionPlanView = z.infer<typeof SubscriptionPlanView>;
