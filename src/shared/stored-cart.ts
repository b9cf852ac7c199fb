import type { CartQuoteKeyLine } from './query-keys.js';
import type { Quote } from './schemas/checkout.js';

/** Cart lines use these when a product has no size or colour choice (spec section 3). */
export const DEFAULT_CART_SIZE = 'One Size';
export const DEFAULT_CART_COLOR = 'Default';

/**
 * What a cart line shows of what it sells. `variantId` is set only for a variant other than the
 * product's first (`var_<id>`): a line without it means that one, as the cookie and older carts do.
 * `name` is the line's title ('Concentrated Cleaner — Lavender, 1 L').
 */
export type CartProduct = { id: string; name: string; priceCents: number; images: string[]; variantId?: string };
/** `everyWeeks`: a subscription line, delivered every this many weeks (absent: bought once; issue [4/8]). */
export type CartLine = { product: CartProduct; quantity: number; size: string; color: string; everyWeeks?: number };

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
    items: lines.map(({ productId, variantId, quantity, size, color, everyWeeks }) => {
      const q = quote ? quotedLine(quote.lines, productId, variantId, size, color, everyWeeks) : undefined;
      const known = q && !q.missing;
      return {
        product: {
          id: productId,
          name: known ? q.name : 'Unknown Product',
          priceCents: known ? q.priceCents : 0,
          images: known && q.image ? [q.image] : [],
          ...(variantId ? { variantId } : {}),
        },
        quantity,
        size,
        color,
        everyWeeks,
      };
    }),
    appliedCouponCode: couponCode,
    appliedCouponDiscountCents: quote?.coupon ? quote.discountCents : 0,
    couponError: null,
    freeProduct: quote ? giftOf(quote) : null,
  };
}

/** The variant a cart line means: its own, else the product's first. */
export const variantOfCartLine = (productId: string, variantId: string | undefined) => variantId || `var_${productId}`;

/**
 * The quote's line for a cart line: the same variant, size and colour, else the same variant (the
 * server names the size and colour of a variant with a Size or Colour option itself); always of
 * the same interval (a one-time line and a subscription line of one variant are two lines).
 */
export function quotedLine<L extends Quote['lines'][number]>(
  lines: readonly L[],
  productId: string,
  variantId: string | undefined,
  size: string,
  color: string,
  everyWeeks?: number,
): L | undefined {
  const variant = variantOfCartLine(productId, variantId);
  const same = lines.filter(
    (l) =>
      !l.isFreeGift &&
      l.productId === productId &&
      (l.variantId ?? `var_${l.productId}`) === variant &&
      (l.everyWeeks ?? undefined) === everyWeeks,
  );
  return same.find((l) => l.size === size && l.color === color) ?? same[0];
}

/**
 * The free gift this quote adds to the cart: the coupon's free product when the server found room
 * for it (a gift out of stock is named by the coupon but is not in the cart, nor in its count).
 */
export function giftOf(quote: Pick<Quote, 'lines' | 'coupon'>): StoredCart['freeProduct'] {
  return quote.lines.some((l) => l.isFreeGift) ? (quote.coupon?.freeProduct ?? null) : null;
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
    (p.variantId === undefined || isStr(p.variantId)) &&
    isStr(p.name) &&
    isInt(p.priceCents) &&
    Array.isArray(p.images) &&
    p.images.every(isStr) &&
    isInt(v.quantity) &&
    v.quantity >= 1 &&
    isStr(v.size) &&
    isStr(v.color) &&
    (v.everyWeeks === undefined || isInt(v.everyWeeks))
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
  // A discount or gift comes only with a coupon.
  if (cart.items.length > 0 || cart.appliedCouponCode === null) return cart;
  return { ...cart, appliedCouponCode: null, appliedCouponDiscountCents: 0, freeProduct: null };
}
