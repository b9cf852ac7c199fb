import { describe, expect, it } from 'vitest';
import type { VariantView } from '../../../shared/schemas/catalog.js';
import { valueState, variantForChoice, variantWith } from './variant-picker.js';

const v = (id: string, options: string[], available: number): VariantView => ({
  id,
  options,
  label: options.join(', '),
  sku: null,
  priceCents: 1000,
  compareAtCents: null,
  image: null,
  available,
  stock: { reserved: 0, reservedUntil: null, lowStockThreshold: 10 },
});

// Scent × Size, with Lemon 1 L sold out and no Unscented 1 L at all.
const variants = [
  v('lav-500', ['Lavender', '500 ml'], 5),
  v('lav-1l', ['Lavender', '1 L'], 2),
  v('lem-500', ['Lemon', '500 ml'], 3),
  v('lem-1l', ['Lemon', '1 L'], 0),
  v('uns-500', ['Unscented', '500 ml'], 4),
];

describe('variant picker', () => {
  it('finds a combination, and says of each value what it would give with the others as chosen', () => {
    expect(variantWith(variants, ['Lemon', '1 L'])?.id).toBe('lem-1l');
    expect(variantWith(variants, ['Unscented', '1 L'])).toBeUndefined();
    const chosen = variants[1]!; // Lavender 1 L
    expect(valueState(variants, chosen, 0, 'Lavender')).toBe('available');
    expect(valueState(variants, chosen, 0, 'Lemon')).toBe('sold-out');
    expect(valueState(variants, chosen, 0, 'Unscented')).toBe('unavailable');
    expect(valueState(variants, chosen, 1, '500 ml')).toBe('available');
  });

  it('choosing a value keeps the other options when that variant exists, else moves to the closest one that has the value', () => {
    const lavender1l = variants[1]!;
    expect(variantForChoice(variants, lavender1l, 0, 'Lemon').id).toBe('lem-1l');
    expect(variantForChoice(variants, lavender1l, 0, 'Unscented').id).toBe('uns-500');
    expect(variantForChoice(variants, variants[4]!, 1, '1 L').id).toBe('lav-1l');
  });
});
