import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { queryKeys } from '../../shared/query-keys.js';
import { REVIEW_MESSAGES } from '../../shared/reviews.js';
import { errorMessage } from '../lib/error-message.js';
import { useSession } from '../lib/get-session.js';
import { useHydrated } from '../lib/use-hydrated.js';
import { paths } from '../lib/paths.js';
import { signInPathFor } from '../lib/safe-redirect.js';
import { Alert } from '../ui/alert.js';
import { Button, buttonClasses } from '../ui/button.js';
import { Dialog } from '../ui/dialog.js';
import { Spinner } from '../ui/spinner.js';
import { productReviewsKey } from './api/get-product-reviews.js';
import { accountReviewFormQueryOptions, accountReviewsKey } from './api/review-forms.js';
import type { SavedReview } from './api/review-schemas.js';
import { LazyReviewForm } from './lazy-review-form.js';
import { ReviewSaved } from './review-saved.js';

/**
 * The product page's "Write a review": for a signed-in shopper, a dialog with the review form (or
 * their own review to edit, or why they cannot write one); for anyone else, a link to sign in that
 * comes back to the reviews.
 */
export function WriteReview({ productId, variant = 'primary' }: { productId: string; variant?: 'primary' | 'outline' }) {
  const { user } = useSession();
  // The product page is drawn for every visitor and this part hydrates late (as it comes into
  // view), when the session may already be known: it hydrates as drawn, signed out, then follows.
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  if (!user || !hydrated) {
    return (
      <Link to={signInPathFor(`${paths.product(productId)}#reviews`)} className={buttonClasses('outline', 'md')} data-review-sign-in="">
        {REVIEW_MESSAGES.signInToReview}
      </Link>
    );
  }
  return (
    <>
      <Button variant={variant} onClick={() => setOpen(true)} aria-haspopup="dialog">
        Write a review
      </Button>
      {open && <WriteReviewDialog productId={productId} onClose={() => setOpen(false)} />}
    </>
  );
}

function WriteReviewDialog({ productId, onClose }: { productId: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useQuery(accountReviewFormQueryOptions(productId));
  const [saved, setSaved] = useState<SavedReview | null>(null);
  // Whether what was saved was an edit: the dialog's title stays what the shopper was doing.
  const [savedAnEdit, setSavedAnEdit] = useState(false);
  const state = form.data;
  const editing = Boolean(state?.review);

  // The customer's own reviews are asked for again when a review is sent (or found already sent).
  // The product's stars and list only as the dialog closes: the first review of a product turns
  // its "No reviews yet" into the list, and the "Write a review" holding this dialog with it, which
  // would take the dialog (its thanks, or what was typed) away mid-sentence. (The shop's cached
  // answers follow a new review within a second or two: http/shop-changes.ts.)
  const [changed, setChanged] = useState(false);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: productReviewsKey(productId) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.product(productId) });
    void queryClient.invalidateQueries({ queryKey: accountReviewsKey });
  };
  const onSaved = (result: SavedReview) => {
    setSaved(result);
    setSavedAnEdit(editing);
    setChanged(true);
    void queryClient.invalidateQueries({ queryKey: accountReviewsKey });
  };
  const close = () => {
    if (changed) refresh();
    onClose();
  };
  // Close and Cancel close the native dialog, which hands the focus back to "Write a review" and then calls `close`.
  const [open, setOpen] = useState(true);

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
    body = <Spinner label="Loading the review form..." />;
  } else if (form.isError) {
    body = <Alert variant="destructive" title={errorMessage(form.error, 'The review form could not be loaded. Please try again.')} />;
  } else if (!state!.canWrite) {
    body = <Alert title={state!.reason ?? REVIEW_MESSAGES.needsOrder} />;
  } else {
    body = (
      <LazyReviewForm
        state={state!}
        target={{ kind: 'account', productId, reviewId: state!.review?.id ?? null }}
        onSaved={onSaved}
        onCancel={() => setOpen(false)}
        reload={async () => {
          // Sent when another tab had already sent it: that review is new to this page too.
          setChanged(true);
          return (await form.refetch()).data;
        }}
      />
    );
  }

  return (
    <Dialog open={open} onClose={close} title={(saved ? savedAnEdit : editing) ? 'Edit your review' : 'Write a review'}>
      {body}
    </Dialog>
  );
}
