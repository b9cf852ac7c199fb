import type { OrderView } from '../../shared/schemas/orders.js';
import { BEING_PREPARED_LABEL } from '../../shared/order-words.js';
import { capitalize } from '../lib/format.js';

/** Spec badge colours: pending yellow, processing blue, shipped purple, delivered green, cancelled red. */
export const ORDER_STATUS_TONE: Record<OrderView['status'], string> = {
  pending: 'bg-yellow-100 text-yellow-900',
  processing: 'bg-blue-100 text-blue-900',
  shipped: 'bg-purple-100 text-purple-900',
  delivered: 'bg-green-100 text-green-900',
  completed: 'bg-green-100 text-green-900',
  cancelled: 'bg-red-100 text-red-900',
};

/**
 * An order's status in its colour; `compact` for the back office's tables and headers. There, a
 * paid order not yet shipped (`toShip`) says "To ship" rather than "Completed" (the spec's
 * status a paid checkout gets, which reads as done); its status stays `completed`. The customer's
 * pages pass `preparing` for the same orders (shared `isToShipOrder`): "Paid, being prepared".
 */
export function StatusBadge({
  status,
  compact = false,
  toShip = false,
  preparing = false,
}: {
  status: OrderView['status'];
  compact?: boolean;
  toShip?: boolean;
  preparing?: boolean;
}) {
  const text = compact ? 'text-xs font-semibold' : 'text-sm font-medium';
  if (preparing)
    return (
      <span
        className={`inline-flex whitespace-nowrap rounded-full px-2.5 py-0.5 ${text} bg-blue-100 text-blue-900`}
        data-testid="order-status"
      >
        {BEING_PREPARED_LABEL}
      </span>
    );
  if (toShip && status === 'completed')
    return (
      <span
        className={`inline-flex whitespace-nowrap rounded-full px-2.5 py-0.5 ${text} bg-orange-100 text-orange-900`}
        title="Status: Completed"
      >
        To ship
      </span>
    );
  return (
    <span className={`inline-flex rounded-full px-2.5 py-0.5 ${text} ${ORDER_STATUS_TONE[status]}`} data-testid="order-status">
      {capitalize(status)}
    </span>
  );
}
