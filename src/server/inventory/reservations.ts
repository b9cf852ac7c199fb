import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { inStockOrder } from '../../shared/variants.js';
import { isPostgres, writeTogether, type PendingWrite } from '../db/query-helpers.js';
import { writeAtCommit } from '../db/pg-commit-tail.js';
import { compiledOnce, insertRows } from '../db/compiled-once.js';

/*
 * What open checkouts hold (decision 0022).
 *
 * A checkout reserves its units: they are kept from other shoppers until `firm_until`, and stay the
 * holder's (their payment page is open, the cap on units held counts them) until `expires_at`.
 * A shopper's reservation of a product is firm for RESERVE_MS (10 minutes) counted from their first
 * checkout of it in the last `windowMs` (the life of a checkout's hold, 41 minutes): a new checkout,
 * a new browser on the same address, or a cancel-and-retry does not start the clock again. So one
 * visitor who never pays keeps a product from everyone else for 10 minutes at most; after that the
 * units are on sale again while the visitor's page stays open. A real shopper who pays within the
 * 10 minutes always gets the units; one who pays later gets them if they are still there, and is
 * otherwise refunded in full automatically, with an apology (checkout/service.ts).
 *
 * Ended reservations keep their row (`released_at`) until `sweepReservations` removes them a while
 * after; a paid order's are deleted (its units left the shelf as a `sold` ledger row).
 */

/** How long a shopper's reservation of a product keeps it from others. */
export const RESERVE_MS = 10 * 60_000;

/**
 * The firm time that holds of a variant's last units (those leaving no more than its low-stock
 * threshold free) may keep them from other shoppers, all unpaid checkouts together, whoever holds
 * them, in any LAST_UNITS_WINDOW_MS (decision 0042). A paid checkout's time is not counted.
 */
export const LAST_UNITS_FIRM_MS = RESERVE_MS;
/** The window that bound is counted over. */
export const LAST_UNITS_WINDOW_MS = 60 * 60_000;

/** Who holds: the same IP, browser (device hash) or account is the same shopper. */
export type Holder = { ip: string; deviceId: string; userId: string | null };

function byHolder(holder: Holder) {
  return (eb: ExpressionBuilder<Database, 'stock_reservations'>) =>
    eb.or([eb('ip', '=', holder.ip), eb('device_id', '=', holder.deviceId), ...(holder.userId ? [eb('user_id', '=', holder.userId)] : [])]);
}

/** Units to give back to items' `reserved`, by variant id, applied later in the same transaction (reserveForCheckout). */
export type GiveBack = Map<string, { productId: string; units: number }>;

/** What a checkout reserves of each variant (by variant id): the variant's product, its stock item and the units. */
export type ReserveUnits = Map<string, { productId: string; itemId: string; quantity: number }>;

/** What a checkout could not reserve: the first variant short, with its level and what others keep. */
export type ReserveShortfall = { productId: string; variantId: string; onHand: number; reserved: number };

/** Variant ids in the one order stock rows are written in: by product, then by variant (decision 0036). */
function variantsInStockOrder<V extends { productId: string }>(by: Map<string, V>): string[] {
  return [...by]
    .map(([variantId, v]) => ({ variantId, productId: v.productId }))
    .sort(inStockOrder)
    .map((k) => k.variantId);
}

/**
 * Writes the checkout's reservations and raises each item's `reserved` with one conditional update
 * (`on_hand - reserved >= wanted`), the items in stock order (product, then variant) and last in the transaction, so an item's
 * row is locked only from that update to the commit (decision 0023). `giveBack` holds units the same
 * transaction released (the browser's earlier checkout), netted here so each row is written once.
 * Each product's reservation is firm until 10 minutes after the holder's first reservation of it
 * within `windowMs`, never before now. Answers the first item short (the transaction must then be
 * rolled back: its rows were written).
 */
