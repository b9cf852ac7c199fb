import { withoutBoughtLines, type BoughtLine } from '../../shared/cart-merge.js';
import { getCart, replaceCart } from './cart-store.js';

/**
 * Checkouts this browser started (order ids, newest last) whose lines are still in the cart: the
 * confirmation takes the bought lines out once, and only for a checkout started here, so opening
 * an old order's confirmation later, or on another device, never touches today's cart.
 */
const CHECKOUTS_KEY = 'cartCheckouts';
const CHECKOUTS_KEPT = 20;

function readCheckouts(): string[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(CHECKOUTS_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

function writeCheckouts(ids: string[]): void {
  try {
    window.localStorage.setItem(CHECKOUTS_KEY, JSON.stringify(ids.slice(-CHECKOUTS_KEPT)));
  } catch {
    // Storage disabled: the cart is then left as it is after payment, which loses nothing.
  }
}

/** Called as the shopper leaves for the payment page of this order. */
export function rememberCheckout(orderId: string): void {
  writeCheckouts([...readCheckouts().filter((id) => id !== orderId), orderId]);
}

/**
 * A paid order started in this browser: its lines (product, size, colour, quantity) and its coupon
 * leave the cart; anything added since stays (issue 29: paying used to empty the whole cart).
 * Returns whether the cart was changed. Other tabs follow through the `storage` event.
 */
export function removeBoughtLines(order: { id: string; items: readonly BoughtLine[]; couponCode: string | null }): boolean {
  const started = readCheckouts();
  if (!started.includes(order.id)) return false;
  writeCheckouts(started.filter((id) => id !== order.id));
  replaceCart(withoutBoughtLines(getCart(), order));
  return true;
}
