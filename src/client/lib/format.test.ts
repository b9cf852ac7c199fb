import { describe, expect, it } from 'vitest';
import { formatDate, formatDateIn, formatDateTime, shippingText } from './format.js';

describe('format', () => {
  it("dates an instant by the shop's day, wherever the browser is", () => {
    // 03:00 UTC on Nov 27 is still Nov 26 in New York, and already Nov 27 in Paris.
    expect(formatDateIn('2026-11-27T03:00:00Z', 'America/New_York')).toBe('Nov 26, 2026');
    expect(formatDateIn('2026-11-27T03:00:00Z', 'Europe/Paris')).toBe('Nov 27, 2026');
    expect(formatDateIn(null, 'Europe/Paris')).toBe('—');
  });

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
