import type { Kysely } from 'kysely';
import type { Database, OrdersTable } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { BULK_MESSAGES, type BulkOutcome } from '../../shared/schemas/bulk.js';
import { updateOrderStatus } from './admin-orders.js';
import type { OrderEventActor } from './events.js';

type Log = { error: (o: object, msg: string) => void };

/** The selected orders that exist, by id (their number and status), read in one query. */
export async function ordersByIds(db: Kysely<Database>, ids: readonly string[]) {
  const rows = await db
    .selectFrom('orders')
    .select(['id', 'order_number', 'status'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Runs one step per selected order, in the order given, one after another (each takes its own
 * transaction and locks, so a refusal rolls back that order only). A refusal the step gives (an
 * HttpError: unpaid and not shippable, stock gone for a reopening, …) is the order's reason for
 * being skipped; anything else is logged and reported without its internals.
 */
export async function eachOrder(
  db: Kysely<Database>,
  ids: readonly string[],
  log: Log,
  step: (order: { id: string; order_number: string; status: OrdersTable['status'] }) => Promise<BulkOutcome['result'] | string>,
): Promise<BulkOutcome[]> {
  const found = await ordersByIds(db, ids);
  const results: BulkOutcome[] = [];
  for (const id of ids) {
    const order = found.get(id);
    if (!order) {
      results.push({ id, label: null, result: 'not_found', message: BULK_MESSAGES.orderNotFound });
      continue;
    }
    const label = `#${order.order_number}`;
    try {
      const r = await step(order);
      results.push(r === 'changed' ? { id, label, result: 'changed', message: null } : { id, label, result: 'skipped', message: r });
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 404) results.push({ id, label, result: 'not_found', message: err.message });
      else if (err instanceof HttpError && err.statusCode < 500) results.push({ id, label, result: 'skipped', message: err.message });
      else {
        log.error({ err, orderId: id }, 'a bulk order step failed');
        results.push({ id, label, result: 'skipped', message: err instanceof HttpError ? err.message : BULK_MESSAGES.unexpected });
      }
    }
  }
  return results;
}

/**
 * The list's bulk status change: each order through the one status change (its stock, its
 * timeline, its e-mail when `notify`), as the list's own status menu does it ("shipped" only for a
 * paid order). An order already in that status is skipped, not written again.
 */
export function bulkOrderStatus(
  db: Kysely<Database>,
  input: { ids: readonly string[]; status: OrdersTable['status']; notify: boolean },
  actor: OrderEventActor,
  log: Log,
): Promise<BulkOutcome[]> {
  return eachOrder(db, input.ids, log, async (order) => {
    if (order.status === input.status) return BULK_MESSAGES.alreadyStatus(input.status);
    // Checked again under the order's lock: another tab's bulk run may have moved it since the read.
    await updateOrderStatus(db, order.id, input.status, {
      actor,
      refuseUnpaidShipping: true,
      notify: input.notify,
      alreadyThere: BULK_MESSAGES.alreadyStatus(input.status),
    });
    return 'changed';
  });
}