export async function reserveForCheckout(
  trx: Kysely<Database>,
  input: {
    orderId: string;
    units: ReserveUnits;
    holder: Holder;
    now: Date;
    expiresAt: Date;
    windowMs: number;
    giveBack?: GiveBack;
    /** Writes of the caller's (the new order's rows) to run with the reservation rows' insert: one round trip on PostgreSQL. */
    writeWith?: PendingWrite[];
    /** The holder's first reservation of each product within `windowMs`, when the caller read it already (holderReservations). */
    firstByProduct?: Map<string, string>;
    /**
     * PostgreSQL: the items' conditional updates go with the COMMIT (db/pg-commit-tail.ts), so a
     * sale's row is locked for no round trip at all. A unit short then shows as `GuardFailedAtCommit`
     * out of the transaction, and the caller runs it again without this, to learn what is short.
     * Ignored when units are given back (their rows are written at once, in id order with the rest).
     */
    atCommit?: boolean;
  },
): Promise<{ short: ReserveShortfall | null; firmUntil: Map<string, string> }> {
  const { orderId, units, holder, now } = input;
  const productIds = [...new Set([...units.values()].filter((u) => u.quantity > 0).map((u) => u.productId))];
  const since = new Date(now.getTime() - input.windowMs).toISOString();
  const firstRows = input.firstByProduct
    ? [...input.firstByProduct].map(([product_id, first]) => ({ product_id, first }))
    : productIds.length
      ? await trx
          .selectFrom('stock_reservations')
          .select(['product_id', sql<string>`min(created_at)`.as('first')])
          .where('product_id', 'in', productIds)
          .where('created_at', '>', since)
          .where(byHolder(holder))
          .groupBy('product_id')
          .execute()
      : [];
  const first = new Map(firstRows.map((r) => [r.product_id, r.first]));
  const at = now.toISOString();
  const firmUntil = new Map<string, string>();
  for (const productId of productIds) {
    // Firm per product: another variant of it does not start the clock again.
    const started = Math.min(now.getTime(), Date.parse(first.get(productId) ?? at));
    firmUntil.set(productId, new Date(Math.max(now.getTime(), started + RESERVE_MS)).toISOString());
  }
  const rows = [];
  // Per variant: `units` net of what is given back, and `mine` the units this checkout reserves.
  const delta = new Map<string, { productId: string; units: number; mine: number }>();
  for (const [variantId, back] of input.giveBack ?? []) delta.set(variantId, { productId: back.productId, units: -back.units, mine: 0 });
  for (const [variantId, u] of units) {
    if (u.quantity <= 0) continue;
    rows.push({
      order_id: orderId,
      stock_item_id: u.itemId,
      product_id: u.productId,
      variant_id: variantId,
      quantity: u.quantity,
      firm_until: firmUntil.get(u.productId)!,
      expires_at: input.expiresAt.toISOString(),
      ip: holder.ip,
      device_id: holder.deviceId,
      user_id: holder.userId,
      created_at: at,
      released_at: null,
      counted: 1,
      last_units: 0,
    });
    const d = delta.get(variantId) ?? { productId: u.productId, units: 0, mine: 0 };
    delta.set(variantId, { productId: u.productId, units: d.units + u.quantity, mine: d.mine + u.quantity });
  }
  await writeTogether(trx, [...(input.writeWith ?? []), ...(rows.length ? [insertRows(trx, 'stock_reservations', rows)] : [])]);
  const order = variantsInStockOrder(delta);
  if (input.atCommit && isPostgres(trx) && [...delta.values()].every((d) => d.units >= 0)) {
    for (const variantId of order) {
      const d = delta.get(variantId)!;
      const n = d.units;
      if (n === 0) continue;
      // Guarded also on what is left free: the rows were written as ordinary holds (above), so a
      // variant whose last units they turn out to be fails the guard and runs the careful way.
      await writeAtCommit(
        trx,
        sql`with u as (
          update stock_items set reserved = reserved + ${n}, updated_at = ${at}
          where variant_id = ${variantId} and on_hand - reserved >= ${n}
          and on_hand - reserved - ${n} > low_stock_threshold
          returning 1
        ) select 1 / (select count(*)::integer from u)`,
      );
    }
    return { short: null, firmUntil };
  }
  for (const variantId of order) {
    const d = delta.get(variantId)!;
    if (d.units === 0 && d.mine === 0) continue;
    if (d.mine === 0) {
      await addReserved(trx, variantId, d.units, at);
      continue;
    }
    let left = await reserveUnits(trx, variantId, d.units, d.units, at);
    if (!left) {
      // Reservations whose firm time ran out a moment ago may still be counted: count them out, once more,
      // waiting for a transaction counting the same ones out (the watcher's), whose commit frees them.
      // (Not this checkout's own rows: their units are not in `reserved` yet.)
      await lapseReservations(trx, now, [variantId], orderId, { wait: true });
      left = await reserveUnits(trx, variantId, d.units, d.units, at);
    }
    if (left) {
      // Counted under the item's row lock, taken by the update: what is left free decides.
      if (left.free <= left.threshold) await weighLastUnits(trx, { orderId, variantId, now, firmUntil: firmUntil.get(d.productId)! });
      continue;
    }
    const level = await trx
      .selectFrom('stock_items')
      .select(['on_hand', 'reserved'])
      .where('variant_id', '=', variantId)
      .executeTakeFirst();
    // What others keep: this checkout's own units given back are no longer kept by anyone.
    return {
      short: { productId: d.productId, variantId, onHand: Number(level?.on_hand ?? 0), reserved: Number(level?.reserved ?? 0) },
      firmUntil,
    };
  }
  return { short: null, firmUntil };
}

