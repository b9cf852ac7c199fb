import type { PaymentProviders } from '../payments/provider.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { isPostgres } from '../db/query-helpers.js';
import type { ReturnLine } from '../../shared/schemas/inventory.js';
import type { OrderEventActor } from './events.js';
import { openRefund } from './open-refund.js';
import { settleRefund } from './refunds.js';
import { changeStatusLocked } from './status-change.js';
import { orderStockOut } from '../inventory/order-stock.js';

/**
 * Cancels a paid order and refunds it in one step (one request from the one dialog). The refund
 * is opened (checked and held pending, the units to return checked too) before any money moves;
 * the provider is asked; then one transaction records the refund, cancels the order, returns the
 * units the owner chose, gives back the coupon use and the points (on a full refund or the cancel,
 * once), and queues one e-mail: the cancellation, saying what was refunded. Should the provider
 * refuse, nothing is cancelled and the refund is kept as failed (refunds.ts), answered 502.
 */
export async function cancelWithRefund(
  db: Kysely<Database>,
  deps: { payments: PaymentProviders },
  orderId: string,
  input: { refund: { amountCents: number; reason?: string }; returnLines?: ReturnLine[]; notify?: boolean },
  actor: OrderEventActor,
): Promise<void> {
  const dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  const pending = await openRefund(db, orderId, { amountCents: input.refund.amountCents, reason: input.refund.reason }, actor, {
    returnLater: input.returnLines,
  });
  await settleRefund(db, deps, orderId, pending, actor, {
    alsoInTransaction: async (trx, order, stock) => {
      const before = await orderStockOut(trx, orderId);
      await changeStatusLocked(trx, dialect, order, 'cancelled', stock, { actor, returnLines: input.returnLines, notify: input.notify });
      // The refund row says which units came back with it, by variant, as a refund's own return does.
      const returned = [...(await orderStockOut(trx, orderId))]
        .map(([variantId, now]) => ({ productId: now.productId, variantId, quantity: (before.get(variantId)?.out ?? 0) - now.out }))
        .filter((l) => l.quantity > 0);
      if (returned.length)
        await trx
          .updateTable('refunds')
          .set({ restock: 1, return_lines: JSON.stringify(returned) })
          .where('id', '=', pending.id)
          .execute();
    },
  });
}
