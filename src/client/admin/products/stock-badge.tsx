/** "Sold out" at 0, "Low" at or below the product's threshold (the server's `stock=out` and `stock=low`); nothing above it. */
export function StockBadge({ onHand, threshold }: { onHand: number; threshold: number }) {
  if (onHand > threshold) return null;
  const out = onHand <= 0;
  return (
    <span
      className={`inline-flex shrink-0 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${
        out ? 'bg-red-100 text-red-900' : 'bg-amber-100 text-amber-900'
      }`}
    >
      {out ? 'Sold out' : 'Low'}
    </span>
  );
}
