import type { ReactNode } from 'react';
import { SITE_NAME } from '../../shared/page-declaration.js';
import type { PublicReview } from '../../shared/reviews.js';
import { formatDate } from '../lib/format.js';
import { ReviewPhotos } from './review-photos.js';
import { Stars } from './stars.js';

/** "Verified buyer": from a paid order of this product (the server's word alone: shared/reviews.ts). */
export function VerifiedBadge() {
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">
      <svg
        width={14}
        height={14}
        viewBox="0 0 24 24"
        aria-hidden="true"
        focusable="false"
        fill="none"
        stroke="currentColor"
        strokeWidth={3}
      >
        <path d="M20 6 9 17l-5-5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      Verified buyer
    </span>
  );
}

/** "Bought: Lavender, 32 oz": the variant of the order that made the review verified. */
export function BoughtLine({ variantLabel }: { variantLabel: string }) {
  if (!variantLabel) return null;
  return <span className="text-sm text-stone-700">Bought: {variantLabel}</span>;
}

/** A review's text as written: its blank lines as paragraphs, its single line breaks kept. */
export function ReviewBody({ text }: { text: string }) {
  const paras = text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return (
    <div className="space-y-2 break-words leading-relaxed text-stone-800">
      {paras.map((p, i) => (
        <p key={i} className="whitespace-pre-line">
          {p}
        </p>
      ))}
    </div>
  );
}

/** One published review: its stars and title, who wrote it and when, what they bought, its text, photos and the shop's reply. */
export function ReviewItem({
  review,
  headingLevel = 'h3',
  extra,
}: {
  review: PublicReview;
  headingLevel?: 'h3' | 'h4';
  extra?: ReactNode;
}) {
  const Heading = headingLevel;
  return (
    <article className="flex flex-col gap-2 py-5" data-review-id={review.id}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Stars value={review.rating} label={`${review.rating} out of 5 stars`} />
        <Heading className="text-base font-semibold text-stone-900">{review.title}</Heading>
      </div>
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-stone-700">
        <span className="font-medium text-stone-900">{review.displayName}</span>
        {/* A review still waiting for approval (its author's list) has no date yet. */}
        {review.publishedAt && (
          <>
            <span aria-hidden="true">·</span>
            <time dateTime={review.publishedAt}>{formatDate(review.publishedAt, 'long')}</time>
          </>
        )}
        {review.editedAt && (
          <>
            <span aria-hidden="true">·</span>
            <span data-review-edited="">
              Edited<span className="sr-only"> on {formatDate(review.editedAt, 'long')}</span>
            </span>
          </>
        )}
      </p>
      {(review.verified || review.variantLabel) && (
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
          {review.verified && <VerifiedBadge />}
          <BoughtLine variantLabel={review.variantLabel} />
        </p>
      )}
      <ReviewBody text={review.body} />
      <ReviewPhotos photos={review.photos} author={review.displayName} />
      {review.reply && (
        <div className="mt-1 rounded-lg border-l-4 border-brand-600 bg-stone-50 px-4 py-3" data-review-reply="">
          <p className="text-sm font-semibold text-stone-900">
            Reply from {SITE_NAME}{' '}
            <span className="font-normal text-stone-700">
              · <time dateTime={review.reply.at}>{formatDate(review.reply.at, 'long')}</time>
            </span>
          </p>
          <div className="mt-1 text-sm">
            <ReviewBody text={review.reply.text} />
          </div>
        </div>
      )}
      {extra}
    </article>
  );
}
