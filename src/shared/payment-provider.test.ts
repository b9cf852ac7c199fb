import { describe, expect, it } from 'vitest';
import { checkoutProviderFrom, paidText, PAYMENT_PROVIDER_KEY, payButtonText, paymentTexts } from './payment-provider.js';

describe('what the storefront says about the payment provider', () => {
  it('reads the provider the server put in the public settings, and nothing else', () => {
    expect(checkoutProviderFrom({ [PAYMENT_PROVIDER_KEY]: 'stripe' })).toBe('stripe');
    expect(checkoutProviderFrom({ [PAYMENT_PROVIDER_KEY]: 'test' })).toBe('test');
    expect(checkoutProviderFrom({ [PAYMENT_PROVIDER_KEY]: 'paypal' })).toBeNull();
    expect(checkoutProviderFrom({})).toBeNull();
    expect(checkoutProviderFrom(undefined)).toBeNull();
  });

  it("names Stripe only when Stripe takes the payments (the specification's 'Pay $X with Stripe')", () => {
    expect(payButtonText('stripe', 4318)).toBe('Pay $43.18 with Stripe');
    expect(payButtonText('test', 4318)).toBe('Pay $43.18 in test mode');
    expect(payButtonText(null, 123456)).toBe('Pay $1,234.56');
    expect(payButtonText('stripe', null)).toBe('Pay … with Stripe');
    expect(paymentTexts('stripe').footer).toBe('Payments are securely processed by Stripe.');
    expect(paymentTexts('test').footer).not.toMatch(/Stripe/);
    expect(paymentTexts(null).footer).not.toMatch(/Stripe/);
  });

  it('the privacy text says where card details go in the mode the shop runs in', () => {
    expect(paymentTexts('stripe').privacy).toMatch(/Stripe's secure page/);
    expect(paymentTexts('test').privacy).toMatch(/test mode/);
    expect(paymentTexts('test').privacy).not.toMatch(/Stripe/);
    expect(paymentTexts(null).privacy).not.toMatch(/Stripe/);
  });

  it('words how an order was paid as a person would, never the provider\'s code ("Paid … Through test")', () => {
    expect(paidText('test')).toBe('Paid by card (test mode)');
    expect(paidText('stripe')).toBe('Paid by card');
    expect(paidText('cash')).toBe('Paid in cash');
    expect(paidText('bank_transfer')).toBe('Paid by bank transfer');
    expect(paidText('card_phone')).toBe('Paid by card over the phone');
    expect(paidText(null)).toBe('Paid');
    expect(paidText('constructor')).toBe('Paid');
  });
});
