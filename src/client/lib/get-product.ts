import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../shared/query-keys.js';
import { ApiError, apiRequest } from './api-client.js';
import { freshUnlessFromServer } from './query-client.js';
import type { ProductResponse } from './response-schemas.js';

function getProduct(id: string, signal?: AbortSignal): Promise<ProductResponse> {
  return apiRequest(`/api/products/${encodeURIComponent(id)}`, (s) => s.ProductResponse, { signal });
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

export function getProductQueryOptions(id: string) {
  return queryOptions({
    queryKey: queryKeys.product(id),
    queryFn: ({ signal }) => getProduct(id, signal),
    // The stock line tells what can be bought now: each visit asks again, unless the server wrote
    // the answer into this very page a moment ago.
    staleTime: freshUnlessFromServer,
    // An unknown id will not appear by asking again; other failures get one retry after 1 s.
    retry: (failureCount, error) => !isNotFound(error) && failureCount < 1,
    retryDelay: 1000,
  });
}

/** The product and its stock notice (units in other shoppers' checkouts, the low-stock line). */
export function useProduct(id: string) {
  return useQuery(getProductQueryOptions(id));
}
