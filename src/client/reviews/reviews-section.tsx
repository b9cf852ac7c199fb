import { useEffect, useId, useRef, useState } from 'react';
import {
  ratingLabel,
  REVIEW_SORT_LABELS,
  REVIEW_SORTS,
  type RatingSummary,
  type ReviewPage,
  type ReviewSort,
} from '../../shared/reviews.js';
import { useProduct } from '../lib/get-product.js';
import { Button } from '../ui/button.js';
import { Skeleton } from '../ui/skeleton.js';
import { FIRST_REVIEW_VIEW, isFirstReviewView, showsView, useProductReviews, type ReviewView } from './api/get-product-reviews.js';
import { ReviewItem } from './review-item.js';
import { Stars } from './stars.js';
import { WriteReview } from './write-review.js';
import { formatCount } from '../../shared/money.js';

const STARS_DOWN = [5, 4, 3, 2, 1] as const;

function reviewsWord(n: number): string {
  return `${formatCount(n)} ${n === 1 ? 'review' : 'reviews'}`;
}

/**
 * The product page's reviews (issue [6/8]): the average and a histogram of 5 to 1 stars whose
 * rows filter the list, a sort, the list a page at a time, and "Write a review". The first page is
 * the one in the page's own data (drawn by the server: no request for the first paint); another
 * page, sort or filter is asked for, the list shown meanwhile marked as loading. The choice is
 * kept in the page's state, not its address: Back leaves the product as before.
 */
export function ProductReviews({ productId }: { productId: string }) {
  // The product's own data carries its stars and first page (absent from an answer cached before reviews).
  const { data: own } = useProduct(productId);
  const [view, setView] = useState<ReviewView>(FIRST_REVIEW_VIEW);
  const fromPage = isFirstReviewView(view) ? own?.reviews : undefined;
  const query = useProductReviews(productId, view, fromPage === undefined);
  const latest = fromPage ?? query.data;
  // The list last shown stays while the next one loads (a filter from the page's own first page has no earlier answer to keep).
  const [shown, setShown] = useState<ReviewPage | undefined>(latest);
  if (latest && latest !== shown) setShown(latest);
  const current = latest ?? shown;
  const loading = !current || !showsView(current, view);
  const failed = loading && query.isError;
  const summary = current?.summary ?? own?.rating;

  // After Previous or Next, the new page's list takes the focus (a keyboard is where the list starts, not at the buttons).
  const list = useRef<HTMLDivElement>(null);
  const focusList = useRef(false);
  useEffect(() => {
    if (loading || !focusList.current) return;
    focusList.current = false;
    list.current?.focus();
    list.current?.scrollIntoView({ block: 'start' });
  }, [loading]);

  const choose = (next: Partial<ReviewView>) => setView((v) => ({ ...v, page: 1, ...next }));
  const goTo = (page: number) => {
    focusList.current = true;
    setView((v) => ({ ...v, page }));
  };

  return (
    <section id="reviews" aria-labelledby="reviews-title" className="mt-12 scroll-mt-20 border-t border-stone-200 pt-8">
      <h2 id="reviews-title" className="mb-6 text-xl font-bold text-stone-900 sm:text-2xl">
        Customer reviews
      </h2>
      {!summary ? (
        <ReviewsSkeleton />
      ) : summary.count === 0 ? (
        <div className="flex flex-col items-start gap-3 rounded-xl border border-stone-200 bg-white p-6" data-reviews-empty="">
          <p className="text-lg font-semibold text-stone-900">No reviews yet</p>
          <p className="text-stone-700">Bought this product? Tell other shoppers what you think.</p>
          <WriteReview productId={productId} />
        </div>
      ) : (
        <div className="grid gap-8 lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)] lg:gap-12">
          <div className="flex flex-col gap-5">
            <AverageLine summary={summary} />
            <Histogram summary={summary} rating={view.rating} onChoose={(rating) => choose({ rating })} />
            <div className="flex flex-col items-start gap-2 border-t border-stone-200 pt-5">
              <p className="font-semibold text-stone-900">Share your thoughts</p>
              <WriteReview productId={productId} variant="outline" />
            </div>
          </div>
          <div className="flex min-w-0 flex-col">
            <ListHeader
              view={view}
              total={current && !loading ? current.total : null}
              onSort={(sort) => choose({ sort })}
              onShowAll={() => choose({ rating: null })}
            />
            {failed ? (
              <div
                role="alert"
                className="mt-4 flex flex-col items-start gap-3 rounded-lg border border-red-300 bg-red-50 p-4 text-red-900"
              >
                <p className="font-semibold">We couldn’t load these reviews.</p>
                <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
                  Retry
                </Button>
              </div>
            ) : (
              <div
                ref={list}
                tabIndex={-1}
                aria-busy={loading}
                aria-label="Reviews"
                role="region"
                className={`scroll-mt-20 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-brand-600 ${loading && current ? 'opacity-60 transition-opacity' : ''}`}
                data-reviews-list=""
              >
                {loading && (
                  <p role="status" className="flex items-center gap-2 py-3 text-sm text-stone-700">
                    <span
                      aria-hidden="true"
                      className="h-4 w-4 animate-spin rounded-full border-2 border-brand-600 border-t-transparent motion-reduce:animate-none"
                    />
                    Loading reviews...
                  </p>
                )}
                {current && <ReviewList page={current} view={view} onShowAll={() => choose({ rating: null, sort: 'newest' })} />}
              </div>
            )}
            {current && !failed && (
              <Paging page={current.page} total={current.total} pageSize={current.pageSize} busy={loading} onPage={goTo} />
            )}
          </div>
        </div>
      )}
    </section>
  );
}

