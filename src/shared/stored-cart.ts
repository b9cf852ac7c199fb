import type { CartQuoteKeyLine } from './query-keys.js';
import type { Quote } from './schemas/checkout.js';

/** Cart lines use these when a product has no size or colour choice (spec section 3). */
export const DEFAULT_CART_SIZE = 'One Size';
export const DEFAULT_CART_COLOR = 'Default';

export type CartProduct = { id: string; name: string; priceCents: number; images: string[] };
export type CartLine = { product: CartProduct; quantity: number; size: string; color: string };

/** The cart as kept in the browser under localStorage key `cart`; itemCount and total are derived. */
export type StoredCart = {
  items: CartLine[];
  appliedCouponCode: string | null;
  appliedCouponDiscountCents: number;
  couponError: string | null;
  /** The coupon's free gift when the server's quote adds it to the cart (one unit, counted in the cart's items). */
  freeProduct: { id: string; name: string } | null;
};

export const EMPTY_CART: StoredCart = {
  items: [],
  appliedCouponCode: null,
  appliedCouponDiscountCents: 0,
  couponError: null,
  freeProduct: null,
};

/**
 * What is in a cart, without names or prices: its lines and coupon, as the `cart` cookie mirrors
 * them (shared/cart-cookie.ts). The cart and checkout pages embed it under `queryKeys.cart()`
 * beside the quote for the same lines (`queryKeys.cartQuote(lines, couponCode, null)`).
 */
export type CartContents = { lines: CartQuoteKeyLine[]; couponCode: string | null };

/** What a page drawn for an empty cart embeds (no cookie: nothing in the cart). */
export const EMPTY_CART_CONTENTS: CartContents = { lines: [], couponCode: null };

/** The part of the quote (POST /api/cart/quote's answer) a cart takes its names and prices from. */
type CartPricing = Pick<Quote, 'lines' | 'coupon' | 'discountCents'>;

/**
 * The cart these contents make, with each product's name, price and picture and the coupon's
 * discount and gift from the server's quote for them (no quote: an empty cart's contents). The
 * one derivation of the cart a page is drawn with: the server's rendering (the cart store's
 * server snapshot) and the browser's hydration and store both use it, so they draw the same page.
 */
export function cartFromQuote({ lines, couponCode }: CartContents, quote: CartPricing | undefined): StoredCart {
  return {
    items: lines.map(({ productId, quantity, size, color }) => {
      const q = quote?.lines.find((l) => !l.isFreeGift && l.productId === productId && l.size === size && l.color === color);
      const known = q && !q.missing;
      return {
        product: {
          id: productId,
          name: known ? q.name : 'Unknown Product',
          priceCents: known ? q.priceCents : 0,
          images: known && q.image ? [q.image] : [],
        },
        quantity,
        size,
        color,
      };
    }),
    appliedCouponCode: couponCode,
    appliedCouponDiscountCents: quote?.coupon ? quote.discountCents : 0,
    couponError: null,
    freeProduct: quote ? giftOf(quote) : null,
  };
}

/**
 * The free gift this quote adds to the cart: the coupon's free product when the server found room
 * for it (a gift out of stock is named by the coupon but is not in the cart, nor in its count).
 */
export function giftOf(quote: Pick<Quote, 'lines' | 'coupon'>): StoredCart['freeProduct'] {
  const gift = quote.coupon?.freeProduct ?? null;
  return gift && quote.lines.some((l) => l.isFreeGift && l.productId === gift.id) ? gift : null;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isInt = (v: unknown): v is number => Number.isInteger(v);
const strOrNull = (v: unknown) => v === null || isStr(v);

function isCartLine(v: unknown): v is CartLine {
  if (!isObj(v) || !isObj(v.product)) return false;
  const p = v.product;
  return (
    isStr(p.id) &&
    isStr(p.name) &&
    isInt(p.priceCents) &&
    Array.isArray(p.images) &&
    p.images.every(isStr) &&
    isInt(v.quantity) &&
    v.quantity >= 1 &&
    isStr(v.size) &&
    isStr(v.color)
  );
}

/**
 * Checks what another tab, an older version of the shop or a curious user left in localStorage.
 * Hand-written rather than zod so the header's cart badge does not pull zod into the first load.
 */
export function isStoredCart(v: unknown): v is StoredCart {
  if (!isObj(v)) return false;
  const free = v.freeProduct;
  return (
    Array.isArray(v.items) &&
    v.items.every(isCartLine) &&
    strOrNull(v.appliedCouponCode) &&
    isInt(v.appliedCouponDiscountCents) &&
    strOrNull(v.couponError) &&
    (free === null || (isObj(free) && isStr(free.id) && isStr(free.name)))
  );
}

/**
 * A cart with no lines keeps no coupon: the coupon was chosen for what was in it, and one left
 * behind would be applied, unasked, to whatever the shopper adds next (issue 29).
 */
export function withoutCouponWhenEmpty(cart: StoredCart): StoredCart {
  if (cart.items.length > 0 || (cart.appliedCouponCode === null && cart.freeProduct === null && cart.appliedCouponDiscountCents === 0))
    return cart;
  return { ...cart, appliedCouponCode: null, appliedCouponDiscountCents: 0, freeProduct: null };
}

/** A line of a paid order, as the order's view gives it. */
export type BoughtLine = { productId: string; size: string; color: string; quantity: number; isFreeGift: boolean };

/**
 * The cart once a paid order's lines have left it: each bought line (same product, size and
 * colour) lowers the cart's line by the quantity bought, and a line left with nothing is dropped.
 * What the shopper added after starting that checkout (another tab, Back from the card page)
 * stays. The free gift was never a stored line; the order's coupon is used up, so it goes too.
 */
export function withoutBoughtLines(cart: StoredCart, order: { items: readonly BoughtLine[]; couponCode: string | null }): StoredCart {
  const bought = new Map<string, number>();
  const keyOf = (productId: string, size: string, color: string) => `${productId}\n${size}\n${color}`;
  for (const l of order.items) {
    if (l.isFreeGift) continue;
    const k = keyOf(l.productId, l.size, l.color);
    bought.set(k, (bought.get(k) ?? 0) + l.quantity);
  }
  const items: CartLine[] = [];
  for (const line of cart.items) {
    const k = keyOf(line.product.id, line.size, line.color);
    const take = Math.min(line.quantity, bought.get(k) ?? 0);
    if (take > 0) bought.set(k, (bought.get(k) ?? 0) - take);
    const quantity = line.quantity - take;
    if (quantity > 0) items.push(quantity === line.quantity ? line : { ...line, quantity });
  }
  const couponUsed =
    order.couponCode !== null && cart.appliedCouponCode !== null && order.couponCode.toUpperCase() === cart.appliedCouponCode.toUpperCase();
  const next: StoredCart = couponUsed
    ? { ...cart, items, appliedCouponCode: null, appliedCouponDiscountCents: 0, couponError: null, freeProduct: null }
    : { ...cart, items };
  return withoutCouponWhenEmpty(next);
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
