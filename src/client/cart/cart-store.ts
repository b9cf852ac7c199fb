import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { CART_COOKIE, CART_COOKIE_MAX_AGE_S, cartCookieLine, encodeCartCookie } from '../../shared/cart-cookie.js';
import { queryKeys } from '../../shared/query-keys.js';
import { useHydrated } from '../lib/use-hydrated.js';
import type { Quote } from '../../shared/schemas/checkout.js';
import {
  cartFromQuote,
  isStoredCart,
  variantOfCartLine,
  withoutCouponWhenEmpty,
  DEFAULT_CART_COLOR,
  DEFAULT_CART_SIZE,
  EMPTY_CART,
  type CartContents,
  type CartLine,
  type CartProduct,
  type StoredCart,
} from '../../shared/stored-cart.js';

export type { CartLine, CartProduct, StoredCart };

export const CART_STORAGE_KEY = 'cart';

export type Cart = StoredCart & {
  /** Number of units (sum of quantities), the free gift included when the cart has one. */
  itemCount: number;
  /** Sum of price × quantity, in cents. */
  totalCents: number;
};

/**
 * A line is a variant (`variantId` absent: the product's first) in a size and colour, bought once or
 * as a subscription at an interval (`everyWeeks`): one-time and subscription lines are separate.
 */
export type LineKey = { productId: string; variantId?: string; size: string; color: string; everyWeeks?: number };

function derive(stored: StoredCart): Cart {
  let itemCount = 0;
  let totalCents = 0;
  for (const line of stored.items) {
    itemCount += line.quantity;
    totalCents += line.product.priceCents * line.quantity;
  }
  // The gift is a line of the cart the shopper sees (one unit, free): the counts say so too.
  if (stored.freeProduct && stored.items.length > 0) itemCount += 1;
  return { ...stored, itemCount, totalCents };
}

function readStorage(): StoredCart {
  try {
    const raw = window.localStorage.getItem(CART_STORAGE_KEY);
    if (!raw) return EMPTY_CART;
    const parsed: unknown = JSON.parse(raw);
    return isStoredCart(parsed) ? parsed : EMPTY_CART;
  } catch {
    // Storage disabled or corrupt JSON: start with an empty cart rather than crash.
    return EMPTY_CART;
  }
}

/** What the `cart` cookie should hold for this cart (null: too large to mirror). */
function cookieValueOf(cart: StoredCart): string | null {
  return encodeCartCookie({
    lines: cart.items.map((l) => cartCookieLine(l.product.id, l.quantity, l.size, l.color, l.product.variantId, l.everyWeeks)),
    couponCode: cart.appliedCouponCode,
  });
}

/**
 * Mirrors the cart's lines and coupon into the `cart` cookie, so the server can draw the cart and
 * checkout pages with their content (shared/cart-cookie.ts). A cart too large for a cookie drops
 * it: the server then draws the outline and the browser fills it in.
 */
