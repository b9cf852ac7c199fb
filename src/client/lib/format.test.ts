import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, shippingText } from './format.js';

describe('format', () => {
  it('formats dates in en-US, medium by default or long, and a dash for none', () => {
    const iso = '2026-03-05T12:00:00Z';
    const d = new Date(iso);
    expect(formatDate(iso)).toBe(d.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }));
    expect(formatDate(iso, 'long')).toBe(d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' }));
    expect(formatDateTime(iso)).toBe(
      d.toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' }),
    );
    expect(formatDate(null)).toBe('—');
    expect(formatDateTime('not a date')).toBe('—');
  });

  it('reads FREE for free shipping', () => {
    expect(shippingText(0)).toBe('FREE');
    expect(shippingText(599)).toBe('$5.99');
  });
});
