import { withoutCouponWhenEmpty, type StoredCart } from './stored-cart.js';

/**
 * The cart's rules that run only on some pages (the confirmation, sign-in): kept apart from
 * stored-cart.ts so the storefront's first load does not carry them.
 */

/** A line of a paid order, as the order's view gives it. */
export type BoughtLine = { productId: string; size: string; color: string; quantity: number; isFreeGift: boolean };

/**
 * The cart once a paid order's lines have left it: each bought line (same product, size and
 * colour) lowers the cart's line by the quantity bought, and a line left with nothing is dropped.
 * What the shopper added after starting that checkout (another tab, Back from the card page)
 * stays. The free gift was never a stored line; the order's coupon is used up, so it goes too.
 */
export function withoutBoughtLines(cart: StoredCart, order: { items: readonly BoughtLine[]; couponCode: string | null }): StoredCart {
  const items = linesLeft(cart.items, order.items, (l) => lineKey(l.product.id, l.size, l.color));
  const couponUsed = sameCoupon(order.couponCode, cart.appliedCouponCode);
  const next: StoredCart = couponUsed
    ? { ...cart, items, appliedCouponCode: null, appliedCouponDiscountCents: 0, couponError: null, freeProduct: null }
    : { ...cart, items };
  return withoutCouponWhenEmpty(next);
}

/** The same for a cart the server keeps (lines without names or prices): what the payment leaves of it. */
export function plainWithoutBoughtLines(cart: PlainCart, order: { items: readonly BoughtLine[]; couponCode: string | null }): PlainCart {
  const lines = linesLeft(cart.lines, order.items, (l) => lineKey(l.productId, l.size, l.color));
  return { lines, couponCode: lines.length === 0 || sameCoupon(order.couponCode, cart.couponCode) ? null : cart.couponCode };
}

const lineKey = (productId: string, size: string, color: string) => `${productId}\n${size}\n${color}`;

const sameCoupon = (used: string | null, held: string | null) =>
  used !== null && held !== null && used.toUpperCase() === held.toUpperCase();

/** Each line lowered by what the order bought of the same product, size and colour; a line left with nothing dropped. */
function linesLeft<L extends { quantity: number }>(lines: readonly L[], bought: readonly BoughtLine[], keyOf: (l: L) => string): L[] {
  const left = new Map<string, number>();
  for (const l of bought) {
    if (l.isFreeGift) continue;
    const k = lineKey(l.productId, l.size, l.color);
    left.set(k, (left.get(k) ?? 0) + l.quantity);
  }
  const out: L[] = [];
  for (const line of lines) {
    const k = keyOf(line);
    const take = Math.min(line.quantity, left.get(k) ?? 0);
    if (take > 0) left.set(k, (left.get(k) ?? 0) - take);
    const quantity = line.quantity - take;
    if (quantity > 0) out.push(quantity === line.quantity ? line : { ...line, quantity });
  }
  return out;
}

/** A cart line without names or prices: what the server keeps for a signed-in customer. */
export type PlainCartLine = { productId: string; quantity: number; size: string; color: string };
export type PlainCart = { lines: PlainCartLine[]; couponCode: string | null };

/**
 * The guest's cart merged into the account's on sign-in (decision 0030): the same product, size
 * and colour add their quantities (the cart's stock-follow then caps what cannot be bought), the
 * account's lines first, then the guest's new ones; the coupon is the guest's if it has one (the
 * latest choice), else the account's. An empty result carries no coupon. `maxLines` and
 * `maxQuantity` keep it within what the server accepts.
 */
export function mergeCarts(account: PlainCart, guest: PlainCart, maxLines = 100, maxQuantity = 10_000): PlainCart {
  const lines: PlainCartLine[] = account.lines.map((l) => ({ ...l }));
  for (const g of guest.lines) {
    const same = lines.find((l) => l.productId === g.productId && l.size === g.size && l.color === g.color);
    if (same) same.quantity = Math.min(maxQuantity, same.quantity + g.quantity);
    else if (lines.length < maxLines) lines.push({ ...g });
  }
  return { lines, couponCode: lines.length === 0 ? null : (guest.couponCode ?? account.couponCode) };
}