function writeCookie(cart: StoredCart): void {
  if (typeof document === 'undefined') return;
  const value = cookieValueOf(cart);
  const current = document.cookie.split('; ').find((c) => c.startsWith(`${CART_COOKIE}=`));
  // A visitor who never had anything in the cart gets no cookie at all.
  if (current === `${CART_COOKIE}=${value}` || (!current && (value === null || cart.items.length === 0))) return;
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${CART_COOKIE}=${value ?? ''}; Path=/; Max-Age=${value === null ? 0 : CART_COOKIE_MAX_AGE_S}; SameSite=Lax${secure}`;
}

let snapshot: Cart = derive(typeof window === 'undefined' ? EMPTY_CART : readStorage());
writeCookie(snapshot);
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

function write(wanted: StoredCart, derived?: Cart): void {
  const next = withoutCouponWhenEmpty(wanted);
  snapshot = derived && next === wanted ? derived : derive(next);
  try {
    const { items, appliedCouponCode, appliedCouponDiscountCents, couponError, freeProduct } = next;
    window.localStorage.setItem(
      CART_STORAGE_KEY,
      JSON.stringify({ items, appliedCouponCode, appliedCouponDiscountCents, couponError, freeProduct }),
    );
  } catch {
    // Quota or privacy mode: the cart still works for this tab.
  }
  writeCookie(next);
  emit();
}

function sameLine(line: CartLine, key: LineKey): boolean {
  return (
    line.product.id === key.productId &&
    variantOfCartLine(line.product.id, line.product.variantId) === variantOfCartLine(key.productId, key.variantId) &&
    line.size === key.size &&
    line.color === key.color &&
    line.everyWeeks === key.everyWeeks
  );
}

/**
 * The variant a line is kept with: the one chosen, the product's first included. A line that names
 * none (older carts, a product without options added from its card) means the first; but a product
 * sold in versions is refused at checkout without one (checkout/create/check-bounds.ts), so a chosen
 * first version must stay named.
 */
function keptVariant(_productId: string, variantId: string | undefined): string | undefined {
  return variantId || undefined;
}

function onStorage(e: StorageEvent): void {
  // Another tab changed the cart (or cleared storage): re-read it.
  if (e.key !== CART_STORAGE_KEY && e.key !== null) return;
  snapshot = derive(readStorage());
  writeCookie(snapshot);
  emit();
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener('storage', onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}

/** Told whenever the cart changes, in this tab or another (the saved-cart sync listens). */
export const subscribeToCart = subscribe;

/** Replaces the cart with one the account kept (sign-in, or another device changed it). */
export function replaceCart(next: StoredCart): void {
  write(next);
}

export function getCart(): Cart {
  return snapshot;
}

export type AddToCartInput = {
  /** With `variantId` for a product with options (its name then the line's title). */
  product: CartProduct;
  quantity: number;
  /** The variant's stock (what can be bought now); its lines together never exceed it. */
  inventory: number;
  size?: string;
  color?: string;
  /** A subscription line, delivered every this many weeks (absent: bought once). */
  everyWeeks?: number;
};

/** Units of a variant the cart holds, over all its lines. */
export function unitsInCart(productId: string, variantId: string | undefined): number {
  const variant = variantOfCartLine(productId, variantId);
  return snapshot.items.reduce(
    (n, l) => (l.product.id === productId && variantOfCartLine(l.product.id, l.product.variantId) === variant ? n + l.quantity : n),
    0,
  );
}

/**
 * Adds units (merging with the same variant, size, colour and interval); returns how many were
 * actually added. The variant's lines together never exceed its inventory (what can be bought now).
 */
export function addToCart({
  product,
  quantity,
  inventory,
  size = DEFAULT_CART_SIZE,
  color = DEFAULT_CART_COLOR,
  everyWeeks,
}: AddToCartInput): number {
  // A subscription line always names its variant (the cookie must, before its interval).
  const variantId = keptVariant(product.id, product.variantId) ?? (everyWeeks ? `var_${product.id}` : undefined);
  const key = { productId: product.id, variantId, size, color, everyWeeks };
  const items = snapshot.items;
  const existing = items.find((l) => sameLine(l, key));
  const have = existing?.quantity ?? 0;
  const inCart = unitsInCart(product.id, variantId);
  const wanted = Math.max(0, Math.floor(quantity));
  const added = Math.min(wanted, Math.max(0, inventory - inCart));
  if (added <= 0) return 0;
  const next = have + added;
  const cartProduct: CartProduct = {
    id: product.id,
    name: product.name,
    priceCents: product.priceCents,
    images: product.images,
    ...(variantId ? { variantId } : {}),
  };
  write({
    ...snapshot,
    items: existing
      ? items.map((l) => (sameLine(l, key) ? { ...l, product: cartProduct, quantity: next } : l))
      : [...items, { product: cartProduct, quantity: next, size, color, everyWeeks }],
  });
  return added;
}

export function removeFromCart(key: LineKey): void {
  write({ ...snapshot, items: snapshot.items.filter((l) => !sameLine(l, key)) });
}

/** Sets a line's quantity, kept between 1 and the inventory when known. */
export function setCartQuantity(key: LineKey, quantity: number, inventory?: number): void {
  let q = Math.max(1, Math.floor(quantity));
  if (inventory !== undefined) q = Math.min(q, Math.max(1, inventory));
  write({ ...snapshot, items: snapshot.items.map((l) => (sameLine(l, key) ? { ...l, quantity: q } : l)) });
}

export function clearCart(): void {
  write(EMPTY_CART);
}

/** A product the cart wants more of than this shopper can buy now. */
/** Keeps a coupon the server accepted, with the discount and free gift of its quote. */
export function applyCoupon(code: string, discountCents: number, freeProduct: StoredCart['freeProduct']): void {
  write({ ...snapshot, appliedCouponCode: code, appliedCouponDiscountCents: discountCents, couponError: null, freeProduct });
}

/** Drops the coupon; `error` (the reason, if any) is kept in couponError for the coupon field. */
export function removeCoupon(error: string | null = null): void {
  write({ ...snapshot, appliedCouponCode: null, appliedCouponDiscountCents: 0, couponError: error, freeProduct: null });
}

export function setCouponError(error: string | null): void {
  if (snapshot.couponError !== error) write({ ...snapshot, couponError: error });
}

export function lineKey(line: CartLine): LineKey {
  return { productId: line.product.id, variantId: line.product.variantId, size: line.size, color: line.color, everyWeeks: line.everyWeeks };
}

const EMPTY_DERIVED = derive(EMPTY_CART);
const pageCarts = new WeakMap<CartContents, Cart>();

/**
 * The cart the page was drawn with: the cart and checkout pages embed what the `cart` cookie
 * holds (`queryKeys.cart()`) and the server's quote for it, and the cart is derived from both by
 * `cartFromQuote`, once per page (a stable snapshot for React). The server's rendering and the
 * browser's hydration read the same data, so they draw the same cart. Null: drawn without it.
 */
function pageCartOf(queryClient: QueryClient): Cart | null {
  const contents = queryClient.getQueryData<CartContents>(queryKeys.cart());
  if (!contents) return null;
  let cart = pageCarts.get(contents);
  if (!cart) {
    const quote = contents.lines.length
      ? queryClient.getQueryData<Quote>(queryKeys.cartQuote(contents.lines, contents.couponCode, null))
      : undefined;
    if (contents.lines.length && !quote) return null;
    pageCarts.set(contents, (cart = derive(cartFromQuote(contents, quote))));
  }
  return cart;
}

/**
 * Called once the page's data is in the cache. When this browser's cart holds the lines and coupon
 * the page was drawn with (the usual case: the cookie mirrors it), the store takes that cart, with
 * today's names, prices and pictures from the quote, so hydration ends with nothing to redraw.
 * Otherwise the browser's own cart wins and replaces the page's after hydration.
 */
export function adoptPageCart(queryClient: QueryClient): void {
  const page = pageCartOf(queryClient);
  if (!page) return;
  // The same lines and coupon are the same cookie (a cart too large for one keeps its own).
  const value = cookieValueOf(page);
  if (value === null || value !== cookieValueOf(snapshot)) return;
  const { couponError } = snapshot;
  if (couponError === null) write(page, page);
  else write({ ...page, couponError });
}

/**
 * The cart. While the server renders and the browser hydrates, it is the cart the page was drawn
 * with (or an empty one on pages drawn without it); afterwards, this browser's.
 */
export function useCart(): Cart {
  const queryClient = useQueryClient();
  return useSyncExternalStore(subscribe, getCart, () => pageCartOf(queryClient) ?? EMPTY_DERIVED);
}

/**
 * Whether the page can show the cart's content: after hydration, or from the first paint when
 * the server drew it with the cart. Until then a page shows an outline of the same size.
 */
export function useCartKnown(): boolean {
  const hydrated = useHydrated();
  return pageCartOf(useQueryClient()) !== null || hydrated;
}
