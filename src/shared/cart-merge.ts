import { withoutCouponWhenEmpty, type StoredCart } from './stored-cart.js';
import { variantOfLine } from './variants.js';

/**
 * The cart's rules that run only on some pages (the confirmation, sign-in): kept apart from
 * stored-cart.ts so the storefront's first load does not carry them.
 */

/** A line of a paid order, as the order's view gives it. */
export type BoughtLine = {
  productId: string;
  variantId?: string;
  size: string;
  color: string;
  quantity: number;
  isFreeGift: boolean;
  /** A subscription line's interval (null or absent: bought once): it leaves only the cart line of the same interval. */
  everyWeeks?: number | null;
};

/**
 * The cart once a paid order's lines have left it: each bought line lowers the cart's lines of the
 * same variant by the quantity bought, and a line left with nothing is dropped.
 * What the shopper added after starting that checkout (another tab, Back from the card page)
 * stays. The free gift was never a stored line; the order's coupon is used up, so it goes too.
 */
export function withoutBoughtLines(cart: StoredCart, order: { items: readonly BoughtLine[]; couponCode: string | null }): StoredCart {
  const items = linesLeft(cart.items, order.items, (l) => lineKey(l.product.id, l.product.variantId, l.everyWeeks));
  const couponUsed = sameCoupon(order.couponCode, cart.appliedCouponCode);
  const next: StoredCart = couponUsed
    ? { ...cart, items, appliedCouponCode: null, appliedCouponDiscountCents: 0, couponError: null, freeProduct: null }
    : { ...cart, items };
  return withoutCouponWhenEmpty(next);
}

/** The same for a cart the server keeps (lines without names or prices): what the payment leaves of it. */
export function plainWithoutBoughtLines(cart: PlainCart, order: { items: readonly BoughtLine[]; couponCode: string | null }): PlainCart {
  const lines = linesLeft(cart.lines, order.items, (l) => lineKey(l.productId, l.variantId, l.everyWeeks));
  return { lines, couponCode: lines.length === 0 || sameCoupon(order.couponCode, cart.couponCode) ? null : cart.couponCode };
}

/**
 * Lines are the same when they are of the same variant (its size and colour come with it) and the
 * same interval: a one-time line and a subscription line of one variant are two lines (issue [4/8]).
 */
const lineKey = (productId: string, variantId: string | undefined, everyWeeks: number | null | undefined) =>
  `${productId}\n${variantOfLine(productId, variantId)}\n${everyWeeks ?? ''}`;

const sameCoupon = (used: string | null, held: string | null) =>
  used !== null && held !== null && used.toUpperCase() === held.toUpperCase();

/**
 * Each line lowered by what the order bought: first of the same variant, size and colour, then
 * what is left of the same variant on its other lines (the server names a variant's size and
 * colour itself); a line left with nothing dropped.
 */
function linesLeft<L extends { quantity: number; size: string; color: string }>(
  lines: readonly L[],
  bought: readonly BoughtLine[],
  variantOf: (l: L) => string,
): L[] {
  const exact = new Map<string, number>();
  for (const l of bought) {
    if (l.isFreeGift) continue;
    const k = `${lineKey(l.productId, l.variantId, l.everyWeeks)}\n${l.size}\n${l.color}`;
    exact.set(k, (exact.get(k) ?? 0) + l.quantity);
  }
  const take = (left: Map<string, number>, k: string, want: number) => {
    const n = Math.min(want, left.get(k) ?? 0);
    if (n > 0) left.set(k, (left.get(k) ?? 0) - n);
    return n;
  };
  const quantities = lines.map((line) => line.quantity - take(exact, `${variantOf(line)}\n${line.size}\n${line.color}`, line.quantity));
  const byVariant = new Map<string, number>();
  for (const [k, n] of exact) {
    const variant = k.split('\n').slice(0, 3).join('\n');
    if (n > 0) byVariant.set(variant, (byVariant.get(variant) ?? 0) + n);
  }
  const out: L[] = [];
  lines.forEach((line, i) => {
    const quantity = quantities[i]! - take(byVariant, variantOf(line), quantities[i]!);
    if (quantity > 0) out.push(quantity === line.quantity ? line : { ...line, quantity });
  });
  return out;
}

/** A cart line without names or prices: what the server keeps for a signed-in customer. */
export type PlainCartLine = { productId: string; variantId?: string; quantity: number; size: string; color: string; everyWeeks?: number };
export type PlainCart = { lines: PlainCartLine[]; couponCode: string | null };

/**
 * The guest's cart merged into the account's on sign-in (decision 0030): the same product, size,
 * colour and interval add their quantities (the cart's stock-follow then caps what cannot be bought), the
 * account's lines first, then the guest's new ones; the coupon is the guest's if it has one (the
 * latest choice), else the account's. An empty result carries no coupon. `maxLines` and
 * `maxQuantity` keep it within what the server accepts.
 */
export function mergeCarts(account: PlainCart, guest: PlainCart, maxLines = 100, maxQuantity = 10_000): PlainCart {
  const lines: PlainCartLine[] = account.lines.map((l) => ({ ...l }));
  for (const g of guest.lines) {
    const same = lines.find(
      (l) =>
        lineKey(l.productId, l.variantId, l.everyWeeks) === lineKey(g.productId, g.variantId, g.everyWeeks) &&
        l.size === g.size &&
        l.color === g.color,
    );
    if (same) same.quantity = Math.min(maxQuantity, same.quantity + g.quantity);
    else if (lines.length < maxLines) lines.push({ ...g });
  }
  return { lines, couponCode: lines.length === 0 ? null : (guest.couponCode ?? account.couponCode) };
}
