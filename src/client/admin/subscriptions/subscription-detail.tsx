import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { formatCents } from '../../../shared/money.js';
import { renewalDateText } from '../../../shared/subscriptions.js';
import { formatDate, formatDateTime } from '../../lib/format.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { Skeleton } from '../../ui/skeleton.js';
import { toast } from '../../ui/toast.js';
import { messageOf } from '../api/admin-api.js';
import { Field, fieldAria, inputCls, ListState } from '../components/admin-ui.js';
import { cardText } from '../../../shared/subscription-card.js';
import { useCancelSubscription } from './cancel-subscription.js';
import { useSubscription } from './get-subscription.js';
import { ActionButtons, ActionDialogs, type ActionDialogName } from './subscription-admin-actions.js';
import { extraName } from './subscription-event-text.js';
import { SubscriptionTimeline } from './subscription-timeline.js';
import { AdminCancelForm, type AdminSubscriptionCycle, type AdminSubscriptionDetail } from './subscription-schemas.js';
import { CYCLE_STATUS_TEXT, CYCLE_TONE, SubscriptionStatusBadge } from './subscription-status.js';

/** The orders tab's page of one order (orders-tab.tsx reads `view=details&order=`). */
const orderHref = (orderId: string) => `/admin?tab=orders&view=details&order=${encodeURIComponent(orderId)}`;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col">
      <dt className="text-xs font-semibold uppercase tracking-wide text-stone-600">{label}</dt>
      <dd className="break-words text-sm text-stone-900">{children}</dd>
    </div>
  );
}

function OrderLink({ id, number }: { id: string; number: string | null }) {
  return (
    <Link to={orderHref(id)} className="font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900">
      {number ? `Order #${number}` : 'Order'}
    </Link>
  );
}

/** The renewals, newest first: when, what became of it, why, and its order. */
function CycleTimeline({ cycles }: { cycles: AdminSubscriptionCycle[] }) {
  if (cycles.length === 0) return <p className="text-sm text-stone-700">No renewals yet: the first order was the only delivery so far.</p>;
  return (
    <ol aria-label="Renewals" className="flex flex-col">
      {cycles.map((c) => (
        <li key={c.cycle} className="relative flex gap-3 pb-4 last:pb-0" data-testid="subscription-cycle">
          <span aria-hidden="true" className={`mt-1.5 h-2.5 w-2.5 shrink-0 rounded-full ${CYCLE_TONE[c.status] ?? 'bg-blue-500'}`} />
          <div className="flex min-w-0 flex-1 flex-col gap-0.5">
            <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
              <span className="font-medium text-stone-900">
                Delivery {c.cycle}, <time dateTime={c.dueAt}>{renewalDateText(c.dueAt)}</time>
              </span>
              <span className="text-stone-700">{CYCLE_STATUS_TEXT[c.status] ?? c.status}</span>
              {c.amountCents !== null && <span className="tabular-nums text-stone-700">{formatCents(c.amountCents)}</span>}
            </p>
            {c.message && <p className="break-words text-sm text-stone-700">{c.message}</p>}
            <p className="flex flex-wrap gap-x-3 text-xs text-stone-600">
              {c.attempts > 1 && <span>{c.attempts} attempts</span>}
              {c.orderId && <OrderLink id={c.orderId} number={c.orderNumber} />}
            </p>
          </div>
        </li>
      ))}
    </ol>
  );
}

/** "Cancel subscription", confirmed: the customer's reason (optional) and whether they get the cancellation e-mail. */
function CancelForm({ sub, onDone, onBack }: { sub: AdminSubscriptionDetail; onDone: () => void; onBack: () => void }) {
  const cancel = useCancelSubscription(sub.id);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(AdminCancelForm), defaultValues: { reason: '', notifyCustomer: true } });
  const reasonError = errors.reason?.message;
  const submit = (input: AdminCancelForm) =>
    cancel.mutate(input, {
      onSuccess: () => {
        toast({
          title: 'Subscription cancelled',
          description: input.notifyCustomer ? `${sub.email} was e-mailed.` : `${sub.email} was not e-mailed.`,
        });
        onDone();
      },
      onError: (err) => toast({ title: 'Could not cancel', description: messageOf(err), variant: 'destructive' }),
    });
  return (
    <form
      noValidate
      aria-label="Cancel this subscription"
      onSubmit={(e) => void handleSubmit(submit)(e)}
      className="flex flex-col gap-3 rounded-lg border border-red-200 bg-red-50/60 p-4"
    >
      <p className="text-sm text-stone-900">
        Nothing more is charged or sent from now on; an unpaid renewal order is cancelled. This cannot be undone.
      </p>
      <Field label="Reason (optional)" htmlFor="cancel-reason" error={reasonError} hint="Kept with the subscription; up to 500 characters.">
        <textarea
          id="cancel-reason"
          rows={2}
          maxLength={500}
          className={inputCls}
          {...register('reason')}
          {...fieldAria(reasonError, 'cancel-reason-error')}
        />
      </Field>
      <label className="flex items-center gap-2 text-sm text-stone-900">
        <input type="checkbox" className="h-4 w-4 accent-brand-600" {...register('notifyCustomer')} />
        E-mail the customer
      </label>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onBack} disabled={cancel.isPending}>
          Keep subscription
        </Button>
        <Button type="submit" variant="destructive" disabled={cancel.isPending}>
          {cancel.isPending ? 'Cancelling…' : 'Confirm cancellation'}
        </Button>
      </div>
    </form>
  );
}

