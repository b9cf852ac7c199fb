import { useState } from 'react';
import { addWeeks, SUBSCRIPTION_LIMITS, type SubscriptionView } from '../../../shared/subscriptions.js';
import { Button } from '../../ui/button.js';
import { useSubscriptionActions, type SubscriptionTarget } from './api/subscription-actions.js';
import { CancelSubscriptionDialog } from './cancel-subscription-dialog.js';
import { ChangeSubscriptionDialog, DayActionDialog, DeliverNowDialog, SkipDeliveryDialog } from './subscription-change-dialogs.js';
import { SubscriptionAddressDialog } from './subscription-address-dialog.js';
import { NextDeliveryEditDialog } from './next-delivery-dialog.js';
import { ReactivateDialog } from './reactivate-dialog.js';
import { useSession } from '../../lib/get-session.js';
import { dayFromNow, pausedToast, resumedToast, SUBSCRIPTION_UI_TEXTS as T, subscriptionName } from './subscription-texts.js';

export type SubscriptionDialog = 'skip' | 'change' | 'cancel' | 'pause' | 'resume' | 'deliver' | 'address' | 'next' | 'reactivate';

/** The dialog an e-mail's link asks for (the reminder's "#skip", "#change", "#cancel"), else none. */
export function dialogOfHash(hash: string): SubscriptionDialog | null {
  const h = hash.replace(/^#/, '');
  return h === 'skip' || h === 'change' || h === 'cancel' || h === 'pause' || h === 'resume' || h === 'next' || h === 'reactivate'
    ? h
    : null;
}

/**
 * A subscription's actions, the same on the dashboard's card and on the page of an e-mail's link:
 * Skip next delivery (or Resume, when paused), Change, Pause, Cancel subscription, each in its dialog. `subscription` is the
 * page's current copy, so a dialog sees what another tab or a refusal's re-read now says.
 */
export function SubscriptionActions({
  subscription,
  target,
  onCancel,
  initial = null,
  onDialogClosed,
  layout,
}: {
  subscription: SubscriptionView;
  target: SubscriptionTarget;
  onCancel: (reason: string | undefined) => Promise<unknown>;
  /** A dialog open from the start (an e-mail's link). */
  initial?: SubscriptionDialog | null;
  /** After a dialog closes (the link's page forgets the "#skip" it was opened with). */
  onDialogClosed?: () => void;
  /** The card's column of small buttons, or the link page's row of large ones. */
  layout: 'card' | 'page';
}) {
  const { skip, change, pause, resume, deliver, address, itemSkip, extraAdd, extraRemove, reactivate } = useSubscriptionActions(target);
  // An admin acting as the customer cannot agree to terms for them: no Reactivate (the server refuses it too).
  const { impersonatorEmail } = useSession();
  const cancelled = subscription.status === 'cancelled';
  const paused = subscription.status === 'paused';
  const [open, setOpen] = useState<SubscriptionDialog | null>(cancelled && initial !== 'reactivate' ? null : initial);
  // Another of the e-mail's links followed in the same tab: its dialog opens (set while rendering, as React advises for state that follows a prop).
  const [linked, setLinked] = useState(initial);
  if (initial !== linked) {
    setLinked(initial);
    if (initial && !cancelled) setOpen(initial);
  }
  const close = () => {
    setOpen(null);
    onDialogClosed?.();
  };
  const name = `${subscriptionName(subscription)}, ${subscription.terms}`;
  const size = layout === 'card' ? 'sm' : 'lg';
  const wide = layout === 'page' ? 'w-full sm:w-auto' : '';
  // Paused: Resume in Skip's place, and neither Deliver now nor Pause.
  const buttons: { dialog: SubscriptionDialog; label: string; variant: 'primary' | 'outline' | 'destructive' }[] = [
    paused ? { dialog: 'resume', label: T.resumeButton, variant: 'primary' } : { dialog: 'skip', label: T.skipButton, variant: 'outline' },
    ...(paused ? [] : [{ dialog: 'deliver' as const, label: T.deliverNowButton, variant: 'outline' as const }]),
    { dialog: 'next', label: T.nextDeliveryButton, variant: 'outline' },
    { dialog: 'change', label: T.changeButton, variant: 'outline' },
    ...(paused ? [] : [{ dialog: 'pause' as const, label: T.pauseButton, variant: 'outline' as const }]),
    { dialog: 'address', label: T.addressButton, variant: 'outline' },
    { dialog: 'cancel', label: T.cancelButton, variant: layout === 'page' ? 'destructive' : 'outline' },
  ];
  const containerClass =
    layout === 'card'
      ? 'flex shrink-0 flex-wrap gap-2 self-start sm:flex-col sm:items-stretch'
      : 'flex flex-col gap-2 sm:flex-row sm:flex-wrap';
  return (
    <>
      {cancelled && !impersonatorEmail && (
        <div className={containerClass}>
          <Button
            variant="primary"
            size={size}
            className={wide}
            onClick={() => setOpen('reactivate')}
            aria-label={`${T.reactivateButton}: ${name}`}
          >
            {T.reactivateButton}
          </Button>
        </div>
      )}
      {subscription.status !== 'cancelled' && (
        <div className={containerClass}>
          {buttons.map((b) => (
            <Button
              key={b.dialog}
              variant={b.variant}
              size={size}
              className={wide}
              onClick={() => setOpen(b.dialog)}
              aria-label={`${b.label}: ${name}`}
            >
              {b.label}
            </Button>
          ))}
        </div>
      )}
      <SkipDeliveryDialog
        subscription={subscription}
        open={open === 'skip'}
        onClose={close}
        onSkip={(renewalAt) => skip.mutateAsync({ renewalAt })}
      />
      <ChangeSubscriptionDialog
        subscription={subscription}
        open={open === 'change'}
        onClose={close}
        onChange={(input) => change.mutateAsync(input)}
      />
      <DeliverNowDialog
        subscription={subscription}
        open={open === 'deliver'}
        onClose={close}
        onDeliver={(renewalAt) => deliver.mutateAsync({ renewalAt })}
      />
      <DayActionDialog
        subscription={subscription}
        open={open === 'pause'}
        onClose={close}
        onConfirm={(until) => pause.mutateAsync({ until })}
        defaultDay={
          (subscription.nextRenewalAt ? addWeeks(subscription.nextRenewalAt, subscription.everyWeeks) : '').slice(0, 10) || dayFromNow(28)
        }
        words={{
          title: T.pauseTitle,
          note: T.pauseNote,
          label: T.pauseUntilLabel,
          confirm: T.pauseConfirm,
          pending: T.pausing,
          keep: T.keepGoing,
          done: (after) => pausedToast(after.nextRenewalAt),
        }}
      />
      <DayActionDialog
        subscription={subscription}
        open={open === 'resume'}
        onClose={close}
        onConfirm={(day) => resume.mutateAsync({ day })}
        defaultDay={dayFromNow(SUBSCRIPTION_LIMITS.reminderDays)}
        words={{
          title: T.resumeTitle,
          note: T.resumeNote,
          label: T.nextDeliveryLabel,
          confirm: T.resumeConfirm,
          pending: T.resuming,
          keep: T.stayPaused,
          done: (after) => resumedToast(after.nextRenewalAt),
        }}
      />
      <SubscriptionAddressDialog
        subscription={subscription}
        open={open === 'address'}
        onClose={close}
        onSave={(body) => address.mutateAsync(body)}
      />
      <NextDeliveryEditDialog
        subscription={subscription}
        open={open === 'next'}
        onClose={close}
        onSkipItem={(body) => itemSkip.mutateAsync(body)}
        onAddExtra={(body) => extraAdd.mutateAsync(body)}
        onRemoveExtra={(variantId) => extraRemove.mutateAsync(variantId)}
      />
      <ReactivateDialog
        subscription={subscription}
        open={open === 'reactivate'}
        onClose={close}
        onReactivate={(body) => reactivate.mutateAsync(body)}
      />
      <CancelSubscriptionDialog subscription={subscription} open={open === 'cancel'} onClose={close} onCancel={onCancel} />
    </>
  );
}