/**
 * Raises a variant's item's `reserved` by `units` when that many are free (a net give-back, zero or
 * less, always is): what is then left free and the item's threshold, or undefined when short.
 */
async function reserveUnits(
  trx: Kysely<Database>,
  variantId: string,
  units: number,
  need: number,
  at: string,
): Promise<{ free: number; threshold: number } | undefined> {
  const statement = reserveStatement(trx, need > 0 ? { variantId, units, at, need } : { variantId, units, at });
  const [r] = (await trx.executeQuery(statement)).rows;
  return r ? { free: Number(r.free), threshold: Number(r.low_stock_threshold) } : undefined;
}

/** reserveUnits' update, built once for each shape (with or without the units it needs free). */
const reserveStatement = compiledOnce((trx, v: { variantId: string; units: number; at: string; need?: number }) => {
  let update = trx
    .updateTable('stock_items')
    .set({ reserved: sql`reserved + ${v.units}`, updated_at: v.at })
    .where('variant_id', '=', v.variantId);
  if ('need' in v) update = update.where(sql<boolean>`on_hand - reserved >= ${v.need}`);
  return update.returning([sql<number | string>`on_hand - reserved`.as('free'), 'low_stock_threshold']);
});

/**
 * How long, in the last LAST_UNITS_WINDOW_MS up to `now`, holds of a variant's last units other
 * than `exceptOrderId`'s kept them from other shoppers: the length of the union of their firm
 * spans (a paid checkout's rows are gone, so its time is not counted; an ended one's stops at its end).
 */
export async function lastUnitsFirmUsed(db: Kysely<Database>, variantId: string, now: Date, exceptOrderId?: string): Promise<number> {
  const from = now.getTime() - LAST_UNITS_WINDOW_MS;
  let q = db
    .selectFrom('stock_reservations')
    .select(['created_at', 'firm_until', 'released_at'])
    .where('variant_id', '=', variantId)
    .where('last_units', '=', 1)
    // A span may start before the window and reach into it: firm time never exceeds RESERVE_MS.
    .where('created_at', '>', new Date(from - RESERVE_MS).toISOString());
  if (exceptOrderId) q = q.where('order_id', '<>', exceptOrderId);
  const spans = (await q.execute())
    .map((r) => {
      const end = Math.min(Date.parse(r.firm_until), r.released_at ? Date.parse(r.released_at) : Infinity, now.getTime());
      return [Math.max(Date.parse(r.created_at), from), end] as const;
    })
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let used = 0;
  let reach = -Infinity;
  for (const [a, b] of spans) {
    if (b <= reach) continue;
    used += b - Math.max(a, reach);
    reach = b;
  }
  return used;
}

/** Until when a hold of the last units may be firm: what is left of their bound, and never past the holder's own firm time. */
function lastUnitsFirmUntil(used: number, now: Date, holderFirmUntil: string): string {
  const left = Math.max(0, LAST_UNITS_FIRM_MS - used);
  return new Date(Math.min(Date.parse(holderFirmUntil), now.getTime() + left)).toISOString();
}

