import type { OrdersTable } from '../db/schema.js';
import type { OrderPaymentStatus } from '../../shared/schemas/orders.js';

/**
 * What the owner and the customer see as the payment state. A partly refunded order keeps
 * `payment_status = 'paid'` in the table (it is still paid: shippable, not to be fulfilled again),
 * and shows as 'partially_refunded' from its `refunded_cents`.
 */
export function paymentStatusOf(order: { payment_status: OrdersTable['payment_status']; refunded_cents: number }): OrderPaymentStatus {
  if (order.payment_status === 'paid' && Number(order.refunded_cents) > 0) return 'partially_refunded';
  return order.payment_status;
}
