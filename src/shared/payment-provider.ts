/**
 * Which card payment provider this shop takes payments through, and what the storefront says about
 * it. The provider is the server's configuration (Stripe when STRIPE_SECRET_KEY is set, else the
 * built-in test card page at /pay/:id), the same for every visitor: the server adds it to the
 * public settings (every page's first data, and /api/settings), so the footer of the shared,
 * cached HTML and the checkout's pay button both say what is true. Plain data, no zod.
 */
import { formatCents } from './money.js';

/** The public-settings key the server fills from its configuration (never stored in the settings table). */
export const PAYMENT_PROVIDER_KEY = 'payment_provider';

export type CheckoutProvider = 'stripe' | 'test';

/** The provider the settings name; null when they do not say (settings not loaded): then texts name no one. */
export function checkoutProviderFrom(settings: Record<string, string> | undefined): CheckoutProvider | null {
  const v = settings?.[PAYMENT_PROVIDER_KEY];
  return v === 'stripe' || v === 'test' ? v : null;
}

export const PAYMENT_TEXTS = {
  stripe: {
    footer: 'Payments are securely processed by Stripe.',
    checkoutNote: "You will enter your card details on Stripe's secure payment page.",
    privacy:
      "Payments are processed by our payment provider, Stripe. Your card details are entered on Stripe's secure page and never reach or stay on our servers.",
  },
  test: {
    footer: 'Test mode: payments go to the shop’s test card page and no card is charged.',
    checkoutNote: 'Test mode: you will enter a test card on the shop’s own payment page. No card is charged.',
    privacy:
      'The shop is in test mode: no real payments are taken. The test card page is the shop’s own, and the card details typed there are checked and then thrown away; they are never stored and no card is charged.',
  },
  unknown: {
    footer: 'Payments are securely processed by our card payment provider.',
    checkoutNote: "You will enter your card details on our payment provider's secure page.",
    privacy:
      'Payments are processed by our card payment provider. Your card details are entered on its secure page and never stay on our servers.',
  },
} as const;

export function paymentTexts(provider: CheckoutProvider | null): (typeof PAYMENT_TEXTS)[keyof typeof PAYMENT_TEXTS] {
  return PAYMENT_TEXTS[provider ?? 'unknown'];
}

/**
 * The pay button: the specification's 'Pay $X with {the card payment provider's name}' when that
 * provider is Stripe; 'Pay $X in test mode' on the built-in test page; 'Pay $X' when unknown.
 */
export function payButtonText(provider: CheckoutProvider | null, totalCents: number | null): string {
  const amount = totalCents === null ? '…' : formatCents(totalCents);
  if (provider === 'stripe') return `Pay ${amount} with Stripe`;
  if (provider === 'test') return `Pay ${amount} in test mode`;
  return `Pay ${amount}`;
}
