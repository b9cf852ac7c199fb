import type { Kysely, Selectable } from 'kysely';
import type { Database, OrdersTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import type { LockedStock } from '../inventory/stock.js';
import type { ReturnLine } from '../../shared/schemas/inventory.js';
import { HttpError } from '../http/errors.js';
import { nowIso } from '../lib/ids.js';
import { formatCents } from '../../shared/money.js';
import { queueEmail } from '../email/outbox.js';
import { statusUpdateVariables, storedAddressLines } from '../email/order-email-variables.js';
import { endOpenSession } from './end-open-session.js';
import { awaitsOwnerPayment } from './placed.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { isShippableOrder } from '../../shared/schemas/orders.js';
import { notShippableMessage } from '../../shared/schemas/owner-orders.js';
import { parseJson } from '../lib/json.js';
import { emailOnTimeline, recordOrderEvent, type OrderEventActor } from './events.js';
import { applyStatusStock } from './order-units.js';
import { tookMoney } from './money-taken.js';
import { giveBackCouponAndPoints } from './give-back.js';
import { expireOwnerPaymentLinks } from './owner-payments.js';
import { statusMoveRefusal } from './status-rules.js';

type OrderRow = Selectable<OrdersTable>;

export type StatusChangeOptions = {
  actor: OrderEventActor;
  /** The list's and detail's "mark shipped": refused for an unpaid order (the edit form may set any status). */
  refuseUnpaidShipping?: boolean;
  /** Cancelling a paid order: the units the owner chose to return (default: all when not shipped, none when shipped). */
  returnLines?: ReturnLine[];
  /** false: no e-mail to the customer (the choice is kept on the timeline). Default: e-mailed, as the specification says. */
  notify?: boolean;
  /** Why the shop itself moved the order (kept on the timeline), when it was not the owner's choice. */
  cause?: string;
};

/**
 * What the cancellation e-mail says about the money, from the order's payment as it stands: not
 * paid, refunded (in full or in part, and how), or kept.
 */
export function cancellationMoneyLine(
  order: Pick<OrderRow, 'payment_status' | 'payment_provider' | 'total_cents' | 'refunded_cents'>,
): string {
  if (!tookMoney(order)) return 'This order was not paid, so nothing was charged.';
  const refunded = Number(order.refunded_cents);
  const total = Number(order.total_cents);
  const how =
    order.payment_provider === 'cash'
      ? 'in cash'
      : order.payment_provider === 'bank_transfer'
        ? 'by bank transfer'
        : 'to the card you paid with';
  if (refunded <= 0)
    return `The ${formatCents(total)} you paid has not been refunded. If you expected a refund, reply to this e-mail and we will sort it out.`;
  const card = how === 'to the card you paid with' ? ' It can take 5 to 10 business days to appear on your statement.' : '';
  if (refunded >= total) return `We have refunded the ${formatCents(total)} you paid in full, ${how}.${card}`;
  return `We have refunded ${formatCents(refunded)} of the ${formatCents(total)} you paid, ${how}.${card}`;
}

/** The customer's address for the order's e-mails: the order's own, or their account's. */
async function recipientOf(
  trx: Kysely<Database>,
  order: OrderRow,
): Promise<{ to: string | null; user: { full_name: string } | undefined }> {
  const user = order.user_id
    ? await trx.selectFrom('users').select(['email', 'full_name']).where('id', '=', order.user_id).executeTakeFirst()
    : undefined;
  return { to: order.email ?? user?.email ?? null, user };
}

/**
 * The one status change, for every place a status changes (the list, the detail, the edit form,
 * the cancel that refunds, and bulk changes), inside the caller's transaction with the order's
 * products and then the order locked (the shop's one lock order, docs/decisions/0005); `order` is
 * the locked row. Only the moves the one table allows (status-rules.ts; 409 with why not); the stock follows a cancel
 * or a reopening (order-units.ts); a cancel of a paid order gives back its coupon use and points; the
 * customer is e-mailed unless `notify` is false, and the timeline says which.
 */
export async function changeStatusLocked(
  trx: Kysely<Database>,
  dialect: Dialect,
  order: OrderRow,
  status: OrdersTable['status'],
  stock: Map<string, LockedStock>,
  { actor, refuseUnpaidShipping = false, returnLines, notify = true, cause }: StatusChangeOptions,
): Promise<void> {
  if (order.status === status) return;
  const refused = statusMoveRefusal(order, status);
  if (refused) throw new HttpError(409, refused);
  if (refuseUnpaidShipping && status === 'shipped' && !isShippableOrder(order.payment_status, order.origin))
    throw new HttpError(409, notShippableMessage(order.payment_status, ADMIN_MESSAGES.unpaidNotShippable));
  // Cancelling a paid order returns its units to stock (once); reopening it takes them again, or 409.
  await applyStatusStock(trx, order, status, actor, stock, returnLines);
  if (status === 'cancelled') {
    if (awaitsOwnerPayment(order)) {
      // Typed in by the owner: a payment link sent for it stops taking payments.
      await expireOwnerPaymentLinks(trx, order.id);
    } else if (order.payment_status === 'unpaid' && order.payment_session_id) {
      // A checkout still waiting for payment: its session ends and what it held goes back.
      await endOpenSession(trx, dialect, order.id, order.payment_session_id, 'cancelled');
    }
    if (tookMoney(order)) await giveBackCouponAndPoints(trx, order, actor, 'cancelled');
  }
  const shippedAt =
    status === 'shipped' ? (order.shipped_at ?? nowIso()) : status === 'pending' || status === 'processing' ? null : order.shipped_at;
  await trx.updateTable('orders').set({ status, shipped_at: shippedAt, updated_at: nowIso() }).where('id', '=', order.id).execute();
  const { to, user } = await recipientOf(trx, order);
  const emailed = notify && to !== null;
  // A shipment is news to the customer: it shows on their receipt (with its tracking number, if any).
  await recordOrderEvent(
    trx,
    order.id,
    'status.changed',
    actor,
    {
      from: order.status,
      to: status,
      trackingNumber: status === 'shipped' ? order.shipstation_tracking_number : null,
      carrierCode: status === 'shipped' ? order.shipping_carrier : null,
      notified: emailed,
      ...(cause ? { cause } : notify ? {} : { cause: 'The customer was not e-mailed (the owner chose so)' }),
    },
    new Date(),
    { customerVisible: status === 'shipped' },
  );
  if (!emailed || to === null) return;
  if (status === 'cancelled') {
    const address = storedAddressLines(order.shipping_address);
    const named = parseJson<{ name?: string } | string | null>(order.shipping_address, null);
    await queueEmail(trx, {
      to,
      order: emailOnTimeline(order.id, actor),
      templateId: 'order-cancelled',
      variables: {
        orderNumber: order.order_number,
        customerName: user?.full_name ?? (named && typeof named === 'object' && named.name ? named.name : 'Customer'),
        moneyLine: cancellationMoneyLine(order),
        shippingAddressLines: address,
      },
    });
    return;
  }
  await queueEmail(trx, {
    to,
    order: emailOnTimeline(order.id, actor),
    templateId: 'order-status-update',
    ...statusUpdateVariables(order, status, user),
  });
}
