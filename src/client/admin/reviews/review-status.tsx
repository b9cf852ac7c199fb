import { REVIEW_HIDE_REASON_LABELS, type ReviewStatus } from '../../../shared/reviews.js';
import type { AdminReview } from './review-schemas.js';

export const REVIEW_STATUS_TEXT: Record<ReviewStatus, string> = {
  pending: 'Pending',
  published: 'Published',
  hidden: 'Hidden',
};

/** Pending in amber (it waits for the owner), published in green, hidden in grey. */
const TONE: Record<ReviewStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  published: 'bg-green-100 text-green-900',
  hidden: 'bg-stone-200 text-stone-800',
};

/** The review's status; a hidden one says why (the reason the owner stated, and the note). */
export function ReviewStatusBadge({ review }: { review: Pick<AdminReview, 'status' | 'hiddenReason' | 'hiddenNote'> }) {
  return (
    <span className="inline-flex flex-col gap-1 max-md:items-end">
      <span
        className={`inline-flex w-fit whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ${TONE[review.status]}`}
        data-testid="review-status"
      >
        {REVIEW_STATUS_TEXT[review.status]}
        {review.status === 'hidden' && review.hiddenReason && `: ${REVIEW_HIDE_REASON_LABELS[review.hiddenReason]}`}
      </span>
      {review.status === 'hidden' && review.hiddenNote && (
        <span className="max-w-48 break-words text-xs text-stone-700 max-md:text-right">{review.hiddenNote}</span>
      )}
    </span>
  );
}
