import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReviewPage, ReviewSort } from '../../../shared/reviews.js';
import { apiRequestWith } from '../../lib/api-client.js';
import { loadReviewSchemas } from './load-review-schemas.js';

/** Which page of a product's reviews is shown: its sort, the star filter (null: all) and the page. */
export type ReviewView = { page: number; sort: ReviewSort; rating: number | null };

/** What the product page's HTML shows: the first page, newest first, every rating (the server's `detail.reviews`). */
export const FIRST_REVIEW_VIEW: ReviewView = { page: 1, sort: 'newest', rating: null };

export function isFirstReviewView(view: ReviewView): boolean {
  return view.page === 1 && view.sort === 'newest' && view.rating === null;
}

/** Whether `page` is the answer for `view` (the list may still show the one before while the next loads). */
export function showsView(page: ReviewPage, view: ReviewView): boolean {
  return page.page === view.page && page.sort === view.sort && page.rating === view.rating;
}

/** Under ['products'] as the product's other public data: a catalogue change or a new review refreshes it. */
export function productReviewsKey(productId: string, view?: ReviewView) {
  return view ? (['products', 'reviews', productId, view] as const) : (['products', 'reviews', productId] as const);
}

function getProductReviews(productId: string, view: ReviewView, signal?: AbortSignal): Promise<ReviewPage> {
  return apiRequestWith(`/api/products/${encodeURIComponent(productId)}/reviews`, () => loadReviewSchemas().then((s) => s.ReviewPage), {
    query: { page: view.page, sort: view.sort, rating: view.rating ?? undefined },
    signal,
  });
}

export function getProductReviewsQueryOptions(productId: string, view: ReviewView) {
  return queryOptions({
    queryKey: productReviewsKey(productId, view),
    queryFn: ({ signal }) => getProductReviews(productId, view, signal),
    // Another page or sort keeps the list shown until its answer arrives (the list says it is loading).
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: 1,
    retryDelay: 1000,
  });
}

/** A page of the product's published reviews; not asked for while `enabled` is false (the page's own data shows it). */
export function useProductReviews(productId: string, view: ReviewView, enabled: boolean) {
  return useQuery({ ...getProductReviewsQueryOptions(productId, view), enabled });
}
