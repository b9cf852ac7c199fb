import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ProductCardPage } from '../../../shared/product-card.js';
import { priceParam, type ProductsFilter } from '../../../shared/products-filter.js';
import { queryKeys } from '../../../shared/query-keys.js';
import { apiRequest } from '../../lib/api-client.js';
import { freshUnlessFromServer } from '../../lib/query-client.js';

// The filter is read the same way by the page table (src/shared/pages.ts) on both sides.
export { DEFAULT_PAGE_SIZE, productsFilterFromSearchParams, type ProductsFilter } from '../../../shared/products-filter.js';

/**
 * A page of the list as the shop's cards read it: the API answers whole products, the page's HTML
 * embeds its first page cut to the cards (src/shared/product-card.ts); both fill this query.
 */
function getProducts(filter: ProductsFilter, signal?: AbortSignal): Promise<ProductCardPage> {
  return apiRequest('/api/products', (s) => s.ProductPage, {
    query: {
      search: filter.search,
      category: filter.category,
      sort: filter.sort,
      minPrice: filter.minPriceCents === undefined ? undefined : priceParam(filter.minPriceCents),
      maxPrice: filter.maxPriceCents === undefined ? undefined : priceParam(filter.maxPriceCents),
      page: filter.page,
      pageSize: filter.pageSize,
    },
    signal,
  });
}

function getProductsQueryOptions(filter: ProductsFilter) {
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
