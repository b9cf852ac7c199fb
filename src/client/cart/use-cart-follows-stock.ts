import { useEffect, useState } from 'react';
import type { Quote } from '../../shared/schemas/checkout.js';
import { fitCartToStock, stockShortfalls, type StockShortfall } from '../lib/stock-fit.js';

/**
 * The cart follows stock (decision 0022): when the server's quote of the cart as it is now says a
 * product is wanted more than can be bought, its lines are lowered to what is left (removed at 0)
 * before checkout. Returns what was changed since the page opened, for the page to say so.
 */
export function useCartFollowsStock(quote: Quote | undefined, updating: boolean): StockShortfall[] {
  const [changed, setChanged] = useState<StockShortfall[]>([]);
  useEffect(() => {
    // Only a quote of the cart as it is now: an older one would lower lines the shopper just changed.
    if (!quote || updating) return;
    const short = stockShortfalls(quote.lines);
    if (short.length === 0) return;
    fitCartToStock(short);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the quote arrives after render; the cart is lowered once per answer
    setChanged((before) => [...before.filter((b) => !short.some((s) => s.variantId === b.variantId)), ...short]);
  }, [quote, updating]);
  return changed;
}
