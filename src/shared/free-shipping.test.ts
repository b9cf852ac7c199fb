import { describe, expect, it } from 'vitest';
import { freeShippingFraction, freeShippingProgress, freeShippingText, shippingOptionMinimumText } from './free-shipping.js';
import { freeShippingMinimumFromSettings, FREE_SHIPPING_MINIMUM_KEY } from './shop-facts.js';

const line = (minimum: number | null, subtotal: number | null) => freeShippingText(freeShippingProgress(minimum, subtotal));

describe('free-shipping progress line', () => {
  it('says how much more, with two decimals, while the subtotal is short of the minimum', () => {
    expect(line(5000, 1499)).toBe('Add $35.01 more for free shipping');
    expect(line(5000, 4999)).toBe('Add $0.01 more for free shipping');
    expect(line(125050, 1000)).toBe('Add $1,240.50 more for free shipping');
    expect(freeShippingFraction(freeShippingProgress(5000, 1250))).toBe(0.25);
  });

  it('says free shipping is got from the minimum on (the minimum itself included)', () => {
    expect(line(5000, 5000)).toBe("You've got free shipping");
    expect(line(5000, 9999)).toBe("You've got free shipping");
    expect(line(0, 1)).toBe("You've got free shipping");
    expect(freeShippingFraction(freeShippingProgress(5000, 7000))).toBe(1);
  });

  it('states the rule for an empty or not yet priced cart, and nothing when no option ships free', () => {
    expect(line(5000, null)).toBe('Free shipping on orders with a subtotal of $50.00 or more.');
    expect(line(5000, 0)).toBe('Free shipping on orders with a subtotal of $50.00 or more.');
    expect(line(0, null)).toBe('Free shipping on every order.');
    expect(freeShippingFraction(freeShippingProgress(5000, null))).toBe(0);
    expect(line(null, 2000)).toBe('');
  });

  it('reads the minimum the server puts in the public settings', () => {
    expect(freeShippingMinimumFromSettings({ [FREE_SHIPPING_MINIMUM_KEY]: '7500' })).toBe(7500);
    expect(freeShippingMinimumFromSettings({ [FREE_SHIPPING_MINIMUM_KEY]: '' })).toBeNull();
    expect(freeShippingMinimumFromSettings({ [FREE_SHIPPING_MINIMUM_KEY]: '12.5' })).toBeNull();
    expect(freeShippingMinimumFromSettings(undefined)).toBeNull();
  });
});

describe('a shipping option with a minimum (decision 0044)', () => {
  it('says its rule from its own minimum, qualified as the subtotal before discounts, shipping and tax', () => {
    expect(shippingOptionMinimumText({ priceCents: 0, minimumOrderCents: 5000 })).toBe(
      'Free on orders with a subtotal of $50.00 or more (before discounts, shipping and tax).',
    );
    expect(shippingOptionMinimumText({ priceCents: 0, minimumOrderCents: 7500 })).toContain('$75.00');
    expect(shippingOptionMinimumText({ priceCents: 599, minimumOrderCents: null })).toBe('');
  });
});
