import { describe, expect, it } from 'vitest';
import { HIDDEN_HOME_CATEGORY_ID, ProductListQuery } from '../../shared/schemas/catalog.js';
import { HOME_HIDDEN_CATEGORY_ID } from './constants.js';
import { productsFilterFromSearchParams } from './api/get-products.js';

describe('client copies of shared catalogue rules', () => {
  it('hides the same category on the home page as the shared constant', () => {
    expect(HOME_HIDDEN_CATEGORY_ID).toBe(HIDDEN_HOME_CATEGORY_ID);
  });

  const cases = [
    '',
    'search=cloth',
    'search=%20%20cloth%20',
    'search=%20%20',
    'category=mops',
    'category=all',
    'category=',
    'category=Bad_Cat',
    'page=2',
    'page=0',
    'page=abc',
    'page=2.5',
    'page=',
    'search=mop&category=mops&page=3',
    `search=${'x'.repeat(101)}`,
    'sort=price-asc',
    'sort=price-desc&minPrice=5',
    'sort=newest&maxPrice=12.50',
    'sort=shop',
    'sort=cheapest',
    'minPrice=5&maxPrice=20',
    'minPrice=20&maxPrice=5',
    'minPrice=abc',
    'minPrice=1.234',
    'minPrice=-3',
    'minPrice=&maxPrice=',
    'minPrice=%205%20',
    'search=mop&category=mops&sort=price-desc&minPrice=3&maxPrice=30&page=2',
  ];

  it.each(cases)('reads "?%s" like ProductListQuery does', (qs) => {
    const params = new URLSearchParams(qs);
    const raw: Record<string, string> = {};
    for (const k of ['search', 'category', 'sort', 'minPrice', 'maxPrice', 'page']) {
      const v = params.get(k);
      if (v !== null) raw[k] = v;
    }
    const parsed = ProductListQuery.safeParse(raw);
    const expected = parsed.success
      ? {
          search: parsed.data.search,
          category: parsed.data.category,
          sort: parsed.data.sort,
          minPriceCents: parsed.data.minPriceCents,
          maxPriceCents: parsed.data.maxPriceCents,
          page: parsed.data.page,
          pageSize: parsed.data.pageSize,
        }
      : {
          search: undefined,
          category: undefined,
          sort: undefined,
          minPriceCents: undefined,
          maxPriceCents: undefined,
          page: 1,
          pageSize: 24,
        };
    expect(productsFilterFromSearchParams(params)).toEqual(expected);
  });
});
