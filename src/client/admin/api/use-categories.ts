import { useQuery } from '@tanstack/react-query';
import { adminGet } from './admin-api.js';
import { AdminCategoriesResponse } from './admin-schemas.js';

export const ADMIN_CATEGORIES_KEY = ['admin', 'categories'] as const;

/** Every category (the empty ones shoppers do not see too), fresh on each visit to the back office. */
export function useAllCategories() {
  return useQuery({
    queryKey: ADMIN_CATEGORIES_KEY,
    queryFn: ({ signal }) => adminGet('/api/admin/categories', AdminCategoriesResponse, {}, signal),
    staleTime: 0,
  });
}
