import { SUBSCRIPTION_STATUS_TEXT } from '../../../shared/subscriptions.js';
import type { SubscriptionStatus } from './subscription-schemas.js';

/** Each status's colours; a failing payment in amber (it needs the owner's eye), cancelled in grey. */
const TONE: Record<SubscriptionStatus, string> = {
  active: 'bg-green-100 text-green-900',
  paused: 'bg-blue-100 text-blue-900',
  payment_failing: 'bg-amber-100 text-amber-900',
  cancelled: 'bg-stone-200 text-stone-800',
};

export function SubscriptionStatusBadge({ status }: { status: SubscriptionStatus }) {
  return (
    <span
      className={`inline-flex whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ${TONE[status]}`}
      data-testid="subscription-status"
    >
      {SUBSCRIPTION_STATUS_TEXT[status]}
    </span>
  );
}

/** A renewal's state, in the owner's words. */
export const CYCLE_STATUS_TEXT: Record<string, string> = {
  scheduled: 'Scheduled',
  charging: 'Charging',
  retrying: 'Payment failed, retrying',
  needs_customer: 'Waiting for the customer',
  waiting_stock: 'Waiting for stock',
  paid: 'Paid',
  skipped: 'Skipped',
  cancelled: 'Cancelled',
};

export const CYCLE_TONE: Record<string, string> = {
  paid: 'bg-green-600',
  skipped: 'bg-stone-400',
  cancelled: 'bg-stone-400',
  retrying: 'bg-amber-500',
  needs_customer: 'bg-amber-500',
  waiting_stock: 'bg-amber-500',
};
