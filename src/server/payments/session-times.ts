/** How long the shopper may pay: the built-in card page refuses after this. */
export const PAYMENT_SESSION_TTL_MS = 30 * 60_000;
/** Stripe's session lives a minute longer (its floor is 30 minutes; the minute absorbs clock skew). */
export const PROVIDER_SESSION_TTL_MS = PAYMENT_SESSION_TTL_MS + 60_000;