/** "4.3 ★★★★☆ Based on 12 reviews". */
function AverageLine({ summary }: { summary: RatingSummary }) {
  return (
    <div className="flex items-center gap-4">
      <p className="text-5xl font-bold leading-none text-stone-900" aria-hidden="true">
        {summary.average.toFixed(1)}
      </p>
      <div className="flex flex-col gap-1">
        <Stars value={summary.average} label={ratingLabel(summary.average, summary.count)} size={22} />
        <p className="text-sm text-stone-700" aria-hidden="true">
          Based on {reviewsWord(summary.count)}
        </p>
      </div>
    </div>
  );
}

/**
 * Reviews by stars, 5 to 1: each row a button ("5 stars, 8 reviews") with its bar and count that
 * shows only those reviews; pressed again, all of them.
 */
function Histogram({
  summary,
  rating,
  onChoose,
}: {
  summary: RatingSummary;
  rating: number | null;
  onChoose: (rating: number | null) => void;
}) {
  return (
    <div className="flex flex-col gap-1">
      <h3 className="mb-1 text-sm font-semibold text-stone-900">Reviews by stars</h3>
      <ul className="flex flex-col gap-1" data-histogram="">
        {STARS_DOWN.map((stars) => {
          const count = summary.stars[stars - 1] ?? 0;
          const share = summary.count > 0 ? Math.round((count / summary.count) * 100) : 0;
          const pressed = rating === stars;
          return (
            <li key={stars}>
              {/*
               * Named by its own words, "5 stars, 8 reviews" (the comma is there for a screen
               * reader's pause, unseen; "reviews" is for screen readers only; the bar is drawing).
               */}
              <button
                type="button"
                aria-pressed={pressed}
                onClick={() => onChoose(pressed ? null : stars)}
                className={`grid w-full grid-cols-[3.5rem_minmax(0,1fr)_2.5rem] items-center gap-3 rounded-md px-2 py-1.5 text-left text-sm hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600 ${
                  pressed ? 'bg-brand-50 font-semibold text-brand-900 ring-1 ring-brand-600' : 'text-stone-800'
                }`}
              >
                <span className="whitespace-nowrap">
                  {stars} {stars === 1 ? 'star' : 'stars'}
                  <span className="opacity-0">,</span>
                </span>
                <span className="h-3 overflow-hidden rounded-full border border-stone-300 bg-stone-100" aria-hidden="true">
                  <span className="block h-full rounded-full bg-amber-600" style={{ width: `${share}%` }} />
                </span>
                <span className="text-right tabular-nums">
                  {formatCount(count)}
                  <span className="sr-only"> {count === 1 ? 'review' : 'reviews'}</span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** What the list shows ("Showing 8 reviews with 5 stars", "Show all") and its sort. */
function ListHeader({
  view,
  total,
  onSort,
  onShowAll,
}: {
  view: ReviewView;
  total: number | null;
  onSort: (sort: ReviewSort) => void;
  onShowAll: () => void;
}) {
  const id = useId();
  const what =
    view.rating === null
      ? view.sort === 'photos'
        ? 'with photos'
        : null
      : `with ${view.rating} ${view.rating === 1 ? 'star' : 'stars'}${view.sort === 'photos' ? ' and photos' : ''}`;
  return (
    <div className="flex flex-wrap items-end justify-between gap-3 border-b border-stone-200 pb-3">
      <div className="flex min-h-10 flex-wrap items-center gap-x-3 gap-y-1">
        {what && (
          <>
            <p className="text-sm text-stone-800" aria-live="polite">
              {total === null ? 'Showing reviews' : `Showing ${reviewsWord(total)}`} {what}
            </p>
            {view.rating !== null && (
              <Button variant="ghost" size="sm" onClick={onShowAll} className="underline underline-offset-2">
                Show all
              </Button>
            )}
          </>
        )}
      </div>
      <div className="flex items-center gap-2">
        <label htmlFor={`${id}-sort`} className="text-sm font-medium text-stone-800">
          Sort reviews
        </label>
        <select
          id={`${id}-sort`}
          value={view.sort}
          onChange={(e) => onSort(e.currentTarget.value as ReviewSort)}
          className="h-10 rounded-md border border-stone-400 bg-white px-3 text-base text-stone-900 focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600 sm:text-sm"
        >
          {REVIEW_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {REVIEW_SORT_LABELS[sort]}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

function ReviewList({ page, view, onShowAll }: { page: ReviewPage; view: ReviewView; onShowAll: () => void }) {
  if (page.items.length === 0) {
    const what =
      page.rating !== null ? `${page.rating}-star reviews` : page.sort === 'photos' ? 'reviews with photos' : 'reviews on this page';
    return (
      <div className="flex flex-col items-start gap-3 py-6" data-reviews-filter-empty="">
        <p className="text-stone-800">No {what} yet.</p>
        {(view.rating !== null || view.sort !== 'newest' || view.page !== 1) && (
          <Button variant="outline" size="sm" onClick={onShowAll}>
            Show all reviews
          </Button>
        )}
      </div>
    );
  }
  return (
    <ol className="divide-y divide-stone-200">
      {page.items.map((review) => (
        <li key={review.id}>
          <ReviewItem review={review} />
        </li>
      ))}
    </ol>
  );
}

function Paging({
  page,
  total,
  pageSize,
  busy,
  onPage,
}: {
  page: number;
  total: number;
  pageSize: number;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav aria-label="Reviews pages" className="mt-4 flex items-center justify-between gap-4 border-t border-stone-200 pt-4">
      <Button variant="outline" size="sm" disabled={page <= 1 || busy} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <p className="text-sm text-stone-700">
        Page {page} of {pages}
      </p>
      <Button variant="outline" size="sm" disabled={page >= pages || busy} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

function ReviewsSkeleton() {
  return (
    <div className="grid gap-8 lg:grid-cols-[20rem_1fr]" aria-hidden="true">
      <div className="flex flex-col gap-3">
        <Skeleton className="h-12 w-40" />
        {STARS_DOWN.map((s) => (
          <Skeleton key={s} className="h-6 w-full" />
        ))}
      </div>
      <div className="flex flex-col gap-4">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    </div>
  );
}
