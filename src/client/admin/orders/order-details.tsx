import { useState } from 'react';
import { formatCents } from '../../../shared/money.js';
import { lineHeading } from '../../../shared/line-options.js';
import { Button, buttonClasses } from '../../ui/button.js';
import { ArrowLeftIcon } from '../../ui/icons.js';
import { toast } from '../../ui/toast.js';
import { ApiError } from '../../lib/api-client.js';
import { messageOf } from '../api/admin-api.js';
import { formatDateTime } from '../../lib/format.js';
import { ConfirmDialog, DataTable, ListState, Panel, type Column } from '../components/admin-ui.js';
import { formatAddress } from '../../../shared/address.js';
import { useAdminOrder, useDeleteOrder, useGetTracking, useSendToShipStation, useVoidLabel } from './order-api.js';
import { OrderFigures } from './order-figures.js';
import { OrderTimeline } from './order-timeline.js';
import { isShippableOrder, type OrderView } from '../../../shared/schemas/orders.js';
import { DeleteOrderDialog, isToShip, StatusSelect } from './order-list.js';
import type { OrdersNav } from './orders-tab.js';
import { StockShortfallBadge } from './status-badge.js';
import { StatusBadge } from '../../ui/status-badge.js';
import { OrderPayment } from './order-payment.js';
import { OrderStrayPayments } from './stray-payments.js';
import { orderReferenceOf } from '../../../shared/schemas/orders.js';
import { TRACKING_TEXTS } from '../../../shared/tracking-texts.js';
import { ADMIN_MESSAGES } from '../../../shared/schemas/admin/messages.js';
import { LabelAddressWarning, LabelTracking } from './label-tracking.js';

const SHIPSTATION_DISABLED = 'Info: ShipStation service temporarily disabled';

/**
 * 503 is "not configured": the spec's info toast, not an error. Other failures read
 * '{prefix}: {message}'; the server already says so for ShipStation's refusals, but not for its own
 * (an order without an address, a network failure), so the prefix is added when missing.
 */
function shipStationFailure(prefix: string) {
  return (err: unknown): void => {
    if (err instanceof ApiError && err.status === 503) return toast({ title: err.message || SHIPSTATION_DISABLED });
    const message = messageOf(err);
    toast({ title: message.startsWith(prefix) ? message : `${prefix}: ${message}`, variant: 'destructive' });
  };
}

/**
 * The order's one label: bought after a confirmation, only when the server says the order may have
 * one (`labelRefusal`: paid, not cancelled, none yet); printed from the shop once bought; voiding
 * it is the only way to buy another (the server refuses a second purchase either way).
 */
