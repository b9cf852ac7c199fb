import { useId, useState, type FormEvent } from 'react';
import { reactivationTermsText, type ReactivateSubscriptionInput, type SubscriptionView } from '../../../shared/subscriptions.js';
import { errorMessage } from '../../lib/error-message.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { FormError } from '../../ui/form-controls.js';
import { toast } from '../../ui/toast.js';
import { DayField, Heading } from './subscription-change-dialogs.js';
import { dayFromNow, reactivatedToast, SUBSCRIPTION_UI_TEXTS as T } from './subscription-texts.js';

/**
 * "Reactivate" a cancelled subscription: the terms it renews on, drawn as the server draws the
 * text it keeps (the same function, from the same view), an unticked box to agree, and the first
 * delivery's day.
 */
export function ReactivateDialog({
  subscription,
  open,
  onClose,
  onReactivate,
}: {
  subscription: SubscriptionView;
  open: boolean;
  onClose: () => void;
  onReactivate: (body: ReactivateSubscriptionInput) => Promise<SubscriptionView>;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={T.reactivateTitle} className="sm:max-w-lg">
      {open && <ReactivateForm subscription={subscription} onReactivate={onReactivate} onDone={onClose} />}
    </Dialog>
  );
}

function ReactivateForm({
  subscription,
  onReactivate,
  onDone,
}: {
  subscription: SubscriptionView;
  onReactivate: (body: ReactivateSubscriptionInput) => Promise<SubscriptionView>;
  onDone: () => void;
}) {
  const id = useId();
  const [day, setDay] = useState(dayFromNow(3));
  const [agreed, setAgreed] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const terms = reactivationTermsText({
    items: subscription.items.filter((i) => !i.skipNext),
    discountPercent: subscription.discountPercent,
    everyWeeks: subscription.everyWeeks,
    firstDeliveryAt: `${day || dayFromNow(3)}T12:00:00.000Z`,
    card: subscription.card,
  });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!agreed) {
      setError(T.reactivateConsentMissing);
      return;
    }
    setPending(true);
    setError(null);
    try {
      const after = await onReactivate({ consent: true, nextDeliveryOn: day });
      toast({ title: reactivatedToast(after.nextRenewalAt) });
      onDone();
    } catch (err) {
      setError(errorMessage(err, T.actionFailed));
      setPending(false);
    }
  };
  return (
    <form noValidate className="flex flex-col gap-4" onSubmit={(e) => void submit(e)}>
      <div className="flex flex-col gap-1 text-stone-800">
        <Heading subscription={subscription} />
        <p className="text-sm">{T.reactivateNote}</p>
      </div>
      <div className="flex flex-col gap-2 rounded-lg bg-stone-50 p-3 text-sm text-stone-800" data-testid="reactivate-terms">
        {terms.split('\n').map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
      <FormError id={`${id}-error`} message={error} />
      <DayField id={`${id}-day`} label={T.nextDeliveryLabel} value={day} onChange={setDay} />
      <label className="flex items-start gap-2 text-sm text-stone-900">
        <input
          type="checkbox"
          className="mt-0.5 h-4 w-4 accent-green-700"
          checked={agreed}
          onChange={(e) => {
            setAgreed(e.target.checked);
            setError(null);
          }}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {T.reactivateConsent}
      </label>
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="ghost" onClick={onDone} disabled={pending}>
          {T.keepCancelled}
        </Button>
        <Button type="submit" disabled={pending || !day}>
          {pending ? T.reactivating : T.reactivateConfirm}
        </Button>
      </div>
    </form>
  );
}
