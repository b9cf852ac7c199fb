import { sql, type Kysely } from 'kysely';
import type { Database, StockMovementKind } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate } from '../db/locks.js';
import { HttpError } from '../http/errors.js';
import { randomString } from '../lib/ids.js';
import { afterLevelChange } from './alerts.js';
import { alertStateOf, alertStateSql, DEFAULT_LOW_STOCK_THRESHOLD, type AlertState } from './low-stock.js';
import { pricingColumns, pricingQuery, toVariantForPricing, type VariantForPricing } from '../lib/variant-pricing.js';
import { INVENTORY_MESSAGES } from '../../shared/schemas/inventory.js';
import { defaultVariantIdOf } from '../../shared/variants.js';
import { compiledOnce, insertRows, listOf, listValues } from '../db/compiled-once.js';

/** The default threshold, for the modules that show a level (its rule: low-stock.ts). */
export { DEFAULT_LOW_STOCK_THRESHOLD };

/*
 * The inventory module owns stock (decision 0022): the stocked units (`stock_items`, one per
 * variant, decision 0036), their ledger (`stock_movements`), what open checkouts
 * reserve (`stock_reservations`) and who waits for a product to come back. No other module reads or
 * writes those tables or `products.inventory` (the copy of a product's level the catalogue shows);
 * lint enforces it.
 *
 * Locks (decision 0023): a checkout and a payment never hold a stock row across their work. They
 * reserve and take with one conditional update per item (`on_hand - reserved >= wanted`), the last
 * statements of their transactions, so a row is locked only from that update to the commit right
 * after. The back office's changes (adjust, return, take again) lock the product's row first
 * (lockStock), then write the item: `on_hand` moves only under the product's lock (a payment updates
 * the product's shown copy first), `reserved` also without it. Every level change writes its ledger
 * row in the same transaction: a level is always the sum of its ledger.
 */

/** Who moved stock: an account (id and e-mail as they were), or the shop itself, or the customer. */
export type StockActor = { userId: string | null; label: string };

/** A variant's stock item as locked for a change. */
export type LockedStock = {
  itemId: string;
  productId: string;
  variantId: string;
  onHand: number;
  threshold: number;
  alertState: AlertState;
};

/** The id of a new stock item: `stk_<productId>` for a product's first variant (as before variants), `stk_<variantId>` otherwise. */
export function stockItemIdFor(productId: string, variantId: string): string {
  return variantId === defaultVariantIdOf(productId) ? `stk_${productId}` : `stk_${variantId}`;
}

/**
 * Locks the products' stock, by product id (the first locks of the shop's one lock order), and
 * reads the levels of every variant of theirs, by variant id. Products no longer in the catalogue
 * are absent from the answer. On SQLite the write transaction already runs alone.
 */
export async function lockStock(trx: Kysely<Database>, dialect: Dialect, productIds: readonly string[]): Promise<Map<string, LockedStock>> {
  const ids = [...new Set(productIds)].sort();
  if (ids.length === 0) return new Map();
  await forUpdate(trx.selectFrom('products').select('id').where('id', 'in', ids).orderBy('id'), dialect).execute();
  return readStock(trx, ids);
}

/** The stock items of the products' variants as they are (unlocked), by variant id. */
export async function readStock(db: Kysely<Database>, productIds: readonly string[]): Promise<Map<string, LockedStock>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('stock_items')
    .select(STOCK_COLUMNS)
    .where('product_id', 'in', [...productIds])
    .orderBy('product_id')
    .orderBy('variant_id')
    .execute();
  return new Map(rows.map((r) => [r.variant_id, toLockedStock(r)]));
}

/** The columns of a stock item that make a LockedStock. */
const STOCK_COLUMNS = ['id', 'product_id', 'variant_id', 'on_hand', 'low_stock_threshold', 'alert_state'] as const;

