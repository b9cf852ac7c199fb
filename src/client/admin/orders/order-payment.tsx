import '../../lib/zod-config.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { refundForm } from '../../../shared/schemas/admin/order-money.js';
import { formatCents } from '../../../shared/money.js';
import type { RefundInput } from '../../../shared/schemas/admin/order-money.js';
import type { OrderStockLine } from '../../../shared/schemas/inventory.js';
import { OrderView, RefundView, type OrderPaymentStatus } from '../../../shared/schemas/orders.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { adminSend, logUnexpected, messageOf } from '../api/admin-api.js';
import { useOrderStockLines } from '../api/get-order-stock-lines.js';
import { formatDateTime } from '../../lib/format.js';
import { centsToText, DollarInput, Field, fieldAria, inputCls, ListState } from '../components/admin-ui.js';
import { useInvalidateStock } from './order-api.js';
import { returnByVariant } from './variant-line-forms.js';
import { CorrectPaymentMethod, OwnerPaymentActions } from './owner-payment-actions.js';
import { isRecordedPaymentMethod, PAYMENT_METHOD_NAMES } from '../../../shared/schemas/owner-orders.js';
import { paidHow } from '../../../shared/payment-provider.js';
import { defaultReturnLines, ReturnLinesField } from './return-lines-field.js';

const PAYMENT_LABELS: Record<OrderPaymentStatus, string> = {
  paid: 'Paid',
  unpaid: 'Unpaid',
  failed: 'Payment failed',
  expired: 'Checkout ended unpaid',
  refunded: 'Refunded',
  partially_refunded: 'Partially refunded',
};
const PAYMENT_STYLES: Record<OrderPaymentStatus, string> = {
  paid: 'bg-green-100 text-green-900',
  unpaid: 'bg-amber-100 text-amber-900',
  failed: 'bg-red-100 text-red-900',
  expired: 'bg-stone-200 text-stone-800',
  refunded: 'bg-stone-200 text-stone-900',
  partially_refunded: 'bg-sky-100 text-sky-900',
};

/** The order's payment state as a badge; an owner-entered order has no payment provider. */
export function PaymentBadge({ status, ownerEntered = false }: { status: OrderPaymentStatus; ownerEntered?: boolean }) {
  const label = ownerEntered && status === 'unpaid' ? 'Entered by shop' : PAYMENT_LABELS[status];
  return (
    <span className={`inline-flex shrink-0 whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ${PAYMENT_STYLES[status]}`}>
      {label}
    </span>
  );
}

/** How the money was taken, as the payment line says it. */
function paidBy(provider: string): string {
  // In words (shared/payment-provider.ts): "by card (test mode)", "in cash".
  const how = paidHow(provider) ?? `by ${provider}`;
  if (provider === 'stripe') return `${how} through Stripe`;
  return isRecordedPaymentMethod(provider) ? `${how} (recorded by the shop)` : how;
}

/** Where a refund goes: back through the provider, or recorded for money the owner hands back. */
function providerText(provider: string | null): string {
  if (provider === 'stripe') return 'Stripe';
  if (provider === 'test') return 'the test payment provider';
  return `a refund recorded by the shop (you hand back the ${PAYMENT_METHOD_NAMES[provider ?? ''] ?? 'money'} payment yourself)`;
}

const RefundResponse = z.object({ refund: RefundView, order: OrderView });

function useRefundOrder(orderId: string) {
  const qc = useQueryClient();
  const invalidateStock = useInvalidateStock();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (body: RefundInput) => adminSend('POST', `/api/admin/orders/${encodeURIComponent(orderId)}/refunds`, RefundResponse, body),
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: ['admin', 'orders'] }), invalidateStock()]),
  });
}

