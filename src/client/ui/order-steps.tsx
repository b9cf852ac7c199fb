import { carrierName, trackingUrl } from '../../shared/carriers.js';
import { formatCents } from '../../shared/money.js';
import type { OrderTimelineEntry } from '../../shared/schemas/orders.js';
import { formatDateTime } from '../lib/format.js';

const TITLES: Record<OrderTimelineEntry['type'], string> = {
  placed: 'Order placed',
  paid: 'Payment received',
  shipped: 'Shipped',
  refunded: 'Refunded',
  cancelled: 'Cancelled',
};

/** "USPS 9400…" linked to the carrier's own tracking page when the carrier is known; the bare number otherwise. */
function ShippedLine({ carrier, trackingNumber }: { carrier: string | null; trackingNumber: string }) {
  const name = carrierName(carrier);
  const url = trackingUrl(carrier, trackingNumber);
  return (
    <p className="text-stone-700">
      {name ? `${name} tracking number: ` : 'Tracking number: '}
      {url ? (
        <a
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          className="font-mono text-brand-800 underline underline-offset-2 hover:text-brand-900"
        >
          {trackingNumber}
          <span className="sr-only"> (track on the {name} website, opens in a new tab)</span>
        </a>
      ) : (
        <span className="font-mono">{trackingNumber}</span>
      )}
    </p>
  );
}

/** The customer's view of what happened to their order, oldest first: placed, paid, shipped (tracking), refunded. */
export function OrderSteps({ steps }: { steps: OrderTimelineEntry[] | undefined }) {
  if (!steps || steps.length === 0) return null;
  return (
    <section aria-label="Order history">
      <h3 className="mb-2 font-semibold text-stone-900">Order history</h3>
      <ol className="flex flex-col gap-2 text-sm">
        {steps.map((s, i) => (
          <li key={`${s.type}-${i}`} className="border-l-2 border-emerald-600 pl-3">
            <p className="font-medium text-stone-900">
              {TITLES[s.type]}
              {(s.type === 'paid' || s.type === 'refunded') && typeof s.amountCents === 'number' ? ` · ${formatCents(s.amountCents)}` : ''}
            </p>
            {s.type === 'shipped' && s.trackingNumber && <ShippedLine carrier={s.carrier ?? null} trackingNumber={s.trackingNumber} />}
            <p className="text-xs text-stone-600">
              <time dateTime={s.at}>{formatDateTime(s.at)}</time>
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}
