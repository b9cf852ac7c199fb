import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueries } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { formatCents } from '../../../shared/money.js';
import { SHIPS_TO_TEXT, US_STATES } from '../../../shared/schemas/checkout.js';
import {
  AddExtraInput,
  addWeeks,
  ChangeSubscriptionInput,
  everyWeeksText,
  PauseSubscriptionInput,
  renewalDateText,
  ResumeSubscriptionInput,
  SUBSCRIPTION_LIMITS,
  SUBSCRIPTION_MESSAGES,
  SubscriptionAddressInput,
} from '../../../shared/subscriptions.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { FormError } from '../../ui/form-controls.js';
import { messageOf } from '../api/admin-api.js';
import { getSubscriptionPlansQueryOptions } from '../api/get-subscription-plans.js';
import { Field, fieldAria, inputCls } from '../components/admin-ui.js';
import { useSubscriptionAction, type ActionAnswer, type SubscriptionAction } from './act-on-subscription.js';
import { ExtraVariantPicker, type PickedVariant } from './extra-variant-picker.js';
import { deliveredText, eventContextOf, eventSentence, extraName, offeredIntervals, toldText } from './subscription-event-text.js';
import type { AdminSubscriptionDetail } from './subscription-schemas.js';

/**
 * The owner's Actions on a subscription (issue [5/8], the owner's desk): the customer's own, each
 * in a small dialog that says what it does, asks whether to e-mail the customer (ticked), shows the
 * server's refusal in its own words, and on success puts the answer in the detail and says what
 * happened. What cannot apply is not offered: nothing once cancelled; Resume in place of Skip,
 * Deliver now and Pause while paused.
 */

export type ActionDialogName =
  | { kind: 'skip' }
  | { kind: 'deliver-now' }
  | { kind: 'pause' }
  | { kind: 'resume' }
  | { kind: 'change' }
  | { kind: 'address' }
  | { kind: 'add-extra' }
  | { kind: 'skip-item'; variantId: string; skip: boolean }
  | { kind: 'remove-extra'; variantId: string };

/** A UTC calendar day `days` from now (YYYY-MM-DD): the server's days are UTC days (isChoosableDay). */
export function dayFromNow(days: number, now = new Date()): string {
  return new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

const intervalText = (weeks: number) => everyWeeksText(weeks);

/** The buttons of the Actions group, as the status allows. */
export function actionButtons(status: AdminSubscriptionDetail['status']): { kind: ActionDialogName['kind']; label: string }[] {
  if (status === 'cancelled') return [];
  const paused = status === 'paused';
  return [
    ...(paused
      ? [{ kind: 'resume' as const, label: 'Resume…' }]
      : [
          { kind: 'skip' as const, label: 'Skip next delivery' },
          { kind: 'deliver-now' as const, label: 'Deliver now' },
          { kind: 'pause' as const, label: 'Pause until…' },
        ]),
    { kind: 'change', label: 'Change…' },
    { kind: 'add-extra', label: 'Add one-time item…' },
    { kind: 'address', label: 'Change address…' },
  ];
}

export function ActionButtons({ sub, onOpen }: { sub: AdminSubscriptionDetail; onOpen: (d: ActionDialogName) => void }) {
  const buttons = actionButtons(sub.status);
  if (buttons.length === 0)
    return <p className="text-sm text-stone-700">This subscription is cancelled: there is nothing more to do on it.</p>;
  return (
    <div role="group" aria-label="Actions on this subscription" className="flex flex-wrap gap-2">
      {buttons.map((b) => (
        <Button
          key={b.kind}
          size="sm"
          variant={b.kind === 'resume' ? 'primary' : 'outline'}
          onClick={() => onOpen({ kind: b.kind } as ActionDialogName)}
        >
          {b.label}
        </Button>
      ))}
    </div>
  );
}

type Run = (notify: boolean) => Promise<ActionAnswer>;

type FormWords = {
  note?: ReactNode;
  confirm: string;
  pending: string;
  /** False where the server sends no e-mail whatever the owner ticks (a new address): the box is not shown. */
  emails?: boolean;
};

/**
 * The frame of every action's dialog: what it does, its fields, "E-mail the customer about this"
 * (ticked), the server's refusal in its words, and the confirm button busy while the request runs.
 * `validate` answers the first problem with the fields before anything is sent.
 */
function ActionForm({
  sub,
  words,
  validate,
  run,
  said,
  onClose,
  onDone,
  children,
}: {
  sub: AdminSubscriptionDetail;
  words: FormWords;
  validate?: () => string | null | Promise<string | null>;
  run: Run;
  /** What happened, from the answer (the newest event's sentence when there is none of its own). */
  said?: (answer: ActionAnswer) => string | null;
  onClose: () => void;
  onDone: (message: string) => void;
  children?: ReactNode;
}) {
  const id = useId();
  const [notify, setNotify] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const emails = words.emails !== false;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const problem = (await validate?.()) ?? null;
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      const answer = await run(emails && notify);
      const before = new Set(sub.events.map((ev) => ev.id));
      const fresh = answer.subscription.events.find((ev) => !before.has(ev.id));
      const what =
        said?.(answer) ??
        (fresh ? `${eventSentence(fresh, eventContextOf(answer.subscription)).text}.` : 'Nothing changed: it was so already.');
      onDone(`${what} ${fresh || said ? toldText(sub.email, emails && notify, emails) : ''}`.trim());
      onClose();
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };
  return (
    <form noValidate className="flex flex-col gap-4" onSubmit={(e) => void submit(e)} aria-describedby={`${id}-error`}>
      {words.note && <div className="text-sm text-stone-800">{words.note}</div>}
      <FormError id={`${id}-error`} message={error} />
      {children}
      {emails ? (
        <div className="flex flex-col gap-0.5">
          <label htmlFor={`${id}-notify`} className="flex items-center gap-2 text-sm font-medium text-stone-900">
            <input
              id={`${id}-notify`}
              type="checkbox"
              className="h-4 w-4 shrink-0 accent-brand-600"
              checked={notify}
              onChange={(e) => setNotify(e.target.checked)}
            />
            E-mail the customer about this
          </label>
          <p className="break-all pl-6 text-xs text-stone-600">{sub.email}</p>
        </div>
      ) : (
        <p className="text-xs text-stone-600">The customer is not e-mailed about this change.</p>
      )}
      <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
        <Button variant="ghost" onClick={onClose} disabled={busy}>
          Back
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? words.pending : words.confirm}
        </Button>
      </div>
    </form>
  );
}