function toLockedStock(r: {
  id: string;
  product_id: string;
  variant_id: string;
  on_hand: number;
  low_stock_threshold: number;
  alert_state: LockedStock['alertState'];
}): LockedStock {
  return {
    itemId: r.id,
    productId: r.product_id,
    variantId: r.variant_id,
    onHand: Number(r.on_hand),
    threshold: Number(r.low_stock_threshold),
    alertState: r.alert_state,
  };
}

/**
 * A product's one stock item, for the routes that name a product rather than a variant: its only
 * variant's. Undefined for an unknown product; 409 when the product has several variants.
 */
export function soleStockOf(stock: Map<string, LockedStock>, productId: string): LockedStock | undefined {
  const items = [...stock.values()].filter((s) => s.productId === productId);
  if (items.length > 1) throw new HttpError(409, INVENTORY_MESSAGES.chooseVariant);
  return items[0];
}

/** A variant's stock item as it is (unlocked): undefined for an unknown variant. */
export async function stockOfVariant(db: Kysely<Database>, variantId: string): Promise<LockedStock | undefined> {
  const r = await db.selectFrom('stock_items').select(STOCK_COLUMNS).where('variant_id', '=', variantId).executeTakeFirst();
  return r ? toLockedStock(r) : undefined;
}

/**
 * The stock items written after `since` (index stock_items_changed_idx), each with its product, its
 * level and reserved units as one text, and when it was written: what the shop-change watcher
 * compares (http/shop-changes.ts). At most `limit`, oldest first.
 */
export async function stockWrittenSince(
  db: Kysely<Database>,
  since: string,
  limit: number,
): Promise<{ itemId: string; productId: string; state: string; at: string }[]> {
  const rows = await db
    .selectFrom('stock_items')
    .select(['id', 'product_id', 'on_hand', 'reserved', 'updated_at'])
    .where('updated_at', '>', since)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
  // The stamp is part of the state: a reservation that is not counted in `reserved` (decision 0022)
  // still stamps its item when it is made and when it ends, and a shop list that shows held units
  // must hear of both (on PostgreSQL a release was otherwise never seen: the card stayed "held").
  return rows.map((r) => ({
    itemId: r.id,
    productId: r.product_id,
    state: `${r.on_hand}|${r.reserved}|${r.updated_at}`,
    at: r.updated_at,
  }));
}

/** The products' levels (on hand, before reservations, summed over their variants), unlocked: absent for an unknown product. */
export async function levelsOf(db: Kysely<Database>, productIds: readonly string[]): Promise<Map<string, number>> {
  const levels = new Map<string, number>();
  for (const s of (await readStock(db, productIds)).values()) levels.set(s.productId, (levels.get(s.productId) ?? 0) + s.onHand);
  return levels;
}

/** A variant as a checkout prices and reserves it: as the cart prices it, with its stock item. */
export type VariantForCheckout = VariantForPricing & { itemId: string | null; onHand: number; reserved: number };

/** variantsForCheckout's read for its variants (`id0`, `id1`, …) and gift, built once for each shape (db/compiled-once.ts). */
const checkoutVariantsStatement = compiledOnce((db, v: Record<string, string>) =>
  pricingQuery(db, listOf(v, 'id'), 'gift' in v ? v.gift! : null)
    .leftJoin('stock_items as si', 'si.variant_id', 'v.id')
    .select([...pricingColumns(), 'si.id as item_id', 'si.on_hand', 'si.reserved']),
);

/**
 * Variants as a checkout prices them (lib/variant-pricing.ts), with their stock item's level
 * and the units its counter says checkouts keep (`reserved`), in one read; with `giftProductId`,
 * every variant of the coupon's free product too. The counter never counts fewer units than are
 * kept (a reservation that lapsed since the last sweep still counts): a caller deciding that stock
 * is short must sum the reservations themselves (reservedByVariant) before it says so. Unknown
 * variants are absent.
 */
