import { describe, expect, it } from 'vitest';
import { lineHeading, lineOptions, lineOptionsText, storedLineOptions } from './line-options.js';

describe('line options', () => {
  it("names each value by the product's own option, and says nothing without options", () => {
    const options = lineOptions(['Scent', 'Size'], ['Lavender', '32 oz', '']);
    expect(lineOptionsText(options)).toBe('Scent: Lavender · Size: 32 oz');
    expect(lineOptionsText(lineOptions([], ['', '', '']))).toBe('');
  });

  it('never says "Color: Default" or "Size: One Size" for a product without options', () => {
    const h = lineHeading({ name: 'Wool Dryer Balls', productName: 'Wool Dryer Balls', options: [] });
    expect(h).toEqual({ title: 'Wool Dryer Balls', options: '' });
    expect(JSON.stringify(h)).not.toMatch(/Color|Default|One Size/);
  });

  it("heads a line with the product's name over its options", () => {
    expect(
      lineHeading({
        name: 'Cleaner — Lavender, 32 oz',
        productName: 'Cleaner',
        options: [
          { name: 'Scent', value: 'Lavender' },
          { name: 'Size', value: '32 oz' },
        ],
      }),
    ).toEqual({ title: 'Cleaner', options: 'Scent: Lavender · Size: 32 oz' });
    // A line that knows only its title keeps it.
    expect(lineHeading({ name: 'Cleaner — Lavender' })).toEqual({ title: 'Cleaner — Lavender', options: '' });
  });

  it('an order line names its values only while the variant still has the values it was sold with', () => {
    const now = { optionNames: ['Scent', 'Size'], values: ['Lavender', '32 oz', ''] };
    expect(lineOptionsText(storedLineOptions('Lavender, 32 oz', now))).toBe('Scent: Lavender · Size: 32 oz');
    // The owner renamed the value since: the line keeps what was sold, unnamed.
    expect(storedLineOptions('Lavender, 16 oz', now)).toEqual([{ name: '', value: 'Lavender, 16 oz' }]);
    expect(storedLineOptions('Lavender, 32 oz', null)).toEqual([{ name: '', value: 'Lavender, 32 oz' }]);
    expect(storedLineOptions('', now)).toEqual([]);
  });
});
