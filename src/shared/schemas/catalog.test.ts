import { describe, expect, it } from 'vitest';
import { compareShopOrder, leadingNumber, matchesSearch, ProductListQuery } from './catalog.js';

describe('leadingNumber', () => {
  it('reads the "N -" prefix of a name', () => {
    expect(leadingNumber('12 - Reusable Cloths')).toBe(12);
    expect(leadingNumber('  5- Cloths')).toBe(5);
  });
  it('is null when the name does not start with a number and a dash', () => {
    expect(leadingNumber('Sweep and Mop')).toBeNull();
    expect(leadingNumber('Pack of 12 - cloths')).toBeNull();
    expect(leadingNumber('100 cloths')).toBeNull();
  });
});

describe('compareShopOrder', () => {
  const p = (name: string, priceCents: number) => ({ name, priceCents });
  it('orders numbered products by their number, not alphabetically', () => {
    const list = [p('100 - Cloths', 100), p('2 - Cloths', 900), p('10 - Cloths', 50)];
    expect(list.sort(compareShopOrder).map((x) => x.name)).toEqual(['2 - Cloths', '10 - Cloths', '100 - Cloths']);
  });
  it('puts numbered products before the rest, then orders by price ascending', () => {
    const list = [p('Mop', 3000), p('Screws', 199), p('5 - Cloths', 5000), p('Refill', 1500)];
    expect(list.sort(compareShopOrder).map((x) => x.name)).toEqual(['5 - Cloths', 'Screws', 'Refill', 'Mop']);
  });
  it('breaks a tie on the number by price', () => {
    const list = [p('3 - B', 500), p('3 - A', 300)];
    expect(list.sort(compareShopOrder).map((x) => x.name)).toEqual(['3 - A', '3 - B']);
  });
});

describe('matchesSearch', () => {
  const product = { name: 'Glass Cleaning Cloth', description: 'Streak-free shine for WINDOWS.' };
  it('matches name or description, ignoring case', () => {
    expect(matchesSearch(product, 'glass')).toBe(true);
    expect(matchesSearch(product, 'windows')).toBe(true);
    expect(matchesSearch(product, 'STREAK')).toBe(true);
  });
  it('does not match other text', () => {
    expect(matchesSearch(product, 'mop')).toBe(false);
  });
  it('matches everything when the search is empty', () => {
    expect(matchesSearch(product, undefined)).toBe(true);
    expect(matchesSearch(product, '')).toBe(true);
  });
});

describe('ProductListQuery', () => {
  it('applies defaults and trims', () => {
    expect(ProductListQuery.parse({ search: '  mop ' })).toEqual({ search: 'mop', page: 1, pageSize: 24 });
  });
  it('treats "all" and empty category as no filter', () => {
    expect(ProductListQuery.parse({ category: 'all' }).category).toBeUndefined();
    expect(ProductListQuery.parse({ category: '' }).category).toBeUndefined();
  });
  it('refuses bad paging and unknown keys with readable messages', () => {
    expect(ProductListQuery.safeParse({ page: '0' }).error?.issues[0]?.message).toBe('page must be at least 1');
    expect(ProductListQuery.safeParse({ pageSize: '500' }).error?.issues[0]?.message).toBe('pageSize cannot exceed 100');
    expect(ProductListQuery.safeParse({ page: 'abc' }).error?.issues[0]?.message).toBe('page must be a number');
    expect(ProductListQuery.safeParse({ sort: 'x' }).success).toBe(false);
  });
});
