import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import type { CartCookie } from '../../shared/cart-cookie.js';
import { CartCookieValue } from '../../shared/schemas/checkout.js';
import { queryKeys, type InitialQuery } from '../../shared/query-keys.js';
import { EMPTY_CART_CONTENTS, type CartContents } from '../../shared/stored-cart.js';
import { normalizeCouponCode } from '../../shared/coupons.js';
import { priceCart, type PricingContext } from './service.js';

/** The `cart` cookie's lines and coupon, or null when it is absent or not what the shop writes. */
export function readCartCookie(raw: string | undefined): CartCookie | null {
  if (!raw || raw.length > 8000) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = CartCookieValue.safeParse(json);
  return parsed.success ? { lines: parsed.data.l, couponCode: parsed.data.c } : null;
}

/**
 * What the cart and checkout pages embed for the cart: its contents as the cookie says
 * (`queryKeys.cart()`, lines and coupon only) and the quote for them, priced from the database as
 * POST /api/cart/quote prices it, under the very key the browser asks for it with. The browser's
 * code derives the cart it shows from both (shared/stored-cart.ts `cartFromQuote`), on the server
 * as in the browser, so the server's HTML is the finished page and the browser asks for no quote
 * at start-up. An empty cart needs no quote.
 */
export async function pageCartData(
  db: Kysely<Database>,
  dialect: Dialect,
  cookie: CartCookie,
  ctx: PricingContext,
): Promise<InitialQuery[]> {
  const contents: CartContents = {
    // As the browser's cart keys its quote: the variant as the line names it (the product's first
    // included, when chosen on its page: client/cart/cart-store.ts keptVariant).
    lines: cookie.lines.map(([productId, quantity, size, color, variantId, everyWeeks]) => ({
      productId,
      quantity,
      size,
      color,
      ...(variantId ? { variantId } : {}),
      ...(everyWeeks !== undefined ? { everyWeeks } : {}),
    })),
    couponCode: cookie.couponCode,
  };
  if (contents.lines.length === 0) return [{ key: queryKeys.cart(), data: contents }];
  const couponCode = cookie.couponCode ? normalizeCouponCode(cookie.couponCode) || null : null;
  const {
    couponId: _couponId,
    unchosen: _unchosen,
    ...quote
  } = await priceCart(db, dialect, { lines: contents.lines, couponCode, shippingOptionId: null }, ctx);
  return [
    { key: queryKeys.cart(), data: contents },
    { key: queryKeys.cartQuote(contents.lines, contents.couponCode, null), data: quote },
  ];
}

/** A cart known to be empty (no cookie: its last line took it): the page is drawn empty at once. */
export function emptyPageCartData(): InitialQuery[] {
  return [{ key: queryKeys.cart(), data: EMPTY_CART_CONTENTS }];
}
