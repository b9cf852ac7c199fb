import { describe, expect, it } from 'vitest';
import { PRODUCT_SORTS, ProductListQuery } from './schemas/catalog.js';
import { productsFilterFromSearchParams } from './products-filter.js';

/**
 * The shop list's URL read without zod (products-filter.ts, the browser's first load) and by the
 * schema (the server's API and page data) must agree, or the page's first data and the browser's
 * query key differ. The client's catalogue test walks the other parameters; this one every sort.
 */
describe('the shop filter read from the URL', () => {
  const sorts = [...PRODUCT_SORTS, 'Rating', 'top-rated', 'rating ', ''];

  it.each(sorts)('reads "?sort=%s" as ProductListQuery does', (sort) => {
    const params = new URLSearchParams({ sort, search: 'mop', page: '2' });
    const parsed = ProductListQuery.safeParse({ sort, search: 'mop', page: '2' });
    const read = productsFilterFromSearchParams(params);
    if (parsed.success) {
      expect(read.sort).toBe(parsed.data.sort);
      expect(read.page).toBe(2);
    } else {
      // Refused by the schema: the unfiltered first page on both sides.
      expect(read).toEqual(productsFilterFromSearchParams(new URLSearchParams()));
    }
  });

  it('knows "Top rated" (sort=rating) on both sides', () => {
    expect(PRODUCT_SORTS).toContain('rating');
    expect(productsFilterFromSearchParams(new URLSearchParams('sort=rating&category=mops'))).toMatchObject({
      sort: 'rating',
      category: 'mops',
      page: 1,
    });
    expect(ProductListQuery.parse({ sort: 'rating' }).sort).toBe('rating');
  });
});
