import { CHECKOUT_MESSAGES } from '../../shared/checkout-text.js';
import { shippingOptionMinimumText } from '../../shared/free-shipping.js';
import type { Quote } from '../../shared/schemas/checkout.js';
import { shippingText } from '../lib/format.js';
import { Skeleton } from '../ui/skeleton.js';
import { shippingUnlockText } from '../ui/no-shipping-notice.js';

/** Admin-entered estimates may be bare ranges ('5-7', the spec's default). */
function deliveryEstimate(estimatedDays: string): string {
  return /^\d+(\s*-\s*\d+)?$/.test(estimatedDays.trim()) ? `${estimatedDays.trim()} business days` : estimatedDays;
}

/**
 * The options the subtotal allows, as a radio group. The server picks for the shopper when the
 * pick is missing or no longer available (a free option, else the cheapest); this shows its pick.
 */
export function ShippingMethod({
  quote,
  selectedId,
  onSelect,
  disabled,
}: {
  quote: Quote | undefined;
  selectedId: string | null;
  onSelect: (id: string) => void;
  disabled: boolean;
}) {
  if (!quote) {
    return (
      <div className="flex flex-col gap-3" aria-busy="true">
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  }
  const options = quote.shippingOptions;
  const unlock = shippingUnlockText(quote);
  if (options.length === 0) {
    // The spec's empty chooser, with its hint: what to add for an option to ship the order.
    return (
      <div className="flex flex-col gap-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="no-shipping">
        <p>{CHECKOUT_MESSAGES.noShipping}</p>
        {unlock && <p>{unlock}</p>}
      </div>
    );
  }
  const hasFree = options.some((o) => o.priceCents === 0);
  const hasPaid = options.some((o) => o.priceCents > 0);
  return (
    <div className="flex flex-col gap-3">
      <div role="radiogroup" aria-label="Shipping method" className="flex flex-col gap-3">
        {options.map((o) => {
          const checked = o.id === selectedId;
          return (
            <label
              key={o.id}
              className={`flex cursor-pointer items-start gap-3 rounded-lg border p-4 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${
                checked ? 'border-brand-600 bg-brand-50' : 'border-stone-300 bg-white hover:border-brand-300'
              }`}
            >
              <input
                type="radio"
                name="shippingOption"
                value={o.id}
                checked={checked}
                disabled={disabled}
                onChange={() => onSelect(o.id)}
                className="mt-1 h-4 w-4 accent-brand-700"
              />
              <span className="flex flex-1 flex-col gap-0.5">
                <span className="flex items-baseline justify-between gap-3">
                  <span className="font-medium text-stone-900">{o.name}</span>
                  <span className={`font-semibold ${o.priceCents === 0 ? 'text-brand-800' : 'text-stone-900'}`}>
                    {shippingText(o.priceCents)}
                  </span>
                </span>
                <span className="text-sm text-stone-700">{deliveryEstimate(o.estimatedDays)}</span>
                {/* An option with a minimum says its rule from that minimum, qualified as the shop says it elsewhere. */}
                {shippingOptionMinimumText(o) ? (
                  <span className="text-sm text-stone-600" data-option-rule="">
                    {shippingOptionMinimumText(o)}
                  </span>
                ) : (
                  o.description && <span className="text-sm text-stone-600">{o.description}</span>
                )}
              </span>
            </label>
          );
        })}
      </div>
      {unlock && <p className="rounded-md bg-brand-50 px-3 py-2 text-sm text-brand-900">{unlock}</p>}
      {hasFree && hasPaid && <p className="text-sm text-stone-700">Need it sooner? Choose a paid option for faster delivery.</p>}
    </div>
  );
}
