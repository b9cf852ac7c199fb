import { carrierName, trackingUrl } from '../../../shared/carriers.js';
import type { OrderView } from '../../../shared/schemas/orders.js';
import { TRACKING_TEXTS } from '../../../shared/tracking-texts.js';

/** The carrier's number with its own page (when the carrier is known), or why there is none. */
export function LabelTracking({ order }: { order: Pick<OrderView, 'trackingNumber' | 'carrier' | 'status'> }) {
  const number = order.trackingNumber?.trim();
  if (!number) return <>{order.status === 'shipped' ? TRACKING_TEXTS.shippedWithoutLabel : TRACKING_TEXTS.noLabelYet}</>;
  const carrier = carrierName(order.carrier);
  const url = trackingUrl(order.carrier, number);
  return (
    <>
      {carrier ? `${carrier} ${TRACKING_TEXTS.trackingNumber.toLowerCase()}` : TRACKING_TEXTS.trackingNumber}:{' '}
      {url ? (
        <a href={url} target="_blank" rel="noopener noreferrer" className="font-mono text-brand-700 underline">
          {number}
          <span className="sr-only"> (opens the {carrier} website in a new tab)</span>
        </a>
      ) : (
        <span className="font-mono">{number}</span>
      )}
    </>
  );
}

/** The label was bought for an address the order no longer has. */
export function LabelAddressWarning() {
  return (
    <p
      role="alert"
      className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
      data-testid="label-address-warning"
    >
      {TRACKING_TEXTS.addressChangedAfterLabel}
    </p>
  );
}

/**
 * The edit form, before saving: the order has a bought label and the address typed differs from
 * the one it was bought for (field by field, spaces ignored; country defaults to US as the form's does).
 */
export function LabelAddressNotice({
  order,
  address,
}: {
  order: Pick<OrderView, 'labelState' | 'shippingAddress'> | null;
  address: Partial<Record<'name' | 'address' | 'city' | 'state' | 'zip' | 'country', string>> | undefined;
}) {
  if (order?.labelState !== 'bought' || !address) return null;
  const before = order.shippingAddress && typeof order.shippingAddress === 'object' ? order.shippingAddress : {};
  const keys = ['name', 'address', 'city', 'state', 'zip', 'country'] as const;
  const was = (k: (typeof keys)[number]) => (before[k] ?? (k === 'country' ? 'US' : '')).trim();
  const changed = keys.some((k) => (address[k] ?? '').trim() !== was(k));
  if (!changed) return null;
  return (
    <p
      role="alert"
      className="rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900"
      data-testid="label-address-notice"
    >
      {TRACKING_TEXTS.addressChangeBeforeSave}
    </p>
  );
}
