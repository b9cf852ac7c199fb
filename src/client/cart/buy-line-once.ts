import { getCart, lineKey, replaceCart, type LineKey } from './cart-store.js';
import { variantOfCartLine } from '../../shared/stored-cart.js';

// Used by the cart page only: kept out of the storefront's first load (cart-store.ts is in it).

const sameKey = (a: LineKey, b: LineKey) =>
  a.productId === b.productId &&
  // A line naming its product's first variant and one naming none are the same variant.
  variantOfCartLine(a.productId, a.variantId) === variantOfCartLine(b.productId, b.variantId) &&
  a.size === b.size &&
  a.color === b.color &&
  a.everyWeeks === b.everyWeeks;

/**
 * A subscription line bought once instead (its plan is off, or no longer offers its interval;
 * issue [4/8]): it joins the variant's one-time line when the cart has one, else becomes it, in
 * its place.
 */
export function buyLineOnce(key: LineKey): void {
  const cart = getCart();
  const line = cart.items.find((l) => sameKey(lineKey(l), key));
  if (!line || line.everyWeeks === undefined) return;
  const once = cart.items.find((l) => sameKey(lineKey(l), { ...key, everyWeeks: undefined }));
  const { everyWeeks: _weeks, ...bare } = line;
  const items = once
    ? cart.items.filter((l) => l !== line).map((l) => (l === once ? { ...l, quantity: l.quantity + line.quantity } : l))
    : cart.items.map((l) => (l === line ? bare : l));
  replaceCart({ ...cart, items });
}
