import '../../lib/zod-config.js';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminGet } from '../api/admin-api.js';
import { REVIEWS_KEY } from './get-reviews.js';
import { ReviewFigures } from './review-schemas.js';

export type FiguresPeriod = { from: string; to: string };

/** GET /api/admin/reviews/figures?from=&to=: reviews by day, average by product, request e-mails that led to a review. */
export function getReviewFiguresQueryOptions(p: FiguresPeriod) {
  return queryOptions({
    // Under the tab's key: an approval or a hide (which refreshes the queue) refreshes the figures too.
    queryKey: [...REVIEWS_KEY, 'figures', p] as const,
    queryFn: ({ signal }) => adminGet('/api/admin/reviews/figures', ReviewFigures, { from: p.from, to: p.to }, signal),
    staleTime: 0,
  });
}

export function useReviewFigures(p: FiguresPeriod) {
  return useQuery({ ...getReviewFiguresQueryOptions(p), placeholderData: keepPreviousData });
}
