import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { transactionWithRetry } from '../db/locks.js';
import { HttpError } from '../http/errors.js';
import { recordAudit, type AuditBy } from '../audit/audit.js';
import { unitsHeldBy } from '../inventory/holds-admin.js';
import { HOLDS_MESSAGES, type EndHoldResult } from '../../shared/schemas/holds.js';
import { endOpenSession } from '../orders/end-open-session.js';

/**
 * The owner ends a stock hold (issue [2/8], decision 0042): its unpaid checkout ends by the shop's
 * one path (endOpenSession, the order locked first): the payment session is ended (Stripe's page
 * closed by the worker), the reservation and the coupon hold released, the order cancelled, and who
 * did it is recorded in the audit log, in one transaction. A payment that still arrives is refused
 * by fulfilment and, when money was taken, refunded as a stray payment. 404 for an unknown order;
 * 409 when it holds nothing now (paid, ended or run out). The holds themselves are inventory's
 * (inventory/holds-admin.ts).
 */
export async function endHold(
  db: Kysely<Database>,
  dialect: Dialect,
  orderId: string,
  by: AuditBy,
  now = new Date(),
): Promise<EndHoldResult> {
  return transactionWithRetry(db, async (trx) => {
    const order = await trx.selectFrom('orders').select(['id', 'order_number', 'user_id']).where('id', '=', orderId).executeTakeFirst();
    if (!order) throw new HttpError(404, HOLDS_MESSAGES.notFound);
    const units = await unitsHeldBy(trx, orderId, now);
    const session = await trx
      .selectFrom('payment_sessions')
      .select('id')
      .where('order_id', '=', orderId)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (units === 0 || !session) throw new HttpError(409, HOLDS_MESSAGES.alreadyEnded);
    if (!(await endOpenSession(trx, dialect, orderId, session.id, 'cancelled'))) throw new HttpError(409, HOLDS_MESSAGES.alreadyEnded);
    await recordAudit(trx, { by, action: 'stock.hold_ended', targetUserId: order.user_id, details: { orderId, units }, at: now });
    return { orderId, orderNumber: order.order_number, units };
  });
}
