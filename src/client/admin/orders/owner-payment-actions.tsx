import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type ReactNode } from 'react';
import { useForm, type UseFormRegister } from 'react-hook-form';
import { z } from 'zod';
import { formatCents } from '../../../shared/money.js';
import { OrderView } from '../../../shared/schemas/orders.js';
import {
  CorrectPaymentMethodInput,
  isRecordedPaymentMethod,
  PAYMENT_METHOD_NAMES,
  PaymentLinkView,
  RECORDED_PAYMENT_METHODS,
  RecordPaymentInput,
  type RecordedPaymentMethod,
} from '../../../shared/schemas/owner-orders.js';
import { paidHow } from '../../../shared/payment-provider.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { formatDateTime } from '../../lib/format.js';
import { adminSend, logUnexpected, messageOf } from '../api/admin-api.js';
import { Field, fieldAria, inputCls } from '../components/admin-ui.js';

const PaidResponse = z.object({ order: OrderView });
const LinkResponse = z.object({ link: PaymentLinkView, order: OrderView });

function useOrderAction<T>(orderId: string, path: string, response: z.ZodType<T>, method: 'POST' | 'PATCH' = 'POST') {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (body: object) => adminSend(method, `/api/admin/orders/${encodeURIComponent(orderId)}/${path}`, response, body),
    onSettled: () => qc.invalidateQueries({ queryKey: ['admin', 'orders'] }),
  });
}

/** "Cash", "Bank transfer", "Card on the phone": a method as its radio button reads. */
const methodLabel = (m: RecordedPaymentMethod) => PAYMENT_METHOD_NAMES[m]!.charAt(0).toUpperCase() + PAYMENT_METHOD_NAMES[m]!.slice(1);

/**
 * The methods as radio buttons, none chosen until the owner chooses (a pre-chosen "Cash" was
 * recorded by a single click); `current` is shown and cannot be chosen again.
 */
