import { CHECKOUT_MESSAGES } from '../../shared/checkout-text.js';
import { formatCents } from '../../shared/money.js';
import type { Quote } from '../../shared/schemas/checkout.js';

/** True when the server found no shipping option for this cart's subtotal (it then refuses the checkout). */
export function cannotShip(quote: Quote | undefined): boolean {
  return Boolean(quote && quote.lines.some((l) => !l.missing) && quote.selectedShippingOptionId === null);
}

/** The spec's hint: the spend that unlocks the next shipping option, or null when none would. */
export function shippingUnlockText(quote: Quote): string | null {
  const unlock = quote.nextShippingUnlock;
  return unlock ? CHECKOUT_MESSAGES.shippingUnlock(formatCents(unlock.amountCents), unlock.optionName) : null;
}

/**
 * Why the shopper cannot go on (cart's Proceed, checkout's Pay): no option ships this subtotal,
 * the spend that would unlock one, and that checkout waits for it. `id` is for aria-describedby.
 */
export function NoShippingNotice({
  quote,
  id,
  reasonOnly = false,
  className = '',
}: {
  quote: Quote;
  id: string;
  /** Only why the shopper cannot go on (the checkout's chooser above already says the rest). */
  reasonOnly?: boolean;
  className?: string;
}) {
  const unlock = shippingUnlockText(quote);
  return (
    <div id={id} role="status" className={`flex flex-col gap-1 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ${className}`}>
      {!reasonOnly && <p className="font-medium">{CHECKOUT_MESSAGES.noShipping}</p>}
      {!reasonOnly && unlock && <p>{unlock}</p>}
      <p>{CHECKOUT_MESSAGES.noShippingBlocked}</p>
    </div>
  );
}
