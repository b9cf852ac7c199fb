// The pay button's and the footer's texts follow the configured provider: src/shared/payment-provider.ts.

/**
 * The payment method an order shows: the provider that actually took its payment ('stripe' or the
 * built-in test card page, 'test'); an order without a provider was entered by the shop itself
 * (the specification's 'Local Checkout').
 */
export function paymentMethodName(provider: string | null): string {
  if (provider === null) return 'Local Checkout';
  if (provider === 'stripe') return 'Stripe';
  if (provider === 'test') return 'Test payment page (no real charge)';
  return provider;
}
