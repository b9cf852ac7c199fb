import type { ProductListFilter } from './schemas/catalog.js';

export type ProductsFilter = Pick<
  ProductListFilter,
  'search' | 'category' | 'sort' | 'minPriceCents' | 'maxPriceCents' | 'page' | 'pageSize'
>;

export const DEFAULT_PAGE_SIZE = 24;
const MAX_PAGE = 100000;
const CATEGORY_PATTERN = /^[a-z0-9-]*$/;
// PRODUCT_SORTS (schemas/catalog.ts) spelled again: that module loads zod. The unit test holds the two alike.
const SORTS = ['shop', 'price-asc', 'price-desc', 'newest', 'rating'] as const;
const PRICE_PATTERN = /^(\d{1,6})(\.\d{1,2})?$/;

/** A price bound from the URL (dollars) in cents; undefined when absent or blank; null when unreadable. */
function priceBound(raw: string | null): number | undefined | null {
  const text = raw?.trim();
  if (text === undefined || text === '') return undefined;
  return PRICE_PATTERN.test(text) ? Math.round(Number(text) * 100) : null;
}

/** Cents as the URL writes a price bound: "12" or "12.5". */
export function priceParam(cents: number): string {
  return String(cents / 100);
}

/**
 * Reads the shop filter from the URL with the same normalisation as the shared ProductListQuery
 * schema (trimmed text, '' and 'all' mean no filter, page ≥ 1), so browser and server build the same
 * query key. Written without zod to keep zod out of the first-load bundle; a unit test holds the two
 * in agreement. Anything the schema would reject falls back to the unfiltered first page.
 */
export function productsFilterFromSearchParams(params: { get(name: string): string | null }): ProductsFilter {
  const fallback: ProductsFilter = {
    search: undefined,
    category: undefined,
    sort: undefined,
    minPriceCents: undefined,
    maxPriceCents: undefined,
    page: 1,
    pageSize: DEFAULT_PAGE_SIZE,
  };
  const search = params.get('search')?.trim();
  const category = params.get('category')?.trim();
  const pageRaw = params.get('page');
  if (search !== undefined && search.length > 100) return fallback;
  if (category !== undefined && (category.length > 50 || !CATEGORY_PATTERN.test(category))) return fallback;
  const sortRaw = params.get('sort');
  const sort = sortRaw === null ? undefined : SORTS.find((s) => s === sortRaw);
  if (sortRaw !== null && sort === undefined) return fallback;
  const minPriceCents = priceBound(params.get('minPrice'));
  const maxPriceCents = priceBound(params.get('maxPrice'));
  if (minPriceCents === null || maxPriceCents === null) return fallback;
  if (minPriceCents !== undefined && maxPriceCents !== undefined && minPriceCents > maxPriceCents) return fallback;
  let page = 1;
  if (pageRaw !== null) {
    const n = pageRaw.trim() === '' ? 0 : Number(pageRaw);
    if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE) return fallback;
    page = n;
  }
  return {
    search: search ? search : undefined,
    category: category && category !== 'all' ? category : undefined,
    sort: sort === 'shop' ? undefined : sort,
    minPriceCents,
    maxPriceCents,
    page,
    pageSize: DEFAULT_PAGE_SIZE,
  };
}
