import { useSyncExternalStore } from 'react';
import {
  isStoredCart,
  DEFAULT_CART_COLOR,
  DEFAULT_CART_SIZE,
  EMPTY_CART,
  type CartLine,
  type CartProduct,
  type StoredCart,
} from './stored-cart.js';

export type { CartLine, CartProduct, StoredCart };

export const CART_STORAGE_KEY = 'cart';

export type Cart = StoredCart & {
  /** Number of units (sum of quantities). */
  itemCount: number;
  /** Sum of price × quantity, in cents. */
  totalCents: number;
};

export type LineKey = { productId: string; size: string; color: string };

function derive(stored: StoredCart): Cart {
  let itemCount = 0;
  let totalCents = 0;
  for (const line of stored.items) {
    itemCount += line.quantity;
    totalCents += line.product.priceCents * line.quantity;
  }
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

let snapshot: Cart = derive(typeof window === 'undefined' ? EMPTY_CART : readStorage());
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

function write(next: StoredCart): void {
  snapshot = derive(next);
  try {
    const { items, appliedCouponCode, appliedCouponDiscountCents, couponError, freeProduct } = next;
    window.localStorage.setItem(
      CART_STORAGE_KEY,
      JSON.stringify({ items, appliedCouponCode, appliedCouponDiscountCents, couponError, freeProduct }),
    );
  } catch {
    // Quota or privacy mode: the cart still works for this tab.
  }
  emit();
}

function sameLine(line: CartLine, key: LineKey): boolean {
  return line.product.id === key.productId && line.size === key.size && line.color === key.color;
}

function onStorage(e: StorageEvent): void {
  // Another tab changed the cart (or cleared storage): re-read it.
  if (e.key !== CART_STORAGE_KEY && e.key !== null) return;
  snapshot = derive(readStorage());
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

export function getCart(): Cart {
  return snapshot;
}

export type AddToCartInput = {
  product: CartProduct;
  quantity: number;
  /** The product's stock; the merged line never exceeds it. */
  inventory: number;
  size?: string;
  color?: string;
};

/** Adds units (merging with the same product, size and colour); returns how many were actually added. */
export function addToCart({ product, quantity, inventory, size = DEFAULT_CART_SIZE, color = DEFAULT_CART_COLOR }: AddToCartInput): number {
  const key = { productId: product.id, size, color };
  const items = snapshot.items;
  const existing = items.find((l) => sameLine(l, key));
  const have = existing?.quantity ?? 0;
  const wanted = Math.max(0, Math.floor(quantity));
  const next = Math.min(have + wanted, Math.max(0, inventory));
  const added = next - have;
  if (added <= 0) return 0;
  const cartProduct: CartProduct = { id: product.id, name: product.name, priceCents: product.priceCents, images: product.images };
  write({
    ...snapshot,
    items: existing
      ? items.map((l) => (sameLine(l, key) ? { ...l, product: cartProduct, quantity: next } : l))
      : [...items, { product: cartProduct, quantity: next, size, color }],
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
  return { productId: line.product.id, size: line.size, color: line.color };
}

const EMPTY_DERIVED = derive(EMPTY_CART);
/** The server renders an empty cart; hydration starts from the same, then shows the stored cart. */
function getServerCart(): Cart {
  return EMPTY_DERIVED;
}

export function useCart(): Cart {
  return useSyncExternalStore(subscribe, getCart, getServerCart);
}
