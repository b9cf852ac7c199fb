import '../../lib/zod-config.js';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminGet } from '../api/admin-api.js';
import { AdminReviewPage } from './review-schemas.js';

export const REVIEWS_PAGE_SIZE = 20;
/** Every query of the tab sits under this key: an action reads the queue, its counts and the figures again. */
export const REVIEWS_KEY = ['admin', 'reviews'] as const;

export const QUEUE_STATUSES = ['pending', 'published', 'hidden', 'all'] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

export type ReviewFilters = {
  status: QueueStatus;
  /** Only reviews with photos. */
  withPhotos: boolean;
  /** 1–5, or null for any. */
  rating: number | null;
  productId: string;
  page: number;
};

/** GET /api/admin/reviews: a page of the queue and the count of each status (the counts ignore the other filters' status). */
export function getReviewsQueryOptions(f: ReviewFilters) {
  return queryOptions({
    queryKey: [...REVIEWS_KEY, 'list', f] as const,
    queryFn: ({ signal }) =>
      adminGet(
        '/api/admin/reviews',
        AdminReviewPage,
        {
          status: f.status,
          photos: f.withPhotos ? 'with' : undefined,
          rating: f.rating ?? undefined,
          productId: f.productId || undefined,
          page: f.page,
          pageSize: REVIEWS_PAGE_SIZE,
        },
        signal,
      ),
    // Customers write and edit reviews behind the owner's back: a fresh page each visit.
    staleTime: 0,
  });
}

export function useReviews(f: ReviewFilters) {
  return useQuery({ ...getReviewsQueryOptions(f), placeholderData: keepPreviousData });
}
