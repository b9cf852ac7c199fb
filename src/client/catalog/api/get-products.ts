import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ProductPage } from '../../../shared/schemas/catalog.js';
import type { ProductsFilter } from '../../../shared/products-filter.js';
import { queryKeys } from '../../../shared/query-keys.js';
import { apiRequest } from '../../lib/api-client.js';
import { freshUnlessFromServer } from '../../lib/query-client.js';

// The filter is read the same way by the page table (src/shared/pages.ts) on both sides.
export { DEFAULT_PAGE_SIZE, productsFilterFromSearchParams, type ProductsFilter } from '../../../shared/products-filter.js';

export function getProducts(filter: ProductsFilter, signal?: AbortSignal): Promise<ProductPage> {
  return apiRequest('/api/products', (s) => s.ProductPage, {
    query: { search: filter.search, category: filter.category, page: filter.page, pageSize: filter.pageSize },
    signal,
  });
}

export function getProductsQueryOptions(filter: ProductsFilter) {
  return queryOptions({
    queryKey: queryKeys.products(filter),
    queryFn: ({ signal }) => getProducts(filter, signal),
    // The spec keeps the shop list always fresh and retries catalogue reads once after 1 s.
    staleTime: freshUnlessFromServer,
    retry: 1,
    retryDelay: 1000,
  });
}

export function useProducts(filter: ProductsFilter) {
  return useQuery({ ...getProductsQueryOptions(filter), placeholderData: keepPreviousData });
}
