import { useId, useState } from 'react';
import { formatCents } from '../../shared/money.js';
import { lineHeading } from '../../shared/line-options.js';
import type { Quote } from '../../shared/schemas/checkout.js';
import { FreeGiftBadge } from '../ui/free-gift.js';
import { OrderSummaryTotals } from '../ui/order-summary.js';
import { ChevronDownIcon } from '../ui/icons.js';
import { ProductImage } from '../ui/product-image.js';
import { Skeleton } from '../ui/skeleton.js';
import { SubscriptionLineNote } from '../cart/subscription-line.js';

/**
 * Each line as the server priced it, then the totals. On a wide screen the side panel beside the
 * form; below the lg breakpoint it comes first, above the form, collapsed to "Order Summary" and
 * the total (a disclosure button opens the lines), so a phone shows what is paid before the form.
 */
export function CheckoutSummary({
  quote,
  couponCode,
  updating,
  className = '',
}: {
  quote: Quote | undefined;
  couponCode: string | null;
  updating: boolean;
  className?: string;
}) {
  const lines = quote?.lines.filter((l) => !l.missing) ?? [];
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  return (
    <section
      aria-labelledby="checkout-summary-title"
      className={`flex h-fit flex-col gap-5 rounded-xl border border-stone-200 bg-stone-50 p-4 sm:p-6 lg:sticky lg:top-24 ${className}`}
    >
      <h2 id="checkout-summary-title" className="text-lg font-semibold text-stone-900">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={detailsId}
          onClick={() => setOpen((o) => !o)}
          className="flex min-h-11 w-full items-center justify-between gap-3 rounded-md text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 lg:hidden"
        >
          <span className="flex items-center gap-2">
            Order Summary
            <ChevronDownIcon size={18} className={`shrink-0 transition-transform ${open ? 'rotate-180' : ''}`} />
          </span>
          {quote ? (
            <span className={`font-bold ${updating ? 'opacity-60' : ''}`} data-testid="summary-toggle-total">
              {formatCents(quote.totalCents)}
            </span>
          ) : (
            <Skeleton className="h-6 w-20" />
          )}
        </button>
        <span className="hidden lg:inline">Order Summary</span>
      </h2>
      <div id={detailsId} className={`flex-col gap-5 lg:flex ${open ? 'flex' : 'hidden'}`}>
        {quote ? (
          <ul className="flex flex-col gap-4">
            {lines.map((l) => (
              <li key={`${l.productId}|${l.variantId}|${l.size}|${l.color}|${l.isFreeGift}|${l.everyWeeks ?? ''}`} className="flex gap-3">
                <ProductImage
                  src={l.image ?? undefined}
                  alt=""
                  width={56}
                  height={56}
                  className="h-14 w-14 shrink-0 rounded-md object-cover"
                />
                <div className="flex min-w-0 flex-1 flex-col gap-1">
                  <p className="text-sm font-medium text-stone-900">{lineHeading(l).title}</p>
                  <SubscriptionLineNote everyWeeks={l.everyWeeks} discountPercent={l.planDiscountPercent} />
                  <p className="text-sm text-stone-700">
                    {lineHeading(l).options && <span data-line-options="">{lineHeading(l).options} · </span>}
                    Qty: {l.quantity}
                  </p>
                  {l.isFreeGift && <FreeGiftBadge />}
                </div>
                <p className={`text-sm font-semibold ${l.isFreeGift ? 'text-brand-800' : 'text-stone-900'}`}>
                  {l.isFreeGift ? 'FREE' : formatCents(l.lineTotalCents)}
                </p>
              </li>
            ))}
          </ul>
        ) : (
          <div className="flex flex-col gap-3" aria-hidden="true">
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
          </div>
        )}
        <div className="border-t border-stone-200 pt-4">
          <OrderSummaryTotals quote={quote} couponCode={couponCode} updating={updating} />
        </div>
      </div>
    </section>
  );
}