/**
 * A checkout that took a variant's last units (decision 0042): its reservation is marked so, and
 * keeps them firm for no longer than is left of the variant's bound (LAST_UNITS_FIRM_MS in any
 * LAST_UNITS_WINDOW_MS, all unpaid checkouts together). None left: the hold is soft from the start
 * (the shopper may still pay while the units are there; nobody is kept out), and its units come
 * off `reserved` again. Runs under the item's row lock, taken by the reservation's update.
 */
async function weighLastUnits(
  trx: Kysely<Database>,
  input: { orderId: string; variantId: string; now: Date; firmUntil: string },
): Promise<void> {
  const { orderId, variantId, now } = input;
  const firm = lastUnitsFirmUntil(await lastUnitsFirmUsed(trx, variantId, now, orderId), now, input.firmUntil);
  const soft = Date.parse(firm) <= now.getTime();
  const rows = await trx
    .updateTable('stock_reservations')
    .set({ last_units: 1, firm_until: firm, ...(soft ? { counted: 0 } : {}) })
    .where('order_id', '=', orderId)
    .where('variant_id', '=', variantId)
    .returning('quantity')
    .execute();
  const units = rows.reduce((n, r) => n + Number(r.quantity), 0);
  if (soft && units > 0) await addReserved(trx, variantId, -units, now.toISOString());
}

/** Moves a variant's item's `reserved` by `units` (negative: given back). */
async function addReserved(trx: Kysely<Database>, variantId: string, units: number, at: string): Promise<void> {
  await trx
    .updateTable('stock_items')
    .set({ reserved: sql`reserved + ${units}`, updated_at: at })
    .where('variant_id', '=', variantId)
    .execute();
}

/** Gives units back to items' `reserved` now (in stock order) or, with `deferTo`, adds them there for later. */
async function giveBackUnits(trx: Kysely<Database>, back: GiveBack, at: string, deferTo?: GiveBack): Promise<void> {
  for (const variantId of variantsInStockOrder(back)) {
    const { productId, units } = back.get(variantId)!;
    if (units <= 0) continue;
    if (deferTo) deferTo.set(variantId, { productId, units: (deferTo.get(variantId)?.units ?? 0) + units });
    else await addReserved(trx, variantId, -units, at);
  }
}

function sumByVariant(rows: { product_id: string; variant_id: string; quantity: number }[]): GiveBack {
  const by: GiveBack = new Map();
  for (const r of rows) by.set(r.variant_id, { productId: r.product_id, units: (by.get(r.variant_id)?.units ?? 0) + Number(r.quantity) });
  return by;
}

/**
 * Reservations whose firm time has run out stop counting: `counted` goes to 0 and their units come
 * off their items' `reserved`, in the caller's transaction (only `variantIds`' when given). On
 * PostgreSQL rows another transaction holds are skipped (it is ending or paying them, or the watcher
 * is counting them out), so this never waits, unless `wait`: a checkout short of units waits for
 * that other transaction, whose count may free them (it would otherwise be told "in other shoppers'
 * checkouts" about holds that were ending at that moment). Answers the products whose reserved units changed.
 */
export async function lapseReservations(
  trx: Kysely<Database>,
  now: Date,
  variantIds?: readonly string[],
  exceptOrderId?: string,
  { wait = false }: { wait?: boolean } = {},
): Promise<string[]> {
  if (variantIds && variantIds.length === 0) return [];
  const iso = now.toISOString();
  let due = trx
    .selectFrom('stock_reservations')
    .select(['order_id', 'stock_item_id'])
    .where('counted', '=', 1)
    .where('firm_until', '<=', iso)
    .limit(1000);
  if (variantIds) due = due.where('variant_id', 'in', [...variantIds]);
  if (exceptOrderId) due = due.where('order_id', '<>', exceptOrderId);
  if (isPostgres(trx)) due = wait ? due.forUpdate() : due.forUpdate().skipLocked();
  const lapsed = await trx
    .updateTable('stock_reservations')
    .set({ counted: 0 })
    .where('counted', '=', 1)
    .where((eb) => eb(eb.refTuple('order_id', 'stock_item_id'), 'in', due.$asTuple('order_id', 'stock_item_id')))
    .returning(['product_id', 'variant_id', 'quantity'])
    .execute();
  if (lapsed.length === 0) return [];
  await giveBackUnits(trx, sumByVariant(lapsed), iso);
  return [...new Set(lapsed.map((r) => r.product_id))];
}

