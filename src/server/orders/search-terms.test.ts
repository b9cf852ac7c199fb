import { describe, expect, it } from 'vitest';
import { amountOfWord, amountTerm, searchTermsOf } from './search-terms.js';

describe('order search terms', () => {
  it('reads money typed as 12.34, $12.34, $1,234.5 or $12 as one exact amount; digits alone stay a word', () => {
    expect(amountOfWord('12.34')).toBe('$12.34');
    expect(amountOfWord('$12.34')).toBe('$12.34');
    expect(amountOfWord('$12.3')).toBe('$12.30');
    expect(amountOfWord('$12')).toBe('$12.00');
    expect(amountOfWord('$1,234.50')).toBe('$1234.50');
    expect(amountOfWord('0.99')).toBe('$0.99');
    for (const w of ['12', '12.345', '$', '12.', '1,23.00', 'ec12.34', '$12,34']) expect(amountOfWord(w)).toBeNull();
    expect(amountTerm(123456)).toBe('$1234.56');
    expect(amountTerm(5)).toBe('$0.05');
  });

  it("files an order under its lines' product words and SKUs, tracking number, city words and total", () => {
    const terms = searchTermsOf({
      id: 'order_abc15luvmn4',
      orderNumber: '15LUVMN4',
      email: null,
      shippingAddress: JSON.stringify({ name: 'Rita Reader', city: 'Winston-Salem' }),
      lines: [
        { name: 'Lavender Glass-Cloth (40-Pack)', sku: ' LAV-7 ' },
        { name: 'Mop', sku: null },
      ],
      trackingNumber: '9400TRACK1',
      totalCents: 1234,
    });
    for (const t of [
      'lavender',
      'glass',
      'cloth',
      'lav-7',
      'mop',
      '9400track1',
      'winston',
      'salem',
      'winston-salem',
      'glass-cloth',
      '40-pack',
      '40',
      '$12.34',
      'ecluvmn4',
      '15luvmn4',
    ])
      expect(terms).toContain(t);
    expect(terms).not.toContain('');
  });
});
