import { REVIEW_LIMITS } from '../../../shared/reviews.js';

const STAR = 'M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z';

/**
 * A review's stars: filled in amber for the rating, outlined for the rest. One image to a screen
 * reader ("4 out of 5 stars"); amber-600 keeps 3:1 against white for the filled ones, and the
 * outlines are stone-500, so the count reads without colour.
 */
export function ReviewStars({ rating, size = 16 }: { rating: number; size?: number }) {
  const max = REVIEW_LIMITS.ratingMax;
  return (
    <span role="img" aria-label={`${rating} out of ${max} stars`} className="inline-flex shrink-0 items-center gap-0.5">
      {Array.from({ length: max }, (_, i) => (
        <svg key={i} width={size} height={size} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
          <path
            d={STAR}
            className={i < rating ? 'fill-amber-500 stroke-amber-600' : 'fill-none stroke-stone-500'}
            strokeWidth="1.2"
            strokeLinejoin="round"
          />
        </svg>
      ))}
    </span>
  );
}