/** Whether any counted reservation's firm time has run out (a cheap look before lapseReservations' writes). */
export async function anyReservationLapsed(db: Kysely<Database>, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('stock_reservations')
    .select('order_id')
    .where('counted', '=', 1)
    .where('firm_until', '<=', now.toISOString())
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A paid order's reservations go, answering the units each variant's item still counted for it (to come off
 * `reserved` as the units are taken: order-stock.ts).
 */
export async function consumeReservations(trx: Kysely<Database>, orderId: string): Promise<GiveBack> {
  const { rows } = await trx.executeQuery(consumeStatement(trx, { orderId }));
  return sumByVariant(rows.filter((r) => Number(r.counted) === 1));
}

/** consumeReservations' delete, built once (db/compiled-once.ts). */
const consumeStatement = compiledOnce((trx, v: { orderId: string }) =>
  trx.deleteFrom('stock_reservations').where('order_id', '=', v.orderId).returning(['product_id', 'variant_id', 'quantity', 'counted']),
);

/**
 * Units of each product that open checkouts keep from other shoppers now (firm reservations, one
 * index range each), leaving out one order's own when `exceptOrderId` is given.
 */
export async function reservedUnits(
  db: Kysely<Database>,
  productIds: readonly string[],
  now: Date,
  exceptOrderId?: string,
): Promise<Map<string, number>> {
  if (productIds.length === 0) return new Map();
  let query = db
    .selectFrom('stock_reservations')
    .select(['product_id', sql<number | string>`sum(quantity)`.as('held')])
    .where('product_id', 'in', [...productIds])
    .where('released_at', 'is', null)
    .where('firm_until', '>', now.toISOString());
  if (exceptOrderId) query = query.where('order_id', '<>', exceptOrderId);
  const rows = await query.groupBy('product_id').execute();
  return new Map(rows.map((r) => [r.product_id, Number(r.held)]));
}

/** A variant and its product: reads of reservations walk the product index, then group by variant. */
export type VariantKey = { productId: string; variantId: string };

/** Units of each variant (by variant id) that open checkouts keep from other shoppers now, leaving out one order's own when given. */
export async function reservedByVariant(
  db: Kysely<Database>,
  keys: readonly VariantKey[],
  now: Date,
  exceptOrderId?: string,
): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  let query = db
    .selectFrom('stock_reservations')
    .select(['variant_id', sql<number | string>`sum(quantity)`.as('held')])
    .where('product_id', 'in', [...new Set(keys.map((k) => k.productId))])
    .where(
      'variant_id',
      'in',
      keys.map((k) => k.variantId),
    )
    .where('released_at', 'is', null)
    .where('firm_until', '>', now.toISOString());
  if (exceptOrderId) query = query.where('order_id', '<>', exceptOrderId);
  const rows = await query.groupBy('variant_id').execute();
  return new Map(rows.map((r) => [r.variant_id, Number(r.held)]));
}

/** Units this browser's own open checkouts keep from others now, per variant (the device index). */
export async function reservedByDevice(
  db: Kysely<Database>,
  keys: readonly VariantKey[],
  deviceId: string,
  now: Date,
): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom('stock_reservations')
    .select(['variant_id', sql<number | string>`sum(quantity)`.as('held')])
    .where('device_id', '=', deviceId)
    .where('created_at', '>', new Date(now.getTime() - RESERVE_MS).toISOString())
    .where(
      'variant_id',
      'in',
      keys.map((k) => k.variantId),
    )
    .where('released_at', 'is', null)
    .where('firm_until', '>', now.toISOString())
    .groupBy('variant_id')
    .execute();
  return new Map(rows.map((r) => [r.variant_id, Number(r.held)]));
}

/** Reserved units and when the first of them may come back, per product (for the product page). */
export async function reservationSummary(
  db: Kysely<Database>,
  productIds: readonly string[],
  now: Date,
): Promise<Map<string, { units: number; until: string }>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('stock_reservations')
    .select(['product_id', sql<number | string>`sum(quantity)`.as('held'), sql<string>`min(firm_until)`.as('until')])
    .where('product_id', 'in', [...productIds])
    .where('released_at', 'is', null)
    .where('firm_until', '>', now.toISOString())
    .groupBy('product_id')
    .execute();
  return new Map(rows.map((r) => [r.product_id, { units: Number(r.held), until: r.until }]));
}

