import type { Status } from './order-api.js';

/**
 * Red flag on an order paid for units that were no longer in stock (its checkout's hold had
 * lapsed): the owner must restock or refund. The text says what was short.
 */
export function StockShortfallBadge({ shortfall }: { shortfall: string | null | undefined }) {
  if (!shortfall) return null;
  return (
    <span
      className="inline-flex shrink-0 whitespace-nowrap rounded-full bg-red-700 px-2.5 py-0.5 text-xs font-semibold text-white"
      title={shortfall}
    >
      Stock short
      <span className="sr-only">: {shortfall}</span>
    </span>
  );
}

/**
 * Chart fills in the badges' hues, a shade darker so each bar keeps 3:1 against the white card.
 * Delivered and completed share the badge's green; the chart labels every bar, so colour is never
 * the only cue.
 */
export const STATUS_CHART_COLORS: Record<Status, string> = {
  pending: '#a16207', // yellow-700
  processing: '#2563eb', // blue-600
  shipped: '#9333ea', // purple-600
  delivered: '#16a34a', // green-600
  cancelled: '#dc2626', // red-600
  completed: '#166534', // green-800
};
