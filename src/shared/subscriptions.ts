import { z } from 'zod';
import { SUBSCRIPTION_LIMITS, SUBSCRIPTION_MESSAGES } from './subscription-words.js';
import { ShippingAddressInput } from './schemas/checkout.js';

/**
 * Subscribe and save (issue [4/8], decision 0058): the plan schemas, and (re-exported) the words,
 * limits and arithmetic the shop, the server and the e-mails share, so a line reads the same
 * wherever it is shown and the price the shopper is told is the one the renewal charges. The words
 * live in subscription-words.ts, without zod, for the pages that must not load it.
 */
export * from './subscription-words.js';

// The plan as the product page shows it is part of the catalogue's answer (each variant's
// `subscription`): its schema lives with it, so the product data's schema loads nothing more.
export { SubscriptionPlanView } from './schemas/subscription-plan.js';

const percent = z
  .number({ message: SUBSCRIPTION_MESSAGES.discountRange })
  .int('The discount is a whole number of percent')
  .min(0, SUBSCRIPTION_MESSAGES.discountRange)
  .max(100, SUBSCRIPTION_MESSAGES.discountRange);

/** The owner's plan for a product or a variant, as the admin form sends it. */
export const SubscriptionPlanInput = z
  .object({
    enabled: z.boolean(),
    intervals: z
      .array(
        z
          .number({ message: SUBSCRIPTION_MESSAGES.intervalsRequired })
          .int(SUBSCRIPTION_MESSAGES.intervalsRequired)
          .min(1, SUBSCRIPTION_MESSAGES.intervalsRequired)
          .max(52, SUBSCRIPTION_MESSAGES.intervalsRequired),
      )
      .min(1, SUBSCRIPTION_MESSAGES.intervalsRequired)
      .max(SUBSCRIPTION_LIMITS.maxIntervals, `At most ${SUBSCRIPTION_LIMITS.maxIntervals} intervals`)
      .transform((list) => [...new Set(list)].sort((a, b) => a - b)),
    discountPercent: percent,
    laterDiscountPercent: percent.nullable().default(null),
    laterFromDelivery: z
      .number()
      .int()
      .min(2, SUBSCRIPTION_MESSAGES.laterFrom)
      .max(100, SUBSCRIPTION_MESSAGES.laterFrom)
      .nullable()
      .default(null),
  })
  .strict()
  .refine((p) => (p.laterDiscountPercent === null) === (p.laterFromDelivery === null), {
    message: 'Give both the later discount and the delivery it starts from, or neither.',
    path: ['laterFromDelivery'],
  });
export type SubscriptionPlanInput = z.input<typeof SubscriptionPlanInput>;

