import { describe, expect, it } from 'vitest';
import { defaultVariantIdOf, inStockOrder, lineTitle, sizeAndColor, variantLabel, variantOfLine } from './variants.js';

describe('variants', () => {
  it('legacy lines mean the product’s first variant', () => {
    expect(defaultVariantIdOf('cloth')).toBe('var_cloth');
    expect(variantOfLine('cloth', undefined)).toBe('var_cloth');
    expect(variantOfLine('cloth', null)).toBe('var_cloth');
    expect(variantOfLine('cloth', 'var_x1')).toBe('var_x1');
  });

  it('stock rows are ordered by product, then variant, never by variant (item) id alone', () => {
    const rows = [
      { productId: 'b', variantId: 'var_a1' },
      { productId: 'a', variantId: 'var_z9' },
      { productId: 'a', variantId: 'var_a' },
      { productId: 'b', variantId: 'var_b' },
    ];
    expect([...rows].sort(inStockOrder)).toEqual([
      { productId: 'a', variantId: 'var_a' },
      { productId: 'a', variantId: 'var_z9' },
      { productId: 'b', variantId: 'var_a1' },
      { productId: 'b', variantId: 'var_b' },
    ]);
  });

  it('labels, titles, size and colour', () => {
    expect(variantLabel(['Lavender', '1 L', ''])).toBe('Lavender, 1 L');
    expect(variantLabel(['', '', ''])).toBe('');
    expect(lineTitle('Concentrated Cleaner', 'Lavender, 1 L')).toBe('Concentrated Cleaner — Lavender, 1 L');
    expect(lineTitle('Mop', '')).toBe('Mop');
    const defaults = { size: 'One Size', color: 'Default' };
    expect(sizeAndColor(['Scent', 'Size'], ['Lavender', '1 L'], defaults)).toEqual({ size: '1 L', color: 'Default' });
    expect(sizeAndColor(['Colour', 'size'], ['Grey', 'Large'], defaults)).toEqual({ size: 'Large', color: 'Grey' });
    expect(sizeAndColor(['Color'], ['Natural'], defaults)).toEqual({ size: 'One Size', color: 'Natural' });
    expect(sizeAndColor([], [], defaults)).toEqual(defaults);
  });
});
