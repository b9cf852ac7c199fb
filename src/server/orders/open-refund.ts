import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { isPostgres } from '../db/query-helpers.js';
import { HttpError } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import { orderStockOut } from '../inventory/order-stock.js';
import { ORDER_STOCK_MESSAGES, type ReturnLine } from '../../shared/schemas/inventory.js';
import type { OrderEventActor } from './events.js';
import { tookMoney } from './money-taken.js';
import { orderLineNames, withVariant, type StockLine } from './order-units.js';
import { ORDER_MONEY_MESSAGES, type RefundInput } from '../../shared/schemas/admin/order-money.js';

type Trx = Kysely<Database>;

/** A refund asked and not settled yet: what its settling (refunds.ts settleRefund) needs. */
export type PendingRefund = {
  id: string;
  provider: string;
  payment_session_id: string | null;
  amountCents: number;
  returnLines: ReturnLine[];
  reason: string | null;
};

/**
 * Step 1 of a refund: under the order's lock, the amount is checked against what was paid less
 * what is refunded or being refunded, the units to return are checked, and the refund is written
 * 'pending' (so a second refund at the same moment sees it). `returnLater`: units the caller
 * returns itself in the settling transaction (a cancel's), checked here, before any money moves.
 */
export async function openRefund(
  db: Kysely<Database>,
  orderId: string,
  input: RefundInput,
  actor: OrderEventActor,
  { returnLater }: { returnLater?: ReturnLine[] } = {},
): Promise<PendingRefund> {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  return transactionWithRetry(db, async (trx) => {
    const order = await forUpdate(trx.selectFrom('orders').selectAll().where('id', '=', orderId), dialect).executeTakeFirst();
    if (!order) throw new HttpError(404, ORDER_MONEY_MESSAGES.orderNotFound);
    if (!order.payment_provider || !tookMoney(order)) throw new HttpError(409, ORDER_MONEY_MESSAGES.notPaid);
    const inFlight = await trx
      .selectFrom('refunds')
      .select(sql<number | string | null>`sum(amount_cents)`.as('n'))
      .where('order_id', '=', orderId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    const left = Number(order.total_cents) - Number(order.refunded_cents) - Number(inFlight?.n ?? 0);
    if (left <= 0) throw new HttpError(400, ORDER_MONEY_MESSAGES.nothingLeft);
    if (input.amountCents > left)
      throw new HttpError(400, ORDER_MONEY_MESSAGES.tooMuch(input.amountCents, left, Number(order.total_cents)));
    const returnLines = await chosenReturnLines(trx, orderId, input);
    if (returnLater?.length) await chosenReturnLines(trx, orderId, { ...input, returnLines: returnLater });
    const id = newId('refund');
    await trx
      .insertInto('refunds')
      .values({
        id,
        order_id: orderId,
        amount_cents: input.amountCents,
        provider: order.payment_provider,
        provider_refund_id: null,
        status: 'pending',
        reason: input.reason ?? null,
        restock: returnLines.length || returnLater?.length ? 1 : 0,
        return_lines: returnLines.length ? JSON.stringify(returnLines) : null,
        error: null,
        actor_user_id: actor.userId,
        actor_label: actor.label,
        created_at: new Date().toISOString(),
        settled_at: null,
      })
      .execute();
    return {
      id,
      provider: order.payment_provider,
      payment_session_id: order.payment_session_id,
      returnLines,
      amountCents: input.amountCents,
      reason: input.reason ?? null,
    };
  });
}

/**
 * The units the owner chose to return with a refund, checked when it is asked (before any money
 * moves): lines of this order, each no more than it has out of stock less what refunds still
 * pending will return. `restock` alone means every unit still out.
 */
async function chosenReturnLines(trx: Trx, orderId: string, input: RefundInput): Promise<StockLine[]> {
  const out = await orderStockOut(trx, orderId);
  const pending = await trx
    .selectFrom('refunds')
    .select('return_lines')
    .where('order_id', '=', orderId)
    .where('status', '=', 'pending')
    .where('return_lines', 'is not', null)
    .execute();
  const promised = new Map<string, number>();
  for (const r of pending)
    for (const l of parseJson<ReturnLine[]>(r.return_lines, []).map(withVariant))
      promised.set(l.variantId, (promised.get(l.variantId) ?? 0) + l.quantity);
  const free = (variantId: string) => Math.max(0, (out.get(variantId)?.out ?? 0) - (promised.get(variantId) ?? 0));
  if (!input.returnLines?.length) {
    if (!input.restock) return [];
    return [...out]
      .map(([variantId, o]) => ({ productId: o.productId, variantId, quantity: free(variantId) }))
      .filter((l) => l.quantity > 0);
  }
  const names = await orderLineNames(trx, orderId);
  const asked = new Map<string, StockLine>();
  for (const l of input.returnLines.map(withVariant)) {
    if (l.quantity <= 0) continue;
    asked.set(l.variantId, { ...l, quantity: (asked.get(l.variantId)?.quantity ?? 0) + l.quantity });
  }
  for (const [variantId, l] of asked) {
    const name = names.get(variantId);
    if (name === undefined) throw new HttpError(400, ORDER_STOCK_MESSAGES.notInOrder);
    if (l.quantity > free(variantId)) throw new HttpError(400, ORDER_STOCK_MESSAGES.notOut(name, l.quantity, free(variantId)));
  }
  return [...asked.values()];
}