/** A subscription as its customer sees it (the account's list, the page of an e-mail's link). */
export const SubscriptionView = z.object({
  id: z.string(),
  status: z.enum(['active', 'paused', 'payment_failing', 'cancelled']),
  everyWeeks: z.number().int(),
  discountPercent: z.number().int(),
  /** "Every 4 weeks · 10% off". */
  terms: z.string(),
  items: z.array(
    z.object({
      productId: z.string(),
      variantId: z.string(),
      name: z.string(),
      quantity: z.number().int(),
      /** The versions it may swap to now (its own first), each with its label ("Lavender, 32 oz"); empty when there is no other. */
      versions: z.array(z.object({ variantId: z.string(), label: z.string() })),
      /** Left out of the next delivery only. */
      skipNext: z.boolean(),
      /** Its price per unit on the next delivery (today's price less the plan's discount for it); null when no longer sold. */
      unitPriceCents: z.number().int().nullable(),
    }),
  ),
  /** One-time items riding with the next delivery only, at the shop's price. */
  extras: z.array(
    z.object({ variantId: z.string(), name: z.string(), quantity: z.number().int(), unitPriceCents: z.number().int().nullable() }),
  ),
  /** The next delivery's total (items, shipping, tax) at today's prices; null once cancelled. */
  nextDeliveryTotalCents: z.number().int().nullable(),
  /** Price changes told and not yet in effect (decision 0058, "Price changes"): per item, the unit price per delivery before and after, and the first delivery date it applies to. */
  priceNotices: z
    .array(z.object({ variantId: z.string(), fromCents: z.number().int(), toCents: z.number().int(), effectiveFrom: z.string() }))
    .optional(),
  /** The card renewals charge: its brand and last four digits (never a number); null when none is known. */
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  /** Whether a card is kept for renewals at all (its brand may not be known yet). Absent: as `card`. */
  cardOnFile: z.boolean().optional(),
  /** The next delivery's date (ISO); null once cancelled. */
  nextRenewalAt: z.string().nullable(),
  deliveries: z.number().int(),
  /** Where it ships (the address, as the form edits it), or null. */
  address: z
    .object({ name: z.string(), address: z.string(), city: z.string(), state: z.string(), zip: z.string(), country: z.string() })
    .nullable(),
  /** The intervals (weeks) it may change to now: those every item's plan still offers (empty: none). */
  intervals: z.array(z.number().int()),
  createdAt: z.string(),
  cancelledAt: z.string().nullable(),
});
export type SubscriptionView = z.infer<typeof SubscriptionView>;

/** "Cancel subscription": an optional reason, in the customer's words. */
export const CancelSubscriptionInput = z
  .object({ reason: z.string().trim().max(500, 'Keep the reason under 500 characters').optional() })
  .strict();
export type CancelSubscriptionInput = z.infer<typeof CancelSubscriptionInput>;

/** "Skip next delivery": the date of the delivery skipped, as the page showed it (a stale page or a second click skips nothing more). */
export const SkipDeliveryInput = z
  .object({ renewalAt: z.string().datetime({ message: 'renewalAt must be the delivery date shown' }) })
  .strict();
export type SkipDeliveryInput = z.infer<typeof SkipDeliveryInput>;

const Day = z.string({ message: SUBSCRIPTION_MESSAGES.dateFormat }).regex(/^\d{4}-\d{2}-\d{2}$/, SUBSCRIPTION_MESSAGES.dateFormat);

/** "Pause": no deliveries until the day given; deliveries start again that day. */
export const PauseSubscriptionInput = z.object({ until: Day }).strict();
export type PauseSubscriptionInput = z.infer<typeof PauseSubscriptionInput>;

/** "Deliver now": the date of the next delivery as the page showed it (a second click finds another date and orders nothing more). */
export const DeliverNowInput = SkipDeliveryInput;

/** What "Deliver now" did: the delivery's cycle as it ended (paid; waiting for stock or for the card), with its order. */
export const DeliveryOutcome = z.object({
  status: z.string(),
  orderId: z.string().nullable(),
  orderNumber: z.string().nullable(),
  message: z.string().nullable(),
});
export type DeliveryOutcome = z.infer<typeof DeliveryOutcome>;

/** "Resume": deliveries start again, the next on the day given. */
export const ResumeSubscriptionInput = z.object({ nextDeliveryOn: Day }).strict();
export type ResumeSubscriptionInput = z.infer<typeof ResumeSubscriptionInput>;

