import { carrierName, trackingUrl } from '../../../shared/carriers.js';
import { formatCents } from '../../../shared/money.js';
import { orderReferenceOf, type OrderView } from '../../../shared/schemas/orders.js';
import { isToShipOrder, orderNumberLabel } from '../../../shared/order-words.js';
import { lineHeading } from '../../../shared/line-options.js';
import { TRACKING_TEXTS } from '../../../shared/tracking-texts.js';
import { formatAddress } from '../../../shared/address.js';
import { formatDate } from '../../lib/format.js';
import { StatusBadge } from '../../ui/status-badge.js';
import { Button, buttonClasses } from '../../ui/button.js';
import { Skeleton } from '../../ui/skeleton.js';
import { AddressLines } from '../../ui/address-lines.js';
import { NoOrders, useReceipt } from './recent-orders.js';
import { ReceiptDialog } from './receipt-dialog.js';

/**
 * The carrier's number from the order's label, or null: before a label there is none, and a
 * cancelled order is not tracked (the specification's brand code is the order's reference).
 */
function carrierTrackingOf(order: OrderView): string | null {
  return order.status === 'cancelled' ? null : order.trackingNumber?.trim() || null;
}

function OrderCard({ order, onDetails }: { order: OrderView; onDetails: () => void }) {
  const number = orderNumberLabel(order.id);
  const address = formatAddress(order.shippingAddress);
  // The specification shows its code for every status but pending: it is the order's reference.
  const reference = order.status === 'pending' ? null : orderReferenceOf(order.id);
  const tracking = carrierTrackingOf(order);
  const carrier = tracking ? carrierName(order.carrier) : null;
  const trackLink = tracking ? trackingUrl(order.carrier, tracking) : null;
  return (
    <article
      aria-labelledby={`order-${order.id}`}
      className="rounded-xl border border-stone-200 bg-white shadow-sm"
      data-testid="order-card"
    >
      <header className="flex flex-col gap-3 border-b border-stone-200 p-5 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex flex-col gap-1">
          <h2 id={`order-${order.id}`} className="font-mono text-lg font-semibold text-stone-900">
            Order <span data-testid="order-number">{number}</span>
          </h2>
          <p className="text-sm text-stone-600">Placed on {formatDate(order.createdAt, 'long')}</p>
          {order.shippedAt && order.status !== 'pending' && (
            <p className="text-sm text-stone-700">Shipped on {formatDate(order.shippedAt, 'long')}</p>
          )}
          {carrier && (
            <p className="text-sm text-stone-700">
              Carrier: <span className="font-medium text-stone-900">{carrier}</span>
            </p>
          )}
          {reference && (
            <p className="text-sm text-stone-700">
              {TRACKING_TEXTS.orderReference}:{' '}
              <span className="font-mono font-medium text-stone-900" data-testid="order-reference">
                {reference}
              </span>
            </p>
          )}
          {tracking && (
            <p className="text-sm text-stone-700">
              {TRACKING_TEXTS.trackingNumber}:{' '}
              {trackLink ? (
                <a
                  href={trackLink}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="font-mono font-medium break-all text-brand-700 underline"
                  data-testid="tracking-number"
                >
                  {tracking}
                  <span className="sr-only"> (opens the {carrier} website in a new tab)</span>
                </a>
              ) : (
                <span className="font-mono font-medium break-all text-stone-900" data-testid="tracking-number">
                  {tracking}
                </span>
              )}
            </p>
          )}
        </div>
        <div className="self-start">
          <StatusBadge status={order.status} preparing={isToShipOrder(order)} />
        </div>
      </header>

      <div className="grid gap-5 p-5 md:grid-cols-3">
        <section aria-label="Items" className="md:col-span-2">
          <h3 className="mb-2 text-sm font-semibold uppercase tracking-wide text-stone-600">Items</h3>
          <ul className="flex flex-col gap-1.5 text-sm">
            {order.items.map((item) => (
              <li key={item.id} className="flex justify-between gap-4">
                <span className="text-stone-800">
                  {lineHeading(item).title} x {item.quantity}
                  {lineHeading(item).options && (
                    <span className="block text-xs text-stone-600" data-line-options="">
                      {lineHeading(item).options}
                    </span>
                  )}
                </span>
                <span className="shrink-0 font-medium text-stone-900">{item.isFreeGift ? 'FREE' : formatCents(item.lineTotalCents)}</span>
              </li>
            ))}
          </ul>
        </section>
        <section aria-label="Shipping Address">
          <h3 className="mb-2 text-sm font-semibold uppercase tracking-wide text-stone-600">Shipping Address</h3>
          {address.length > 0 ? (
            <AddressLines lines={address} className="text-sm text-stone-800" />
          ) : (
            <p className="text-sm text-stone-600">—</p>
          )}
        </section>
      </div>

      <footer className="flex flex-col gap-3 border-t border-stone-200 p-5 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-stone-800">
          Total: <span className="text-lg font-bold text-stone-900">{formatCents(order.totalCents)}</span>
        </p>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={onDetails} aria-label={`View Details of order ${number}`}>
            View Details
          </Button>
          {/* The carrier's own page only: with no known carrier the number above is all there is (never a search engine). */}
          {order.status === 'shipped' && trackLink && (
            <a href={trackLink} target="_blank" rel="noopener noreferrer" className={buttonClasses('primary', 'sm')}>
              Track Package
              <span className="sr-only"> on the {carrier} website (opens in a new tab)</span>
            </a>
          )}
        </div>
      </footer>
    </article>
  );
}

export function OrdersListSkeleton() {
  return (
    <div className="flex flex-col gap-4" aria-hidden="true">
      {[0, 1, 2].map((i) => (
        <div key={i} className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-5">
          <Skeleton className="h-6 w-48" />
          <Skeleton className="h-4 w-64" />
          <Skeleton className="h-16" />
        </div>
      ))}
    </div>
  );
}

export function OrdersList({ orders }: { orders: OrderView[] }) {
  const receipt = useReceipt();
  if (orders.length === 0) return <NoOrders />;
  return (
    <>
      <div className="flex flex-col gap-4">
        {orders.map((order) => (
          <OrderCard key={order.id} order={order} onDetails={() => receipt.open(order)} />
        ))}
      </div>
      {receipt.order && <ReceiptDialog order={receipt.order} onClose={receipt.close} />}
    </>
  );
}
