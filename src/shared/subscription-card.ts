import { z } from 'zod';

/**
 * The card a subscription's renewals charge, as its customer knows it (issue [5/8]): a brand and the
 * last four digits, never a number; and updating it on the provider's own page (Stripe Checkout in
 * setup mode, or the built-in test card page in setup mode), nothing charged. The words are shared
 * by the account's card, the link's page, the e-mail and the tests.
 */

export { cardBrandName, cardText, CARD_UPDATE_TEXTS } from './card-words.js';

/** The customer's "Update card": the page to go to (the provider's, or the test card page in setup mode). */
export const CardUpdateStart = z.object({ url: z.string() });
export type CardUpdateStart = z.infer<typeof CardUpdateStart>;

/** Back from the card page: which card update this was (the id in the address the page sent the customer back to). */
export const ConfirmCardUpdateInput = z
  .object({ setupId: z.string().min(1, 'setupId is required').max(100, 'setupId cannot exceed 100 characters') })
  .strict();
export type ConfirmCardUpdateInput = z.infer<typeof ConfirmCardUpdateInput>;

/**
 * What became of one card update: `updated` (this card is saved: the one shown), `waiting` (the
 * provider has not said yet; ask again shortly), or `ended` (nothing saved, and why).
 */
export const CardUpdateOutcome = z.object({
  outcome: z.enum(['updated', 'waiting', 'ended']),
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  message: z.string().nullable(),
});
export type CardUpdateOutcome = z.infer<typeof CardUpdateOutcome>;

/** The address query the card page sends the customer back with: the subscription and the update. */
export const CARD_RETURN_PARAMS = { subscription: 'cardFor', setup: 'cardUpdate' } as const;

/** Why a card page saved nothing (the test card page says it; the customer's page too, back from it). */
export const CARD_UPDATE_MESSAGES = {
  expired: 'This card page has expired: nothing was saved. Go back to your subscription and choose Update card again.',
  subscriptionCancelled: 'This subscription was cancelled, so no card was saved.',
  left: 'You left the card page: nothing was saved, and the card on file is unchanged.',
  alreadySaved: 'This card page was already used: your new card is saved.',
  notFound: 'Card page not found.',
} as const;
