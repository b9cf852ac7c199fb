import type { QuoteLine } from '../../shared/schemas/checkout.js';
import { getCart, replaceCart, type CartLine } from './cart-store.js';
import { variantOfCartLine } from '../../shared/stored-cart.js';

// The cart against the stock, used by the cart and checkout pages only: kept out of the
// storefront's first load (cart-store.ts is in it, for the header's count).

export type StockShortfall = { productId: string; variantId: string; name: string; wanted: number; available: number };

/**
 * The variants the cart wants more of than can be bought, from the server's quote of this very
 * cart (the caller makes sure it is current). A variant over several lines is counted once, over
 * all of them. Free gifts are left out: the server adds one only when there is
 * room. The quote counts this browser's own open checkout (back from the payment page) as its own.
 */
export function stockShortfalls(lines: readonly QuoteLine[]): StockShortfall[] {
  const byVariant = new Map<string, StockShortfall>();
  for (const l of lines) {
    if (l.isFreeGift || l.missing || !l.insufficientStock) continue;
    const variantId = variantOfCartLine(l.productId, l.variantId);
    const seen = byVariant.get(variantId);
    if (seen) seen.wanted += l.quantity;
    else byVariant.set(variantId, { productId: l.productId, variantId, name: l.name, wanted: l.quantity, available: l.inventory });
  }
  const short: StockShortfall[] = [];
  for (const s of byVariant.values()) if (s.wanted > s.available) short.push(s);
  return short;
}

/**
 * Lowers the cart to what can be bought: each short variant's lines, in cart order, share what is
 * left; a line left with nothing is removed.
 */
export function fitCartToStock(shortfalls: readonly StockShortfall[]): void {
  if (shortfalls.length === 0) return;
  const left = new Map(shortfalls.map((s) => [s.variantId, Math.max(0, s.available)]));
  const items: CartLine[] = [];
  const cart = getCart();
  for (const line of cart.items) {
    const variantId = variantOfCartLine(line.product.id, line.product.variantId);
    const remaining = left.get(variantId);
    if (remaining === undefined) {
      items.push(line);
      continue;
    }
    const quantity = Math.min(line.quantity, remaining);
    left.set(variantId, remaining - quantity);
    if (quantity > 0) items.push(quantity === line.quantity ? line : { ...line, quantity });
  }
  replaceCart({ ...cart, items });
}
