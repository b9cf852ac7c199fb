import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { isPostgres } from '../db/query-helpers.js';
import { HttpError } from '../http/errors.js';
import { tookMoney } from './money-taken.js';
import type { OrderEventActor } from './events.js';
import { recordAudit } from '../audit/audit.js';
import { ORDER_MONEY_MESSAGES } from '../../shared/schemas/admin/order-money.js';
import { allOut, lockOrderProducts, returnUnits } from './order-units.js';

/**
 * Paid orders stay on the books: only unpaid checkouts and orders the owner entered (never paid)
 * may be deleted. Their refunds and timeline go with them (a deletable
 * order has no refunds).
 */
export async function deleteOrderIfUnpaid(db: Kysely<Database>, orderId: string, actor: OrderEventActor): Promise<void> {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  await transactionWithRetry(db, async (trx) => {
    // An order typed in with products holds its units: they go back before it goes (products locked first).
    const stock = await lockOrderProducts(trx, dialect, orderId);
    const order = await forUpdate(trx.selectFrom('orders').selectAll().where('id', '=', orderId), dialect).executeTakeFirst();
    if (!order) throw new HttpError(404, ORDER_MONEY_MESSAGES.orderNotFound);
    if (tookMoney(order) || Number(order.refunded_cents) > 0) throw new HttpError(409, ORDER_MONEY_MESSAGES.paidNotDeletable);
    const refunds = await trx.selectFrom('refunds').select('id').where('order_id', '=', orderId).limit(1).execute();
    if (refunds.length) throw new HttpError(409, ORDER_MONEY_MESSAGES.paidNotDeletable);
    if (order.origin === 'owner') await returnUnits(trx, order, stock, await allOut(trx, orderId), actor, 'deleted');
    await trx.deleteFrom('orders').where('id', '=', orderId).execute();
    // The order's timeline goes with it: who deleted it stays in the audit log.
    await recordAudit(trx, {
      by: { actorId: actor.userId, actingAsId: actor.actingAsUserId ?? null },
      action: 'order.deleted',
      targetUserId: order.user_id,
      details: { orderId, orderNumber: order.order_number },
    });
  });
}
