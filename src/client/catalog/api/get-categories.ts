import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../shared/query-keys.js';
import { apiRequest } from '../../lib/api-client.js';
import type { CategoriesResponse } from '../../lib/response-schemas.js';

function getCategories(signal?: AbortSignal): Promise<CategoriesResponse> {
  return apiRequest('/api/categories', (s) => s.CategoriesResponse, { signal });
}

function getCategoriesQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.categories(),
    queryFn: ({ signal }) => getCategories(signal),
    retry: 1,
    retryDelay: 1000,
  });
}

export function useCategories() {
  return useQuery({ ...getCategoriesQueryOptions(), select: (res) => res.items });
}
