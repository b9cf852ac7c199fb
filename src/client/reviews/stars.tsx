import type { CSSProperties } from 'react';

/**
 * "4.3 out of 5 stars, 12 reviews": shared/reviews.ts ratingLabel, written again here so that the
 * product cards (in the storefront's first load) do not bring the whole of that module with them;
 * stars.test.ts holds the two in agreement.
 */
export function starsLabel(average: number, count: number): string {
  return `${average.toFixed(1)} out of 5 stars, ${count} ${count === 1 ? 'review' : 'reviews'}`;
}

/**
 * A rating as five stars: filled stars over outlined ones, cut at the rating to the nearest half
 * star. Not colour alone: the empty stars are outlines, the filled ones solid, and the whole is one
 * image named in words for screen readers. The stylesheet draws them (`.review-stars` in
 * styles.css): the cards carry this in the first load, and a drawing in CSS costs it no script.
 */
export function Stars({
  value,
  label,
  size = 16,
  className = '',
}: {
  /** 0–5; shown to the nearest half star. */
  value: number;
  /** What a screen reader says; by default the value alone ("4.0 out of 5 stars"). */
  label?: string;
  size?: number;
  className?: string;
}) {
  const halves = Math.round(Math.min(5, Math.max(0, value)) * 2);
  return (
    <span
      role="img"
      aria-label={label ?? `${value.toFixed(1)} out of 5 stars`}
      className={`review-stars ${className}`}
      style={{ '--star-size': `${size}px`, '--stars-filled': `${halves * 10}%` } as CSSProperties}
      data-stars={halves / 2}
    />
  );
}

/** A product's average and count as a card shows them: stars, then "(12)"; the stars' name says it all. */
export function CardRating({ rating }: { rating: { average: number; count: number } }) {
  return (
    <p className="flex items-center gap-1.5 text-sm text-stone-700" data-card-rating="">
      <Stars value={rating.average} label={starsLabel(rating.average, rating.count)} />
      <span aria-hidden="true">({rating.count})</span>
    </p>
  );
}
