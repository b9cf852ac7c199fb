import { sql, type Kysely } from 'kysely';
import type { Database, StockMovementKind } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { transactionWithRetry } from '../db/locks.js';
import { isPostgres } from '../db/query-helpers.js';
import { HttpError } from '../http/errors.js';
import {
  INVENTORY_MESSAGES,
  MAX_STOCK_LEVEL,
  type StockAdjustmentInput,
  type StockHistoryPage,
  type StockView,
} from '../../shared/schemas/inventory.js';
import { alertStateOf, lockStock, readStock, recordMovement, soleStockOf, type StockActor } from './stock.js';
import { reservedByVariant } from './reservations.js';

/*
 * The owner's side of stock: a product's level, its history, an adjustment (+/− with a reason) or
 * a count turned into an adjustment under the product's lock, and its low-stock threshold.
 */

const KIND_OF_REASON: Record<StockAdjustmentInput['reason'], StockMovementKind> = {
  received: 'received',
  damaged: 'damaged',
  correction: 'correction',
  counted: 'counted',
};

/** A product's stock now (404 for an unknown product). */
export async function stockView(db: Kysely<Database>, productId: string, now = new Date()): Promise<StockView> {
  const stock = soleStockOf(await readStock(db, [productId]), productId);
  if (!stock) throw new HttpError(404, INVENTORY_MESSAGES.productNotFound);
  const reserved = Math.min(stock.onHand, (await reservedByVariant(db, [stock], now)).get(stock.variantId) ?? 0);
  return {
    productId,
    onHand: stock.onHand,
    reserved,
    available: stock.onHand - reserved,
    lowStockThreshold: stock.threshold,
    alertState: stock.alertState,
  };
}

/**
 * Changes a product's level by the owner's adjustment, under the product's lock: the change is
 * computed from the level as it is now (a count becomes "counted − on hand"), so nothing sold in
 * between is undone. Returns the stock after.
 */
export async function adjustStock(
  db: Kysely<Database>,
  productId: string,
  input: Pick<StockAdjustmentInput, 'reason' | 'quantity'> & { note?: string },
  actor: StockActor,
): Promise<StockView> {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  await transactionWithRetry(db, async (trx) => {
    const stock = soleStockOf(await lockStock(trx, dialect, [productId]), productId);
    if (!stock) throw new HttpError(404, INVENTORY_MESSAGES.productNotFound);
    const change =
      input.reason === 'counted' ? input.quantity - stock.onHand : input.reason === 'damaged' ? -input.quantity : input.quantity;
    if (stock.onHand + change < 0) throw new HttpError(409, INVENTORY_MESSAGES.belowZero(stock.onHand, change));
    if (stock.onHand + change > MAX_STOCK_LEVEL) throw new HttpError(400, INVENTORY_MESSAGES.tooLarge);
    await recordMovement(trx, stock, {
      kind: KIND_OF_REASON[input.reason],
      quantity: change,
      actor,
      note: input.note ?? (input.reason === 'counted' ? `Counted ${input.quantity}` : null),
      reference: input.reason === 'counted' ? `counted ${input.quantity}` : null,
    });
  });
  return stockView(db, productId);
}

/** The low-stock threshold: at or below it the shop says "Only N left" and the owner is told. */
export async function setLowStockThreshold(db: Kysely<Database>, productId: string, threshold: number): Promise<void> {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  await transactionWithRetry(db, async (trx) => {
    const stock = soleStockOf(await lockStock(trx, dialect, [productId]), productId);
    if (!stock) throw new HttpError(404, INVENTORY_MESSAGES.productNotFound);
    if (stock.threshold === threshold) return;
    // A new line is not a crossing: the state starts where the level stands against it.
    await trx
      .updateTable('stock_items')
      .set({ low_stock_threshold: threshold, alert_state: alertStateOf(stock.onHand, threshold), updated_at: new Date().toISOString() })
      .where('id', '=', stock.itemId)
      .execute();
  });
}

/** A product's ledger, newest first, a page at a time, each row with the level it left. */
export async function stockHistory(
  db: Kysely<Database>,
  productId: string,
  q: { page: number; pageSize: number },
  now = new Date(),
): Promise<StockHistoryPage> {
  const stock = await stockView(db, productId, now);
  const itemId = soleStockOf(await readStock(db, [productId]), productId)!.itemId;
  const base = db.selectFrom('stock_movements').where('stock_item_id', '=', itemId);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute(),
    base.select(sql<number | string>`count(*)`.as('n')).executeTakeFirst(),
  ]);
  // The level after the page's newest row: today's level less every newer row (one indexed sum).
  let level = stock.onHand;
  const first = rows[0];
  if (first && q.page > 1) {
    const newer = await base
      .select(sql<number | string | null>`sum(quantity)`.as('q'))
      .where((eb) =>
        eb.or([eb('created_at', '>', first.created_at), eb.and([eb('created_at', '=', first.created_at), eb('id', '>', first.id)])]),
      )
      .executeTakeFirst();
    level -= Number(newer?.q ?? 0);
  }
  const items = rows.map((r) => {
    const levelAfter = level;
    level -= Number(r.quantity);
    return {
      id: r.id,
      kind: r.kind,
      quantity: Number(r.quantity),
      levelAfter,
      orderId: r.order_id,
      reference: r.reference,
      actor: r.actor_label,
      note: r.note,
      createdAt: r.created_at,
    };
  });
  const total = Number(count?.n ?? 0);
  return { items, page: q.page, pageSize: q.pageSize, total, totalPages: Math.max(1, Math.ceil(total / q.pageSize)), stock };
}

/** Products joined to their stock, kept to a stock filter (low: at or below the threshold; out: sold out), for the Products tab. */
export function productsWithStock(db: Kysely<Database>, filter: 'all' | 'low' | 'out') {
  let q = db.selectFrom('products').innerJoin('stock_items as si', 'si.product_id', 'products.id');
  // `alert_state` is kept in step with the level and the threshold by every movement (alerts.ts), and indexed.
  if (filter === 'low') q = q.where('si.alert_state', 'in', ['low', 'out']);
  if (filter === 'out') q = q.where('si.alert_state', '=', 'out');
  return q;
}

/** The stock columns a Products tab row carries. */
export const stockColumns = ['si.low_stock_threshold', 'si.alert_state'] as const;

/** Lowest level first (then by name), or newest first. */
export function orderByStock<QB extends ReturnType<typeof productsWithStock>>(qb: QB, lowestFirst: boolean): QB {
  return (lowestFirst ? qb.orderBy('si.on_hand').orderBy('products.name') : qb.orderBy('products.created_at', 'desc')) as QB;
}
