/**
 * Whose stock a back-office stock screen reads and changes: a product sold in one variant (the
 * product routes), or one variant of a product with options (the variant routes; the product
 * routes answer 409 "choose a variant" for such a product).
 */
export type StockTarget = { productId: string; variantId?: string | undefined };

/** `/api/admin/variants/:variantId/stock` or `/api/admin/products/:id/stock`. */
export function stockPath(target: StockTarget): string {
  return target.variantId
    ? `/api/admin/variants/${encodeURIComponent(target.variantId)}/stock`
    : `/api/admin/products/${encodeURIComponent(target.productId)}/stock`;
}

/** Under the Products tab's key: whatever refreshes the product list refreshes the stock too. */
export const stockKey = (target: StockTarget) => ['admin', 'products', 'stock', target.productId, target.variantId ?? ''] as const;