/** A refund the provider never answered: asked again under the same idempotency key, so it is made at most once. */
function RetryRefund({ orderId, refundId }: { orderId: string; refundId: string }) {
  const qc = useQueryClient();
  const invalidateStock = useInvalidateStock();
  // The toasts sit on the mutation itself: once settled the refund is no longer pending and this
  // button unmounts before a per-call callback would run.
  const retry = useMutation({
    mutationFn: () =>
      adminSend(
        'POST',
        `/api/admin/orders/${encodeURIComponent(orderId)}/refunds/${encodeURIComponent(refundId)}/retry`,
        RefundResponse,
        {},
      ),
    onSuccess: ({ refund }) =>
      toast({ title: 'Refund settled', description: `${formatCents(refund.amountCents)} refunded; the customer has been e-mailed.` }),
    onError: (err) => {
      logUnexpected(err);
      toast({ title: 'Refund still pending', description: messageOf(err), variant: 'destructive' });
    },
    // A settled refund returns the units chosen with it.
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: ['admin', 'orders'] }), invalidateStock()]),
  });
  return (
    <Button variant="outline" size="sm" disabled={retry.isPending} onClick={() => retry.mutate()}>
      {retry.isPending ? 'Retrying…' : 'Retry refund'}
    </Button>
  );
}

const units = (n: number) => `${n} ${n === 1 ? 'unit' : 'units'}`;

/** The refund: how much, why, and which units go back to stock with it (the order's lines from /stock-lines). */
function RefundForm({ order, lines, onClose }: { order: OrderView; lines: OrderStockLine[]; onClose: () => void }) {
  const left = order.totalCents - (order.refundedCents ?? 0);
  // The server's rule (orders/service.ts), sent with every admin view of an order.
  const shipped = order.hasShipped ?? false;
  // Each line's units go back to its own variant (an order may hold two variants of one product).
  const [schema] = useState(() => returnByVariant(lines, (keyed) => refundForm(left, keyed)));
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(schema),
    defaultValues: { amountCents: centsToText(left), reason: '', returnLines: defaultReturnLines(lines, shipped) },
  });
  const error = errors.amountCents?.message;
  const refund = useRefundOrder(order.id);
  // Money goes out only after the owner has seen the amount as the shop read it ("Refund $10.56?").
  const [confirming, setConfirming] = useState<RefundInput | null>(null);
  const focusConfirm = useCallback((el: HTMLDivElement | null) => el?.querySelector<HTMLButtonElement>('[data-confirm]')?.focus(), []);
  const unitsBack = (confirming?.returnLines ?? []).reduce((n, l) => n + l.quantity, 0);
  const provider = providerText(order.paymentProvider);
  const send = (body: RefundInput) =>
    refund.mutate(body, {
      onSuccess: () => {
        const back = (body.returnLines ?? []).reduce((n, l) => n + l.quantity, 0);
        toast({
          title: 'Refund sent',
          description: `${formatCents(body.amountCents)} refunded; the customer has been e-mailed.${back > 0 ? ` ${units(back)} returned to stock.` : ''}`,
        });
        onClose();
      },
      // The server's refusal shows where it belongs: at the line it names ("Cloth: only 2 …"),
      // else at the amount (more than is left, the provider's answer).
      onError: (err) => {
        setConfirming(null);
        const message = messageOf(err);
        const line = lines.findIndex((l) => message.startsWith(`${l.name}:`));
        if (line >= 0) setError(`returnLines.${line}.quantity`, { message });
        else setError('amountCents', { message });
      },
    });
  return (
    <form className="flex flex-col gap-4" onSubmit={(e) => void handleSubmit((body) => setConfirming(body))(e)} noValidate>
      <p className="text-sm text-stone-700">
        Paid {formatCents(order.totalCents)}
        {(order.refundedCents ?? 0) > 0 && <>, refunded {formatCents(order.refundedCents ?? 0)}</>}. The refund goes back through {provider}
        .
      </p>
      <fieldset disabled={confirming !== null} className="flex flex-col gap-4">
        <Field label="Amount ($)" htmlFor="refund-amount" required error={error} hint={`Up to ${formatCents(left)}`}>
          <DollarInput id="refund-amount" min="0.01" {...register('amountCents')} {...fieldAria(error, 'refund-amount-error')} />
        </Field>
        <Field label="Reason (for the order's history)" htmlFor="refund-reason">
          <input id="refund-reason" className={inputCls} maxLength={500} {...register('reason')} />
        </Field>
        <ReturnLinesField
          idPrefix="refund"
          lines={lines}
          shipped={shipped}
          field={(i) => register(`returnLines.${i}.quantity`)}
          errorOf={(i) => errors.returnLines?.[i]?.quantity?.message}
        />
      </fieldset>
      {confirming ? (
        <div
          className="flex flex-col gap-3 rounded-md border border-red-200 bg-red-50 p-3"
          role="group"
          aria-label="Confirm the refund"
          // The question takes the focus from the button that asked it (now gone).
          ref={focusConfirm}
        >
          <p className="text-sm text-red-950">
            Send <strong>{formatCents(confirming.amountCents)}</strong> back to the customer through {provider}? This cannot be undone, and
            the customer is e-mailed.{unitsBack > 0 ? ` Back to stock: ${units(unitsBack)}.` : ''}
          </p>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="ghost" onClick={() => setConfirming(null)} disabled={refund.isPending}>
              Back
            </Button>
            <Button variant="destructive" onClick={() => send(confirming)} disabled={refund.isPending} data-confirm>
              {refund.isPending ? 'Refunding…' : `Refund ${formatCents(confirming.amountCents)}`}
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap justify-end gap-2 border-t border-stone-200 pt-4">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="destructive">
            Refund
          </Button>
        </div>
      )}
    </form>
  );
}

