import { describe, expect, it } from 'vitest';
import { formatCents, formatCount, toCents } from './money.js';

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
  it("writes counts as toLocaleString('en-US') does, without building a formatter", () => {
    const values = [0, 7, 999, 1_000, 12_500, 100_000, 1_234_567, -4_321, 0.25, 2.5, 1_234.5678, 0.0004, -0.0004, 99_999.9999];
    for (const n of values) expect(formatCount(n), String(n)).toBe(n.toLocaleString('en-US'));
  });
  it('converts dollars to cents without float drift', () => {
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(1595.95)).toBe(159595);
  });
});
