import { describe, expect, it } from 'vitest';
import { alignImageAlts, productImageAlt } from './product-images.js';

describe('product image alt texts', () => {
  it("uses the owner's alt text, else the product's name (numbered when there are several)", () => {
    const p = { name: 'Glass Cloth', images: ['/a.png', '/b.png', '/c.png'], imageAlts: ['Cloth on a mirror', '  ', ''] };
    expect(productImageAlt(p, 0)).toBe('Cloth on a mirror');
    expect(productImageAlt(p, 1)).toBe('Glass Cloth, image 2 of 3');
    expect(productImageAlt({ name: 'Mop', images: ['/m.png'] }, 0)).toBe('Mop');
    expect(productImageAlt({ name: 'Mop', images: ['/m.png'], imageAlts: [] }, 0)).toBe('Mop');
  });

  it('makes the stored alt texts exactly one per image', () => {
    expect(alignImageAlts(['/a', '/b'], [])).toEqual(['', '']);
    expect(alignImageAlts(['/a', '/b'], ['x'])).toEqual(['x', '']);
    expect(alignImageAlts(['/a'], ['x', 'y'])).toEqual(['x']);
    expect(alignImageAlts(['/a', '/b'], 'not a list')).toEqual(['', '']);
    expect(alignImageAlts(['/a', '/b'], [3, 'y'])).toEqual(['', 'y']);
    expect(alignImageAlts([], ['x'])).toEqual([]);
  });
});
