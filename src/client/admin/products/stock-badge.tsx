import type { AdminLowVariant } from '../../../shared/schemas/admin/variants.js';

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

/**
 * A product with options in the Products tab: the level of its lowest variant when one is low or
 * sold out (what the alerts and the "Lowest stock first" order go by, with its badge), else the
 * units on hand over all its variants.
 */
export function VariantsInventory({ product }: { product: { inventory: number; lowVariants: readonly AdminLowVariant[] } }) {
  // The server lists the low variants lowest first.
  const lowest = product.lowVariants[0];
  if (!lowest) {
    return (
      <span className="whitespace-nowrap">
        {product.inventory} <span className="text-xs text-stone-600">in all</span>
      </span>
    );
  }
  return (
    <span className="inline-flex items-center justify-end gap-2 whitespace-nowrap">
      <StockBadge onHand={lowest.onHand} threshold={lowest.threshold} />
      {lowest.onHand} <span className="text-xs text-stone-600">lowest variant</span>
    </span>
  );
}

/** The variants at or below their thresholds, lowest first, each a button that opens its stock. */
export function LowVariants({
  product,
  lowVariants,
  onChoose,
}: {
  product: string;
  lowVariants: readonly AdminLowVariant[];
  onChoose: (variantId: string) => void;
}) {
  if (lowVariants.length === 0) return null;
  return (
    <ul className="flex flex-col items-end gap-0.5 text-xs" aria-label={`Low variants of ${product}`}>
      {lowVariants.map((v) => (
        <li key={v.variantId}>
          <button
            type="button"
            onClick={() => onChoose(v.variantId)}
            className="rounded text-right text-brand-800 underline underline-offset-2 hover:text-brand-900 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            {v.label || 'Default'}: {v.onHand} on hand
            <span className="sr-only">{v.alertState === 'out' ? ', sold out' : ', low'}: open its stock</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