export async function variantsForCheckout(
  db: Kysely<Database>,
  variantIds: readonly string[],
  giftProductId: string | null = null,
): Promise<VariantForCheckout[]> {
  const values = { ...(giftProductId ? { gift: giftProductId } : {}), ...listValues('id', variantIds) };
  const { rows } = await db.executeQuery(checkoutVariantsStatement(db, values));
  return rows.map((r) => ({
    ...toVariantForPricing(r),
    itemId: r.item_id,
    onHand: Number(r.on_hand ?? 0),
    reserved: Number(r.reserved ?? 0),
  }));
}

/** The variants' levels (on hand, before reservations), unlocked, by variant id: absent for an unknown variant. */
export async function variantLevels(db: Kysely<Database>, variantIds: readonly string[]): Promise<Map<string, number>> {
  if (variantIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('stock_items')
    .select(['variant_id', 'on_hand'])
    .where('variant_id', 'in', [...variantIds])
    .execute();
  return new Map(rows.map((r) => [r.variant_id, Number(r.on_hand)]));
}

export type Movement = {
  kind: StockMovementKind;
  /** Signed: what the level gains (received, returned) or loses (sold, damaged, taken). */
  quantity: number;
  actor: StockActor;
  orderId?: string | null;
  reference?: string | null;
  note?: string | null;
  at?: Date;
};

let sequence = 0;
/** Movement ids sort by time, then by the order they were written in this process. */
/** A ledger row's id: sortable by time, unique within the process and beyond. */
export function newMovementId(at: Date): string {
  sequence = (sequence + 1) % 36 ** 4;
  return `mv_${at.getTime().toString(36).padStart(9, '0')}${sequence.toString(36).padStart(4, '0')}${randomString(6)}`;
}

/**
 * Moves a locked item's level and writes the ledger row, in the caller's transaction (lockStock
 * first). The level never goes below zero (409). With `keepReserved`, it never goes below what open
 * checkouts keep either (the update checks it: `reserved` moves without the product's lock), and
 * that error is thrown with the units free. The product's shown copy follows, and the threshold and
 * back-in-stock watchers see the change (alerts.ts). `stock` is updated in place.
 */
export async function recordMovement(
  trx: Kysely<Database>,
  stock: LockedStock,
  movement: Movement,
  opts: { keepReserved?: (free: number) => Error } = {},
): Promise<void> {
  const at = movement.at ?? new Date();
  const before = stock.onHand;
  const after = before + movement.quantity;
  if (after < 0)
    throw opts.keepReserved ? opts.keepReserved(before) : new HttpError(409, `Only ${before} in stock: cannot take ${-movement.quantity}.`);
  const iso = at.toISOString();
  if (movement.quantity !== 0) {
    let update = trx
      .updateTable('stock_items')
      .set({ on_hand: sql`on_hand + ${movement.quantity}`, updated_at: iso })
      .where('id', '=', stock.itemId);
    if (opts.keepReserved && movement.quantity < 0) update = update.where(sql<boolean>`on_hand - reserved >= ${-movement.quantity}`);
    if (Number((await update.executeTakeFirst()).numUpdatedRows) !== 1) {
      const level = await trx.selectFrom('stock_items').select(['on_hand', 'reserved']).where('id', '=', stock.itemId).executeTakeFirst();
      throw opts.keepReserved!(Math.max(0, Number(level?.on_hand ?? 0) - Number(level?.reserved ?? 0)));
    }
  }
  await writeLedgerRow(trx, stock, { ...movement, at });
  if (movement.quantity === 0) return;
  await trx
    .updateTable('products')
    .set({ inventory: sql`inventory + ${movement.quantity}` })
    .where('id', '=', stock.productId)
    .execute();
  stock.onHand = after;
  await afterLevelChange(trx, stock, before, at);
}

/** The ledger row of a level change already made (recordMovement, or a payment's conditional take). */
export async function writeLedgerRow(trx: Kysely<Database>, stock: LockedStock, movement: Movement): Promise<void> {
  const at = movement.at ?? new Date();
  await insertRows(trx, 'stock_movements', [
    {
      id: newMovementId(at),
      stock_item_id: stock.itemId,
      kind: movement.kind,
      quantity: movement.quantity,
      order_id: movement.orderId ?? null,
      actor_user_id: movement.actor.userId,
      actor_label: movement.actor.label,
      reference: movement.reference ?? null,
      note: movement.note ?? null,
      created_at: at.toISOString(),
    },
  ]).execute();
}

/**
 * A new variant's stock item, with its opening level as the ledger's first row (the variant is new
 * in this transaction, under its product's lock or with a new product, so nobody else writes it).
 * The product's shown copy gains the opening units.
 */
export async function openStock(
  trx: Kysely<Database>,
  variant: { productId: string; variantId: string },
  opening: { quantity: number; threshold?: number; actor: StockActor; at?: Date },
): Promise<void> {
  const at = opening.at ?? new Date();
  const iso = at.toISOString();
  const threshold = opening.threshold ?? DEFAULT_LOW_STOCK_THRESHOLD;
  const itemId = stockItemIdFor(variant.productId, variant.variantId);
  await trx
    .insertInto('stock_items')
    .values({
      id: itemId,
      product_id: variant.productId,
      variant_id: variant.variantId,
      on_hand: 0,
      low_stock_threshold: threshold,
      alert_state: 'ok',
      created_at: iso,
      updated_at: iso,
    })
    .execute();
  // A variant opened at or below its threshold is not news: the state starts where the level is,
  // so the opening row crosses nothing and nobody is e-mailed.
  const stock: LockedStock = {
    itemId,
    productId: variant.productId,
    variantId: variant.variantId,
    onHand: 0,
    threshold,
    alertState: alertStateOf(opening.quantity, threshold),
  };
  await recordMovement(trx, stock, { kind: 'opening', quantity: opening.quantity, actor: opening.actor, at });
  await trx
    .updateTable('stock_items')
    .set({ alert_state: alertStateOf(stock.onHand, threshold) })
    .where('id', '=', itemId)
    .execute();
}

/**
 * What the variants have behind them: `sold`, an order line names the variant (index
 * order_items_variant_idx); `moved`, its ledger holds rows other than its opening one (units
 * received, counted, damaged, sold, returned). A variant with neither can leave the catalogue
 * without a trace (closeStock). Variants with no history are absent.
 */
export async function variantHistory(
  db: Kysely<Database>,
  variantIds: readonly string[],
): Promise<Map<string, { sold: boolean; moved: boolean }>> {
  const history = new Map<string, { sold: boolean; moved: boolean }>();
  if (variantIds.length === 0) return history;
  const ids = [...new Set(variantIds)];
  const [sold, moved] = await Promise.all([
    db.selectFrom('order_items').select('variant_id').distinct().where('variant_id', 'in', ids).execute(),
    db
      .selectFrom('stock_items as si')
      .innerJoin('stock_movements as m', 'm.stock_item_id', 'si.id')
      .select('si.variant_id')
      .distinct()
      .where('si.variant_id', 'in', ids)
      .where('m.kind', '<>', 'opening')
      .execute(),
  ]);
  const entry = (id: string) => history.get(id) ?? history.set(id, { sold: false, moved: false }).get(id)!;
  for (const r of sold) if (r.variant_id) entry(r.variant_id).sold = true;
  for (const r of moved) entry(r.variant_id).moved = true;
  return history;
}

/** Why a variant's stock could not be closed: it was sold, it moved, or a checkout holds some of it. */
export type CloseRefusal = 'sold' | 'moved' | 'held';

/**
 * Closes the stock item of a variant that leaves the catalogue, under its product's lock (lockStock
 * first). Refused (answered with the reason, nothing written) when the variant has history: an
 * order line names it, its ledger holds more than its opening row, or an open checkout holds some
 * of it. Otherwise its opening units leave the product's shown copy (which stays the sum of its
 * items' levels, each the sum of its ledger) and the item goes with its ledger row and any wait
 * for its return. Answers null when closed, or when the variant had no item.
 */
export async function closeStock(trx: Kysely<Database>, variantId: string): Promise<CloseRefusal | null> {
  const item = await stockOfVariant(trx, variantId);
  if (!item) return null;
  const history = (await variantHistory(trx, [variantId])).get(variantId);
  if (history?.sold) return 'sold';
  if (history?.moved) return 'moved';
  const held = await trx
    .selectFrom('stock_reservations')
    .select('order_id')
    .where('product_id', '=', item.productId)
    .where('variant_id', '=', variantId)
    .where('released_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  if (held) return 'held';
  if (item.onHand !== 0) {
    await trx
      .updateTable('products')
      .set({ inventory: sql`inventory - ${item.onHand}`, updated_at: new Date().toISOString() })
      .where('id', '=', item.productId)
      .execute();
  }
  // Written out rather than left to the foreign keys' cascade, so no row is orphaned where they are off.
  await trx.deleteFrom('stock_reservations').where('stock_item_id', '=', item.itemId).execute();
  await trx.deleteFrom('back_in_stock_requests').where('stock_item_id', '=', item.itemId).execute();
  await trx.deleteFrom('stock_movements').where('stock_item_id', '=', item.itemId).execute();
  await trx.deleteFrom('stock_items').where('id', '=', item.itemId).execute();
  return null;
}

/**
 * Products written without a stock item (the seeds' bulk inserts, which set `inventory` as the
 * opening level and give each product its one variant): each variant gets its item, with the
 * product's level, and an `opening` ledger row for that level, in two statements.
 */
export async function adoptUnstockedProducts(db: Kysely<Database>, actorLabel = 'Shop'): Promise<void> {
  const at = new Date().toISOString();
  await db
    .insertInto('stock_items')
    .columns(['id', 'product_id', 'variant_id', 'on_hand', 'low_stock_threshold', 'alert_state', 'created_at', 'updated_at'])
    .expression(
      db
        .selectFrom('products as p')
        .innerJoin('product_variants as v', (join) => join.onRef('v.product_id', '=', 'p.id').on('v.id', '=', sql<string>`'var_' || p.id`))
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('stock_items as s').select('s.id').whereRef('s.product_id', '=', 'p.id'))),
        )
        .select([
          sql`'stk_' || p.id`.as('id'),
          'p.id as product_id',
          'v.id as variant_id',
          'p.inventory as on_hand',
          sql`${DEFAULT_LOW_STOCK_THRESHOLD}`.as('low_stock_threshold'),
          alertStateSql(sql`p.inventory`, sql`${DEFAULT_LOW_STOCK_THRESHOLD}`).as('alert_state'),
          'p.created_at',
          sql`${at}`.as('updated_at'),
        ]),
    )
    .execute();
  await db
    .insertInto('stock_movements')
    .columns(['id', 'stock_item_id', 'kind', 'quantity', 'order_id', 'actor_user_id', 'actor_label', 'reference', 'note', 'created_at'])
    .expression(
      db
        .selectFrom('stock_items as s')
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('stock_movements as m').select('m.id').whereRef('m.stock_item_id', '=', 's.id'))),
        )
        .select([
          sql`'mv_opening_' || s.id`.as('id'),
          's.id as stock_item_id',
          sql`'opening'`.as('kind'),
          's.on_hand as quantity',
          sql`null`.as('order_id'),
          sql`null`.as('actor_user_id'),
          sql`${actorLabel}`.as('actor_label'),
          sql`null`.as('reference'),
          sql`null`.as('note'),
          's.created_at',
        ]),
    )
    .execute();
}
