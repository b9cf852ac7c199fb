import type { ProductListFilter } from './schemas/catalog.js';

export type ProductsFilter = Pick<ProductListFilter, 'search' | 'category' | 'page' | 'pageSize'>;

export const DEFAULT_PAGE_SIZE = 24;
const MAX_PAGE = 100000;
const CATEGORY_PATTERN = /^[a-z0-9-]*$/;

/**
 * Reads the shop filter from the URL with the same normalisation as the shared ProductListQuery
 * schema (trimmed text, '' and 'all' mean no filter, page ≥ 1), so browser and server build the same
 * query key. Written without zod to keep zod out of the first-load bundle; a unit test holds the two
 * in agreement. Anything the schema would reject falls back to the unfiltered first page.
 */
export function productsFilterFromSearchParams(params: { get(name: string): string | null }): ProductsFilter {
  const fallback: ProductsFilter = { search: undefined, category: undefined, page: 1, pageSize: DEFAULT_PAGE_SIZE };
  const search = params.get('search')?.trim();
  const category = params.get('category')?.trim();
  const pageRaw = params.get('page');
  if (search !== undefined && search.length > 100) return fallback;
  if (category !== undefined && (category.length > 50 || !CATEGORY_PATTERN.test(category))) return fallback;
  let page = 1;
  if (pageRaw !== null) {
    const n = pageRaw.trim() === '' ? 0 : Number(pageRaw);
    if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE) return fallback;
    page = n;
  }
  return {
    search: search ? search : undefined,
    category: category && category !== 'all' ? category : undefined,
    page,
    pageSize: DEFAULT_PAGE_SIZE,
  };
}
