/**
 * Which card payment provider the shop takes payments through, as the public settings name it, and
 * the footer's sentence about it: the part of shared/payment-provider.ts every page's first load
 * needs (the footer), in a file of its own so the rest (checkout's and the privacy page's texts)
 * loads with the pages that use it.
 */

/** The public-settings key the server fills from its configuration (never stored in the settings table). */
export const PAYMENT_PROVIDER_KEY = 'payment_provider';

export type CheckoutProvider = 'stripe' | 'test';

/** The provider the settings name; null when they do not say (settings not loaded): then texts name no one. */
export function checkoutProviderFrom(settings: Record<string, string> | undefined): CheckoutProvider | null {
  const v = settings?.[PAYMENT_PROVIDER_KEY];
  return v === 'stripe' || v === 'test' ? v : null;
}

export const FOOTER_TEXTS = {
  stripe: 'Payments are securely processed by Stripe.',
  test: 'Test mode: payments go to the shop’s test card page and no card is charged.',
  unknown: 'Payments are securely processed by our card payment provider.',
} as const;

/** The footer's sentence about how cards are taken. */
export function paymentFooterText(provider: CheckoutProvider | null): string {
  return FOOTER_TEXTS[provider ?? 'unknown'];
}
