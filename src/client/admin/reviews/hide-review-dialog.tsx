import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { REVIEW_HIDE_REASON_LABELS, REVIEW_HIDE_REASONS, REVIEW_LIMITS } from '../../../shared/reviews.js';
import { HideReviewInput } from '../../../shared/schemas/reviews.js';
import { Dialog } from '../../ui/dialog.js';
import { FormError } from '../../ui/form-controls.js';
import { fieldAria, FormFooter, inputCls } from '../components/admin-ui.js';
import { REVIEW_QUEUE_MESSAGES } from './review-schemas.js';

/**
 * "Hide…": the owner states why, one of the four reasons (required; the server refuses any other
 * and keeps the one given in the audit log), with an optional note for the shop's own records.
 * The dialog says plainly that a low rating is not a reason. Used for one review and for a
 * selection ("Hide selected…").
 */
export function HideReviewDialog({
  open,
  title,
  subject,
  what,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  /** Which review (or how many) is about to be hidden. */
  subject: string;
  /** What is about to be hidden, for the confirm button ("Hide review", "Hide 3 reviews"). */
  what: string;
  busy: boolean;
  /** The server's refusal, shown in the dialog. */
  error: string | null;
  onConfirm: (body: HideReviewInput) => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      {open && <HideForm subject={subject} what={what} busy={busy} error={error} onConfirm={onConfirm} onClose={onClose} />}
    </Dialog>
  );
}

function HideForm({
  subject,
  what,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  subject: string;
  what: string;
  busy: boolean;
  error: string | null;
  onConfirm: (body: HideReviewInput) => void;
  onClose: () => void;
}) {
  const id = useId();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof HideReviewInput>, unknown, HideReviewInput>({
    resolver: zodResolver(HideReviewInput),
    defaultValues: { note: '' },
  });
  const reasonError = errors.reason?.message;
  const noteError = errors.note?.message;
  const submit = handleSubmit((v) => onConfirm(v.note ? v : { reason: v.reason }));
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
      <p className="break-words font-medium text-stone-900">{subject}</p>
      <p className="text-sm text-stone-800">{REVIEW_QUEUE_MESSAGES.notForRating}</p>
      <fieldset
        className="flex flex-col gap-2"
        aria-describedby={reasonError ? `${id}-reason-error` : undefined}
        aria-invalid={reasonError ? true : undefined}
      >
        <legend className="mb-1 text-sm font-medium text-stone-900">
          Reason
          <span className="ml-0.5 text-red-700" aria-hidden="true">
            *
          </span>
        </legend>
        {REVIEW_HIDE_REASONS.map((r) => (
          <label
            key={r}
            className="flex min-h-9 cursor-pointer items-center gap-3 rounded-md px-2 text-sm text-stone-900 hover:bg-stone-50"
          >
            <input type="radio" value={r} className="h-4 w-4 accent-brand-600" {...register('reason')} />
            {REVIEW_HIDE_REASON_LABELS[r]}
          </label>
        ))}
        {reasonError && (
          <p id={`${id}-reason-error`} className="text-sm text-red-700">
            {reasonError}
          </p>
        )}
      </fieldset>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-note`} className="text-sm font-medium text-stone-900">
          Note (optional)
        </label>
        <textarea
          id={`${id}-note`}
          rows={3}
          maxLength={REVIEW_LIMITS.hideNoteMax}
          className={inputCls}
          {...register('note')}
          {...fieldAria(noteError, `${id}-note-error`)}
        />
        <p className="text-xs text-stone-600">For the shop’s records; the customer does not see it.</p>
        {noteError && (
          <p id={`${id}-note-error`} className="text-sm text-red-700">
            {noteError}
          </p>
        )}
      </div>
      <FormError id={`${id}-error`} message={error} />
      <FormFooter
        onCancel={onClose}
        saving={busy}
        saveLabel={what}
        savingLabel="Hiding…"
        variant="destructive"
        holdWhileSaving
        requiredKey={false}
      />
    </form>
  );
}