function ShippingServicePanel({ order }: { order: OrderView }) {
  const send = useSendToShipStation();
  const voidLabel = useVoidLabel();
  const tracking = useGetTracking();
  const [asking, setAsking] = useState<'buy' | 'void' | null>(null);
  const hasLabel = order.labelState === 'bought';
  // What the server answered decides what is offered; an older answer without it falls back to "paid".
  const refusal =
    order.labelRefusal !== undefined
      ? order.labelRefusal
      : (order.shippable ?? isShippableOrder(order.paymentStatus, order.origin ?? 'checkout'))
        ? null
        : ADMIN_MESSAGES.unpaidNotShippable;
  const buying = send.isPending || order.labelState === 'buying';
  return (
    <section aria-labelledby="ship-service-title" className="rounded-lg border border-stone-200 p-4">
      <h3 id="ship-service-title" className="mb-1 font-semibold text-stone-900">
        Shipping service
      </h3>
      <p className="mb-3 text-sm text-stone-700" data-testid="admin-tracking">
        <LabelTracking order={order} />
        {hasLabel && <span className="ml-2 rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-800">Label bought</span>}
      </p>
      {!hasLabel && !buying && refusal && (
        <p className="mb-3 rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900" data-testid="label-refusal">
          {refusal}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {hasLabel ? (
          <>
            {order.labelPrintUrl && (
              // An admin-only address of the shop: the label PDF (v1) or ShipStation's download (v2), in a new tab to print.
              <a href={order.labelPrintUrl} target="_blank" rel="noopener noreferrer" className={buttonClasses('primary')}>
                Print label
                <span className="sr-only"> (opens the label PDF in a new tab)</span>
              </a>
            )}
            <Button variant="outline" disabled={voidLabel.isPending} onClick={() => setAsking('void')}>
              {voidLabel.isPending ? 'Voiding…' : 'Void label'}
            </Button>
          </>
        ) : (
          (buying || !refusal) && (
            <Button variant="outline" disabled={buying} onClick={() => setAsking('buy')}>
              {buying ? 'Buying label…' : 'Send to ShipStation'}
            </Button>
          )
        )}
        <Button
          variant="outline"
          disabled={tracking.isPending}
          onClick={() =>
            tracking.mutate(order.id, {
              onSuccess: (r) =>
                toast({
                  title: 'Tracking information',
                  description: r.trackingNumber ? `Tracking number: ${r.trackingNumber}` : 'No tracking number yet.',
                }),
              onError: shipStationFailure('Failed to get tracking information'),
            })
          }
        >
          {tracking.isPending ? 'Loading…' : 'Get Tracking Info'}
        </Button>
      </div>
      <ConfirmDialog
        open={asking === 'buy'}
        title="Buy a shipping label?"
        message="ShipStation will create the shipment and charge for its label, the order will be marked shipped and the customer e-mailed. An order has one label: to buy another, void this one first."
        confirmLabel="Buy label"
        busyLabel="Buying…"
        busy={send.isPending}
        onClose={() => setAsking(null)}
        onConfirm={() =>
          send.mutate(order.id, {
            onSuccess: (r) => {
              setAsking(null);
              toast({ title: 'Sent to ShipStation', description: r.trackingNumber ? `Tracking number: ${r.trackingNumber}` : undefined });
            },
            onError: (err) => {
              setAsking(null);
              shipStationFailure('Failed to send order to ShipStation')(err);
            },
          })
        }
      />
      <ConfirmDialog
        open={asking === 'void'}
        title="Void this label?"
        message={`The label${order.trackingNumber ? ` (tracking ${order.trackingNumber})` : ''} will be voided at ShipStation and the order goes back to the status it had before the label. The customer is not e-mailed.`}
        confirmLabel="Void label"
        busyLabel="Voiding…"
        busy={voidLabel.isPending}
        onClose={() => setAsking(null)}
        onConfirm={() =>
          voidLabel.mutate(order.id, {
            onSuccess: () => {
              setAsking(null);
              toast({ title: 'Label voided' });
            },
            onError: (err) => {
              setAsking(null);
              shipStationFailure('Failed to void the label at ShipStation')(err);
            },
          })
        }
      />
    </section>
  );
}

/** A line's SKU and its product's own options ("SKU ECO-CL-LAV-016 · Scent: Lavender · Size: 16 oz"; decision 0044). */
function lineSpec(it: OrderView['items'][number]): string {
  return [it.sku ? `SKU ${it.sku}` : '', lineHeading(it).options].filter(Boolean).join(' · ');
}

/**
 * The items as the spec lists them (product id, quantity, price, subtotal), each with its title
 * ("Cleaner — Lavender, 16 oz"), SKU, size and colour; on a phone one card per item.
 */
const ITEM_COLUMNS: Column<OrderView['items'][number]>[] = [
  {
    header: 'Product ID',
    primary: true,
    cell: (it) => (
      <span className="block min-w-0">
        <span className="block break-words font-mono">{it.productId}</span>
        <span className="block text-xs text-stone-700">{lineHeading(it).title}</span>
        {lineSpec(it) && <span className="block break-words text-xs text-stone-600">{lineSpec(it)}</span>}
      </span>
    ),
  },
  { header: 'Quantity', numeric: true, cell: (it) => it.quantity },
  { header: 'Price', numeric: true, cell: (it) => formatCents(it.priceCents) },
  { header: 'Subtotal', numeric: true, cell: (it) => formatCents(it.lineTotalCents) },
];

export function OrderDetails({ orderId, nav }: { orderId: string; nav: OrdersNav }) {
  const { data, error, isPending, refetch } = useAdminOrder(orderId);
  const del = useDeleteOrder();
  const [confirming, setConfirming] = useState(false);
  const order = data?.order;

  const back = (
    <Button variant="ghost" onClick={nav.list}>
      <ArrowLeftIcon size={16} /> Back to orders
    </Button>
  );

  return (
    <Panel title={order ? `Order ${order.orderNumber || order.id.slice(0, 8)}` : 'Order details'} actions={back}>
      <ListState isPending={isPending} error={error} onRetry={() => void refetch()} loadingLabel="Loading order">
        {order && (
          <div className="flex flex-col gap-6">
            <div className="flex flex-wrap items-center gap-3">
              <StatusBadge status={order.status} compact toShip={isToShip(order)} />
              <p className="text-sm text-stone-700">
                Placed <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>
              </p>
              <StatusSelect
                id={order.id}
                status={order.status}
                label="Change status"
                email={order.email}
                tookStock={order.tookStock ?? false}
                allowed={order.allowedStatuses}
              />
            </div>
            {order.labelAddressChanged && <LabelAddressWarning />}
            {order.stockShortfall && (
              <div role="alert" className="flex flex-col gap-1 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
                <p className="flex items-center gap-2 font-semibold">
                  <StockShortfallBadge shortfall={order.stockShortfall} /> Paid, but not all units were in stock
                </p>
                <p>
                  {order.stockShortfall}. The payment arrived after this checkout&apos;s hold had ended; restock or refund the missing
                  units.
                </p>
              </div>
            )}
            <dl className="grid gap-4 sm:grid-cols-2">
              <div>
                <dt className="text-sm font-medium text-stone-600">Order ID</dt>
                <dd className="break-all font-mono text-sm">{order.id}</dd>
              </div>
              <div>
                <dt className="text-sm font-medium text-stone-600">{TRACKING_TEXTS.orderReference}</dt>
                <dd className="font-mono text-sm">{orderReferenceOf(order.id)}</dd>
              </div>
              <div>
                <dt className="text-sm font-medium text-stone-600">Customer user ID</dt>
                <dd className="break-all font-mono text-sm">{order.userId}</dd>
                {order.email && <dd className="break-all text-sm text-stone-700">{order.email}</dd>}
              </div>
              <div className="sm:col-span-2">
                <dt className="text-sm font-medium text-stone-600">Shipping address</dt>
                <dd className="text-sm">
                  {formatAddress(order.shippingAddress, { email: true, trimLines: true }).map((l, i) => (
                    <span key={i} className="block">
                      {l}
                    </span>
                  ))}
                  {formatAddress(order.shippingAddress, { email: true, trimLines: true }).length === 0 && '—'}
                </dd>
              </div>
            </dl>
            <div className="flex flex-col">
              {order.items.length === 0 ? (
                <p className="border-y border-stone-200 py-3 text-center text-sm text-stone-700">No items on this order.</p>
              ) : (
                <DataTable caption="Items" rows={order.items} rowKey={(it) => it.id} columns={ITEM_COLUMNS} />
              )}
              <p className="flex justify-end gap-6 border-t-2 border-stone-300 px-3 py-2 text-sm font-semibold text-stone-900 max-md:justify-between max-md:px-0">
                <span>Total</span>
                <span className="tabular-nums">{formatCents(order.totalCents)}</span>
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button onClick={() => nav.edit(order.id)}>Edit</Button>
              <Button variant="outline" onClick={() => nav.packing(order.id)}>
                Packing slip
              </Button>
              <Button variant="destructive" onClick={() => setConfirming(true)}>
                Delete
              </Button>
            </div>
            <OrderPayment order={order} />
            <OrderStrayPayments orderId={order.id} />
            <OrderFigures order={order} />
            <ShippingServicePanel order={order} />
            <OrderTimeline orderId={order.id} />
          </div>
        )}
      </ListState>
      {/* A paid order stays on the books: its Delete explains what to do instead of asking to confirm. */}
      <DeleteOrderDialog
        order={confirming && order ? order : null}
        busy={del.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          del.mutate(orderId, {
            onSuccess: () => {
              toast({ title: 'Order deleted', description: 'The order has been deleted successfully.' });
              setConfirming(false);
              nav.list();
            },
            onError: (err) => {
              toast({ title: 'Error deleting order', description: messageOf(err), variant: 'destructive' });
              setConfirming(false);
            },
          })
        }
      />
    </Panel>
  );
}
