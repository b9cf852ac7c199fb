import { useEffect, useState } from 'react';
import type { Quote } from '../../shared/schemas/checkout.js';
import { fitCartToStock, shortOnlyForHolds, stockShortfalls, type StockShortfall } from './stock-fit.js';

/**
 * The cart follows stock (decision 0022): when the server's quote of the cart as it is now says a
 * product is wanted more than the shelf holds, its lines are lowered to the shelf (removed at 0)
 * before checkout. Units other shoppers' unpaid checkouts hold are not lowered away: the line stays,
 * says so, and can be paid for once they are back. Returns what was changed since the page opened,
 * for the page to say so.
 */
export function useCartFollowsStock(
  quote: Quote | undefined,
  updating: boolean,
): { changed: StockShortfall[]; subtotalBeforeCents: number | null } {
  const [changed, setChanged] = useState<StockShortfall[]>([]);
  // The subtotal of the cart as the shopper had filled it, before the first lowering: the page
  // compares it with the free-shipping minimum to say when lowering lost free shipping.
  const [subtotalBeforeCents, setSubtotalBefore] = useState<number | null>(null);
  useEffect(() => {
    // Only a quote of the cart as it is now: an older one would lower lines the shopper just changed.
    if (!quote || updating) return;
    const short = stockShortfalls(quote.lines).filter((s) => !shortOnlyForHolds(s));
    if (short.length === 0) return;
    fitCartToStock(short, { keepHeld: true });
    // What each line was lowered to: the shelf, held units included.
    const lowered = short.map((s) => ({ ...s, available: Math.max(0, s.available + s.held), held: 0, heldUntil: null }));
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the quote arrives after render; the cart is lowered once per answer
    setChanged((before) => [...before.filter((b) => !lowered.some((s) => s.variantId === b.variantId)), ...lowered]);
    setSubtotalBefore((before) => before ?? quote.subtotalCents);
  }, [quote, updating]);
  return { changed, subtotalBeforeCents };
}
