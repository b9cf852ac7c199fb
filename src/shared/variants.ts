/*
 * Products and their variants (decision 0036): what the server and the lazy storefront chunks share.
 * Every product has at least one variant; a product without options has exactly one, whose id is
 * `var_<productId>`. Data written before variants existed (cookies, stored carts, saved carts,
 * refund lines) names no variant and means that one.
 */

/** The id of a product's first variant: every product has it from its creation (or migration 0027). */
export function defaultVariantIdOf(productId: string): string {
  return `var_${productId}`;
}

/** What stock rows are locked and written in: by product, then by variant, everywhere (decision 0036). */
export function inStockOrder<T extends { productId: string; variantId: string }>(a: T, b: T): number {
  if (a.productId !== b.productId) return a.productId < b.productId ? -1 : 1;
  return a.variantId < b.variantId ? -1 : a.variantId > b.variantId ? 1 : 0;
}

/** The variant a line names: legacy lines (before variants, or saved without one) mean the product's first. */
export function variantOfLine(productId: string, variantId: string | null | undefined): string {
  return variantId || defaultVariantIdOf(productId);
}

/** A variant's option values as one label: 'Lavender, 1 L' ('' for a product without options). */
export function variantLabel(values: readonly string[]): string {
  return values.filter((v) => v !== '').join(', ');
}

/** A line's title: 'Concentrated Cleaner — Lavender, 1 L', or the product's name alone. */
export function lineTitle(name: string, label: string): string {
  return label ? `${name} — ${label}` : name;
}

/** The specification's cart and packing-slip fields: an option named Size gives the size, Colour or Color the colour. */
export function sizeAndColor(
  optionNames: readonly string[],
  values: readonly string[],
  defaults: { size: string; color: string },
): { size: string; color: string } {
  let size = defaults.size;
  let color = defaults.color;
  optionNames.forEach((name, i) => {
    const value = values[i];
    if (!value) return;
    const n = name.trim().toLowerCase();
    if (n === 'size') size = value;
    else if (n === 'colour' || n === 'color') color = value;
  });
  return { size, color };
}
