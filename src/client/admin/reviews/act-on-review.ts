import '../../lib/zod-config.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkReviewInput, HideReviewInput } from '../../../shared/schemas/reviews.js';
import { adminSend, logUnexpected } from '../api/admin-api.js';
import { REVIEWS_KEY } from './get-reviews.js';
import { AdminReviewResponse, BulkReviewResponse, type AdminReview } from './review-schemas.js';

/**
 * The owner's actions on one review (POST /api/admin/reviews/:id/…). Each answers the review as it
 * now stands; the queue (its counts, the other statuses' pages) and the figures are read again.
 */
export type ReviewAction =
  { kind: 'approve' } | { kind: 'hide'; body: HideReviewInput } | { kind: 'reply'; text: string } | { kind: 'photos'; hidden: boolean };

function requestOf(id: string, action: ReviewAction): { path: string; body: unknown } {
  const base = `/api/admin/reviews/${encodeURIComponent(id)}`;
  switch (action.kind) {
    case 'approve':
      return { path: `${base}/approve`, body: {} };
    case 'hide':
      return { path: `${base}/hide`, body: action.body };
    case 'reply':
      return { path: `${base}/reply`, body: { text: action.text } };
    case 'photos':
      return { path: `${base}/photos`, body: { hidden: action.hidden } };
  }
}

/** One action on one review; a refusal (4xx) arrives as an ApiError with the server's sentence. */
export function useReviewAction() {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: async ({ id, action }: { id: string; action: ReviewAction }): Promise<AdminReview> => {
      const r = requestOf(id, action);
      return (await adminSend('POST', r.path, AdminReviewResponse, r.body)).review;
    },
    // A refusal often means the review moved on (another tab, its author's edit): everything is read again.
    onSettled: () => qc.invalidateQueries({ queryKey: REVIEWS_KEY }),
  });
}

/** Approve or hide the selected reviews in one request. */
export function useBulkReviews() {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (body: BulkReviewInput) => adminSend('POST', '/api/admin/reviews/bulk', BulkReviewResponse, body),
    onSettled: () => qc.invalidateQueries({ queryKey: REVIEWS_KEY }),
  });
}