/** A day field: from tomorrow to a year on (the server refuses any other, with the same words). */
function DayInput({
  id,
  label,
  value,
  onChange,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  hint?: string;
}) {
  return (
    <Field label={label} htmlFor={id} {...(hint ? { hint } : {})}>
      <input
        id={id}
        type="date"
        className={`${inputCls} sm:w-48`}
        min={dayFromNow(1)}
        max={dayFromNow(SUBSCRIPTION_LIMITS.maxDaysAhead)}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        required
      />
    </Field>
  );
}

/** The first message of a schema's refusal, or null. */
function problemOf(result: { success: boolean; error?: { issues: { message: string }[] } }): string | null {
  return result.success ? null : (result.error?.issues[0]?.message ?? 'Check the fields and try again.');
}

type Common = {
  sub: AdminSubscriptionDetail;
  act: (action: SubscriptionAction) => Run;
  onClose: () => void;
  onDone: (message: string) => void;
};

function SkipForm({ sub, act, onClose, onDone }: Common) {
  const next = sub.nextRenewalAt!;
  return (
    <ActionForm
      sub={sub}
      words={{
        note: `The delivery of ${renewalDateText(next)} is skipped: nothing is charged or sent for it. The next one comes on ${renewalDateText(addWeeks(next, sub.everyWeeks))}.`,
        confirm: 'Skip delivery',
        pending: 'Skipping…',
      }}
      run={act({ kind: 'skip', renewalAt: next })}
      onClose={onClose}
      onDone={onDone}
    />
  );
}

function DeliverNowForm({ sub, act, onClose, onDone }: Common) {
  return (
    <ActionForm
      sub={sub}
      words={{
        note: `The saved card is charged today’s price less the discount, and the next delivery (due ${renewalDateText(sub.nextRenewalAt!)}) is ordered now. After it, deliveries come ${intervalText(sub.everyWeeks).toLowerCase()} from today.`,
        confirm: 'Order and send now',
        pending: 'Ordering…',
      }}
      run={act({ kind: 'deliver-now', renewalAt: sub.nextRenewalAt! })}
      said={(a) => (a.delivery ? deliveredText(a.delivery) : null)}
      onClose={onClose}
      onDone={onDone}
    />
  );
}

function PauseForm({ sub, act, onClose, onDone }: Common) {
  const id = useId();
  const [day, setDay] = useState(() => (sub.nextRenewalAt ? addWeeks(sub.nextRenewalAt, sub.everyWeeks).slice(0, 10) : dayFromNow(28)));
  return (
    <ActionForm
      sub={sub}
      words={{
        note: 'Nothing is charged or sent until then. Deliveries start again on that day, with the usual reminder three days before.',
        confirm: 'Pause subscription',
        pending: 'Pausing…',
      }}
      validate={() => problemOf(PauseSubscriptionInput.safeParse({ until: day }))}
      run={act({ kind: 'pause', until: day })}
      onClose={onClose}
      onDone={onDone}
    >
      <DayInput id={`${id}-until`} label="Pause until" value={day} onChange={setDay} />
    </ActionForm>
  );
}

