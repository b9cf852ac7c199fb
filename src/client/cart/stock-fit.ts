import type { QuoteLine } from '../../shared/schemas/checkout.js';
import { getCart, replaceCart, type CartLine } from './cart-store.js';
import { variantOfCartLine } from '../../shared/stored-cart.js';

// The cart against the stock, used by the cart and checkout pages only: kept out of the
// storefront's first load (cart-store.ts is in it, for the header's count).

export type StockShortfall = {
  productId: string;
  variantId: string;
  name: string;
  wanted: number;
  available: number;
  /** Units other shoppers' unpaid checkouts keep: they may come back, so the cart keeps them. */
  held: number;
  /** When enough of them are back for the cart (ISO), or null. */
  heldUntil: string | null;
};

/** The words for units kept in other shoppers' checkouts: the cart's line and the checkout's list say them alike. */
export const HELD_STOCK_MESSAGES = {
  line: (held: number, time: string | null) =>
    `Held in ${held === 1 ? "another shopper's checkout" : "other shoppers' checkouts"}${time ? ` until ${time}` : ''}`,
  canBuyNow: (available: number, wanted: number) =>
    available > 0
      ? `${available} of your ${wanted} can be bought now. We keep the line in your cart; you can check out once they are back.`
      : 'We keep the line in your cart; you can check out once they are back.',
  checkoutTitle: "Some items in your cart are held in other shoppers' checkouts",
  checkoutHelp: 'You can pay once they are back, or update your cart to what is left now.',
  checkout: (name: string, held: number, time: string | null) =>
    `${name}: held in ${held === 1 ? "another shopper's checkout" : "other shoppers' checkouts"}${time ? ` until ${time}` : ''}. You can pay once ${held === 1 ? 'it is' : 'they are'} back.`,
} as const;

/** A time later today as the shopper's clock reads it, to the minute ("3:42 PM", "15:42"). */
export function heldUntilTime(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? null : at.toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });
}

/** Whether what keeps this variant short is only units other checkouts hold (the shelf has enough). */
export function shortOnlyForHolds(s: StockShortfall): boolean {
  return s.held > 0 && s.wanted <= s.available + s.held;
}

/** The checkout's title and help for what is short: held in other checkouts when that is all it is. */
export function shortfallHeading(
  short: readonly StockShortfall[],
  outOfStock: { title: string; help: string },
): { title: string; help: string } {
  return short.length > 0 && short.every(shortOnlyForHolds)
    ? { title: HELD_STOCK_MESSAGES.checkoutTitle, help: HELD_STOCK_MESSAGES.checkoutHelp }
    : outOfStock;
}

/** What the checkout's list says of a variant short: held until a time, or the units left. */
export function shortfallText(s: StockShortfall, time: string | null, outOfStock: (name: string, available: number) => string): string {
  return shortOnlyForHolds(s) ? HELD_STOCK_MESSAGES.checkout(s.name, s.held, time) : outOfStock(s.name, s.available);
}

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
    else
      byVariant.set(variantId, {
        productId: l.productId,
        variantId,
        name: l.name,
        wanted: l.quantity,
        available: l.inventory,
        held: l.held ?? 0,
        heldUntil: l.heldUntil ?? null,
      });
  }
  const short: StockShortfall[] = [];
  for (const s of byVariant.values()) if (s.wanted > s.available) short.push(s);
  return short;
}

/**
 * Lowers the cart to what can be bought: each short variant's lines, in cart order, share what is
 * left; a line left with nothing is removed. With `keepHeld` (the cart following stock by itself)
 * units other shoppers' checkouts hold count as left: they may come back, and a line lowered for
 * them would not grow again when they do. The shopper's own "update to what's left" takes them out.
 */
export function fitCartToStock(shortfalls: readonly StockShortfall[], { keepHeld = false }: { keepHeld?: boolean } = {}): void {
  const lowered = keepHeld ? shortfalls.filter((s) => !shortOnlyForHolds(s)) : shortfalls;
  if (lowered.length === 0) return;
  const left = new Map(lowered.map((s) => [s.variantId, Math.max(0, s.available + (keepHeld ? s.held : 0))]));
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
