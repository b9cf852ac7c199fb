import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { queryKeys } from '../../shared/query-keys.js';
import { REVIEW_HIDE_REASON_LABELS, type MyReview } from '../../shared/reviews.js';
import { errorMessage } from '../lib/error-message.js';
import { useProduct } from '../lib/get-product.js';
import { useSession } from '../lib/get-session.js';
import { paths } from '../lib/paths.js';
import { RequireAuth } from '../lib/require-auth.js';
import { AccountListPage, AccountListPager } from '../ui/account-list-page.js';
import { Alert } from '../ui/alert.js';
import { Button, buttonClasses } from '../ui/button.js';
import { Dialog } from '../ui/dialog.js';
import { Skeleton } from '../ui/skeleton.js';
import { Spinner } from '../ui/spinner.js';
import { useMyReviews } from './api/get-my-reviews.js';
import { productReviewsKey } from './api/get-product-reviews.js';
import { accountReviewFormQueryOptions, accountReviewsKey } from './api/review-forms.js';
import type { SavedReview } from './api/review-schemas.js';
import { LazyReviewForm } from './lazy-review-form.js';
import { ReviewItem } from './review-item.js';
import { ReviewSaved } from './review-saved.js';

const STATUS_TONE: Record<MyReview['status'], string> = {
  published: 'bg-green-100 text-green-900',
  pending: 'bg-yellow-100 text-yellow-900',
  hidden: 'bg-red-100 text-red-900',
};

/** "Published", "Waiting for approval", or "Hidden by the shop: Spam" (the shop's stated reason). */
export function reviewStatusText(review: Pick<MyReview, 'status' | 'hiddenReason'>): string {
  if (review.status === 'published') return 'Published';
  if (review.status === 'pending') return 'Waiting for approval';
  return review.hiddenReason ? `Hidden by the shop: ${REVIEW_HIDE_REASON_LABELS[review.hiddenReason]}` : 'Hidden by the shop';
}

/** The reviewed product's name, linked (from the catalogue's answer, shared with its page). */
function ReviewedProduct({ productId }: { productId: string }) {
  const { data, isPending } = useProduct(productId);
  if (isPending) return <Skeleton className="h-6 w-48" />;
  return (
    <h2 className="text-lg font-semibold text-stone-900">
      <Link
        to={paths.product(productId)}
        className="rounded underline-offset-2 hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {data?.product.name ?? 'A product no longer sold'}
      </Link>
    </h2>
  );
}

function EditReviewDialog({ review, onClose }: { review: MyReview; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useQuery(accountReviewFormQueryOptions(review.productId));
  const [saved, setSaved] = useState<SavedReview | null>(null);
  // Close and Cancel close the native dialog, which hands the focus back to Edit and then calls `onClose`.
  const [open, setOpen] = useState(true);
  const onSaved = (result: SavedReview) => {
    setSaved(result);
    void queryClient.invalidateQueries({ queryKey: accountReviewsKey });
    void queryClient.invalidateQueries({ queryKey: productReviewsKey(review.productId) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.product(review.productId) });
  };
  let body;
  if (saved) {
    body = (
      <ReviewSaved message={saved.message} review={saved.review}>
        <div className="flex justify-end">
          <Button onClick={() => setOpen(false)}>Close</Button>
        </div>
      </ReviewSaved>
    );
  } else if (form.isPending) {
    body = <Spinner label="Loading your review..." />;
  } else if (form.isError) {
    body = <Alert variant="destructive" title={errorMessage(form.error, 'Your review could not be loaded. Please try again.')} />;
  } else if (!form.data.canWrite) {
    body = <Alert title={form.data.reason ?? 'This review cannot be changed now.'} />;
  } else {
    body = (
      <LazyReviewForm
        state={form.data}
        target={{ kind: 'account', productId: review.productId, reviewId: review.id }}
        onSaved={onSaved}
        onCancel={() => setOpen(false)}
      />
    );
  }
  return (
    <Dialog open={open} onClose={onClose} title="Edit your review">
      {body}
    </Dialog>
  );
}

function MyReviews() {
  const { user } = useSession();
  const [page, setPage] = useState(1);
  const reviews = useMyReviews(page);
  const [editing, setEditing] = useState<MyReview | null>(null);
  if (!user) return null;

  return (
    <AccountListPage
      title="My Reviews"
      user={user}
      query={reviews}
      errorTitle="We couldn't load your reviews."
      skeleton={
        <div className="flex flex-col gap-4" aria-hidden="true">
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-40 w-full" />
        </div>
      }
      after={editing && <EditReviewDialog review={editing} onClose={() => setEditing(null)} />}
    >
      {(data) =>
        data.items.length === 0 ? (
          <div className="flex flex-col items-start gap-3 rounded-xl border border-stone-200 bg-white p-6" data-my-reviews-empty="">
            <p className="text-lg font-semibold text-stone-900">You have not written any reviews yet.</p>
            <p className="text-stone-700">Open a product you bought and choose “Write a review”.</p>
            <Link to={paths.orders} className={buttonClasses('outline', 'md')}>
              My Orders
            </Link>
          </div>
        ) : (
          <>
            <ul className="flex flex-col gap-4" aria-busy={reviews.isPlaceholderData} data-my-reviews="">
              {data.items.map((review) => (
                <li key={review.id} className="rounded-xl border border-stone-200 bg-white px-5 shadow-sm sm:px-6">
                  <div className="flex flex-wrap items-center justify-between gap-3 border-b border-stone-100 py-4">
                    <ReviewedProduct productId={review.productId} />
                    <span
                      className={`inline-flex rounded-full px-2.5 py-0.5 text-sm font-medium ${STATUS_TONE[review.status]}`}
                      data-review-status={review.status}
                    >
                      {reviewStatusText(review)}
                    </span>
                  </div>
                  <ReviewItem
                    review={review}
                    extra={
                      <div className="pt-2">
                        <Button variant="outline" size="sm" onClick={() => setEditing(review)}>
                          Edit<span className="sr-only"> your review “{review.title}”</span>
                        </Button>
                      </div>
                    }
                  />
                </li>
              ))}
            </ul>
            <AccountListPager
              label="Reviews pages"
              page={page}
              setPage={setPage}
              shownPage={data.page}
              totalPages={Math.max(1, Math.ceil(data.total / data.pageSize))}
              busy={reviews.isPlaceholderData}
            />
          </>
        )
      }
    </AccountListPage>
  );
}

/** /my-reviews: the signed-in customer's reviews, each with its status and Edit (issue [6/8]). */
export default function MyReviewsPage() {
  return (
    <RequireAuth>
      <MyReviews />
    </RequireAuth>
  );
}
