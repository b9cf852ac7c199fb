import type { Kysely, Selectable } from 'kysely';
import type { Database, OrdersTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { isPlaced } from './placed.js';
import { HttpError } from '../http/errors.js';
import { lockStock, type LockedStock } from '../inventory/stock.js';
import { orderStockLines, orderStockOut, returnForOrder, takeAgainForOrder } from '../inventory/order-stock.js';
import type { OrderStockLine, ReturnLine } from '../../shared/schemas/inventory.js';
import { recordOrderEvent, type OrderEventActor } from './events.js';
import { ORDER_MONEY_MESSAGES } from '../../shared/schemas/admin/order-money.js';
import { inStockOrder, lineTitle, variantOfLine } from '../../shared/variants.js';

/*
 * An order's units after checkout: returned to stock on a cancel, a refund or a deletion, taken
 * again when a cancelled order is reopened (a status change, status-change.ts, and a refund,
 * refunds.ts, both move them), and the products' stock locked first for any of it.
 */

type Trx = Kysely<Database>;
type OrderRow = Selectable<OrdersTable>;

/** The order's variants and their products (merged by variant, in stock order). */
async function orderVariants(trx: Trx, orderId: string): Promise<{ productId: string; variantId: string }[]> {
  const rows = await trx.selectFrom('order_items').select(['product_id', 'variant_id']).where('order_id', '=', orderId).execute();
  const byVariant = new Map(
    rows.map((r) => {
      const variantId = variantOfLine(r.product_id, r.variant_id);
      return [variantId, { productId: r.product_id, variantId }];
    }),
  );
  return [...byVariant.values()].sort(inStockOrder);
}

/** The order's line names by variant (the first line's name when a variant is on several lines). */
export async function orderLineNames(trx: Trx, orderId: string): Promise<Map<string, string>> {
  const rows = await trx
    .selectFrom('order_items')
    .select(['product_id', 'variant_id', 'product_name', 'variant_label'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  const names = new Map<string, string>();
  for (const r of rows) {
    const variantId = variantOfLine(r.product_id, r.variant_id);
    if (!names.has(variantId)) names.set(variantId, lineTitle(r.product_name, r.variant_label));
  }
  return names;
}

/** A return line with its variant named (lines written before variants mean the product's first). */
export function withVariant(l: ReturnLine): StockLine {
  return { productId: l.productId, variantId: variantOfLine(l.productId, l.variantId), quantity: l.quantity };
}
export type StockLine = { productId: string; variantId: string; quantity: number };

/**
 * Locks the stock of the order's products, by id: the first locks of the shop's one lock order
 * (docs/decisions/0005), taken before the order row by anything that may move the order's stock.
 * An order's lines never change after checkout, so reading them unlocked first is safe. Answers
 * every variant's stock of those products, by variant id.
 */
export async function lockOrderProducts(trx: Trx, dialect: Dialect, orderId: string): Promise<Map<string, LockedStock>> {
  return lockStock(
    trx,
    dialect,
    (await orderVariants(trx, orderId)).map((v) => v.productId),
  );
}

/**
 * Returns the chosen units of the order to stock (each a `returned` ledger row, never more than the
 * order has out), records it on the timeline, and sets `restocked_at` once nothing is left out.
 */
export async function returnUnits(
  trx: Trx,
  order: OrderRow,
  stock: Map<string, LockedStock>,
  lines: ReturnLine[],
  actor: OrderEventActor,
  cause: string,
): Promise<boolean> {
  if (!tookItsUnits(order) || lines.every((l) => l.quantity <= 0)) return false;
  const names = await orderLineNames(trx, order.id);
  const back = await returnForOrder(trx, {
    orderId: order.id,
    orderNumber: order.order_number,
    lines: lines.map(withVariant),
    stock,
    actor,
    names,
    note: cause === 'refunded' ? 'Returned with a refund' : cause === 'deleted' ? 'Returned: the order was deleted' : 'Returned on cancel',
  });
  if (back.length === 0) return false;
  const at = new Date().toISOString();
  const stillOut = [...(await orderStockOut(trx, order.id)).values()].some((o) => o.out > 0);
  if (!stillOut) {
    await trx.updateTable('orders').set({ restocked_at: at, updated_at: at }).where('id', '=', order.id).execute();
    order.restocked_at = at;
  }
  await recordOrderEvent(trx, order.id, 'restocked', actor, { cause, units: back });
  return true;
}

/**
 * The order's units left the shelf for it: at payment for a checkout, or when the owner typed in an
 * order with products (orders/owner-orders.ts takes them at once, paid or not).
 */
function tookItsUnits(order: Pick<OrderRow, 'payment_status' | 'origin'>): boolean {
  return isPlaced(order);
}

/** Every unit the order still has out of stock (the "return everything" choice). */
export async function allOut(trx: Trx, orderId: string): Promise<StockLine[]> {
  return [...(await orderStockOut(trx, orderId))]
    .filter(([, o]) => o.out > 0)
    .map(([variantId, o]) => ({ productId: o.productId, variantId, quantity: o.out }));
}

/** Takes what was returned for the order out of stock again (it was reopened); 409 when what is left is too little. */
async function takeAgain(
  trx: Trx,
  order: OrderRow,
  stock: Map<string, LockedStock>,
  actor: OrderEventActor,
  status: string,
): Promise<void> {
  const names = await orderLineNames(trx, order.id);
  const at = new Date();
  const taken = await takeAgainForOrder(trx, {
    orderId: order.id,
    orderNumber: order.order_number,
    stock,
    names,
    now: at,
    actor,
    refuse: (name, wanted, free) => ORDER_MONEY_MESSAGES.notEnoughToReopen(name, wanted, free, status),
  });
  if (order.restocked_at) {
    await trx.updateTable('orders').set({ restocked_at: null, updated_at: at.toISOString() }).where('id', '=', order.id).execute();
    order.restocked_at = null;
  }
  if (taken.length) await recordOrderEvent(trx, order.id, 'stock.taken', actor, { to: status, units: taken });
}

/** Shipped orders keep their units out unless the owner chooses lines: the parcel left the shelf. */
export function hasShipped(order: OrderRow): boolean {
  return Boolean(order.shipped_at) || order.status === 'shipped' || order.status === 'delivered';
}

/**
 * The stock side of a status change, inside the caller's transaction, after lockOrderProducts and
 * the order's own lock: cancelling a paid order returns the units the owner chose (by default
 * every unit of an order not yet shipped, none of a shipped one; recorded as 'cancelled' and
 * 'restocked'); moving a cancelled order out of cancelled takes what was returned again, or
 * refuses (409).
 */
export async function applyStatusStock(
  trx: Trx,
  order: OrderRow,
  status: OrdersTable['status'],
  actor: OrderEventActor,
  stock: Map<string, LockedStock>,
  returnLines?: ReturnLine[],
): Promise<void> {
  if (order.status === status) return;
  if (status === 'cancelled') {
    await recordOrderEvent(trx, order.id, 'cancelled', actor, { from: order.status });
    const lines = returnLines ?? (hasShipped(order) ? [] : await allOut(trx, order.id));
    await returnUnits(trx, order, stock, lines, actor, 'cancelled');
  } else if (order.status === 'cancelled' && tookItsUnits(order)) {
    await takeAgain(trx, order, stock, actor, status);
  }
}

/** The order's lines with what each has out of stock and returned, for the refund and cancel dialogs. */
export async function orderReturnLines(db: Kysely<Database>, orderId: string): Promise<OrderStockLine[]> {
  const exists = await db.selectFrom('orders').select('id').where('id', '=', orderId).executeTakeFirst();
  if (!exists) throw new HttpError(404, ORDER_MONEY_MESSAGES.orderNotFound);
  return orderStockLines(db, orderId);
}
