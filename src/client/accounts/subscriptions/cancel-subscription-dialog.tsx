import '../../lib/zod-config.js';
import { useId, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { CancelSubscriptionInput, type SubscriptionView } from '../../../shared/subscriptions.js';
import { errorMessage } from '../../lib/error-message.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { FormError, inputClasses } from '../../ui/form-controls.js';
import { toast } from '../../ui/toast.js';
import { CANCEL_REASON_MAX, SUBSCRIPTION_UI_TEXTS as T, subscriptionName } from './subscription-texts.js';

function CancelForm({
  subscription,
  onCancel,
  onDone,
}: {
  subscription: SubscriptionView;
  onCancel: (reason: string | undefined) => Promise<unknown>;
  onDone: () => void;
}) {
  const id = useId();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(CancelSubscriptionInput),
    defaultValues: { reason: '' },
    reValidateMode: 'onSubmit',
  });
  const [serverError, setServerError] = useState<string | null>(null);
  // Cancelled meanwhile (the list or the link read again after a refusal, or another tab): nothing left to confirm.
  const alreadyCancelled = subscription.status === 'cancelled';
  const error = serverError ?? errors.reason?.message ?? (alreadyCancelled ? T.isCancelled : null);
  const errorId = `${id}-error`;

  const submit = async ({ reason }: CancelSubscriptionInput) => {
    try {
      await onCancel(reason);
    } catch (err) {
      setServerError(errorMessage(err, T.cancelFailed));
      return;
    }
    toast({ title: T.cancelled });
    onDone();
  };

  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        setServerError(null);
        void handleSubmit(submit)(e);
      }}
    >
      <div className="flex flex-col gap-1 text-stone-800">
        <p className="font-medium text-stone-900">
          {subscriptionName(subscription)} · {subscription.terms}
        </p>
        <p className="text-sm">{T.dialogNote}</p>
      </div>
      <FormError id={errorId} message={error} />
      {alreadyCancelled ? (
        <div className="flex justify-end pt-2">
          <Button variant="outline" onClick={onDone}>
            {T.close}
          </Button>
        </div>
      ) : (
        <>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-reason`} className="text-sm font-medium text-stone-800">
              {T.reasonLabel}
            </label>
            <textarea
              id={`${id}-reason`}
              rows={3}
              maxLength={CANCEL_REASON_MAX}
              className={`${inputClasses(Boolean(errors.reason)).replace('h-10 ', '')} py-2`}
              aria-describedby={[error ? errorId : null, `${id}-hint`].filter(Boolean).join(' ')}
              aria-invalid={errors.reason ? true : undefined}
              {...register('reason')}
            />
            <p id={`${id}-hint`} className="text-xs text-stone-600">
              {T.reasonHint}
            </p>
          </div>
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <Button variant="ghost" onClick={onDone} disabled={isSubmitting}>
              {T.keepButton}
            </Button>
            <Button type="submit" variant="destructive" disabled={isSubmitting}>
              {isSubmitting ? T.cancelling : T.cancelButton}
            </Button>
          </div>
        </>
      )}
    </form>
  );
}

/**
 * "Cancel subscription": one dialog with an optional reason, then done (as few steps as it took to
 * subscribe). `onCancel` sends it (the account's route or the link's) and throws the server's
 * refusal, which the dialog shows; on success a toast, and the dialog closes. `subscription` is
 * the caller's current copy: once it reads cancelled, the dialog offers only Done.
 */
export function CancelSubscriptionDialog({
  subscription,
  open,
  onClose,
  onCancel,
}: {
  subscription: SubscriptionView;
  open: boolean;
  onClose: () => void;
  onCancel: (reason: string | undefined) => Promise<unknown>;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={T.dialogTitle} className="sm:max-w-lg">
      {open && <CancelForm subscription={subscription} onCancel={onCancel} onDone={onClose} />}
    </Dialog>
  );
}
