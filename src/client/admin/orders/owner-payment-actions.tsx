import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { formatCents } from '../../../shared/money.js';
import { OrderView } from '../../../shared/schemas/orders.js';
import {
  PAYMENT_METHOD_NAMES,
  PaymentLinkView,
  RECORDED_PAYMENT_METHODS,
  RecordPaymentInput,
  type RecordedPaymentMethod,
} from '../../../shared/schemas/owner-orders.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { formatDateTime } from '../../lib/format.js';
import { adminSend, logUnexpected, messageOf } from '../api/admin-api.js';
import { Field, fieldAria, inputCls } from '../components/admin-ui.js';

const PaidResponse = z.object({ order: OrderView });
const LinkResponse = z.object({ link: PaymentLinkView, order: OrderView });

function useOrderAction<T>(orderId: string, path: string, response: z.ZodType<T>) {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (body: object) => adminSend('POST', `/api/admin/orders/${encodeURIComponent(orderId)}/${path}`, response, body),
    onSettled: () => qc.invalidateQueries({ queryKey: ['admin', 'orders'] }),
  });
}

function RecordPaymentDialog({ order, onClose }: { order: OrderView; onClose: () => void }) {
  const record = useOrderAction(order.id, 'payments', PaidResponse);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(RecordPaymentInput),
    defaultValues: { method: 'cash' as RecordedPaymentMethod, note: '' },
  });
  // The promise, not per-call callbacks: once paid, the order's refetch unmounts this dialog first.
  const submit = handleSubmit(async (body) => {
    try {
      await record.mutateAsync(body);
    } catch (err) {
      setError('method', { message: messageOf(err) });
      return;
    }
    toast({
      title: 'Payment recorded',
      description: `${formatCents(order.totalCents)} paid by ${PAYMENT_METHOD_NAMES[body.method]}.${order.email ? ` The confirmation has been e-mailed to ${order.email}.` : ''}`,
    });
    onClose();
  });
  return (
    <Dialog open onClose={onClose} title={`Record the payment of ${formatCents(order.totalCents)}`}>
      <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)} noValidate>
        <p className="text-sm text-stone-700">
          For money you took yourself. The order becomes paid and counts as money received
          {order.email ? `; ${order.email} gets the order confirmation` : ''}.
        </p>
        <fieldset className="flex flex-col gap-2" aria-describedby={errors.method ? 'pay-method-error' : undefined}>
          <legend className="text-sm font-medium text-stone-900">
            Paid by <span className="text-red-700">*</span>
          </legend>
          {RECORDED_PAYMENT_METHODS.map((m) => (
            <label key={m} className="flex items-center gap-2 text-sm text-stone-900">
              <input type="radio" value={m} className="h-4 w-4 accent-brand-600" {...register('method')} />
              {PAYMENT_METHOD_NAMES[m]!.charAt(0).toUpperCase() + PAYMENT_METHOD_NAMES[m]!.slice(1)}
            </label>
          ))}
          {errors.method?.message && (
            <p id="pay-method-error" className="text-sm text-red-700">
              {errors.method.message}
            </p>
          )}
        </fieldset>
        <Field label="Note (for the order's history)" htmlFor="pay-note" error={errors.note?.message}>
          <input
            id="pay-note"
            className={inputCls}
            maxLength={500}
            {...register('note')}
            {...fieldAria(errors.note?.message, 'pay-note-error')}
          />
        </Field>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="ghost" onClick={onClose} disabled={record.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={record.isPending}>
            {record.isPending ? 'Recording…' : 'Record payment'}
          </Button>
        </div>
      </form>
    </Dialog>
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
