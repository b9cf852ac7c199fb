import { describe, expect, it } from 'vitest';
import { formatCents, toCents } from './money.js';

describe('money', () => {
  it('formats cents as US dollars with two decimals', () => {
    expect(formatCents(199)).toBe('$1.99');
    expect(formatCents(159595)).toBe('$1,595.95');
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(-505)).toBe('-$5.05');
  });
  it('groups thousands as en-US does, at every size', () => {
    for (const cents of [99_999, 100_000, 99_999_999, 100_000_000, 123_456_789_012, -1_234_567]) {
      const dollars = Math.floor(Math.abs(cents) / 100).toLocaleString('en-US');
      expect(formatCents(cents)).toBe(`${cents < 0 ? '-' : ''}$${dollars}.${String(Math.abs(cents) % 100).padStart(2, '0')}`);
    }
  });
  it('converts dollars to cents without float drift', () => {
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(1595.95)).toBe(159595);
  });
});
