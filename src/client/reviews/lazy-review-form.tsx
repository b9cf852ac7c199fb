import { lazy, Suspense } from 'react';
import { afterZod } from '../lib/load-zod.js';
import { Spinner } from '../ui/spinner.js';
import type { ReviewFormProps } from './review-form.js';

// The form and its schema (zod, react-hook-form) load when a form is opened, never with the page.
const ReviewFormChunk = lazy(afterZod(() => import('./review-form.js')));

/** The review form, loaded on first use. */
export function LazyReviewForm(props: ReviewFormProps) {
  return (
    <Suspense fallback={<Spinner label="Loading the review form..." />}>
      <ReviewFormChunk {...props} />
    </Suspense>
  );
}
