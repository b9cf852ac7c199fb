/** The card payment provider's name, as on the pay button ('Pay $X with Stripe') and the receipt. */
export const PAYMENT_PROVIDER_NAME = 'Stripe';
