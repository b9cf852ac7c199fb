import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { cancelWithRefundForm } from '../../../shared/schemas/admin/order-money.js';
import { formatCents } from '../../../shared/money.js';
import type { OrderStockLine, ReturnLine } from '../../../shared/schemas/inventory.js';
import type { OrderView } from '../../../shared/schemas/orders.js';
import { PAYMENT_METHOD_NAMES } from '../../../shared/schemas/owner-orders.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { useOrderStockLines } from '../api/get-order-stock-lines.js';
import { centsToText, DollarInput, Field, fieldAria, inputCls, ListState } from '../components/admin-ui.js';
import { useAdminOrder } from './order-api.js';
import { NotifyCustomer, whoHears } from './notify-customer.js';
import { defaultReturnLines, ReturnLinesField } from './return-lines-field.js';
import { returnByVariant } from './variant-line-forms.js';

/** The refund sent with a cancel (PATCH …/status `refund`). */
export type CancelRefundBody = { amountCents: number; reason?: string | undefined };

type CancelProps = {
  /** Who is e-mailed about the change, when known. */
  email?: string | null | undefined;
  busy: boolean;
  onConfirm: (returnLines: ReturnLine[], notify: boolean, refund?: CancelRefundBody) => void;
  onClose: () => void;
};

/** Where a refund of this order goes, as the owner should read it. */
function refundRoute(provider: string | null): string {
  if (provider === 'stripe') return 'back to the card through Stripe';
  if (provider === 'test') return 'back to the card through the test payment provider';
  return `recorded as given back (paid by ${PAYMENT_METHOD_NAMES[provider ?? ''] ?? 'hand'}: hand the money back yourself)`;
}

