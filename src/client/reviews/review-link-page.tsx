import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../lib/error-message.js';
import { paths } from '../lib/paths.js';
import { Alert } from '../ui/alert.js';
import { Button, buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { Spinner } from '../ui/spinner.js';
import { productReviewsKey } from './api/get-product-reviews.js';
import { ReviewLinkError, reviewLinkQueryOptions, useReviewLink } from './api/review-forms.js';
import type { SavedReview } from './api/review-schemas.js';
import { LazyReviewForm } from './lazy-review-form.js';
import { ReviewSaved } from './review-saved.js';

/** Back to the product's reviews, or the shop when the link does not say which product. */
function ProductLink({ product }: { product: { id: string; name: string } | null }) {
  return product ? (
    <Link to={`${paths.product(product.id)}#reviews`} className={buttonClasses('outline', 'md', 'self-start')}>
      See {product.name}
    </Link>
  ) : (
    <Link to={paths.products} className={buttonClasses('outline', 'md', 'self-start')}>
      Browse the shop
    </Link>
  );
}

/**
 * /review/:token, a review request e-mail's link (issue [6/8]): the form for one product of an
 * order, nobody signed in. Once used, the same link edits the review it made until it expires.
 */
export default function ReviewLinkPage() {
  const { token = '' } = useParams();
  const queryClient = useQueryClient();
  const link = useReviewLink(token);
  const [saved, setSaved] = useState<SavedReview | null>(null);
  // A new form each time "Edit your review" is chosen (not when the link's state is read again:
  // that keeps what is typed in it).
  const [round, setRound] = useState(0);
  const state = link.data;
  const editing = Boolean(state?.review);

  const onSaved = (result: SavedReview) => {
    setSaved(result);
    // The link now edits this review: "Edit your review", Back to this page and a second tab read
    // it so at once, not the form as it was before the send (a second send of which is refused).
    queryClient.setQueryData(
      reviewLinkQueryOptions(token).queryKey,
      (old) =>
        old && {
          ...old,
          canWrite: true,
          reason: null,
          verified: result.review.verified,
          variantLabel: result.review.variantLabel,
          review: result.review,
        },
    );
    window.scrollTo(0, 0);
    void queryClient.invalidateQueries({ queryKey: productReviewsKey(result.review.productId) });
  };

  let body;
  if (saved) {
    body = (
      <ReviewSaved message={saved.message} review={saved.review}>
        <div className="flex flex-wrap gap-3">
          <ProductLink product={state ? { id: state.product.id, name: state.product.name } : null} />
          <Button
            variant="ghost"
            onClick={() => {
              setSaved(null);
              setRound((n) => n + 1);
              void link.refetch();
            }}
          >
            Edit your review
          </Button>
        </div>
      </ReviewSaved>
    );
  } else if (link.isPending) {
    body = <Spinner label="Loading the review form..." />;
  } else if (link.isError) {
    const error = link.error;
    body = (
      <div className="flex flex-col gap-4" data-review-link-refused="">
        <Alert variant="destructive" title={errorMessage(error, 'The review form could not be loaded. Please try again.')} />
        <ProductLink product={error instanceof ReviewLinkError ? error.product : null} />
      </div>
    );
  } else if (!state!.canWrite) {
    body = (
      <div className="flex flex-col gap-4">
        <Alert title={state!.reason ?? 'This link cannot be used to write a review.'} />
        <ProductLink product={{ id: state!.product.id, name: state!.product.name }} />
      </div>
    );
  } else {
    body = (
      <div className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
        <LazyReviewForm
          key={round}
          state={state!}
          target={{ kind: 'link', token, editing }}
          onSaved={onSaved}
          reload={async () => (await link.refetch()).data}
        />
      </div>
    );
  }

  return (
    <Container narrow className="flex flex-col gap-6 py-8 sm:py-10">
      <div className="flex flex-col gap-1">
        <h1 className="text-3xl font-bold text-stone-900">{editing && !saved ? 'Edit your review' : 'Review your purchase'}</h1>
        {state && !saved && <p className="text-stone-700">Thank you for shopping with us. Other shoppers read what you write.</p>}
      </div>
      {body}
    </Container>
  );
}
