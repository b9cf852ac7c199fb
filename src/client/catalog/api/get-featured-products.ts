import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../shared/query-keys.js';
import { apiRequest } from '../../lib/api-client.js';
import type { ProductCardItem } from '../../../shared/product-card.js';

/** Home shows at most this many featured products. */
export const FEATURED_PRODUCTS_LIMIT = 4;

/** The featured products as the home page's cards read them (the HTML embeds them cut to that: src/shared/product-card.ts). */
function getFeaturedProducts(signal?: AbortSignal): Promise<{ items: ProductCardItem[] }> {
  return apiRequest('/api/products/featured', (s) => s.FeaturedProductsResponse, { signal });
}

function getFeaturedProductsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.featuredProducts(),
    queryFn: ({ signal }) => getFeaturedProducts(signal),
    retry: 1,
    retryDelay: 1000,
  });
}

export function useFeaturedProducts() {
  return useQuery({
    ...getFeaturedProductsQueryOptions(),
    select: (res) => res.items.slice(0, FEATURED_PRODUCTS_LIMIT),
  });
}