/**
 * The same per variant (by variant id), for the product page's pickers: each variant's units kept
 * by firm reservations now and when the first may come back (one index range per product, grouped
 * by variant).
 */
export async function reservationSummaryByVariant(
  db: Kysely<Database>,
  productIds: readonly string[],
  now: Date,
): Promise<Map<string, { productId: string; units: number; until: string }>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('stock_reservations')
    .select(['product_id', 'variant_id', sql<number | string>`sum(quantity)`.as('held'), sql<string>`min(firm_until)`.as('until')])
    .where('product_id', 'in', [...productIds])
    .where('released_at', 'is', null)
    .where('firm_until', '>', now.toISOString())
    .groupBy(['product_id', 'variant_id'])
    .execute();
  return new Map(rows.map((r) => [r.variant_id, { productId: r.product_id, units: Number(r.held), until: r.until }]));
}

/** Every product's reserved units now (as many rows as products in open checkouts; the catalogue index). */
export async function allReservedUnits(db: Kysely<Database>, now: Date): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('stock_reservations')
    .select(['product_id', sql<number | string>`sum(quantity)`.as('held')])
    .where('released_at', 'is', null)
    .where('firm_until', '>', now.toISOString())
    .groupBy('product_id')
    .execute();
  return new Map(rows.map((r) => [r.product_id, Number(r.held)]));
}

/** A shopper's reservations made within a checkout's life: what a new checkout of theirs needs to know. */
export type HolderReservations = {
  /** Orders of this browser whose checkout still holds units, in id order (to end them when it starts another). */
  ordersOfDevice: string[];
  /** Units held now (waiting for payment) by order, for the cap on units held. */
  unitsByOrder: Map<string, number>;
  /** Each product's first reservation by this shopper within the window (when its firm time started). */
  firstByProduct: Map<string, string>;
};

/** holderReservations' read, built once for each shape (with or without an account). */
const holderStatement = compiledOnce((db, v: { since: string; ip: string; deviceId: string; userId?: string }) =>
  db
    .selectFrom('stock_reservations')
    .select(['order_id', 'product_id', 'quantity', 'created_at', 'expires_at', 'released_at', 'device_id'])
    .where('created_at', '>', v.since)
    .where(byHolder({ ip: v.ip, deviceId: v.deviceId, userId: v.userId ?? null })),
);

/**
 * Everything a new checkout reads about its shopper's reservations (same IP, browser or account),
 * with one statement: the rows made in the last `windowMs`. That is every one still held, since a
 * reservation is held for the checkout's life (`expires_at` = its `created_at` plus `windowMs`,
 * createCheckout), and every one whose firm time a new reservation continues.
 */
export async function holderReservations(db: Kysely<Database>, holder: Holder, now: Date, windowMs: number): Promise<HolderReservations> {
  const since = new Date(now.getTime() - windowMs).toISOString();
  const { ip, deviceId, userId } = holder;
  const { rows } = await db.executeQuery(holderStatement(db, userId ? { since, ip, deviceId, userId } : { since, ip, deviceId }));
  const at = now.toISOString();
  const devices = new Set<string>();
  const unitsByOrder = new Map<string, number>();
  const firstByProduct = new Map<string, string>();
  for (const r of rows) {
    const first = firstByProduct.get(r.product_id);
    if (first === undefined || r.created_at < first) firstByProduct.set(r.product_id, r.created_at);
    if (r.released_at !== null || r.expires_at <= at) continue;
    unitsByOrder.set(r.order_id, (unitsByOrder.get(r.order_id) ?? 0) + Number(r.quantity));
    if (r.device_id === holder.deviceId) devices.add(r.order_id);
  }
  return { ordersOfDevice: [...devices].sort(), unitsByOrder, firstByProduct };
}

/**
 * The checkout is over. Paid: its reservations go (the units left as `sold`; consumeReservations
 * reports what they still counted). Cancelled or expired: they stop counting (their units come off
 * `reserved` now or, with `deferTo`, later in the transaction) and are kept a while, for the holder's window.
 */
