import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../shared/query-keys.js';
import type { ProductCardItem } from '../../../shared/product-card.js';
import { apiRequest } from '../../lib/api-client.js';

/** "You may also like" under a product: up to four cards of its category, in stock first (the server's choice). */
function getRelatedProducts(id: string, signal?: AbortSignal): Promise<{ items: ProductCardItem[] }> {
  return apiRequest(`/api/products/${encodeURIComponent(id)}/related`, (s) => s.RelatedProductsResponse, { signal });
}

function getRelatedProductsQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.relatedProducts(id),
    queryFn: ({ signal }) => getRelatedProducts(id, signal),
    retry: 1,
    retryDelay: 1000,
  });
}

export function useRelatedProducts(id: string) {
  return useQuery({ ...getRelatedProductsQueryOptions(id), select: (res) => res.items });
}
