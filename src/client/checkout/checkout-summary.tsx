import { formatCents } from '../../shared/money.js';
import type { Quote } from '../../shared/schemas/checkout.js';
import { FreeGiftBadge } from '../cart/free-gift.js';
import { OrderSummaryTotals } from '../cart/order-summary.js';
import { ProductImage } from '../ui/product-image.js';
import { Skeleton } from '../ui/skeleton.js';

/** The side panel: each line as the server priced it, then the totals. */
export function CheckoutSummary({ quote, couponCode, updating }: { quote: Quote | undefined; couponCode: string | null; updating: boolean }) {
  const lines = quote?.lines.filter((l) => !l.missing) ?? [];
  return (
    <section aria-labelledby="checkout-summary-title" className="flex h-fit flex-col gap-5 rounded-xl border border-stone-200 bg-stone-50 p-6 lg:sticky lg:top-24">
      <h2 id="checkout-summary-title" className="text-lg font-semibold text-stone-900">
        Order Summary
      </h2>
      {quote ? (
        <ul className="flex flex-col gap-4">
          {lines.map((l) => (
            <li key={`${l.productId}|${l.size}|${l.color}|${l.isFreeGift}`} className="flex gap-3">
              <ProductImage src={l.image ?? undefined} alt="" width={56} height={56} className="h-14 w-14 shrink-0 rounded-md object-cover" />
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <p className="text-sm font-medium text-stone-900">{l.name}</p>
                <p className="text-sm text-stone-700">Qty: {l.quantity}</p>
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
    </section>
  );
}
