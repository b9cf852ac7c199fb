/**
 * The cart lives in the browser (localStorage `cart`); a copy of its lines and coupon is kept in
 * the `cart` cookie so the server can draw the cart and checkout pages with their content, prices
 * and totals already in the HTML. The server reads it as input like any other: it prices the lines
 * from the database and never trusts anything else about them.
 *
 * Value: URI-encoded JSON `{ "l": [[productId, quantity, size, color, variantId?, everyWeeks?], …], "c": coupon | null }`;
 * the variant is written only when it is not the product's first (`var_<productId>`), so a cart of
 * products without options writes the cookie it always did. A subscription line (issue [4/8]) adds
 * its interval in weeks as a 6th element, with the variant always written before it; a one-time
 * line writes what it always did, so older cookies read the same.
 */
export const CART_COOKIE = 'cart';

/** Browsers keep cookies up to 4 KB; a cart larger than this is not mirrored (the page draws its outline). */
const CART_COOKIE_MAX_CHARS = 3500;

/** Kept as long as the session of a shopper who comes back within the month. */
export const CART_COOKIE_MAX_AGE_S = 30 * 24 * 3600;

export type CartCookieLine = [productId: string, quantity: number, size: string, color: string, variantId?: string, everyWeeks?: number];

/** A line as the cookie writes it: the variant only when not the product's first, unless an interval follows it. */
export function cartCookieLine(
  productId: string,
  quantity: number,
  size: string,
  color: string,
  variantId?: string,
  everyWeeks?: number,
): CartCookieLine {
  if (everyWeeks) return [productId, quantity, size, color, variantId || `var_${productId}`, everyWeeks];
  return variantId ? [productId, quantity, size, color, variantId] : [productId, quantity, size, color];
}

export type CartCookie = { lines: CartCookieLine[]; couponCode: string | null };

/** The cookie's value, or null when the cart is too large to mirror. */
export function encodeCartCookie(cart: CartCookie): string | null {
  const value = encodeURIComponent(JSON.stringify({ l: cart.lines, c: cart.couponCode }));
  return value.length <= CART_COOKIE_MAX_CHARS ? value : null;
}
