import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
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
import { lockStock, readStock, recordMovement, soleStockOf, stockOfVariant, type LockedStock, type StockActor } from './stock.js';
import { ALERT_RANK, alertStateOf, type AlertState } from './low-stock.js';
import { variantLabel } from '../../shared/variants.js';
import { reservedByVariant } from './reservations.js';

/*
 * The owner's side of stock: a variant's level, its history, an adjustment (+/− with a reason) or
 * a count turned into an adjustment under its product's lock, and its low-stock threshold. The
 * routes name a variant, or a product for its only variant (a product sold in several answers 409).
 */

const KIND_OF_REASON: Record<StockAdjustmentInput['reason'], StockMovementKind> = {
  received: 'received',
  damaged: 'damaged',
  correction: 'correction',
  counted: 'counted',
};

/** Whose stock: a product's id (its only variant's), or a variant. */
export type StockTarget = string | { variantId: string };

function notFound(target: StockTarget): HttpError {
  return new HttpError(404, typeof target === 'string' ? INVENTORY_MESSAGES.productNotFound : INVENTORY_MESSAGES.variantNotFound);
}

/** The target's stock item as it is (unlocked); 404 when unknown, 409 for a product with several variants. */
async function readTarget(db: Kysely<Database>, target: StockTarget): Promise<LockedStock> {
  const stock =
    typeof target === 'string' ? soleStockOf(await readStock(db, [target]), target) : await stockOfVariant(db, target.variantId);
  if (!stock) throw notFound(target);
  return stock;
}

/** The target's stock item under its product's lock (the first lock of the back office's order). */
async function lockTarget(trx: Kysely<Database>, dialect: Dialect, target: StockTarget): Promise<LockedStock> {
  if (typeof target === 'string') {
    const stock = soleStockOf(await lockStock(trx, dialect, [target]), target);
    if (!stock) throw notFound(target);
    return stock;
  }
  // A variant never moves to another product, so its product read unlocked is the one to lock.
  const productId = (await stockOfVariant(trx, target.variantId))?.productId;
  const stock = productId ? (await lockStock(trx, dialect, [productId])).get(target.variantId) : undefined;
  if (!stock) throw notFound(target);
  return stock;
}

/** The variant's option values as its label ('' for a product without options). */
async function labelOf(db: Kysely<Database>, variantId: string): Promise<string> {
  const v = await db
    .selectFrom('product_variants')
    .select(['option1', 'option2', 'option3'])
    .where('id', '=', variantId)
    .executeTakeFirst();
  return v ? variantLabel([v.option1, v.option2, v.option3]) : '';
}

async function viewOf(db: Kysely<Database>, stock: LockedStock, now: Date): Promise<StockView> {
  const [held, label] = await Promise.all([reservedByVariant(db, [stock], now), labelOf(db, stock.variantId)]);
  const reserved = Math.min(stock.onHand, held.get(stock.variantId) ?? 0);
  return {
    productId: stock.productId,
    variantId: stock.variantId,
    label,
    onHand: stock.onHand,
    reserved,
    available: stock.onHand - reserved,
    lowStockThreshold: stock.threshold,
    alertState: stock.alertState,
  };
}

/** A variant's stock now (404 for an unknown product or variant). */
export async function stockView(db: Kysely<Database>, target: StockTarget, now = new Date()): Promise<StockView> {
  return viewOf(db, await readTarget(db, target), now);
}

/**
 * Changes a variant's level by the owner's adjustment, under its product's lock: the change is
 * computed from the level as it is now (a count becomes "counted − on hand"), so nothing sold in
 * between is undone. Returns the stock after.
 */
export async function adjustStock(
  db: Kysely<Database>,
  target: StockTarget,
  input: Pick<StockAdjustmentInput, 'reason' | 'quantity'> & { note?: string },
  actor: StockActor,
): Promise<StockView> {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  const variantId = await transactionWithRetry(db, async (trx) => {
    const stock = await lockTarget(trx, dialect, target);
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
    return stock.variantId;
  });
  return stockView(db, { variantId });
}

/**
 * Sets a locked item's low-stock threshold (lockStock first). A new line is not a crossing: the
 * state starts where the level stands against it, and nobody is e-mailed.
 */
export async function applyThreshold(trx: Kysely<Database>, stock: LockedStock, threshold: number): Promise<void> {
  if (stock.threshold === threshold) return;
  const alertState = alertStateOf(stock.onHand, threshold);
  await trx
    .updateTable('stock_items')
    .set({ low_stock_threshold: threshold, alert_state: alertState, updated_at: new Date().toISOString() })
    .where('id', '=', stock.itemId)
    .execute();
  stock.threshold = threshold;
  stock.alertState = alertState;
}

