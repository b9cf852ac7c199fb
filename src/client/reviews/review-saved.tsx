import type { ReactNode } from 'react';
import type { MyReview } from '../../shared/reviews.js';

/** After a review is sent: the server's sentence ("Thank you! Your review is published."), and what comes next. */
export function ReviewSaved({ message, review, children }: { message: string; review: MyReview; children?: ReactNode }) {
  return (
    <div className="flex flex-col gap-4" data-review-saved={review.status}>
      <p role="status" className="rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 font-medium text-brand-900">
        {message}
      </p>
      {children}
    </div>
  );
}