function ResumeForm({ sub, act, onClose, onDone }: Common) {
  const id = useId();
  const [day, setDay] = useState(() => dayFromNow(SUBSCRIPTION_LIMITS.reminderDays));
  return (
    <ActionForm
      sub={sub}
      words={{
        note: `Deliveries start again on the day chosen, then come ${intervalText(sub.everyWeeks).toLowerCase()} as before.`,
        confirm: 'Resume deliveries',
        pending: 'Resuming…',
      }}
      validate={() => problemOf(ResumeSubscriptionInput.safeParse({ nextDeliveryOn: day }))}
      run={act({ kind: 'resume', nextDeliveryOn: day })}
      onClose={onClose}
      onDone={onDone}
    >
      <DayInput id={`${id}-day`} label="Next delivery on" value={day} onChange={setDay} />
    </ActionForm>
  );
}

/** The intervals every item's plan offers now (read from the products' plans, as the server checks them). */
function useOfferedIntervals(sub: AdminSubscriptionDetail) {
  const productIds = [...new Set(sub.items.map((i) => i.productId))];
  const answers = useQueries({ queries: productIds.map((p) => getSubscriptionPlansQueryOptions(p)) });
  const loading = answers.some((a) => a.isPending);
  const plans = new Map(productIds.flatMap((p, i) => (answers[i]?.data ? [[p, answers[i].data] as const] : [])));
  return { loading, ...offeredIntervals(sub.items, plans, sub.everyWeeks) };
}

function ChangeForm({ sub, act, onClose, onDone }: Common) {
  const id = useId();
  const offered = useOfferedIntervals(sub);
  const [weeks, setWeeks] = useState(String(sub.everyWeeks));
  const currentDay = sub.nextRenewalAt?.slice(0, 10) ?? '';
  const [day, setDay] = useState(currentDay);
  const [quantities, setQuantities] = useState(() => sub.items.map((i) => String(i.quantity)));
  const change = (): ChangeSubscriptionInput => {
    const c: ChangeSubscriptionInput = {};
    if (Number(weeks) !== sub.everyWeeks) c.everyWeeks = Number(weeks);
    const items = sub.items.flatMap((item, i) =>
      quantities[i] === String(item.quantity) ? [] : [{ variantId: item.variantId, quantity: Number(quantities[i]) }],
    );
    if (items.length) c.items = items;
    if (day && day !== currentDay) c.nextDeliveryOn = day;
    return c;
  };
  return (
    <ActionForm
      sub={sub}
      words={{
        note: 'The next delivery brings the new quantities, and a new interval counts from it. A renewal already ordered keeps its order.',
        confirm: 'Save changes',
        pending: 'Saving…',
      }}
      validate={() => problemOf(ChangeSubscriptionInput.safeParse(change()))}
      run={(notify) => act({ kind: 'change', change: change() })(notify)}
      onClose={onClose}
      onDone={onDone}
    >
      <Field
        label="Deliver every"
        htmlFor={`${id}-weeks`}
        {...(!offered.loading && !offered.changeable
          ? { hint: 'Its plans offer no other interval now (or Subscribe and save is off for one of its products).' }
          : {})}
      >
        <select
          id={`${id}-weeks`}
          className={inputCls}
          value={weeks}
          disabled={offered.loading || !offered.changeable}
          onChange={(e) => setWeeks(e.target.value)}
        >
          {offered.intervals.map((w) => (
            <option key={w} value={String(w)}>
              {intervalText(w)}
            </option>
          ))}
        </select>
      </Field>
      {currentDay && (
        <DayInput
          id={`${id}-day`}
          label={sub.status === 'paused' ? 'Deliveries resume on' : 'Next delivery on'}
          value={day}
          onChange={setDay}
        />
      )}
      {sub.items.map((item, i) => (
        <Field key={item.variantId} label={`Quantity: ${item.name}`} htmlFor={`${id}-q${i}`}>
          <input
            id={`${id}-q${i}`}
            type="number"
            inputMode="numeric"
            min={1}
            max={SUBSCRIPTION_LIMITS.maxQuantity}
            className={`${inputCls} w-28!`}
            value={quantities[i] ?? ''}
            onChange={(e) => setQuantities((q) => q.map((v, j) => (j === i ? e.target.value : v)))}
          />
        </Field>
      ))}
    </ActionForm>
  );
}

