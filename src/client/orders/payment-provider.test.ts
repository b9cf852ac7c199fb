import { describe, expect, it } from 'vitest';
import { paymentMethodName } from './payment-provider.js';

describe('the payment method an order shows', () => {
  it('is the provider that took the payment, whichever way the order page was opened', () => {
    expect(paymentMethodName('stripe')).toBe('Stripe');
    expect(paymentMethodName('test')).toBe('Test payment page (no real charge)');
    // Orders the shop entered itself took no online payment: the specification's 'Local Checkout'.
    expect(paymentMethodName(null)).toBe('Local Checkout');
    expect(paymentMethodName('paypal')).toBe('paypal');
  });
});
