import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { isToShipOrder, ORDER_STATUSES, OrderView, type OrderPaymentStatus } from '../../../shared/schemas/orders.js';
import { formatCents } from '../../../shared/money.js';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { Dialog } from '../../ui/dialog.js';
import { ADMIN_MESSAGES } from '../../../shared/schemas/admin/messages.js';
import { messageOf } from '../api/admin-api.js';
import type { AdminOrderRow } from '../api/admin-schemas.js';
import { capitalize, formatDateIn, formatDateTime } from '../../lib/format.js';
import { ConfirmDialog, DataTable, ListState, PageNav, Panel, type Column } from '../components/admin-ui.js';
import { useAdminOrders, useDeleteOrder, useSetOrderStatus, type Status } from './order-api.js';
import type { OrdersNav } from './orders-tab.js';
import { StockShortfallBadge } from './status-badge.js';
import { StatusBadge } from '../../ui/status-badge.js';
import type { ReturnLine } from '../../../shared/schemas/inventory.js';
import { CancelOrderDialog, type CancelRefundBody } from './cancel-order-dialog.js';
import { StatusChangeDialog } from './notify-customer.js';
import { PaymentBadge } from './order-payment.js';
import { PeriodForm } from './period-form.js';
import { selectColumn, SelectPageBox, type Selection } from '../components/bulk.js';
import { OrderBulkBar } from './order-bulk.js';
import { NEW_ROW_CLS, NewOrdersNotice, useNewOrders } from './new-orders.js';
import { OrderSearchBox } from './order-search-box.js';

const PAYMENT_STATUSES = OrderView.shape.paymentStatus.options;

const DELETE_ORDER_CONFIRM = 'Are you sure you want to delete this order? This action cannot be undone.';

/** Paid once (paid, refunded in part or in full): the server keeps it on the books (its DELETE answers 409). */
function isKeptOnBooks(o: { paymentStatus: string; refundedCents?: number | null }): boolean {
  return (
    o.paymentStatus === 'paid' || o.paymentStatus === 'partially_refunded' || o.paymentStatus === 'refunded' || (o.refundedCents ?? 0) > 0
  );
}

/**
 * Delete asks first; for an order kept on the books it explains instead that the order must be
 * cancelled or refunded (the list and the detail show the same).
 */
