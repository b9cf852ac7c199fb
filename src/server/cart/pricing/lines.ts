import type { VariantForPricing } from '../../lib/variant-pricing.js';
import { parseJson } from '../../lib/json.js';
import type { CartLineInput } from '../../../shared/schemas/checkout.js';
import { DEFAULT_CART_COLOR, DEFAULT_CART_SIZE } from '../../../shared/stored-cart.js';
import { defaultVariantIdOf } from '../../../shared/variants.js';

export type MergedLine = {
  productId: string;
  variantId: string;
  quantity: number;
  size: string;
  color: string;
  /** The request named no variant (read as the product's first). */
  unnamed: boolean;
  /** A subscription line's interval in weeks; null: bought once. */
  everyWeeks: number | null;
};

/**
 * Lines of the same variant (and size and colour, as the specification's cart keeps them) and the
 * same interval are one line: a one-time line and a subscription line of one variant stay two.
 */
export function mergeLines(lines: CartLineInput[]): MergedLine[] {
  const merged = new Map<string, MergedLine>();
  for (const l of lines) {
    const variantId = l.variantId ?? defaultVariantIdOf(l.productId);
    const size = l.size || DEFAULT_CART_SIZE;
    const color = l.color || DEFAULT_CART_COLOR;
    const everyWeeks = l.everyWeeks ?? null;
    const key = JSON.stringify([l.productId, variantId, size, color, everyWeeks]);
    const prev = merged.get(key);
    if (prev) {
      prev.quantity += l.quantity;
      prev.unnamed ||= !l.variantId;
    } else merged.set(key, { productId: l.productId, variantId, quantity: l.quantity, size, color, unnamed: !l.variantId, everyWeeks });
  }
  return [...merged.values()];
}

/** The variants the coupon's gift may be: the one it names (if still for sale), else its product's enabled ones in order. */
export function giftCandidates<V extends VariantForPricing>(variants: V[], productId: string, named: string | null | undefined): V[] {
  const ofProduct = variants.filter((v) => v.productId === productId && v.enabled);
  return named ? ofProduct.filter((v) => v.variantId === named) : ofProduct;
}

/** A variant's picture: its own, else its product's first. */
export function imageOf(v: VariantForPricing): string | null {
  return v.image ?? parseJson<string[]>(v.images, [])[0] ?? null;
}

/** The variants read for a cart, with each one's level and the units open checkouts keep. */
export type StockView = {
  variants: VariantForPricing[];
  levels: Map<string, number>;
  held: Map<string, number>;
  /** Checkout (lock) only: each variant's stock item and SKU, read with its price. */
  checkoutVariants?: Map<string, { itemId: string | null; sku: string | null }>;
};
