import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { LockedStock } from './stock.js';

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

/** Who holds: the same IP, browser (device hash) or account is the same shopper. */
export type Holder = { ip: string; deviceId: string; userId: string | null };

function byHolder(holder: Holder) {
  return (eb: ExpressionBuilder<Database, 'stock_reservations'>) =>
    eb.or([eb('ip', '=', holder.ip), eb('device_id', '=', holder.deviceId), ...(holder.userId ? [eb('user_id', '=', holder.userId)] : [])]);
}

/**
 * Writes the checkout's reservations (the stock locked by lockStock). Each product's reservation is
 * firm until 10 minutes after the holder's first reservation of it within `windowMs`, never before
 * now. Returns when each stops keeping others out.
 */
export async function reserveForCheckout(
  trx: Kysely<Database>,
  input: {
    orderId: string;
    units: Map<string, number>;
    stock: Map<string, LockedStock>;
    holder: Holder;
    now: Date;
    expiresAt: Date;
    windowMs: number;
  },
): Promise<Map<string, string>> {
  const { orderId, units, stock, holder, now } = input;
  const productIds = [...units.keys()];
  const since = new Date(now.getTime() - input.windowMs).toISOString();
  const firstRows = productIds.length
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
  const rows = [];
  for (const [productId, quantity] of units) {
    const item = stock.get(productId);
    if (!item || quantity <= 0) continue;
    const started = Math.min(now.getTime(), Date.parse(first.get(productId) ?? at));
    const until = new Date(Math.max(now.getTime(), started + RESERVE_MS)).toISOString();
    firmUntil.set(productId, until);
    rows.push({
      order_id: orderId,
      stock_item_id: item.itemId,
      product_id: productId,
      quantity,
      firm_until: until,
      expires_at: input.expiresAt.toISOString(),
      ip: holder.ip,
      device_id: holder.deviceId,
      user_id: holder.userId,
      created_at: at,
      released_at: null,
    });
  }
  if (rows.length) await trx.insertInto('stock_reservations').values(rows).execute();
  return firmUntil;
}

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

/** Units this browser's own open checkouts keep from others now, per product (the device index). */
export async function reservedByDevice(
  db: Kysely<Database>,
  productIds: readonly string[],
  deviceId: string,
  now: Date,
): Promise<Map<string, number>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('stock_reservations')
    .select(['product_id', sql<number | string>`sum(quantity)`.as('held')])
    .where('device_id', '=', deviceId)
    .where('created_at', '>', new Date(now.getTime() - RESERVE_MS).toISOString())
    .where('product_id', 'in', [...productIds])
    .where('released_at', 'is', null)
    .where('firm_until', '>', now.toISOString())
    .groupBy('product_id')
    .execute();
  return new Map(rows.map((r) => [r.product_id, Number(r.held)]));
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

/**
 * One text that changes whenever what is reserved changes (a checkout, an end, a reservation
 * lapsing with time): a scalar subquery for the shop-change watcher's single poll.
 */
export function reservationFingerprint(db: Kysely<Database>, now: Date) {
  return db
    .selectFrom('stock_reservations')
    .select(sql<string>`count(*) || '|' || coalesce(sum(quantity), 0) || '|' || coalesce(min(firm_until), '')`.as('f'))
    .where('released_at', 'is', null)
    .where('firm_until', '>', now.toISOString());
}

/** Units this shopper (same IP, browser or account) has waiting for payment now. */
export async function unitsHeldBy(db: Kysely<Database>, holder: Holder, now: Date): Promise<number> {
  const row = await db
    .selectFrom('stock_reservations')
    .select(sql<number | string | null>`sum(quantity)`.as('units'))
    .where('released_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .where(byHolder(holder))
    .executeTakeFirst();
  return Number(row?.units ?? 0);
}

/** Orders of this browser whose checkout still holds units (to end them when it starts another). */
export async function ordersHeldByDevice(db: Kysely<Database>, deviceId: string, now: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('stock_reservations')
    .select('order_id')
    .distinct()
    .where('device_id', '=', deviceId)
    .where('released_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .orderBy('order_id')
    .execute();
  return rows.map((r) => r.order_id);
}

/**
 * The checkout is over. Paid: its reservations go (the units left as `sold`). Cancelled or expired:
 * they stop counting and are kept a while, for the holder's window.
 */
export async function releaseReservations(db: Kysely<Database>, orderId: string, how: 'sold' | 'ended', now = new Date()): Promise<void> {
  if (how === 'sold') {
    await db.deleteFrom('stock_reservations').where('order_id', '=', orderId).execute();
    return;
  }
  await db
    .updateTable('stock_reservations')
    .set({ released_at: now.toISOString() })
    .where('order_id', '=', orderId)
    .where('released_at', 'is', null)
    .execute();
}

/** Reservations whose window has long passed are deleted (housekeeping, with the session sweep). */
export async function sweepReservations(db: Kysely<Database>, now: Date, keepMs: number): Promise<number> {
  const r = await db
    .deleteFrom('stock_reservations')
    .where('created_at', '<', new Date(now.getTime() - keepMs).toISOString())
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
