import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { REVIEW_LIMITS } from '../../../shared/reviews.js';
import { ReplyInput } from '../../../shared/schemas/reviews.js';
import { Dialog } from '../../ui/dialog.js';
import { FormError } from '../../ui/form-controls.js';
import { fieldAria, FormFooter, inputCls } from '../components/admin-ui.js';
import type { AdminReview } from './review-schemas.js';
import { ReviewStars } from './review-stars.js';

/**
 * "Reply": the shop's one public answer to a review, shown under it on the product page. Once sent
 * it cannot be changed here (the server answers 409 to a second), so the dialog says so.
 */
export function ReplyDialog({
  review,
  busy,
  error,
  onSend,
  onClose,
}: {
  review: AdminReview | null;
  busy: boolean;
  error: string | null;
  onSend: (text: string) => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={review !== null} onClose={onClose} title="Reply to the review">
      {review && <ReplyForm review={review} busy={busy} error={error} onSend={onSend} onClose={onClose} />}
    </Dialog>
  );
}

function ReplyForm({
  review,
  busy,
  error,
  onSend,
  onClose,
}: {
  review: AdminReview;
  busy: boolean;
  error: string | null;
  onSend: (text: string) => void;
  onClose: () => void;
}) {
  const id = useId();
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<z.input<typeof ReplyInput>, unknown, z.output<typeof ReplyInput>>({
    resolver: zodResolver(ReplyInput),
    defaultValues: { text: '' },
  });
  const text = useWatch({ control, name: 'text' });
  const textError = errors.text?.message;
  return (
    <form noValidate onSubmit={(e) => void handleSubmit((v) => onSend(v.text))(e)} className="flex flex-col gap-4">
      <blockquote className="rounded-md border border-stone-200 bg-stone-50 p-3 text-sm">
        <p className="flex flex-wrap items-center gap-2">
          <ReviewStars rating={review.rating} size={14} />
          <span className="font-semibold text-stone-900">{review.title}</span>
        </p>
        <p className="mt-1 line-clamp-4 whitespace-pre-line break-words text-stone-800">{review.body}</p>
        <footer className="mt-1 text-xs text-stone-700">
          {review.displayName} on {review.product.name}
        </footer>
      </blockquote>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-text`} className="text-sm font-medium text-stone-900">
          Your reply
          <span className="ml-0.5 text-red-700" aria-hidden="true">
            *
          </span>
        </label>
        <textarea
          id={`${id}-text`}
          rows={5}
          maxLength={REVIEW_LIMITS.replyMax}
          className={inputCls}
          {...register('text')}
          {...fieldAria(textError, `${id}-text-error`)}
        />
        <p className="flex flex-wrap justify-between gap-2 text-xs text-stone-600">
          <span>Shown publicly under the review. The shop replies once; it cannot be changed afterwards.</span>
          <span className="tabular-nums">
            {(text ?? '').length.toLocaleString('en-US')} / {REVIEW_LIMITS.replyMax.toLocaleString('en-US')}
          </span>
        </p>
        {textError && (
          <p id={`${id}-text-error`} className="text-sm text-red-700">
            {textError}
          </p>
        )}
      </div>
      <FormError id={`${id}-error`} message={error} />
      <FormFooter onCancel={onClose} saving={busy} saveLabel="Publish reply" savingLabel="Sending…" holdWhileSaving requiredKey={false} />
    </form>
  );
}
