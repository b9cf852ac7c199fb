import '../../lib/zod-config.js';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReviewSettingsInput } from '../../../shared/schemas/reviews.js';
import { adminGet, adminSend, logUnexpected } from '../api/admin-api.js';
import { REVIEWS_KEY } from './get-reviews.js';
import { ReviewSettings } from './review-schemas.js';

const reviewSettingsKey = [...REVIEWS_KEY, 'settings'] as const;

/** GET /api/admin/review-settings: moderation, the request e-mail's days, reviews without an order. */
export function getReviewSettingsQueryOptions() {
  return queryOptions({
    queryKey: reviewSettingsKey,
    queryFn: ({ signal }) => adminGet('/api/admin/review-settings', ReviewSettings, undefined, signal),
    staleTime: 0,
  });
}

export function useReviewSettings() {
  return useQuery(getReviewSettingsQueryOptions());
}

/** PUT /api/admin/review-settings; the answer (as stored) becomes the read's. */
export function useSaveReviewSettings() {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (body: ReviewSettingsInput) => adminSend('PUT', '/api/admin/review-settings', ReviewSettings, body),
    onSuccess: (saved) => qc.setQueryData(reviewSettingsKey, saved),
  });
}
