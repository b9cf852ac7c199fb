import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { formatCents } from '../../../shared/money.js';
import { OrderNoteInput } from '../../../shared/schemas/admin/orders.js';
import type { OrderEventView } from '../../../shared/schemas/orders.js';
import { Button } from '../../ui/button.js';
import { FieldError } from '../../ui/form-controls.js';
import { toast } from '../../ui/toast.js';
import { messageOf } from '../api/admin-api.js';
import { formatDateTime } from '../../lib/format.js';
import { fieldAria, inputCls, ListState } from '../components/admin-ui.js';
import { useAddOrderNote, useOrderEvents } from './order-api.js';
import { carrierName } from '../../../shared/carriers.js';
import { paidHow } from '../../../shared/payment-provider.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');
const money = (v: unknown): string => (typeof v === 'number' ? formatCents(v) : '');

/** A changed field's value as the owner reads it: cents as money, nothing as "—". */
function shown(field: string, v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  if (field.endsWith('Cents') && typeof v === 'number') return formatCents(v);
  return str(v).replace(/\n/g, ', ');
}

const FIELD_NAMES: Record<string, string> = {
  customer: 'Customer',
  email: 'E-mail',
  shippingAddress: 'Shipping address',
  totalCents: 'Total',
  subtotalCents: 'Subtotal',
  taxCents: 'Tax',
  shippingCents: 'Shipping',
  discountCents: 'Discount',
};

/** A stock event's units, "2 × Cloth" each (returned on a refund or cancel, taken again on reopening). */
function unitLines(units: unknown): string[] {
  if (!Array.isArray(units)) return [];
  return units.flatMap((u: unknown) =>
    u && typeof u === 'object' && 'quantity' in u && 'name' in u ? [`${str(u.quantity)} × ${str(u.name)}`] : [],
  );
}

/** "USPS " before a tracking number when the event names its carrier. */
function carrierPrefix(code: unknown): string {
  const name = typeof code === 'string' ? carrierName(code) : null;
  return name ? `${name} ` : '';
}

/** What happened, in the owner's words. */
function describe(e: OrderEventView): { title: string; lines: string[] } {
  const d = e.data;
  switch (e.type) {
    case 'placed':
      return {
        title: d.enteredByOwner ? 'Order entered by the owner' : 'Order placed',
        lines: d.totalCents !== undefined ? [`Total ${money(d.totalCents)}`] : [],
      };
    case 'paid': {
      // How, in words (shared/payment-provider.ts): the method the owner recorded, else the provider's code.
      const how = paidHow(str(d.method) || str(d.provider));
      return {
        title: `Paid ${money(d.amountCents)}${how ? ` ${how}` : ''}`,
        lines: [
          d.method ? 'Recorded by the shop' : '',
          d.paymentLink ? 'Through the payment link the shop e-mailed' : '',
          d.note ? str(d.note) : '',
          d.stockShortfall ? `Short: ${str(d.stockShortfall)}` : '',
        ].filter(Boolean),
      };
    }
    case 'payment.method_corrected':
      return {
        title: 'Payment method corrected',
        lines: [
          `${money(d.amountCents)} was recorded as paid ${paidHow(str(d.from)) ?? str(d.from)}; it was paid ${paidHow(str(d.to)) ?? str(d.to)}`,
          d.note ? str(d.note) : '',
        ].filter(Boolean),
      };
    case 'payment.link_sent':
      return {
        title: `Payment link sent for ${money(d.amountCents)}`,
        lines: [`To ${str(d.to)}`, d.expiresAt ? `Works until ${formatDateTime(str(d.expiresAt))}` : ''].filter(Boolean),
      };
    case 'points.earned':
      return { title: `${str(d.points)} loyalty points earned`, lines: [] };
    case 'points.reversed':
      return {
        title: `${str(d.points)} loyalty points taken back`,
        lines: [d.cause === 'refunded' ? 'Refunded in full' : 'Order cancelled'],
      };
    case 'coupon.released':
      return {
        title: `Coupon use given back${d.code ? `: ${str(d.code)}` : ''}`,
        lines: [d.cause === 'refunded' ? 'Refunded in full: the code may be used again' : 'Order cancelled: the code may be used again'],
      };
    case 'email.queued':
      return { title: 'E-mail queued', lines: [`“${str(d.subject)}” to ${str(d.to)}`] };
    case 'email.sent':
      return { title: 'E-mail sent', lines: [`“${str(d.subject)}” to ${str(d.to)}`] };
    case 'status.changed':
      return {
        title: `Status ${str(d.from)} → ${str(d.to)}`,
        lines: [
          d.cause ? str(d.cause) : '',
          d.to === 'shipped' && d.trackingNumber ? `Tracking ${carrierPrefix(d.carrierCode)}${str(d.trackingNumber)}` : '',
        ].filter(Boolean),
      };
    case 'edited': {
      const changes = (d.changes ?? {}) as Record<string, { from: unknown; to: unknown }>;
      return {
        title: 'Order edited',
        lines: Object.entries(changes).map(([k, c]) => `${FIELD_NAMES[k] ?? k}: ${shown(k, c.from)} → ${shown(k, c.to)}`),
      };
    }
    case 'label.bought':
      return {
        title: 'Shipping label bought',
        lines: [d.trackingNumber ? `Tracking ${carrierPrefix(d.carrierCode)}${str(d.trackingNumber)}` : 'No tracking number'],
      };
    case 'label.voided':
      return {
        title: 'Shipping label voided',
        lines: d.trackingNumber ? [`Tracking ${carrierPrefix(d.carrierCode)}${str(d.trackingNumber)}`] : [],
      };
    case 'note':
      return { title: 'Note', lines: [str(d.text)] };
    case 'viewed.impersonated':
      return { title: 'Viewed while acting as the customer', lines: d.asEmail ? [str(d.asEmail)] : [] };
    case 'refunded':
      return { title: `Refunded ${money(d.amountCents)}`, lines: d.reason ? [str(d.reason)] : [] };
    case 'cancelled':
      return { title: 'Order cancelled', lines: [] };
    case 'restocked':
      return { title: 'Units returned to stock', lines: unitLines(d.units) };
    case 'stock.taken':
      return { title: 'Units taken from stock again', lines: unitLines(d.units) };
    case 'payment.stray':
      return { title: `Payment of ${money(d.amountCents)} not taken for this order`, lines: [str(d.text)] };
    case 'payment.stray_refunded':
      return {
        title: `Refunded ${money(d.amountCents)} of a payment not taken`,
        lines: [d.providerRefundId ? `Refund ${str(d.providerRefundId)}` : ''].filter(Boolean),
      };
    case 'payment.stray_refund_failed':
      return { title: `Refund of ${money(d.amountCents)} failed`, lines: [str(d.error)] };
    case 'payment.stray_settled':
      return { title: `Payment of ${money(d.amountCents)} not taken: settled by hand`, lines: [str(d.note)] };
    default:
      return { title: e.type, lines: [] };
  }
}

