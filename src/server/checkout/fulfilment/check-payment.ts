import type { StrayPaymentReason } from '../../db/schema.js';
import type { LockedOrderRows } from './lock-order-rows.js';
import type { ProviderPayment } from '../../payments/provider.js';

export type { ProviderPayment };

/**
 * Whether this payment may be taken for its order, decided on the rows locked by lockOrderRows
 * (so a cancel, a recorded payment, a new link or an edited total either came before it, and is
 * seen here, or waits for it): null when it may, else why not. A payment refused here is never
 * the order's: the provider's money goes back (payments/stray-payments.ts), the built-in card page
 * takes none.
 */
export function paymentRefusal(
  rows: Pick<LockedOrderRows, 'order' | 'session'>,
  paid: ProviderPayment | null,
  now: Date,
): StrayPaymentReason | null {
  const { order, session } = rows;
  if (order.payment_status === 'paid' || order.payment_status === 'refunded') return 'order_paid';
  if (order.status === 'cancelled') return 'order_cancelled';
  if (session.status !== 'open') return 'session_ended';
  // The built-in card page closes at its time; Stripe closes its own page (a payment made in its
  // last second may reach us later, and the holds outlast it for that: checkout/service.ts).
  if (session.provider === 'test' && session.expires_at <= now.toISOString()) return 'session_ended';
  if (order.payment_session_id !== session.id) return 'session_replaced';
  if (Number(session.amount_cents) !== Number(order.total_cents)) return 'amount_changed';
  if (paid?.amountCents != null && paid.amountCents !== Number(session.amount_cents)) return 'amount_changed';
  return null;
}
