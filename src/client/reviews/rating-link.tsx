import { ratingLabel } from '../../shared/reviews.js';
import { Stars } from './stars.js';
import { formatCount } from '../../shared/money.js';

/**
 * Beside the product's price: "★★★★☆ 4.3 (12 reviews)", a link down to its reviews; nothing
 * while it has none. The stars' name says it whole for a screen reader; the figures beside them
 * repeat it for the eye.
 */
export function RatingLink({ rating }: { rating: { average: number; count: number } | undefined }) {
  if (!rating || rating.count === 0) return null;
  const words = `${formatCount(rating.count)} ${rating.count === 1 ? 'review' : 'reviews'}`;
  return (
    <a
      href="#reviews"
      className="inline-flex flex-wrap items-center gap-x-2 rounded text-sm text-stone-800 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      data-rating-link=""
    >
      <Stars value={rating.average} label={ratingLabel(rating.average, rating.count)} size={18} />
      <span aria-hidden="true">
        <span className="font-semibold text-stone-900">{rating.average.toFixed(1)}</span>{' '}
        <span className="underline underline-offset-2">({words})</span>
      </span>
    </a>
  );
}
