import { useQuery } from '@tanstack/react-query';
import { adminGet } from './admin-api.js';
import { CategoriesResponse } from './admin-schemas.js';

export const ADMIN_CATEGORIES_KEY = ['admin', 'categories'] as const;

/** Every category (the public list), fresh on each visit to the back office. */
export function useAllCategories() {
  return useQuery({
    queryKey: ADMIN_CATEGORIES_KEY,
    // The public list is answered with Cache-Control: no-cache, so an edit shows at once.
    queryFn: ({ signal }) => adminGet('/api/categories', CategoriesResponse, {}, signal),
    staleTime: 0,
  });
}
