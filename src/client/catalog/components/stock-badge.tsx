/** The spec's low-stock threshold: 'Only N left' shows at 10 or fewer units. */
const LOW_STOCK_THRESHOLD = 10;

function isLowStock(inventory: number): boolean {
  return inventory > 0 && inventory <= LOW_STOCK_THRESHOLD;
}

export function LowStockBadge({ inventory, className = '' }: { inventory: number; className?: string }) {
  if (!isLowStock(inventory)) return null;
  return (
    <span className={`inline-flex items-center rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900 ${className}`}>
      Only {inventory} left
    </span>
  );
}
