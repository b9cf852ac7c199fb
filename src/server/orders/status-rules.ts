import type { OrderOrigin, OrdersTable } from '../db/schema.js';
import { ORDER_STATUSES } from '../../shared/schemas/orders.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { ORDER_STATE_MESSAGES as M } from '../../shared/schemas/admin/orders.js';
import { isShippableOrder } from '../../shared/schemas/orders.js';
import { notShippableMessage } from '../../shared/schemas/owner-orders.js';

type Status = OrdersTable['status'];

/** What decides where an order may go: its status, its payment, and its label. */
export type OrderStateFacts = Pick<OrdersTable, 'status' | 'payment_status' | 'label_state'> & { origin: OrderOrigin };

/**
 * The one table of allowed status moves, for every place a status changes (the list, the detail,
 * the edit form, bulk changes) and for the label purchase: null when `to` is allowed, else why not,
 * in words the owner can act on. The specification let any status follow any other; that let a
 * paid order wait for payment again, a refunded one be delivered, a cancelled one be shipped and a
 * labelled one be taken back behind its label (decision 0038). The moves left are the owner's:
 *
 * | to                     | refused when                                                        |
 * |------------------------|---------------------------------------------------------------------|
 * | pending                | money was taken (paid, in part refunded, or refunded), or labelled  |
 * | completed / processing | refunded in full; an unpaid checkout; a label is bought             |
 * | shipped                | cancelled; not paid (or refunded in full)                           |
 * | delivered              | cancelled; not paid (or refunded in full)                           |
 * | cancelled              | a label is being bought or voided right now                         |
 *
 * An order the owner typed in (no payment provider) counts as paid for shipping: they took the
 * money themselves and vouch for it.
 */
export function statusMoveRefusal(order: OrderStateFacts, to: Status): string | null {
  if (order.status === to) return null;
  if (order.label_state === 'buying' || order.label_state === 'voiding') return M.labelBusyNoMove;
  const labelled = order.label_state === 'bought';
  const refundedInFull = order.payment_status === 'refunded';
  const shippable = isShippableOrder(order.payment_status, order.origin);
  switch (to) {
    case 'pending':
      if (order.payment_status === 'paid' || refundedInFull) return M.paidNotPending;
      return labelled ? M.labelledNotBack(to) : null;
    case 'completed':
    case 'processing':
      if (refundedInFull) return M.refundedNotReopened;
      if (!shippable) return M.unpaidNotPrepared;
      return labelled ? M.labelledNotBack(to) : null;
    case 'shipped':
      if (order.status === 'cancelled') return M.cancelledNotShippable;
      return shippable ? null : notShippableMessage(order.payment_status, ADMIN_MESSAGES.unpaidNotShippable);
    case 'delivered':
      if (order.status === 'cancelled') return M.cancelledNotDelivered;
      if (refundedInFull) return M.refundedNotReopened;
      return shippable ? null : M.unpaidNotPrepared;
    case 'cancelled':
      return null;
  }
}

/** The statuses the order may be moved to now (its own first), for the back office's menus. */
export function allowedStatuses(order: OrderStateFacts): Status[] {
  return ORDER_STATUSES.filter((s) => s === order.status || statusMoveRefusal(order, s) === null);
}

/**
 * Why the order cannot be given a label now, or null when it can: the move to shipped is allowed
 * and it has no label (nor one being bought or voided).
 */
export function labelRefusal(order: OrderStateFacts): string | null {
  if (order.label_state === 'bought') return ADMIN_MESSAGES.labelExists;
  if (order.label_state) return ADMIN_MESSAGES.labelBusy;
  if (order.status === 'cancelled') return M.cancelledNotShippable;
  if (order.status === 'shipped') return isShippableOrder(order.payment_status, order.origin) ? null : notShip(order);
  return statusMoveRefusal(order, 'shipped');
}

function notShip(order: OrderStateFacts): string {
  return notShippableMessage(order.payment_status, ADMIN_MESSAGES.unpaidNotShippable);
}