function NoteForm({ orderId }: { orderId: string }) {
  const add = useAddOrderNote(orderId);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({ resolver: zodResolver(OrderNoteInput), defaultValues: { text: '' } });
  const id = `note-${orderId}`;
  const error = errors.text?.message;
  const submit = handleSubmit(({ text }) =>
    add.mutate(text, {
      onSuccess: () => {
        reset();
        toast({ title: 'Note added' });
      },
      onError: (err) => toast({ title: 'Could not add the note', description: messageOf(err), variant: 'destructive' }),
    }),
  );
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-medium text-stone-700">
        Add a note
      </label>
      <textarea id={id} rows={2} maxLength={2000} className={inputCls} {...register('text')} {...fieldAria(error, `${id}-error`)} />
      {error && <FieldError id={`${id}-error`} message={error} />}
      <div>
        <Button type="submit" variant="outline" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add note'}
        </Button>
      </div>
    </form>
  );
}

/** The order's history for the owner, newest first: who did what, and when; and a note form. */
export function OrderTimeline({ orderId }: { orderId: string }) {
  const { data, error, isPending, refetch } = useOrderEvents(orderId);
  return (
    <section aria-labelledby="order-timeline-title" className="rounded-lg border border-stone-200 p-4">
      <h3 id="order-timeline-title" className="mb-3 font-semibold text-stone-900">
        Timeline
      </h3>
      <NoteForm orderId={orderId} />
      <ListState
        isPending={isPending}
        error={error}
        onRetry={() => void refetch()}
        isEmpty={data?.events.length === 0}
        empty={<p className="mt-3 text-sm text-stone-700">Nothing recorded yet.</p>}
        loadingLabel="Loading the timeline"
      >
        <ol className="mt-4 flex flex-col" aria-label="Order events, newest first">
          {data?.events.map((e) => {
            const { title, lines } = describe(e);
            return (
              <li key={e.id} className="border-l-2 border-stone-200 py-2 pl-3" data-event={e.type}>
                <p className="text-sm font-medium text-stone-900">
                  {title}
                  {e.customerVisible && (
                    <span className="ml-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs font-normal text-emerald-800">customer sees</span>
                  )}
                </p>
                {lines.map((l, i) => (
                  <p key={i} className="break-words text-sm text-stone-700">
                    {l}
                  </p>
                ))}
                <p className="text-xs text-stone-600">
                  <time dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time> · {e.actor}
                </p>
              </li>
            );
          })}
        </ol>
      </ListState>
    </section>
  );
}
