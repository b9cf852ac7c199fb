import { useState } from 'react';
import { Link } from 'react-router';
import { formatDate } from '../../lib/format.js';
import { paths } from '../../lib/paths.js';
import type { AdminReview } from './review-schemas.js';
import { ReviewStars } from './review-stars.js';

/** Past this a review's text is clamped to three lines, with "Show more". */
const LONG_BODY = 240;

function isLong(body: string): boolean {
  return body.length > LONG_BODY || body.split('\n').length > 3;
}

/** The review itself, as the queue's first column (a phone's card opens on it): stars, title, text, photos, the shop's reply. */
export function ReviewContent({ review }: { review: AdminReview }) {
  const [open, setOpen] = useState(false);
  const long = isLong(review.body);
  const bodyId = `review-body-${review.id}`;
  return (
    <div className="flex min-w-0 flex-col gap-1.5 text-left">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <ReviewStars rating={review.rating} />
        <span className="break-words font-semibold text-stone-900">{review.title}</span>
      </div>
      <p id={bodyId} className={`whitespace-pre-line break-words text-sm text-stone-800 ${long && !open ? 'line-clamp-3' : ''}`}>
        {review.body}
      </p>
      {long && (
        <button
          type="button"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((o) => !o)}
          className="w-fit rounded text-sm font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          {open ? 'Show less' : 'Show more'}
        </button>
      )}
      {review.photos.length > 0 && <ReviewPhotos review={review} />}
      {review.reply && (
        <div className="mt-1 rounded-md border-l-4 border-brand-600 bg-stone-50 px-3 py-2 text-sm" data-testid="review-reply">
          <p className="text-xs font-semibold text-stone-800">
            Shop’s reply · <time dateTime={review.reply.at}>{formatDate(review.reply.at)}</time>
          </p>
          <p className="mt-0.5 whitespace-pre-line break-words text-stone-800">{review.reply.text}</p>
        </div>
      )}
    </div>
  );
}

/** Thumbnails, each a link to the full photo; hidden ones dimmed and marked, with a line saying shoppers do not see them. */
function ReviewPhotos({ review }: { review: AdminReview }) {
  const hidden = review.photosHidden;
  return (
    <div className="flex flex-col gap-1">
      <ul className="flex flex-wrap gap-2" aria-label={hidden ? 'Photos (hidden from shoppers)' : 'Photos'}>
        {review.photos.map((p, i) => (
          <li key={p.url} className="relative">
            <a
              href={p.url}
              target="_blank"
              rel="noopener noreferrer"
              className="block rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              <img
                src={p.url}
                alt={`${review.displayName}’s upload ${i + 1} of ${review.photos.length}${hidden ? ', hidden from shoppers' : ''} (opens in a new tab)`}
                width={56}
                height={56}
                loading="lazy"
                className={`h-14 w-14 rounded-md border border-stone-200 object-cover ${hidden ? 'opacity-40 grayscale' : ''}`}
              />
              {hidden && (
                <span
                  aria-hidden="true"
                  className="absolute inset-x-0 bottom-0 rounded-b-md bg-stone-900/80 text-center text-[11px] font-semibold text-white"
                >
                  Hidden
                </span>
              )}
            </a>
          </li>
        ))}
      </ul>
      {hidden && <p className="text-xs text-stone-700">Photos hidden from shoppers</p>}
    </div>
  );
}

/** An address that may wrap before its "@" (not in the middle of a word) when the column is narrow. */
function Email({ address }: { address: string }) {
  const at = address.lastIndexOf('@');
  return (
    <span className="break-words text-xs text-stone-700">
      {at > 0 ? (
        <>
          {address.slice(0, at)}
          <wbr />
          {address.slice(at)}
        </>
      ) : (
        address
      )}
    </span>
  );
}

/** Who wrote it: the name shown, the address (the owner sees it, shoppers do not), and "Verified buyer" with the order. */
export function ReviewAuthor({ review }: { review: AdminReview }) {
  return (
    <span className="flex min-w-0 flex-col max-md:items-end">
      <span className="break-words font-medium text-stone-900">{review.displayName}</span>
      <Email address={review.email} />
      {review.verified ? (
        <span className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-0.5 max-md:justify-end">
          <span className="inline-flex whitespace-nowrap rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-900">
            Verified buyer
          </span>
          {review.orderId && (
            <Link
              to={`${paths.admin}?tab=orders&view=details&order=${encodeURIComponent(review.orderId)}`}
              className="whitespace-nowrap text-xs font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800"
            >
              Order {review.orderNumber ?? review.orderId}
            </Link>
          )}
        </span>
      ) : (
        <span className="mt-1 text-xs text-stone-600">No order</span>
      )}
    </span>
  );
}

/** The product (a link to its page in the shop) and the variant bought. */
export function ReviewProduct({ review }: { review: AdminReview }) {
  return (
    <span className="flex min-w-0 flex-col max-md:items-end">
      <a
        href={paths.product(review.product.id)}
        target="_blank"
        rel="noopener noreferrer"
        className="break-words font-medium text-brand-700 underline-offset-2 hover:underline"
      >
        {review.product.name}
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
      {review.variantLabel && <span className="text-xs text-stone-700">Bought: {review.variantLabel}</span>}
    </span>
  );
}

/** When it was written, and whether its author changed it since. */
export function ReviewDate({ review }: { review: AdminReview }) {
  return (
    <span className="flex flex-col whitespace-nowrap max-md:items-end">
      <time dateTime={review.createdAt}>{formatDate(review.createdAt)}</time>
      {review.editedAt && (
        <span className="text-xs text-stone-700" title={`Edited ${formatDate(review.editedAt)}`}>
          Edited <time dateTime={review.editedAt}>{formatDate(review.editedAt)}</time>
        </span>
      )}
    </span>
  );
}
