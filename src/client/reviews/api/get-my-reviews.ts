import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequestWith } from '../../lib/api-client.js';
import { loadReviewSchemas } from './load-review-schemas.js';
import { accountReviewsKey } from './review-forms.js';
import type { MyReviewsPage } from './review-schemas.js';

function myReviewsQueryOptions(page: number) {
  return queryOptions({
    queryKey: [...accountReviewsKey, 'list', page] as const,
    queryFn: ({ signal }): Promise<MyReviewsPage> =>
      apiRequestWith('/api/account/reviews', () => loadReviewSchemas().then((s) => s.MyReviewsPage), { query: { page }, signal }),
    // The shop may approve or hide one meanwhile: each visit asks again.
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/** The signed-in customer's reviews, newest first, a page at a time. */
export function useMyReviews(page: number) {
  return useQuery(myReviewsQueryOptions(page));
}
