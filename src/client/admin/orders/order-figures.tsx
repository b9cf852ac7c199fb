import { formatCents } from '../../../shared/money.js';
import type { OrderView } from '../../../shared/schemas/orders.js';

/**
 * The order's money as lines that add up: subtotal − discount + shipping + tax = total; then what
 * was paid, and when anything was refunded, what was refunded and kept (net).
 */
export function OrderFigures({ order }: { order: OrderView }) {
  const refunded = order.refundedCents ?? 0;
  const rows: { label: string; value: string; strong?: boolean; rule?: boolean }[] = [
    { label: 'Subtotal', value: formatCents(order.subtotalCents) },
    ...(order.discountCents > 0 || order.couponCode
      ? [{ label: order.couponCode ? `Discount (coupon ${order.couponCode})` : 'Discount', value: `−${formatCents(order.discountCents)}` }]
      : []),
    {
      label: order.shippingMethod ? `Shipping (${order.shippingMethod})` : 'Shipping',
      value: order.shippingCents === 0 ? 'Free' : formatCents(order.shippingCents),
    },
    { label: 'Tax', value: formatCents(order.taxCents) },
    { label: 'Total', value: formatCents(order.totalCents), strong: true, rule: true },
    { label: 'Paid', value: formatCents(order.paidCents ?? 0), rule: true },
    // Nothing refunded: no "Refunded −$0.00", and the net is what was paid (said once, above).
    ...(refunded > 0
      ? [
          { label: 'Refunded', value: `−${formatCents(refunded)}` },
          ...(order.netCents !== undefined ? [{ label: 'Net', value: formatCents(order.netCents), strong: true }] : []),
        ]
      : []),
  ];
  return (
    <section aria-labelledby="order-figures-title" className="rounded-lg border border-stone-200 p-4">
      <h3 id="order-figures-title" className="mb-2 font-semibold text-stone-900">
        Payment summary
      </h3>
      <dl className="grid max-w-md grid-cols-[1fr_auto] gap-y-1 text-sm" data-testid="order-figures">
        {rows.map((r) => (
          <div key={r.label} className={`contents ${r.strong ? 'font-semibold text-stone-900' : 'text-stone-800'}`}>
            <dt className={`pr-4 ${r.rule ? 'border-t border-stone-200 pt-1' : ''}`}>{r.label}</dt>
            <dd className={`text-right tabular-nums ${r.rule ? 'border-t border-stone-200 pt-1' : ''}`}>{r.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
