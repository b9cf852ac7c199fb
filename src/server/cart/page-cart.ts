import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import type { CartCookie } from '../../shared/cart-cookie.js';
import { CartCookieValue } from '../../shared/schemas/checkout.js';
import { queryKeys, type InitialQuery } from '../../shared/query-keys.js';
import type { StoredCart } from '../../shared/stored-cart.js';
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
 * The cart and its quote as the cart and checkout pages show them first: lines from the cookie,
 * names, prices, stock and totals from the database (the same pricing as POST /api/cart/quote).
 * Both go into the page's data under the keys the browser uses, so the server's HTML is the
 * finished page and the browser asks for no quote at start-up.
 */
export async function pageCartData(db: Kysely<Database>, dialect: Dialect, cookie: CartCookie, ctx: PricingContext): Promise<InitialQuery[]> {
  const lines = cookie.lines.map(([productId, quantity, size, color]) => ({ productId, quantity, size, color }));
  const couponCode = cookie.couponCode ? normalizeCouponCode(cookie.couponCode) || null : null;
  const { couponId: _couponId, ...quote } = await priceCart(db, dialect, { lines, couponCode, shippingOptionId: null }, ctx);
  const quoted = (l: (typeof lines)[number]) =>
    quote.lines.find((q) => !q.isFreeGift && q.productId === l.productId && q.size === l.size && q.color === l.color);
  const cart: StoredCart = {
    items: lines.map((l) => {
      const q = quoted(l);
      const known = q && !q.missing;
      return {
        product: { id: l.productId, name: known ? q.name : 'Unknown Product', priceCents: known ? q.priceCents : 0, images: known && q.image ? [q.image] : [] },
        quantity: l.quantity,
        size: l.size,
        color: l.color,
      };
    }),
    appliedCouponCode: cookie.couponCode,
    appliedCouponDiscountCents: quote.coupon ? quote.discountCents : 0,
    couponError: null,
    freeProduct: quote.coupon?.freeProduct ?? null,
  };
  return [
    { key: queryKeys.cart(), data: cart },
    { key: queryKeys.cartQuote(lines, cookie.couponCode, null), data: quote },
  ];
}