const ADDRESS_FIELDS = [
  { key: 'name', label: 'Name', autoComplete: 'name' },
  { key: 'address', label: 'Street', autoComplete: 'street-address' },
  { key: 'city', label: 'City', autoComplete: 'address-level2' },
  { key: 'state', label: 'State', autoComplete: 'address-level1' },
  { key: 'zip', label: 'ZIP', autoComplete: 'postal-code' },
] as const;

/** "Change address": the fields the checkout takes, and whether it goes for all the customer's subscriptions and their account. */
function AddressForm({ sub, act, onClose, onDone }: Common) {
  const id = useId();
  const {
    register,
    trigger,
    getValues,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(SubscriptionAddressInput),
    defaultValues: {
      address: { name: '', address: '', city: '', state: '', zip: '', ...sub.address, country: 'US' as const },
      everywhere: false,
    },
  });
  const fieldError = (k: (typeof ADDRESS_FIELDS)[number]['key']) => errors.address?.[k]?.message;
  return (
    <ActionForm
      sub={sub}
      words={{
        note: 'Deliveries not yet ordered go to this address; one already ordered keeps its own.',
        confirm: 'Save address',
        pending: 'Saving…',
      }}
      // The fields' own messages show under each; the form's line names the first.
      validate={async () => ((await trigger()) ? null : 'Check the address: each field says what it needs.')}
      run={async (notify) => {
        const { address, everywhere } = getValues();
        return act({ kind: 'address', address: { ...address, country: 'US' }, everywhere: Boolean(everywhere) })(notify);
      }}
      onClose={onClose}
      onDone={onDone}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        {ADDRESS_FIELDS.map((f) => {
          const fid = `${id}-${f.key}`;
          const error = fieldError(f.key);
          return (
            <div key={f.key} className={f.key === 'address' || f.key === 'name' ? 'sm:col-span-2' : ''}>
              <Field label={f.label} required htmlFor={fid} error={error} {...(f.key === 'state' ? { hint: SHIPS_TO_TEXT } : {})}>
                {f.key === 'state' ? (
                  <select
                    id={fid}
                    className={inputCls}
                    autoComplete={f.autoComplete}
                    {...register('address.state')}
                    {...fieldAria(error, `${fid}-error`)}
                  >
                    <option value="">Choose a state</option>
                    {US_STATES.map(([code, name]) => (
                      <option key={code} value={code}>
                        {name}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    id={fid}
                    className={inputCls}
                    autoComplete={f.autoComplete}
                    {...register(`address.${f.key}`)}
                    {...fieldAria(error, `${fid}-error`)}
                  />
                )}
              </Field>
            </div>
          );
        })}
      </div>
      <p className="text-xs text-stone-600">Country: United States (the shop ships within the US only).</p>
      <label htmlFor={`${id}-everywhere`} className="flex items-start gap-2 text-sm text-stone-900">
        <input id={`${id}-everywhere`} type="checkbox" className="mt-0.5 h-4 w-4 shrink-0 accent-brand-600" {...register('everywhere')} />
        Also use it for the customer’s other subscriptions and their account
      </label>
    </ActionForm>
  );
}

function AddExtraForm({ sub, act, onClose, onDone }: Common) {
  const id = useId();
  const [picked, setPicked] = useState<PickedVariant | null>(null);
  const [quantity, setQuantity] = useState('1');
  return (
    <ActionForm
      sub={sub}
      words={{
        note: `It rides with the next delivery only${sub.nextRenewalAt ? ` (${renewalDateText(sub.nextRenewalAt)})` : ''}, at the shop’s price then, without the subscription’s discount.`,
        confirm: 'Add to next delivery',
        pending: 'Adding…',
      }}
      validate={() =>
        picked
          ? problemOf(AddExtraInput.safeParse({ variantId: picked.variantId, quantity: Number(quantity) }))
          : SUBSCRIPTION_MESSAGES.extraUnknown
      }
      run={(notify) => act({ kind: 'add-extra', variantId: picked!.variantId, quantity: Number(quantity) })(notify)}
      onClose={onClose}
      onDone={onDone}
    >
      {picked ? (
        <div
          className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-stone-200 bg-stone-50 px-3 py-2"
          data-testid="extra-picked"
        >
          <span className="min-w-0 text-sm">
            <span className="block break-words font-medium text-stone-900">{picked.name}</span>
            <span className="block text-xs text-stone-700">
              {formatCents(picked.priceCents)} each · {picked.available} in stock
            </span>
          </span>
          <Button size="sm" variant="ghost" onClick={() => setPicked(null)} aria-label={`Choose another product than ${picked.name}`}>
            Choose another
          </Button>
        </div>
      ) : (
        <ExtraVariantPicker id={`${id}-search`} onPick={setPicked} />
      )}
      <Field label="Quantity" htmlFor={`${id}-quantity`}>
        <input
          id={`${id}-quantity`}
          type="number"
          inputMode="numeric"
          min={1}
          max={SUBSCRIPTION_LIMITS.maxQuantity}
          className={`${inputCls} w-28!`}
          value={quantity}
          onChange={(e) => setQuantity(e.target.value)}
        />
      </Field>
    </ActionForm>
  );
}

function SkipItemForm({ sub, act, onClose, onDone, variantId, skip }: Common & { variantId: string; skip: boolean }) {
  const name = sub.items.find((i) => i.variantId === variantId)?.name ?? 'This item';
  const when = sub.nextRenewalAt ? renewalDateText(sub.nextRenewalAt) : 'the next delivery';
  return (
    <ActionForm
      sub={sub}
      words={{
        note: skip
          ? `${name} is left out of the delivery of ${when} only; it comes again with the one after.`
          : `${name} comes with the delivery of ${when} again.`,
        confirm: skip ? 'Leave it out' : 'Bring it back',
        pending: 'Saving…',
      }}
      run={act({ kind: 'skip-item', variantId, skip })}
      onClose={onClose}
      onDone={onDone}
    />
  );
}

function RemoveExtraForm({ sub, act, onClose, onDone, variantId }: Common & { variantId: string }) {
  const extra = sub.extras.find((e) => e.variantId === variantId);
  return (
    <ActionForm
      sub={sub}
      words={{
        note: `${extraName(variantId, sub)}${extra ? ` × ${extra.quantity}` : ''} is taken off the next delivery.`,
        confirm: 'Remove item',
        pending: 'Removing…',
      }}
      run={act({ kind: 'remove-extra', variantId })}
      onClose={onClose}
      onDone={onDone}
    />
  );
}

const TITLES: Record<ActionDialogName['kind'], string> = {
  skip: 'Skip the next delivery?',
  'deliver-now': 'Send the next delivery now?',
  pause: 'Pause this subscription?',
  resume: 'Resume this subscription?',
  change: 'Change this subscription',
  address: 'Change the delivery address',
  'add-extra': 'Add a one-time item',
  'skip-item': 'Leave an item out of the next delivery?',
  'remove-extra': 'Remove the one-time item?',
};

/** The open action's dialog (or none), over the subscription's detail. */
export function ActionDialogs({
  sub,
  open,
  onClose,
  onDone,
}: {
  sub: AdminSubscriptionDetail;
  open: ActionDialogName | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const mutation = useSubscriptionAction(sub.id);
  const act =
    (action: SubscriptionAction): Run =>
    (notifyCustomer) =>
      mutation.mutateAsync({ action, notifyCustomer });
  const common: Common = { sub, act, onClose, onDone };
  const title = !open ? '' : open.kind === 'skip-item' && !open.skip ? 'Bring the item back?' : TITLES[open.kind];
  // The next delivery's date is what Skip and Deliver now name: without one (cancelled meanwhile) they have nothing to act on.
  const needsNext = open && (open.kind === 'skip' || open.kind === 'deliver-now') && !sub.nextRenewalAt;
  return (
    <Dialog open={open !== null} onClose={onClose} title={title} className="sm:max-w-lg">
      {open && needsNext && <p className="text-sm text-stone-800">{SUBSCRIPTION_MESSAGES.notRenewing}</p>}
      {open && !needsNext && (
        <>
          <p className="mb-3 break-words text-sm font-medium text-stone-900">
            {sub.items.map((i) => `${i.name} × ${i.quantity}`).join(', ')} · {sub.terms}
          </p>
          {open.kind === 'skip' && <SkipForm {...common} />}
          {open.kind === 'deliver-now' && <DeliverNowForm {...common} />}
          {open.kind === 'pause' && <PauseForm {...common} />}
          {open.kind === 'resume' && <ResumeForm {...common} />}
          {open.kind === 'change' && <ChangeForm {...common} />}
          {open.kind === 'address' && <AddressForm {...common} />}
          {open.kind === 'add-extra' && <AddExtraForm {...common} />}
          {open.kind === 'skip-item' && <SkipItemForm {...common} variantId={open.variantId} skip={open.skip} />}
          {open.kind === 'remove-extra' && <RemoveExtraForm {...common} variantId={open.variantId} />}
        </>
      )}
    </Dialog>
  );
}