/** "Change": a new interval (one the plans offer), new quantities of its items, a new day for the next delivery. */
export const ChangeSubscriptionInput = z
  .object({
    everyWeeks: z
      .number({ message: SUBSCRIPTION_MESSAGES.intervalNotOffered })
      .int(SUBSCRIPTION_MESSAGES.intervalNotOffered)
      .min(SUBSCRIPTION_LIMITS.minWeeks, SUBSCRIPTION_MESSAGES.intervalNotOffered)
      .max(SUBSCRIPTION_LIMITS.maxWeeks, SUBSCRIPTION_MESSAGES.intervalNotOffered)
      .optional(),
    items: z
      .array(
        z
          .object({
            variantId: z.string().min(1, SUBSCRIPTION_MESSAGES.itemUnknown).max(100, SUBSCRIPTION_MESSAGES.itemUnknown),
            quantity: z
              .number({ message: SUBSCRIPTION_MESSAGES.quantityRange })
              .int(SUBSCRIPTION_MESSAGES.quantityRange)
              .min(1, SUBSCRIPTION_MESSAGES.quantityRange)
              .max(SUBSCRIPTION_LIMITS.maxQuantity, SUBSCRIPTION_MESSAGES.quantityRange),
            /** Another version of the same product (scent, size) from the next delivery on. */
            swapTo: z.string().min(1, SUBSCRIPTION_MESSAGES.swapUnknown).max(100, SUBSCRIPTION_MESSAGES.swapUnknown).optional(),
          })
          .strict(),
      )
      .max(50, SUBSCRIPTION_MESSAGES.itemUnknown)
      .optional(),
    /** The next delivery's new day; the interval counts from it. */
    nextDeliveryOn: Day.optional(),
  })
  .strict()
  .refine((c) => c.everyWeeks !== undefined || (c.items?.length ?? 0) > 0 || c.nextDeliveryOn !== undefined, {
    message: SUBSCRIPTION_MESSAGES.nothingToChange,
  });
export type ChangeSubscriptionInput = z.infer<typeof ChangeSubscriptionInput>;

/** "Ships to": a new address for this subscription, or for every subscription of the customer and their account too. */
export const SubscriptionAddressInput = z.object({ address: ShippingAddressInput, everywhere: z.boolean().default(false) }).strict();
export type SubscriptionAddressInput = z.input<typeof SubscriptionAddressInput>;

const VariantId = z.string().min(1, SUBSCRIPTION_MESSAGES.itemUnknown).max(100, SUBSCRIPTION_MESSAGES.itemUnknown);

/** "Skip this item next time" (or bring it back): one item left out of the next delivery only. */
export const SkipItemInput = z.object({ variantId: VariantId, skip: z.boolean({ message: 'skip must be true or false' }) }).strict();
export type SkipItemInput = z.infer<typeof SkipItemInput>;

/** "Add to next delivery": a one-time item, at the shop's price, with the next delivery only. */
export const AddExtraInput = z
  .object({
    variantId: z.string().min(1, SUBSCRIPTION_MESSAGES.extraUnknown).max(100, SUBSCRIPTION_MESSAGES.extraUnknown),
    quantity: z
      .number({ message: SUBSCRIPTION_MESSAGES.quantityRange })
      .int(SUBSCRIPTION_MESSAGES.quantityRange)
      .min(1, SUBSCRIPTION_MESSAGES.quantityRange)
      .max(SUBSCRIPTION_LIMITS.maxQuantity, SUBSCRIPTION_MESSAGES.quantityRange),
  })
  .strict();
export type AddExtraInput = z.infer<typeof AddExtraInput>;

/** "Reactivate": the terms agreed to again (kept on the timeline beside the first consent), and the first delivery's day. */
export const ReactivateSubscriptionInput = z
  .object({
    consent: z.literal(true, { message: SUBSCRIPTION_MESSAGES.reactivateConsent }),
    nextDeliveryOn: Day,
  })
  .strict();
export type ReactivateSubscriptionInput = z.infer<typeof ReactivateSubscriptionInput>;

/** One line of a subscription's timeline, as its customer or the owner reads it. */
export const SubscriptionEventView = z.object({
  id: z.string(),
  type: z.string(),
  actor: z.string(),
  data: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type SubscriptionEventView = z.infer<typeof SubscriptionEventView>;

/** What a subscription's status reads as, for its customer. */
export const SUBSCRIPTION_STATUS_TEXT = {
  active: 'Active',
  paused: 'Paused',
  payment_failing: 'Payment failing',
  cancelled: 'Cancelled',
} as const;