/** Its items, each left out of the next delivery or not, with the owner's switch for it. */
function ItemList({ sub, onOpen }: { sub: AdminSubscriptionDetail; onOpen: (d: ActionDialogName) => void }) {
  const skipped = new Set(sub.skippedNext);
  const coming = sub.items.filter((i) => !skipped.has(i.variantId)).length;
  const live = sub.status !== 'cancelled';
  return (
    <ul className="flex flex-col divide-y divide-stone-100 rounded-lg border border-stone-200">
      {sub.items.map((i) => {
        const out = skipped.has(i.variantId);
        return (
          <li
            key={i.variantId}
            className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-3 py-2 text-sm"
            data-testid="subscription-item"
          >
            <span className="flex min-w-0 flex-col">
              <span className="break-words text-stone-900">
                {i.name} × {i.quantity}
              </span>
              <span className="flex flex-wrap gap-x-2 text-xs text-stone-600">
                {i.sku && <span className="font-mono">{i.sku}</span>}
                {out && (
                  <span className="font-semibold text-amber-800" data-testid="item-left-out">
                    Left out of the next delivery
                  </span>
                )}
              </span>
            </span>
            {/* The last item coming cannot be left out (that is skipping the delivery). */}
            {live && (out || coming > 1) && (
              <Button
                size="sm"
                variant="ghost"
                onClick={() => onOpen({ kind: 'skip-item', variantId: i.variantId, skip: !out })}
                aria-label={out ? `Bring ${i.name} back into the next delivery` : `Leave ${i.name} out of the next delivery`}
              >
                {out ? 'Bring back' : 'Leave out next time'}
              </Button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** One-time items riding with the next delivery only. */
function ExtraList({ sub, onOpen }: { sub: AdminSubscriptionDetail; onOpen: (d: ActionDialogName) => void }) {
  if (sub.extras.length === 0) return <p className="text-sm text-stone-700">None with the next delivery.</p>;
  return (
    <ul className="flex flex-col divide-y divide-stone-100 rounded-lg border border-stone-200">
      {sub.extras.map((e) => {
        const name = extraName(e.variantId, sub);
        return (
          <li
            key={e.variantId}
            className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-3 py-2 text-sm"
            data-testid="subscription-extra"
          >
            <span className="min-w-0 break-words text-stone-900">
              {name} × {e.quantity}
            </span>
            {sub.status !== 'cancelled' && (
              <Button
                size="sm"
                variant="ghost"
                onClick={() => onOpen({ kind: 'remove-extra', variantId: e.variantId })}
                aria-label={`Remove ${name} from the next delivery`}
              >
                Remove
              </Button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function DetailBody({
  sub,
  cancelling,
  setCancelling,
  done,
  onOpen,
}: {
  sub: AdminSubscriptionDetail;
  cancelling: boolean;
  setCancelling: (v: boolean) => void;
  /** What the last action did (the dialog closed on it). */
  done: string | null;
  onOpen: (d: ActionDialogName) => void;
}) {
  // Done, the action's dialog closes and its button may be gone (Pause becomes Resume): the keyboard
  // goes on from what happened, inside the detail, rather than from the top of the page.
  const doneRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!done) return;
    // After the action's dialog has closed (until then the detail behind it is inert), and only
    // when its button is gone: one still there has the focus back, as any dialog gives it.
    const id = window.setTimeout(() => {
      const at = document.activeElement;
      if (!at || at === document.body) doneRef.current?.focus();
    }, 0);
    return () => window.clearTimeout(id);
  }, [done]);
  return (
    <div className="flex flex-col gap-5">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3">
        <Fact label="Status">
          <SubscriptionStatusBadge status={sub.status} />
        </Fact>
        <Fact label="Terms">{sub.terms}</Fact>
        <Fact label={sub.status === 'paused' ? 'Deliveries resume on' : 'Next delivery'}>
          {sub.nextRenewalAt ? renewalDateText(sub.nextRenewalAt) : '—'}
        </Fact>
        <Fact label="Deliveries">{sub.deliveries}</Fact>
        <Fact label="Card">{sub.card ? cardText(sub.card) : 'No card on file'}</Fact>
        <Fact label="Started">{formatDate(sub.createdAt)}</Fact>
        <Fact label="First order">
          {/* Linked only when the order is there to open. */}
          {sub.firstOrder.orderNumber ? <OrderLink id={sub.firstOrder.id} number={sub.firstOrder.orderNumber} /> : '—'}
        </Fact>
        {sub.failingSince && <Fact label="Payment failing since">{formatDate(sub.failingSince)}</Fact>}
        {sub.cancelledAt && <Fact label="Cancelled">{formatDateTime(sub.cancelledAt)}</Fact>}
        {sub.cancelledAt && <Fact label="Reason">{sub.cancelReason ?? 'None given'}</Fact>}
      </dl>

      <section aria-labelledby="subscription-actions-heading" className="flex flex-col gap-2">
        <h3 id="subscription-actions-heading" className="font-semibold text-stone-900">
          Actions
        </h3>
        <ActionButtons sub={sub} onOpen={onOpen} />
        <p
          ref={doneRef}
          role="status"
          tabIndex={-1}
          className={
            done
              ? 'rounded-md bg-green-50 px-3 py-2 text-sm text-green-900 focus-visible:outline-2 focus-visible:outline-brand-600'
              : 'sr-only'
          }
          data-testid="subscription-action-done"
        >
          {done}
        </p>
      </section>

      <section aria-labelledby="subscription-items-heading">
        <h3 id="subscription-items-heading" className="mb-2 font-semibold text-stone-900">
          Items
        </h3>
        <ItemList sub={sub} onOpen={onOpen} />
      </section>

      <section aria-labelledby="subscription-extras-heading">
        <h3 id="subscription-extras-heading" className="mb-2 font-semibold text-stone-900">
          One-time items
        </h3>
        <ExtraList sub={sub} onOpen={onOpen} />
      </section>

      <section aria-labelledby="subscription-cycles-heading">
        <h3 id="subscription-cycles-heading" className="mb-2 font-semibold text-stone-900">
          Renewals
        </h3>
        <CycleTimeline cycles={sub.cycles} />
      </section>

      <section aria-labelledby="subscription-timeline-heading">
        <h3 id="subscription-timeline-heading" className="mb-2 font-semibold text-stone-900">
          Timeline
        </h3>
        <SubscriptionTimeline sub={sub} />
      </section>

      <section aria-labelledby="subscription-consent-heading">
        <h3 id="subscription-consent-heading" className="mb-1 font-semibold text-stone-900">
          Terms agreed
        </h3>
        <p className="break-words text-sm text-stone-800">{sub.consentText}</p>
        <p className="mt-1 text-xs text-stone-600">
          Agreed <time dateTime={sub.consentAt}>{formatDateTime(sub.consentAt)}</time>
        </p>
      </section>

      {sub.status !== 'cancelled' && cancelling && (
        <CancelForm sub={sub} onBack={() => setCancelling(false)} onDone={() => setCancelling(false)} />
      )}
    </div>
  );
}

/**
 * One subscription, in a dialog over the list (`?subscription=ID`): its facts and card, the owner's
 * actions, its items and one-time items, renewals, timeline, the terms agreed, and Cancel.
 */
export function SubscriptionDetail({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { data, error, isPending, refetch } = useSubscription(id);
  const [cancelling, setCancelling] = useState(false);
  const [action, setAction] = useState<ActionDialogName | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const close = () => {
    setCancelling(false);
    setAction(null);
    setDone(null);
    onClose();
  };
  const open = (d: ActionDialogName) => {
    setDone(null);
    setAction(d);
  };
  const canCancel = data && data.status !== 'cancelled' && !cancelling;
  return (
    <Dialog
      open={Boolean(id)}
      onClose={close}
      title={<span className="break-all">{data?.email ?? 'Subscription'}</span>}
      footer={
        <>
          {canCancel && (
            <Button variant="destructive" onClick={() => setCancelling(true)}>
              Cancel subscription
            </Button>
          )}
          <Button variant="outline" onClick={close}>
            Close
          </Button>
        </>
      }
    >
      {id && isPending ? (
        <div role="status" aria-label="Loading the subscription" className="flex flex-col gap-3">
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="h-4 w-1/2" />
          <Skeleton className="h-24 w-full" />
        </div>
      ) : (
        <ListState isPending={false} error={error && !data ? error : null} onRetry={() => void refetch()}>
          {data && (
            <>
              <DetailBody sub={data} cancelling={cancelling} setCancelling={setCancelling} done={done} onOpen={open} />
              <ActionDialogs
                sub={data}
                open={action}
                onClose={() => setAction(null)}
                // Said in the detail (a toast would sit behind the dialog's backdrop).
                onDone={setDone}
              />
            </>
          )}
        </ListState>
      )}
    </Dialog>
  );
}
