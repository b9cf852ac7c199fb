import type { ReactNode } from 'react';
import { formatCents } from '../../shared/money.js';
import type { Quote } from '../../shared/schemas/checkout.js';
import { shippingText } from '../lib/format.js';
import { Skeleton } from './skeleton.js';
import { cannotShip } from './no-shipping-notice.js';

function Row({ label, children, strong = false }: { label: ReactNode; children: ReactNode; strong?: boolean }) {
  return (
    <div
      className={`flex items-baseline justify-between gap-4 ${strong ? 'border-t border-stone-300 pt-3 text-lg font-bold text-stone-900' : 'text-stone-700'}`}
    >
      <dt>{label}</dt>
      <dd className={strong ? '' : 'font-medium text-stone-900'}>{children}</dd>
    </div>
  );
}

/** The server's figures: subtotal, coupon discount, shipping, tax and total. */
export function OrderSummaryTotals({
  quote,
  couponCode,
  updating,
}: {
  quote: Quote | undefined;
  couponCode: string | null;
  updating: boolean;
}) {
  if (!quote) {
    return (
      <div className="flex flex-col gap-3" aria-busy="true">
        <Skeleton className="h-5 w-full" />
        <Skeleton className="h-5 w-full" />
        <Skeleton className="h-5 w-full" />
        <Skeleton className="h-7 w-full" />
        <span className="sr-only">Calculating your total</span>
      </div>
    );
  }
  return (
    <dl
      aria-busy={updating}
      className={`flex flex-col gap-3 text-base transition-opacity ${updating ? 'opacity-60' : ''}`}
      data-testid="order-totals"
    >
      <Row label="Subtotal">{formatCents(quote.subtotalCents)}</Row>
      {quote.discountCents > 0 && (
        <div className="flex items-baseline justify-between gap-4 text-brand-800">
          <dt>Coupon discount{couponCode ? ` (${couponCode})` : ''}</dt>
          <dd className="font-medium">-{formatCents(quote.discountCents)}</dd>
        </div>
      )}
      {/* No option ships this subtotal: nothing is charged, and the page says why it cannot go on. */}
      <Row label="Shipping">
        {cannotShip(quote) ? <span data-testid="shipping-unavailable">Not available</span> : shippingText(quote.shippingCents)}
      </Row>
      <Row label="Tax">{formatCents(quote.taxCents)}</Row>
      <Row label="Total" strong>
        <span data-testid="order-total">{formatCents(quote.totalCents)}</span>
      </Row>
    </dl>
  );
}