function RefundDialog({ order, open, onClose }: { order: OrderView; open: boolean; onClose: () => void }) {
  const lines = useOrderStockLines(order.id);
  return (
    <Dialog open={open} onClose={onClose} title={`Refund order ${order.orderNumber}`}>
      <ListState
        isPending={lines.isPending}
        error={lines.error && !lines.data ? lines.error : null}
        onRetry={() => void lines.refetch()}
        loadingLabel="Loading the order's lines"
      >
        {/* The lines as they were when the dialog opened: a refetch after the refund does not reset the form. */}
        {lines.data && <RefundForm order={order} lines={lines.data} onClose={onClose} />}
      </ListState>
    </Dialog>
  );
}

/** The order detail's payment: state, paid, refunded and net, each refund, and the Refund action. */
export function OrderPayment({ order }: { order: OrderView }) {
  const [open, setOpen] = useState(false);
  const refunded = order.refundedCents ?? 0;
  const refundable = order.paymentProvider !== null && order.paidAt !== null && order.totalCents - refunded > 0;
  const refunds = order.refunds ?? [];
  return (
    <section aria-labelledby="order-payment-title" className="rounded-lg border border-stone-200 p-4">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h3 id="order-payment-title" className="flex flex-wrap items-center gap-2 font-semibold text-stone-900">
          Payment status <PaymentBadge status={order.paymentStatus} ownerEntered={order.origin === 'owner'} />
        </h3>
        <div className="flex flex-wrap gap-2">
          <CorrectPaymentMethod order={order} />
          {refundable && (
            <Button variant="outline" onClick={() => setOpen(true)}>
              Refund
            </Button>
          )}
        </div>
      </div>
      <p className="text-sm text-stone-700">
        {order.origin === 'owner' && order.paidAt === null
          ? 'Entered by the shop and not paid yet: record the payment you took, or send the customer a link to pay by card.'
          : order.paidAt && order.paymentProvider
            ? `${formatCents(order.totalCents)} paid ${formatDateTime(order.paidAt)} ${paidBy(order.paymentProvider)}${refunded > 0 ? `; ${formatCents(refunded)} refunded` : ''}.`
            : 'Not paid: nothing to refund.'}
      </p>
      <OwnerPaymentActions order={order} />
      {refunds.length > 0 && (
        <ul className="mt-3 flex flex-col gap-1 border-t border-stone-200 pt-3 text-sm" aria-label="Refunds">
          {refunds.map((r) => (
            <li key={r.id} className="flex flex-wrap gap-x-2 text-stone-800">
              <span className="tabular-nums font-medium">{formatCents(r.amountCents)}</span>
              <span className={r.status === 'failed' ? 'text-red-700' : 'text-stone-600'}>
                {r.status === 'succeeded' ? 'refunded' : r.status}
              </span>
              <span className="text-stone-600">
                {formatDateTime(r.createdAt)} by {r.actor}
              </span>
              {r.reason && <span className="text-stone-700">“{r.reason}”</span>}
              {r.error && <span className="w-full text-red-700">{r.error}</span>}
              {r.status === 'pending' && <RetryRefund orderId={order.id} refundId={r.id} />}
            </li>
          ))}
        </ul>
      )}
      {open && <RefundDialog order={order} open={open} onClose={() => setOpen(false)} />}
    </section>
  );
}
