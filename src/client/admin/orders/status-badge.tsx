import type { Status } from './order-api.js';

const STATUS_STYLES: Record<Status, string> = {
  pending: 'bg-yellow-100 text-yellow-900',
  processing: 'bg-blue-100 text-blue-900',
  shipped: 'bg-purple-100 text-purple-900',
  delivered: 'bg-green-100 text-green-900',
  cancelled: 'bg-red-100 text-red-900',
  completed: 'bg-green-100 text-green-900',
};

export function OrderStatusBadge({ status }: { status: Status }) {
  return <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize ${STATUS_STYLES[status]}`}>{status}</span>;
}
