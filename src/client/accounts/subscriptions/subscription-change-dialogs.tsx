import { useId, useState, type FormEvent } from 'react';
import {
  SUBSCRIPTION_LIMITS,
  SUBSCRIPTION_MESSAGES,
  type ChangeSubscriptionInput,
  type SubscriptionView,
} from '../../../shared/subscriptions.js';
import { errorMessage } from '../../lib/error-message.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { FormError, inputClasses } from '../../ui/form-controls.js';
import { toast } from '../../ui/toast.js';
import {
  CHANGE_NOTE,
  dayFromNow,
  deliveredToast,
  deliverNowNote,
  intervalOption,
  skipNote,
  skippedToast,
  SUBSCRIPTION_UI_TEXTS as T,
  subscriptionName,
} from './subscription-texts.js';

/** A day from tomorrow to a year on (the server says the same of any other). */
export function DayField({ id, label, value, onChange }: { id: string; label: string; value: string; onChange: (day: string) => void }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-stone-800">
        {label}
      </label>
      <input
        id={id}
        type="date"
        className={`${inputClasses()} w-48`}
        min={dayFromNow(1)}
        max={dayFromNow(SUBSCRIPTION_LIMITS.maxDaysAhead)}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

/**
 * Pause (until a day) and Resume (from a day): one day to choose, then the server's answer; a
 * refusal is shown in the server's words and the page reads what now holds.
 */
export function DayActionDialog({
  subscription,
  open,
  onClose,
  onConfirm,
  words,
  defaultDay,
}: {
  subscription: SubscriptionView;
  open: boolean;
  onClose: () => void;
  onConfirm: (day: string) => Promise<SubscriptionView>;
  words: {
    title: string;
    note: string;
    label: string;
    confirm: string;
    pending: string;
    keep: string;
    done: (after: SubscriptionView) => string;
  };
  defaultDay: string;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={words.title} className="sm:max-w-lg">
      {open && <DayActionForm subscription={subscription} onConfirm={onConfirm} onDone={onClose} words={words} defaultDay={defaultDay} />}
    </Dialog>
  );
}

function DayActionForm({
  subscription,
  onConfirm,
  onDone,
  words,
  defaultDay,
}: {
  subscription: SubscriptionView;
  onConfirm: (day: string) => Promise<SubscriptionView>;
  onDone: () => void;
  words: Parameters<typeof DayActionDialog>[0]['words'];
  defaultDay: string;
}) {
  const id = useId();
  const [day, setDay] = useState(defaultDay);
  const [pending, setPending] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const error = refusal(subscription, serverError);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setServerError(null);
    setPending(true);
    try {
      const after = await onConfirm(day);
      toast({ title: words.done(after) });
      onDone();
    } catch (err) {
      setServerError(errorMessage(err, T.actionFailed));
      setPending(false);
    }
  };
  return (
    <form noValidate className="flex flex-col gap-4" onSubmit={(e) => void submit(e)}>
      <div className="flex flex-col gap-1 text-stone-800">
        <Heading subscription={subscription} />
        <p className="text-sm">{words.note}</p>
      </div>
      <FormError id={`${id}-error`} message={error} />
      <DayField
        id={`${id}-day`}
        label={words.label}
        value={day}
        onChange={(v) => {
          setDay(v);
          setServerError(null);
        }}
      />
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="ghost" onClick={onDone} disabled={pending}>
          {words.keep}
        </Button>
        <Button type="submit" disabled={pending || !day}>
          {pending ? words.pending : words.confirm}
        </Button>
      </div>
    </form>
  );
}

/** A subscription's title line in its dialogs: "Laundry Powder × 1 · Every 4 weeks · 10% off". */
export function Heading({ subscription }: { subscription: SubscriptionView }) {
  return (
    <p className="font-medium text-stone-900">
      {subscriptionName(subscription)} · {subscription.terms}
    </p>
  );
}

/** The refusal a dialog shows: the server's words, or the page's own when it already reads cancelled. */
export function refusal(subscription: SubscriptionView, serverError: string | null): string | null {
  return serverError ?? (subscription.status === 'cancelled' ? T.isCancelled : null);
}

/**
 * A one-click action on the next delivery (Skip, Deliver now): what it does, then one button. The
 * request names the date shown, so a second click or a stale tab does nothing more (the server's
 * 409 is shown, and the page reads what now holds); `act` answers the toast to show.
 */