/** The low-stock threshold: at or below it the shop says "Only N left" and the owner is told. Returns the stock after. */
export async function setLowStockThreshold(db: Kysely<Database>, target: StockTarget, threshold: number): Promise<StockView> {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  const variantId = await transactionWithRetry(db, async (trx) => {
    const stock = await lockTarget(trx, dialect, target);
    await applyThreshold(trx, stock, threshold);
    return stock.variantId;
  });
  return stockView(db, { variantId });
}

/** A variant's ledger, newest first, a page at a time, each row with the level it left. */
export async function stockHistory(
  db: Kysely<Database>,
  target: StockTarget,
  q: { page: number; pageSize: number },
  now = new Date(),
): Promise<StockHistoryPage> {
  const item = await readTarget(db, target);
  const stock = await viewOf(db, item, now);
  const base = db.selectFrom('stock_movements').where('stock_item_id', '=', item.itemId);
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

/**
 * Keeps the products with a variant in a stock state (low: at or below its threshold, sold out
 * included; out: sold out), for the Products tab: one row per product whatever its variants, kept by
 * an `exists` on its items (a semi-join the planner reads from stock_items_alert_idx or
 * stock_items_product_idx). `alert_state` is kept in step with the level and the threshold by every
 * movement (alerts.ts).
 */
export function whereStockState<O>(qb: SelectQueryBuilder<Database, 'products', O>, filter: 'all' | 'low' | 'out') {
  if (filter === 'all') return qb;
  const states: ('low' | 'out')[] = filter === 'low' ? ['low', 'out'] : ['out'];
  return qb.where(({ exists, selectFrom }) =>
    exists(
      selectFrom('stock_items as fs').select('fs.id').whereRef('fs.product_id', '=', 'products.id').where('fs.alert_state', 'in', states),
    ),
  );
}

/**
 * Lowest level first (then by name): each product once, at its lowest variant's level. The walk
 * joins each product's lowest item alone (no item of the product is lower, ties by variant), so it
 * reads stock_items_on_hand_idx in order and stops at the page, probing each product's few items.
 */
export function orderByLowestLevel<O>(qb: SelectQueryBuilder<Database, 'products', O>) {
  return qb
    .innerJoin('stock_items as si', 'si.product_id', 'products.id')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('stock_items as lower')
            .select('lower.id')
            .whereRef('lower.product_id', '=', 'si.product_id')
            .where((w) =>
              w.or([
                w('lower.on_hand', '<', w.ref('si.on_hand')),
                w.and([w('lower.on_hand', '=', w.ref('si.on_hand')), w('lower.variant_id', '<', w.ref('si.variant_id'))]),
              ]),
            ),
        ),
      ),
    )
    .orderBy('si.on_hand')
    .orderBy('products.name');
}

/** What a Products tab row says of a product's stock, over all its variants. */
export type ProductStockSummary = {
  variantCount: number;
  /** The threshold of its lowest variant (its only one's, for a product without options). */
  lowStockThreshold: number;
  /** The worst state among its variants. */
  alertState: 'ok' | 'low' | 'out';
  /** Its variants at or below their thresholds, lowest first. */
  low: LockedStock[];
};

/** The products' stock summaries (one read of their items); absent for a product without an item. */
export async function productStockSummaries(
  db: Kysely<Database>,
  productIds: readonly string[],
): Promise<Map<string, ProductStockSummary>> {
  const byProduct = new Map<string, LockedStock[]>();
  for (const s of (await readStock(db, productIds)).values()) {
    const list = byProduct.get(s.productId);
    if (list) list.push(s);
    else byProduct.set(s.productId, [s]);
  }
  const summaries = new Map<string, ProductStockSummary>();
  for (const [productId, items] of byProduct) {
    // readStock answers by variant id: the first lowest is the one the stock sort joins.
    const lowest = items.reduce((a, b) => (b.onHand < a.onHand ? b : a));
    summaries.set(productId, {
      variantCount: items.length,
      lowStockThreshold: lowest.threshold,
      alertState: items.reduce<AlertState>((w, i) => (ALERT_RANK[i.alertState] > ALERT_RANK[w] ? i.alertState : w), 'ok'),
      low: items.filter((i) => i.alertState !== 'ok').sort((a, b) => a.onHand - b.onHand || (a.variantId < b.variantId ? -1 : 1)),
    });
  }
  return summaries;
}