function CancelForm({ lines, order, email, busy, onConfirm, onClose }: CancelProps & { lines: OrderStockLine[]; order: OrderView }) {
  // The server's rule (orders/service.ts), sent with every admin view of an order.
  const shipped = order.hasShipped ?? false;
  const left = order.totalCents - (order.refundedCents ?? 0);
  // A payment that can still be refunded: the dialog offers it with the cancel (one step).
  const refundable = order.paymentProvider !== null && order.paidAt !== null && left > 0;
  // Each line's units go back to its own variant (an order may hold two variants of one product).
  const [schema] = useState(() => returnByVariant(lines, (keyed) => cancelWithRefundForm(keyed, left)));
  const {
    register,
    handleSubmit,
    control,
    setValue,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(schema),
    defaultValues: {
      returnLines: defaultReturnLines(lines, shipped),
      notify: true,
      refunding: refundable,
      refund: { amountCents: centsToText(left), reason: '' },
    },
  });
  const notify = useWatch({ control, name: 'notify' });
  const refunding = useWatch({ control, name: 'refunding' });
  const [confirming, setConfirming] = useState<{ returnLines: ReturnLine[]; refund: CancelRefundBody } | null>(null);
  const focusConfirm = useCallback((el: HTMLDivElement | null) => el?.querySelector<HTMLButtonElement>('[data-confirm]')?.focus(), []);
  const amountError = errors.refund?.amountCents?.message;
  const send = (returnLines: ReturnLine[], refund?: CancelRefundBody) => onConfirm(returnLines, notify, refund);
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(e) =>
        void handleSubmit((body) => {
          // Money goes out only after the owner has seen the amount as the shop read it.
          if (body.refund) setConfirming({ returnLines: body.returnLines ?? [], refund: body.refund });
          else send(body.returnLines ?? []);
        })(e)
      }
      noValidate
    >
      <p className="text-stone-800">{whoHears('cancelled', email, notify)}</p>
      <fieldset disabled={confirming !== null} className="flex min-w-0 flex-col gap-4">
        {refundable ? (
          <fieldset className="flex min-w-0 flex-col gap-3 rounded-md border border-stone-200 p-3">
            <legend className="px-1 text-sm font-medium text-stone-900">Refund</legend>
            <div className="flex items-start gap-2">
              <input
                id="cancel-refunding"
                type="checkbox"
                className="mt-0.5 h-4 w-4 shrink-0 accent-brand-600"
                {...register('refunding')}
              />
              <label htmlFor="cancel-refunding" className="text-sm text-stone-900">
                Refund the customer with the cancel: {formatCents(left)} left of the {formatCents(order.totalCents)} paid,{' '}
                {refundRoute(order.paymentProvider)}.
              </label>
            </div>
            {refunding && (
              <div className="grid gap-3 sm:grid-cols-2">
                <Field
                  label="Refund amount ($)"
                  htmlFor="cancel-refund-amount"
                  required
                  error={amountError}
                  hint={`Up to ${formatCents(left)}`}
                >
                  <DollarInput
                    id="cancel-refund-amount"
                    min="0.01"
                    {...register('refund.amountCents')}
                    {...fieldAria(amountError, 'cancel-refund-amount-error')}
                  />
                </Field>
                <Field label="Reason (for the order's history)" htmlFor="cancel-refund-reason" error={errors.refund?.reason?.message}>
                  <input id="cancel-refund-reason" className={inputCls} maxLength={500} {...register('refund.reason')} />
                </Field>
              </div>
            )}
            {!refunding && <p className="text-xs text-stone-600">No refund: the cancellation e-mail says the payment was not refunded.</p>}
          </fieldset>
        ) : (
          order.paidAt !== null &&
          left <= 0 && <p className="text-sm text-stone-700">This order was refunded in full already: the cancellation e-mail says so.</p>
        )}
        <ReturnLinesField
          idPrefix="cancel"
          lines={lines}
          shipped={shipped}
          field={(i) => register(`returnLines.${i}.quantity`)}
          errorOf={(i) => errors.returnLines?.[i]?.quantity?.message}
        />
        <NotifyCustomer id="cancel-notify" email={email} checked={notify} onChange={(v) => setValue('notify', v)} />
      </fieldset>
      {confirming ? (
        <div
          className="flex flex-col gap-3 rounded-md border border-red-200 bg-red-50 p-3"
          role="group"
          aria-label="Confirm the refund"
          ref={focusConfirm}
        >
          <p className="text-sm text-red-950">
            Cancel the order and send <strong>{formatCents(confirming.refund.amountCents)}</strong> {refundRoute(order.paymentProvider)}?
            This cannot be undone.
          </p>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="ghost" onClick={() => setConfirming(null)} disabled={busy}>
              Back
            </Button>
            <Button variant="destructive" onClick={() => send(confirming.returnLines, confirming.refund)} disabled={busy} data-confirm>
              {busy ? 'Cancelling…' : `Cancel and refund ${formatCents(confirming.refund.amountCents)}`}
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Changing…' : refunding ? 'Cancel and refund…' : notify && email ? 'Change and e-mail' : 'Change without e-mail'}
          </Button>
        </div>
      )}
    </form>
  );
}

/**
 * Cancelling an order that took its units from stock, in one dialog and one request: the order's
 * lines and how many units of each go back (every unit still out of an order not shipped, none of a
 * shipped one, unless the owner changes it), the refund of a paid order (offered, its amount
 * confirmed before it goes), and whether the customer is e-mailed.
 */
export function CancelOrderDialog({ orderId, ...props }: CancelProps & { orderId: string }) {
  const lines = useOrderStockLines(orderId);
  // The list's row does not say whether the parcel left nor what was paid: the order itself does.
  const order = useAdminOrder(orderId);
  const error = (lines.error && !lines.data ? lines.error : null) ?? (order.error && !order.data ? order.error : null);
  return (
    <Dialog open onClose={props.onClose} title="Change the order's status?">
      <ListState
        isPending={lines.isPending || order.isPending}
        error={error}
        onRetry={() => void Promise.all([lines.refetch(), order.refetch()])}
        loadingLabel="Loading the order's lines"
      >
        {lines.data && order.data && <CancelForm lines={lines.data} order={order.data.order} {...props} />}
      </ListState>
    </Dialog>
  );
}