function NextDeliveryDialog({
  subscription,
  open,
  onClose,
  words,
  act,
}: {
  subscription: SubscriptionView;
  open: boolean;
  onClose: () => void;
  words: { title: string; note: string; confirm: string; pending: string; keep: string; failed: string };
  act: (renewalAt: string) => Promise<string>;
}) {
  const id = useId();
  const [pending, setPending] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const next = subscription.nextRenewalAt;
  const error = refusal(subscription, serverError);
  const close = () => {
    setServerError(null);
    onClose();
  };
  const run = async () => {
    if (!next) return;
    setPending(true);
    setServerError(null);
    try {
      toast({ title: await act(next) });
      close();
    } catch (err) {
      setServerError(errorMessage(err, words.failed));
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog open={open} onClose={close} title={words.title} className="sm:max-w-lg">
      {open && (
        <div className="flex flex-col gap-4">
          <div className="flex flex-col gap-1 text-stone-800">
            <Heading subscription={subscription} />
            {/* Refused: what it would have done is no longer the question (the page reads what now holds). */}
            {next && !error && <p className="text-sm">{words.note}</p>}
          </div>
          <FormError id={`${id}-error`} message={error} />
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <Button variant="ghost" onClick={close} disabled={pending}>
              {error ? T.close : words.keep}
            </Button>
            {!error && (
              <Button onClick={() => void run()} disabled={pending || !next}>
                {pending ? words.pending : words.confirm}
              </Button>
            )}
          </div>
        </div>
      )}
    </Dialog>
  );
}

/** "Skip next delivery": the date skipped, that nothing is charged for it, and when the next one comes. */
export function SkipDeliveryDialog({
  subscription,
  open,
  onClose,
  onSkip,
}: {
  subscription: SubscriptionView;
  open: boolean;
  onClose: () => void;
  onSkip: (renewalAt: string) => Promise<SubscriptionView>;
}) {
  const next = subscription.nextRenewalAt;
  return (
    <NextDeliveryDialog
      subscription={subscription}
      open={open}
      onClose={onClose}
      words={{
        title: T.skipTitle,
        note: next ? skipNote(next, subscription.everyWeeks) : '',
        confirm: T.skipConfirm,
        pending: T.skipping,
        keep: T.keepDelivery,
        failed: T.skipFailed,
      }}
      act={async (renewalAt) => skippedToast((await onSkip(renewalAt)).nextRenewalAt)}
    />
  );
}

/** "Deliver now": the charge and the order at once, the outcome in a toast. */
export function DeliverNowDialog({
  subscription,
  open,
  onClose,
  onDeliver,
}: {
  subscription: SubscriptionView;
  open: boolean;
  onClose: () => void;
  onDeliver: (renewalAt: string) => Promise<{ delivery: { status: string; orderNumber: string | null } }>;
}) {
  return (
    <NextDeliveryDialog
      subscription={subscription}
      open={open}
      onClose={onClose}
      words={{
        title: T.deliverNowTitle,
        note: deliverNowNote(subscription.everyWeeks),
        confirm: T.deliverNowConfirm,
        pending: T.delivering,
        keep: T.notNow,
        failed: T.actionFailed,
      }}
      act={async (renewalAt) => deliveredToast((await onDeliver(renewalAt)).delivery)}
    />
  );
}

function ChangeForm({
  subscription,
  onChange,
  onDone,
}: {
  subscription: SubscriptionView;
  onChange: (change: ChangeSubscriptionInput) => Promise<SubscriptionView>;
  onDone: () => void;
}) {
  const id = useId();
  const [weeks, setWeeks] = useState(String(subscription.everyWeeks));
  const currentDay = subscription.nextRenewalAt?.slice(0, 10) ?? '';
  const [day, setDay] = useState(currentDay);
  const [quantities, setQuantities] = useState(() => subscription.items.map((i) => String(i.quantity)));
  const [versions, setVersions] = useState(() => subscription.items.map((i) => i.variantId));
  const [pending, setPending] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<number[]>([]);
  const canChangeInterval = subscription.intervals.length > 0;
  // The current interval stays listed even when the plan no longer offers it (the customer keeps it).
  const intervals = [...new Set([...subscription.intervals, subscription.everyWeeks])].sort((a, b) => a - b);
  const error = refusal(subscription, serverError);
  const errorId = `${id}-error`;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setServerError(null);
    const bad = quantities.flatMap((q, i) => {
      const n = Number(q);
      return Number.isInteger(n) && n >= 1 && n <= SUBSCRIPTION_LIMITS.maxQuantity ? [] : [i];
    });
    setInvalid(bad);
    if (bad.length) {
      setServerError(SUBSCRIPTION_MESSAGES.quantityRange);
      return;
    }
    const change: ChangeSubscriptionInput = {};
    if (Number(weeks) !== subscription.everyWeeks) change.everyWeeks = Number(weeks);
    const items = subscription.items.flatMap((item, i) => {
      const swapTo = versions[i] && versions[i] !== item.variantId ? versions[i] : undefined;
      if (Number(quantities[i]) === item.quantity && !swapTo) return [];
      return [{ variantId: item.variantId, quantity: Number(quantities[i]), ...(swapTo ? { swapTo } : {}) }];
    });
    if (items.length) change.items = items;
    if (day && day !== currentDay) change.nextDeliveryOn = day;
    if (change.everyWeeks === undefined && !change.items && !change.nextDeliveryOn) {
      setServerError(SUBSCRIPTION_MESSAGES.nothingToChange);
      return;
    }
    setPending(true);
    try {
      await onChange(change);
    } catch (err) {
      setServerError(errorMessage(err, T.changeFailed));
      setPending(false);
      return;
    }
    toast({ title: T.changed });
    onDone();
  };

  return (
    <form noValidate className="flex flex-col gap-4" onSubmit={(e) => void submit(e)}>
      <div className="flex flex-col gap-1 text-stone-800">
        <Heading subscription={subscription} />
        <p className="text-sm">{CHANGE_NOTE}</p>
      </div>
      <FormError id={errorId} message={error} />
      {subscription.status === 'cancelled' ? (
        <div className="flex justify-end pt-2">
          <Button variant="outline" onClick={onDone}>
            {T.close}
          </Button>
        </div>
      ) : (
        <>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-weeks`} className="text-sm font-medium text-stone-800">
              {T.intervalLabel}
            </label>
            <select
              id={`${id}-weeks`}
              className={inputClasses()}
              value={weeks}
              disabled={!canChangeInterval}
              aria-describedby={canChangeInterval ? undefined : `${id}-weeks-off`}
              onChange={(e) => setWeeks(e.target.value)}
            >
              {intervals.map((w) => (
                <option key={w} value={String(w)}>
                  {intervalOption(w)}
                </option>
              ))}
            </select>
            {!canChangeInterval && (
              <p id={`${id}-weeks-off`} className="text-xs text-stone-600">
                {T.intervalOff}
              </p>
            )}
          </div>
          {currentDay && (
            <DayField
              id={`${id}-day`}
              label={subscription.status === 'paused' ? T.pauseUntilLabel : T.nextDeliveryLabel}
              value={day}
              onChange={(v) => {
                setDay(v);
                setServerError(null);
              }}
            />
          )}
          {subscription.items.map((item, i) => (
            <div key={item.variantId} className="flex flex-col gap-1.5">
              {item.versions.length > 0 && (
                <>
                  <label htmlFor={`${id}-v${i}`} className="text-sm font-medium text-stone-800">
                    {T.versionLabel}: {item.name}
                  </label>
                  <select
                    id={`${id}-v${i}`}
                    className={`${inputClasses()} mb-2`}
                    value={versions[i] ?? item.variantId}
                    onChange={(e) => {
                      setVersions((v) => v.map((x, j) => (j === i ? e.target.value : x)));
                      setServerError(null);
                    }}
                  >
                    {item.versions.map((v) => (
                      <option key={v.variantId} value={v.variantId}>
                        {v.label}
                      </option>
                    ))}
                  </select>
                </>
              )}
              <label htmlFor={`${id}-q${i}`} className="text-sm font-medium text-stone-800">
                {T.quantityLabel}: {item.name}
              </label>
              <input
                id={`${id}-q${i}`}
                type="number"
                inputMode="numeric"
                min={1}
                max={SUBSCRIPTION_LIMITS.maxQuantity}
                className={`${inputClasses(invalid.includes(i))} w-28`}
                value={quantities[i] ?? ''}
                aria-invalid={invalid.includes(i) ? true : undefined}
                aria-describedby={invalid.includes(i) ? errorId : undefined}
                onChange={(e) => {
                  setQuantities((q) => q.map((v, j) => (j === i ? e.target.value : v)));
                  setInvalid([]);
                  setServerError(null);
                }}
              />
            </div>
          ))}
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <Button variant="ghost" onClick={onDone} disabled={pending}>
              {T.keepAsIs}
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? T.saving : T.saveChange}
            </Button>
          </div>
        </>
      )}
    </form>
  );
}

/** "Change": the interval (among those the plans offer now) and each item's quantity; only what changed is sent. */
export function ChangeSubscriptionDialog({
  subscription,
  open,
  onClose,
  onChange,
}: {
  subscription: SubscriptionView;
  open: boolean;
  onClose: () => void;
  onChange: (change: ChangeSubscriptionInput) => Promise<SubscriptionView>;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={T.changeTitle} className="sm:max-w-lg">
      {open && <ChangeForm subscription={subscription} onChange={onChange} onDone={onClose} />}
    </Dialog>
  );
}
