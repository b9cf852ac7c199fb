/**
 * Which card payment provider this shop takes payments through, and what the storefront says about
 * it. The provider is the server's configuration (Stripe when STRIPE_SECRET_KEY is set, else the
 * built-in test card page at /pay/:id), the same for every visitor: the server adds it to the
 * public settings (every page's first data, and /api/settings), so the footer of the shared,
 * cached HTML and the checkout's pay button both say what is true. Plain data, no zod.
 */
import { formatCents } from './money.js';
import { FOOTER_TEXTS, type CheckoutProvider } from './payment-footer.js';

export { checkoutProviderFrom, paymentFooterText, PAYMENT_PROVIDER_KEY, type CheckoutProvider } from './payment-footer.js';

export const PAYMENT_TEXTS = {
  stripe: {
    footer: FOOTER_TEXTS.stripe,
    checkoutNote: "You will enter your card details on Stripe's secure payment page.",
    privacy:
      "Payments are processed by our payment provider, Stripe. Your card details are entered on Stripe's secure page and never reach or stay on our servers.",
  },
  test: {
    footer: FOOTER_TEXTS.test,
    checkoutNote: 'Test mode: you will enter a test card on the shop’s own payment page. No card is charged.',
    privacy:
      'The shop is in test mode: no real payments are taken. The test card page is the shop’s own, and the card details typed there are checked and then thrown away; they are never stored and no card is charged.',
  },
  unknown: {
    footer: FOOTER_TEXTS.unknown,
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

/**
 * How an order's money was taken, in a person's words, for every screen and e-mail that says it
 * ("Paid by card (test mode)", "Paid in cash"): the provider or method stored on the order
 * ('stripe', 'test', or a method the owner recorded by hand), never its code. Unknown: null.
 */
const PAID_HOW: Record<string, string> = {
  stripe: 'by card',
  test: 'by card (test mode)',
  cash: 'in cash',
  bank_transfer: 'by bank transfer',
  card_phone: 'by card over the phone',
};

/** "by card (test mode)", "in cash"; null for a provider this shop does not know. */
export function paidHow(provider: string | null | undefined): string | null {
  return provider && Object.hasOwn(PAID_HOW, provider) ? PAID_HOW[provider]! : null;
}

/** "Paid by card (test mode)", "Paid in cash"; plain "Paid" when the way is not known. */
export function paidText(provider: string | null | undefined): string {
  const how = paidHow(provider);
  return how ? `Paid ${how}` : 'Paid';
}