function MethodChoice({
  register,
  error,
  idPrefix,
  current,
  disabled,
}: {
  register: UseFormRegister<z.input<typeof RecordPaymentInput>>;
  error: string | undefined;
  idPrefix: string;
  current?: RecordedPaymentMethod;
  disabled: boolean;
}) {
  return (
    <fieldset
      className="flex flex-col gap-2"
      disabled={disabled}
      aria-describedby={error ? `${idPrefix}-method-error` : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend className="text-sm font-medium text-stone-900">
        {current ? 'Paid by, in fact' : 'Paid by'} <span className="text-red-700">*</span>
      </legend>
      {RECORDED_PAYMENT_METHODS.map((m) => (
        <label key={m} className={`flex items-center gap-2 text-sm ${m === current ? 'text-stone-500' : 'text-stone-900'}`}>
          <input type="radio" value={m} className="h-4 w-4 accent-brand-600" disabled={m === current} {...register('method')} />
          {methodLabel(m)}
          {m === current && <span className="text-xs">(recorded now)</span>}
        </label>
      ))}
      {error && (
        <p id={`${idPrefix}-method-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The question asked before the payment is written: the amount and the method, in words. */
function ConfirmBox({ label, children, actions }: { label: string; children: ReactNode; actions: ReactNode }) {
  // The question takes the focus from the button that asked it (now gone).
  const focus = useCallback((el: HTMLDivElement | null) => el?.querySelector<HTMLButtonElement>('[data-confirm]')?.focus(), []);
  return (
    <div className="flex flex-col gap-3 rounded-md border border-brand-200 bg-brand-50 p-3" role="group" aria-label={label} ref={focus}>
      <p className="text-sm text-stone-900">{children}</p>
      <div className="flex flex-wrap justify-end gap-2">{actions}</div>
    </div>
  );
}

function RecordPaymentDialog({ order, onClose }: { order: OrderView; onClose: () => void }) {
  const record = useOrderAction(order.id, 'payments', PaidResponse);
  const [confirming, setConfirming] = useState<RecordPaymentInput | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(RecordPaymentInput),
    // No method: nothing is chosen for the owner, who says how the money came (the form refuses to go on without it).
    defaultValues: { note: '' },
  });
  // The promise, not per-call callbacks: once paid, the order's refetch unmounts this dialog first.
  const send = async (body: RecordPaymentInput) => {
    try {
      await record.mutateAsync(body);
    } catch (err) {
      setConfirming(null);
      setError('method', { message: messageOf(err) });
      return;
    }
    toast({
      title: 'Payment recorded',
      description: `${formatCents(order.totalCents)} ${paidHow(body.method) ?? ''}.${order.email ? ` The confirmation has been e-mailed to ${order.email}.` : ''}`,
    });
    onClose();
  };
  return (
    <Dialog open onClose={onClose} title={`Record the payment of ${formatCents(order.totalCents)}`}>
      <form className="flex flex-col gap-4" onSubmit={(e) => void handleSubmit((body) => setConfirming(body))(e)} noValidate>
        <p className="text-sm text-stone-700">
          For money you took yourself. The order becomes paid and counts as money received
          {order.email ? `; ${order.email} gets the order confirmation` : ''}.
        </p>
        <MethodChoice register={register} error={errors.method?.message} idPrefix="pay" disabled={confirming !== null} />
        <Field label="Note (for the order's history)" htmlFor="pay-note" error={errors.note?.message}>
          <input
            id="pay-note"
            className={inputCls}
            maxLength={500}
            disabled={confirming !== null}
            {...register('note')}
            {...fieldAria(errors.note?.message, 'pay-note-error')}
          />
        </Field>
        {confirming ? (
          <ConfirmBox
            label="Confirm the payment"
            actions={
              <>
                <Button variant="ghost" onClick={() => setConfirming(null)} disabled={record.isPending}>
                  Back
                </Button>
                <Button onClick={() => void send(confirming)} disabled={record.isPending} data-confirm>
                  {record.isPending ? 'Recording…' : 'Record payment'}
                </Button>
              </>
            }
          >
            Record <strong>{formatCents(order.totalCents)}</strong> paid <strong>{paidHow(confirming.method)}</strong>?
            {order.email ? ` ${order.email} is e-mailed the order confirmation.` : ''}
          </ConfirmBox>
        ) : (
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">Continue</Button>
          </div>
        )}
      </form>
    </Dialog>
  );
}

function CorrectMethodDialog({ order, current, onClose }: { order: OrderView; current: RecordedPaymentMethod; onClose: () => void }) {
  const correct = useOrderAction(order.id, 'payments', PaidResponse, 'PATCH');
  const [confirming, setConfirming] = useState<CorrectPaymentMethodInput | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(CorrectPaymentMethodInput),
    defaultValues: { note: '' },
  });
  const send = async (body: CorrectPaymentMethodInput) => {
    try {
      await correct.mutateAsync(body);
    } catch (err) {
      setConfirming(null);
      setError('method', { message: messageOf(err) });
      return;
    }
    toast({
      title: 'Payment method corrected',
      description: `${formatCents(order.totalCents)} now reads as paid ${paidHow(body.method) ?? ''}.`,
    });
    onClose();
  };
  return (
    <Dialog open onClose={onClose} title="Correct the payment method">
      <form className="flex flex-col gap-4" onSubmit={(e) => void handleSubmit((body) => setConfirming(body))(e)} noValidate>
        <p className="text-sm text-stone-700">
          Recorded as {formatCents(order.totalCents)} paid {paidHow(current)}. Only the method changes: the amount and the day stay, and the
          change is kept in the order&apos;s history and the audit log.
        </p>
        <MethodChoice register={register} error={errors.method?.message} idPrefix="fix" current={current} disabled={confirming !== null} />
        <Field label="Why (for the order's history)" htmlFor="fix-note" error={errors.note?.message}>
          <input
            id="fix-note"
            className={inputCls}
            maxLength={500}
            disabled={confirming !== null}
            {...register('note')}
            {...fieldAria(errors.note?.message, 'fix-note-error')}
          />
        </Field>
        {confirming ? (
          <ConfirmBox
            label="Confirm the correction"
            actions={
              <>
                <Button variant="ghost" onClick={() => setConfirming(null)} disabled={correct.isPending}>
                  Back
                </Button>
                <Button onClick={() => void send(confirming)} disabled={correct.isPending} data-confirm>
                  {correct.isPending ? 'Saving…' : 'Correct method'}
                </Button>
              </>
            }
          >
            Change <strong>{formatCents(order.totalCents)}</strong> from paid {paidHow(current)} to paid{' '}
            <strong>{paidHow(confirming.method)}</strong>?
          </ConfirmBox>
        ) : (
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">Continue</Button>
          </div>
        )}
      </form>
    </Dialog>
  );
}

/**
 * A payment the owner recorded by hand: its method may be corrected (cash that was a bank
 * transfer). A card payment a provider took is the provider's record and offers nothing here.
 */
export function CorrectPaymentMethod({ order }: { order: OrderView }) {
  const [open, setOpen] = useState(false);
  const current = order.paymentProvider;
  if (!isRecordedPaymentMethod(current) || order.paidAt === null) return null;
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        Correct method
      </Button>
      {open && <CorrectMethodDialog order={order} current={current} onClose={() => setOpen(false)} />}
    </>
  );
}

function PaymentLinkDialog({ order, onClose }: { order: OrderView; onClose: () => void }) {
  const send = useOrderAction(order.id, 'payment-link', LinkResponse);
  const again = order.paymentLink != null;
  return (
    <Dialog open onClose={onClose} title="Send a payment link?">
      <div className="flex flex-col gap-4">
        <p className="text-stone-800">
          {order.email
            ? `${order.email} will be e-mailed a link to pay ${formatCents(order.totalCents)} by card. It works for 23 hours, once.`
            : 'This order has no e-mail address: add the customer or an e-mail in Edit first.'}
          {again && order.email ? ' The link sent before stops working.' : ''}
        </p>
        {send.isError && (
          <p role="alert" className="text-sm text-red-700">
            {messageOf(send.error)}
          </p>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="ghost" onClick={onClose} disabled={send.isPending}>
            Cancel
          </Button>
          <Button
            disabled={send.isPending || !order.email}
            onClick={() =>
              void send.mutateAsync({}).then(
                ({ link }) => {
                  toast({
                    title: 'Payment link sent',
                    description: `${link.sentTo} can pay ${formatCents(link.amountCents)} until ${formatDateTime(link.expiresAt)}.`,
                  });
                  onClose();
                },
                // Said in the dialog (send.isError).
                () => undefined,
              )
            }
          >
            {send.isPending ? 'Sending…' : again ? 'Send a new link' : 'Send link'}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

/**
 * An order the owner typed in and not paid yet: record the payment they took, or e-mail the
 * customer a link to the card page (orders/owner-payments.ts on the server).
 */
export function OwnerPaymentActions({ order }: { order: OrderView }) {
  const [open, setOpen] = useState<'record' | 'link' | null>(null);
  if (order.paymentProvider !== null || order.paidAt !== null || order.status === 'cancelled') return null;
  return (
    <div className="mt-3 flex flex-col gap-2 border-t border-stone-200 pt-3">
      {order.paymentLink && (
        <p className="text-sm text-stone-700" data-testid="payment-link-state">
          A payment link for {formatCents(order.paymentLink.amountCents)} is open until {formatDateTime(order.paymentLink.expiresAt)}.
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => setOpen('record')}>
          Record payment
        </Button>
        <Button variant="outline" onClick={() => setOpen('link')} disabled={order.totalCents <= 0}>
          {order.paymentLink ? 'Send a new payment link' : 'Send payment link'}
        </Button>
      </div>
      {open === 'record' && <RecordPaymentDialog order={order} onClose={() => setOpen(null)} />}
      {open === 'link' && <PaymentLinkDialog order={order} onClose={() => setOpen(null)} />}
    </div>
  );
}