export async function releaseReservations(
  db: Kysely<Database>,
  orderId: string,
  how: 'sold' | 'ended',
  now = new Date(),
  deferTo?: GiveBack,
): Promise<void> {
  const at = now.toISOString();
  if (how === 'sold') {
    await giveBackUnits(db, await consumeReservations(db, orderId), at, deferTo);
    return;
  }
  await giveBackUnits(db, await endReservations(db, orderId, now), at, deferTo);
}

/**
 * An unpaid checkout's reservations end: they stop counting and keep their rows (`released_at`) for
 * the holder's window and the last units' bound, so neither starts again for that holder. Answers
 * the units each variant's item still counted for them, for the caller to take off `reserved`.
 * A payment refunded because its units were gone ends its reservations this way too (decision 0042).
 */
export async function endReservations(db: Kysely<Database>, orderId: string, now: Date): Promise<GiveBack> {
  const at = now.toISOString();
  const counted = await db
    .updateTable('stock_reservations')
    .set({ counted: 0, released_at: at })
    .where('order_id', '=', orderId)
    .where('counted', '=', 1)
    .returning(['product_id', 'variant_id', 'quantity'])
    .execute();
  await db
    .updateTable('stock_reservations')
    .set({ released_at: at })
    .where('order_id', '=', orderId)
    .where('released_at', 'is', null)
    .execute();
  return sumByVariant(counted);
}

/** Reservations whose window has long passed are deleted (housekeeping, with the session sweep). */
export async function sweepReservations(db: Kysely<Database>, now: Date, keepMs: number): Promise<number> {
  const r = await db
    .deleteFrom('stock_reservations')
    .where('created_at', '<', new Date(now.getTime() - keepMs).toISOString())
    // A counted one still holds units in its item's `reserved`: lapseReservations counts it out first.
    .where('counted', '=', 0)
    .where((eb) => eb.or([eb('released_at', 'is not', null), eb('expires_at', '<', now.toISOString())]))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** A reservation's holder when an account is erased: the account's name goes, the row stays. */
export async function forgetHolderAccount(db: Kysely<Database>, userId: string): Promise<void> {
  await db.updateTable('stock_reservations').set({ user_id: null }).where('user_id', '=', userId).execute();
}

/** When each order's open checkout stops holding units (the latest `expires_at` of its live reservations). */
export async function reservationEnds(db: Kysely<Database>, orderIds: readonly string[]): Promise<Map<string, string>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('stock_reservations')
    .select(['order_id', sql<string>`max(expires_at)`.as('ends')])
    .where('order_id', 'in', [...orderIds])
    .where('released_at', 'is', null)
    .groupBy('order_id')
    .execute();
  return new Map(rows.map((r) => [r.order_id, r.ends]));
}

/** One live firm reservation of a variant: its units, when they may come back, and whose browser keeps them. */
export type LiveHold = { variantId: string; quantity: number; firmUntil: string; deviceId: string | null; createdAt: string };

/**
 * The firm reservations keeping these variants now, one row each (one index range per product): what
 * a cart short only for other shoppers' checkouts needs to say when its units come back.
 */
export async function liveHolds(db: Kysely<Database>, keys: readonly VariantKey[], now: Date): Promise<LiveHold[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('stock_reservations')
    .select(['variant_id', 'quantity', 'firm_until', 'device_id', 'created_at'])
    .where('product_id', 'in', [...new Set(keys.map((k) => k.productId))])
    .where(
      'variant_id',
      'in',
      keys.map((k) => k.variantId),
    )
    .where('released_at', 'is', null)
    .where('firm_until', '>', now.toISOString())
    .execute();
  return rows.map((r) => ({
    variantId: r.variant_id,
    quantity: Number(r.quantity),
    firmUntil: r.firm_until,
    deviceId: r.device_id,
    createdAt: r.created_at,
  }));
}

/** Whether a live hold is this browser's own open checkout (as reservedByDevice counts it). */
export function isOwnHold(hold: LiveHold, deviceId: string | null, now: Date): boolean {
  return deviceId !== null && hold.deviceId === deviceId && hold.createdAt > new Date(now.getTime() - RESERVE_MS).toISOString();
}
