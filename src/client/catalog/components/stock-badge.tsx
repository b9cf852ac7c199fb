/** The spec's low-stock line: 'Only N left' shows at 10 or fewer units unless the product has its own. */
const DEFAULT_LOW_STOCK_THRESHOLD = 10;

function isLowStock(inventory: number, threshold: number): boolean {
  return inventory > 0 && inventory <= threshold;
}

/**
 * 'Only N left'. The product page passes the product's own threshold (its stock notice); a card
 * does not know it and uses the shop's default.
 */
export function LowStockBadge({
  inventory,
  threshold = DEFAULT_LOW_STOCK_THRESHOLD,
  className = '',
}: {
  inventory: number;
  threshold?: number;
  className?: string;
}) {
  if (!isLowStock(inventory, threshold)) return null;
  return (
    <span className={`inline-flex items-center rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900 ${className}`}>
      Only {inventory} left
    </span>
  );
}
