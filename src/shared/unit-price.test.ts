import { describe, expect, it } from 'vitest';
import { formatUnitPrice, unitPriceCents, unitPriceForReader } from './unit-price.js';

describe('unit prices', () => {
  it('is the price per unit rounded half up to the cent', () => {
    // The seed's cleaner: $14.99 for 16 oz is 93.6875 cents an ounce, $24.99 for 32 oz 78.09375.
    expect(unitPriceCents(1499, 16, 'oz')).toBe(94);
    expect(unitPriceCents(2499, 32, 'oz')).toBe(78);
    // Exactly half a cent rounds up: 25 cents for 10 is 2.5.
    expect(unitPriceCents(25, 10, 'count')).toBe(3);
    expect(unitPriceCents(1005, 100, 'count')).toBe(10);
    // Just under half rounds down.
    expect(unitPriceCents(1249, 500, 'count')).toBe(2);
  });

  it('gives grams and millilitres per 100', () => {
    expect(unitPriceCents(899, 500, 'ml')).toBe(180);
    expect(formatUnitPrice(899, 500, 'ml')).toBe('$1.80 / 100 ml');
    expect(formatUnitPrice(1299, 907, 'g')).toBe('$1.43 / 100 g');
  });

  it('takes decimal sizes', () => {
    expect(formatUnitPrice(999, 1.5, 'l')).toBe('$6.66 / l');
    expect(formatUnitPrice(1299, 2, 'lb')).toBe('$6.50 / lb');
  });

  it('writes the line shown beside the price', () => {
    expect(formatUnitPrice(1499, 16, 'oz')).toBe('$0.94 / oz');
    expect(formatUnitPrice(1299, 10, 'count')).toBe('$1.30 / count');
    expect(formatUnitPrice(199, 1000, 'count')).toBe('< $0.01 / count');
    expect(unitPriceForReader('$0.94 / oz')).toBe('$0.94 per oz');
  });

  it('is nothing without a usable size', () => {
    expect(formatUnitPrice(1499, null, 'oz')).toBeNull();
    expect(formatUnitPrice(1499, 16, null)).toBeNull();
    expect(formatUnitPrice(1499, 0, 'oz')).toBeNull();
    expect(formatUnitPrice(1499, -2, 'oz')).toBeNull();
    expect(formatUnitPrice(1499, 16, 'bottles')).toBeNull();
    expect(formatUnitPrice(1499, Number.NaN, 'oz')).toBeNull();
  });
});