export function DeleteOrderDialog({
  order,
  busy,
  onConfirm,
  onClose,
}: {
  order: { paymentStatus: string; refundedCents?: number | null } | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const kept = order !== null && isKeptOnBooks(order);
  return (
    <>
      <Dialog open={kept} onClose={onClose} title="This order cannot be deleted">
        <p className="text-stone-800">{ADMIN_MESSAGES.paidOrderNotDeletable}</p>
        <div className="mt-6 flex justify-end">
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        </div>
      </Dialog>
      <ConfirmDialog open={order !== null && !kept} message={DELETE_ORDER_CONFIRM} busy={busy} onConfirm={onConfirm} onClose={onClose} />
    </>
  );
}

/** Paid and not yet shipped (the server's rule, orders/money-taken.ts): the badge says so instead of "Completed". */
export const isToShip = isToShipOrder;

function isStatus(v: string | null): v is Status {
  return ORDER_STATUSES.some((s) => s === v);
}

/** An e-mail address that may wrap before its "@" (not in the middle of a word) when the column is narrow. */
function Email({ address, className }: { address: string; className: string }) {
  const at = address.lastIndexOf('@');
  return (
    <span className={className}>
      {at > 0 ? (
        <>
          {address.slice(0, at)}
          <wbr />
          {address.slice(at)}
        </>
      ) : (
        address
      )}
    </span>
  );
}

/** The customer as the owner knows them: their name and e-mail (a guest's from checkout), never an internal id. */
function CustomerCell({ o }: { o: AdminOrderRow }) {
  const name = o.customerName ?? (o.userId === 'guest' ? 'Guest' : null);
  return (
    <span className="block min-w-0" title={o.userId === 'guest' ? 'Guest checkout' : undefined}>
      <span className="block break-words font-medium text-stone-900">{name ?? o.email ?? 'Customer'}</span>
      {o.email && name && <Email address={o.email} className="block break-words text-xs text-stone-700" />}
      {o.userId === 'guest' && o.customerName && <span className="block text-xs text-stone-600">guest</span>}
    </span>
  );
}

/**
 * A status change e-mails the customer unless the owner says not to, so the list and the detail
 * ask first, naming who will be written to, with "Notify the customer" to turn it off.
 */
export function StatusSelect({
  id,
  status,
  label,
  email,
  tookStock,
  allowed,
}: {
  id: string;
  status: Status;
  label: string;
  email?: string | null;
  /** Its units left stock (the server says: orders/placed.ts): cancelling it asks which go back. */
  tookStock: boolean;
  /** The moves the server allows now (its one table, orders/status-rules.ts); the menu offers only these. */
  allowed?: readonly Status[] | undefined;
}) {
  const setStatus = useSetOrderStatus();
  const [asked, setAsked] = useState<Status | null>(null);
  const change = (next: Status, returnLines?: ReturnLine[], notify = true, refund?: CancelRefundBody) =>
    setStatus.mutate(
      // `notify` is sent only when the owner turned it off: e-mailing is the default (the specification's).
      { id, status: next, returnLines, ...(notify ? {} : { notify: false }), ...(refund ? { refund } : {}) },
      {
        onSuccess: () => {
          setAsked(null);
          toast({
            title: 'Order updated',
            description: refund
              ? `The order has been cancelled and ${formatCents(refund.amountCents)} refunded.`
              : 'The order has been updated successfully.',
          });
        },
        onError: (err) => {
          setAsked(null);
          toast({ title: 'Error updating order', description: messageOf(err), variant: 'destructive' });
        },
      },
    );
  return (
    <>
      <select
        aria-label={label}
        value={asked ?? (setStatus.isPending && setStatus.variables ? setStatus.variables.status : status)}
        disabled={setStatus.isPending}
        onChange={(e) => {
          const next = e.target.value;
          if (isStatus(next) && next !== status) setAsked(next);
        }}
        className="rounded-md border border-stone-300 bg-white px-2 py-1.5 text-sm capitalize text-stone-900 focus:outline-none focus:ring-2 focus:ring-brand-600"
      >
        {ORDER_STATUSES.filter((s) => s === status || !allowed || allowed.includes(s)).map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
      {/* Cancelling an order that took stock also asks which units go back, and a paid one offers its refund. */}
      {asked === 'cancelled' && tookStock && (
        <CancelOrderDialog
          orderId={id}
          email={email}
          busy={setStatus.isPending}
          onConfirm={(returnLines, notify, refund) => change('cancelled', returnLines, notify, refund)}
          onClose={() => setAsked(null)}
        />
      )}
      {asked !== null && !(asked === 'cancelled' && tookStock) && (
        <StatusChangeDialog
          status={asked}
          email={email}
          busy={setStatus.isPending}
          onConfirm={(notify) => change(asked, undefined, notify)}
          onClose={() => setAsked(null)}
        />
      )}
    </>
  );
}

/** A labelled filter of the list (status, payment). */
function FilterSelect({
  id,
  label,
  value,
  options,
  onChange,
  className = '',
}: {
  id: string;
  label: string;
  value: string;
  options: readonly (readonly [string, string])[];
  onChange: (value: string) => void;
  className?: string;
}) {
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-stone-900">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={`rounded-md border border-stone-300 bg-white px-2 py-2 text-sm ${className}`}
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** On a desktop the row's actions stay on one line (a phone's card wraps them at full size). */
const compact = 'whitespace-nowrap md:px-2!';

function RowActions({ o, nav, onDelete }: { o: AdminOrderRow; nav: OrdersNav; onDelete: (id: string) => void }) {
  const short = o.orderNumber;
  return (
    <div className="flex flex-wrap items-center gap-1 md:max-w-[15rem]">
      <StatusSelect
        id={o.id}
        status={o.status}
        label={`Status of order ${short}`}
        email={o.email}
        tookStock={o.tookStock ?? false}
        allowed={o.allowedStatuses}
      />
      <Button size="sm" variant="ghost" className={compact} onClick={() => nav.details(o.id)} aria-label={`View order ${short}`}>
        View
      </Button>
      <Button
        size="sm"
        variant="ghost"
        className={compact}
        onClick={() => nav.packing(o.id)}
        aria-label={`Packing slip for order ${short}`}
      >
        Packing slip
      </Button>
      <Button size="sm" variant="ghost" className={compact} onClick={() => nav.edit(o.id)} aria-label={`Edit order ${short}`}>
        Edit
      </Button>
      <Button
        size="sm"
        variant="ghost"
        className={`${compact} text-red-800 hover:bg-red-50`}
        onClick={() => onDelete(o.id)}
        aria-label={`Delete order ${short}`}
      >
        Delete
      </Button>
    </div>
  );
}

/** The list's payment filter: '' is placed orders (paid, refunded, entered by the shop); unpaid checkouts only when asked. */
const PAYMENT_FILTER_OPTIONS: [value: string, label: string][] = [
  ['', 'Placed orders'],
  ['paid', 'Paid'],
  ['partially_refunded', 'Partially refunded'],
  ['refunded', 'Refunded'],
  ['unpaid', 'Unpaid'],
  ['abandoned', 'Abandoned checkouts'],
  ['all', 'All orders'],
];

function RowPaymentBadge({ o }: { o: AdminOrderRow }) {
  const status = (PAYMENT_STATUSES as readonly string[]).includes(o.paymentStatus) ? (o.paymentStatus as OrderPaymentStatus) : 'unpaid';
  return <PaymentBadge status={status} ownerEntered={o.ownerEntered ?? false} />;
}

/** An open unpaid checkout: when its stock hold ends (then the units go back on sale). */
function HoldEnds({ o }: { o: AdminOrderRow }) {
  if (!o.holdEndsAt) return null;
  return (
    <span className="block text-xs text-stone-600">
      Hold ends <time dateTime={o.holdEndsAt}>{formatDateTime(o.holdEndsAt)}</time>
    </span>
  );
}

/**
 * The list's columns (the spec's, plus payment); on a phone each order is a card headed by its
 * number. Dates are the shop's days (its time zone), as the period filter and the overview count them.
 */
const orderColumns = (timeZone: string): Column<AdminOrderRow>[] => [
  {
    header: 'Order ID',
    primary: true,
    className: 'whitespace-nowrap font-mono max-md:font-semibold',
    cell: (o) => <span title={o.id}>{o.orderNumber}</span>,
  },
  {
    header: 'Date',
    className: 'whitespace-nowrap',
    cell: (o) => <time dateTime={o.createdAt}>{formatDateIn(o.createdAt, timeZone)}</time>,
  },
  { header: 'Customer', cell: (o) => <CustomerCell o={o} /> },
  {
    header: 'Status',
    cell: (o) => (
      <span className="flex flex-wrap gap-1 max-md:justify-end">
        <StatusBadge status={o.status} compact toShip={isToShip(o)} />
        <StockShortfallBadge shortfall={o.stockShortfall} />
      </span>
    ),
  },
  {
    header: 'Payment',
    cell: (o) => (
      <span className="block">
        <RowPaymentBadge o={o} />
        <HoldEnds o={o} />
      </span>
    ),
  },
  { header: 'Items', numeric: true, cell: (o) => o.itemCount },
  { header: 'Total', numeric: true, className: 'whitespace-nowrap', cell: (o) => formatCents(o.totalCents) },
];

const exportLinkCls =
  'inline-flex h-10 items-center justify-center whitespace-nowrap rounded-md border border-brand-600 bg-white px-3 text-sm font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2';

export function OrderList({ nav, selection }: { nav: OrdersNav; selection: Selection }) {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('ordersPage')) || 1);
  const search = params.get('q') ?? '';
  const statusParam = params.get('status');
  const status: Status | 'to_ship' | '' = statusParam === 'to_ship' ? 'to_ship' : isStatus(statusParam) ? statusParam : '';
  const paymentParam = params.get('payment') ?? '';
  const payment = PAYMENT_FILTER_OPTIONS.some(([v]) => v === paymentParam) ? paymentParam : '';
  // Placed from one of the shop's days to another (a bad pair is refused by the form and the server alike).
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const { data, error, isPending, isFetching, refetch, isPlaceholderData } = useAdminOrders({ page, search, status, payment, from, to });
  const del = useDeleteOrder();
  const [toDelete, setToDelete] = useState<string | null>(null);
  // The list refreshes every 30 s (order-api.ts): orders placed since are counted and highlighted.
  const arrivals = useNewOrders(data?.items, JSON.stringify([page, search, status, payment]));

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    next.set('tab', 'orders');
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    setParams(next);
  };

  const confirmDelete = () => {
    if (!toDelete) return;
    del.mutate(toDelete, {
      onSuccess: () => toast({ title: 'Order deleted', description: 'The order has been deleted successfully.' }),
      onError: (err) => toast({ title: 'Error deleting order', description: messageOf(err), variant: 'destructive' }),
      onSettled: () => setToDelete(null),
    });
  };

  const filtered = search !== '' || status !== '' || payment !== '' || from !== '';
  const exportQuery = new URLSearchParams(Object.entries({ search, status, payment, from, to }).filter(([, v]) => v !== ''));

  return (
    <Panel title="Orders" actions={<Button onClick={nav.create}>Create Order</Button>}>
      <div className="mb-4 flex flex-col gap-3 lg:flex-row lg:flex-wrap lg:items-center">
        <OrderSearchBox search={search} error={error} onSearch={(q) => update({ q, ordersPage: null })} />
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <FilterSelect
            id="order-status-filter"
            label="Status"
            value={status}
            options={[
              ['', 'All statuses'],
              ['to_ship', 'To ship (paid, not shipped)'],
              ...ORDER_STATUSES.map((s): [string, string] => [s, capitalize(s)]),
            ]}
            onChange={(v) => update({ status: v, ordersPage: null })}
          />
          <FilterSelect
            id="order-payment-filter"
            label="Payment"
            value={payment}
            options={PAYMENT_FILTER_OPTIONS}
            onChange={(v) => update({ payment: v, ordersPage: null })}
          />
        </div>
        <PeriodForm
          idPrefix="order-period"
          label="Orders placed"
          from={from}
          to={to}
          onApply={(p) => update({ ...p, ordersPage: null })}
          onClear={() => update({ from: null, to: null, ordersPage: null })}
        />
        {/* The orders the filters show, as CSV (GET /api/admin/exports/orders.csv): one row per order, or per line item (`lines=1`). */}
        <div className="flex flex-wrap gap-2">
          <a href={`/api/admin/exports/orders.csv?${exportQuery}`} download className={exportLinkCls}>
            Export CSV
          </a>
          <a
            href={`/api/admin/exports/orders.csv?${new URLSearchParams([...exportQuery, ['lines', '1']])}`}
            download
            className={exportLinkCls}
          >
            Export line items (CSV)
          </a>
        </div>
      </div>
      <ListState
        isPending={isPending}
        error={error && !data ? error : null}
        onRetry={() => void refetch()}
        loadingLabel="Loading orders"
        isEmpty={data?.items.length === 0}
        empty={
          filtered ? (
            <p>No orders match your search.</p>
          ) : (
            <div className="flex flex-col items-center gap-3">
              <p>No orders yet</p>
              <Button onClick={nav.create}>Create Order</Button>
            </div>
          )
        }
      >
        {data && (
          <>
            <NewOrdersNotice count={arrivals.arrived.size} onDismiss={arrivals.dismiss} />
            <OrderBulkBar selection={selection} onPrintSlips={nav.slips} />
            <SelectPageBox selection={selection} ids={data.items.map((o) => o.id)} busy={isPlaceholderData} />
            <DataTable
              caption="Orders, newest first"
              rows={data.items}
              rowKey={(o) => o.id}
              columns={[
                selectColumn(
                  selection,
                  data.items,
                  (o) => o.id,
                  {
                    all: 'Select all orders on this page',
                    row: (o) => `Select order ${o.orderNumber}`,
                  },
                  isPlaceholderData,
                ),
                ...orderColumns(data.timeZone),
              ]}
              rowClassName={(o) => (arrivals.arrived.has(o.id) ? NEW_ROW_CLS : '')}
              actions={(o) => <RowActions o={o} nav={nav} onDelete={setToDelete} />}
              busy={isPlaceholderData}
              dense
            />
            <PageNav
              page={page}
              totalPages={data.totalPages}
              busy={isFetching}
              onPage={(p) => update({ ordersPage: p > 1 ? String(p) : null })}
            />
          </>
        )}
      </ListState>
      <DeleteOrderDialog
        order={data?.items.find((o) => o.id === toDelete) ?? null}
        busy={del.isPending}
        onConfirm={confirmDelete}
        onClose={() => setToDelete(null)}
      />
    </Panel>
  );
}
