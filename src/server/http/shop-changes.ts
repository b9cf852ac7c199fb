import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { clearAllCaches } from './micro-cache.js';
import { anyReservationLapsed, lapseReservations } from '../inventory/reservations.js';
import { stockWrittenSince } from '../inventory/stock.js';

/**
 * How every process learns that what the storefront shows may have changed, within a moment:
 *
 * - A back-office write bumps `shop_changes.version` after it commits (`noteShopChange`), and
 *   clears this process's caches at once: a `catalogue` change, which drops everything.
 * - Each process looks every `pollMs` (`watchShopChanges`, 250 ms by default): first it counts out
 *   reservations whose firm time has run out (inventory/reservations.ts, so what they kept is on
 *   sale again within the poll), then it reads the version and the stock items written in the last
 *   SETTLE_MS (index stock_items_changed_idx). An item whose level or reserved units differ from
 *   what this process last saw is a `stock` change of that product only: the pages, lists and
 *   answers that show it are dropped, nothing else (decision 0023). A sale of one product
 *   re-renders that product's page and the lists holding it at most once per poll, not the shop.
 *
 * Shoppers' transactions never touch the version row, so checkouts never wait on one another for it.
 */
/**
 * What changed: `catalogue`, anything the back office wrote (or an unknown change: the watcher
 * lost the database); `stock`, only the stock of these products (units reserved or given back,
 * taken by a payment, returned, counted).
 */
export type ShopChange = { kind: 'catalogue' } | { kind: 'stock'; productIds: ReadonlySet<string> };

const listeners = new Set<(change: ShopChange) => void>();

/** Called whenever this process drops cached things because the shop changed. */
export function onShopChange(listener: (change: ShopChange) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function shopChanged(change: ShopChange): void {
  clearAllCaches(change.kind);
  for (const listener of listeners) {
    // One listener failing must not keep the others (the page cache) from forgetting.
    try {
      listener(change);
    } catch (err) {
      console.error('a shop-change listener failed', err);
    }
  }
}

/** After a back-office write has committed: this process forgets at once, the others on their next poll. */
export async function noteShopChange(db: Kysely<Database>): Promise<void> {
  shopChanged({ kind: 'catalogue' });
  await db
    .updateTable('shop_changes')
    .set({ version: sql`version + 1` })
    .where('id', '=', 1)
    .execute();
}

/**
 * A stock write is stamped (`updated_at`) before its transaction commits, so one stamped a moment
 * ago may not be visible yet: each look reads again the items written in this last while, and
 * compares them with what it saw.
 */
const SETTLE_MS = 10_000;

/** What one database's watcher last saw: the version, and each recently written item's level and reserved units. */
type Seen = { version: string; items: Map<string, { state: string; at: string }> };

/** What each database's watcher last saw (one entry per database handle). */
const lastSeen = new WeakMap<Kysely<Database>, Seen>();

async function look(
  db: Kysely<Database>,
  now: Date,
): Promise<{ version: string; items: { itemId: string; productId: string; state: string; at: string }[] }> {
  const since = new Date(now.getTime() - SETTLE_MS).toISOString();
  // Built with the query builder (not raw SQL), so a schema-qualified database (tests) reads its own tables.
  const [version, items] = await Promise.all([
    db.selectFrom('shop_changes').select('version').where('id', '=', 1).executeTakeFirst(),
    stockWrittenSince(db, since, 5000),
  ]);
  return { version: String(version?.version ?? ''), items };
}

/**
 * Counts out lapsed reservations, reads the version and the recent stock writes, and tells what
 * changed since last seen. The watcher calls it every `pollMs`; a page render calls it first, so
 * what the page shows is never older than what the watcher compares with: a change between two
 * polls, seen by a render, is seen as a change on the next poll.
 */
export async function checkShopChanges(db: Kysely<Database>, now = new Date()): Promise<void> {
  if (await anyReservationLapsed(db, now)) await db.transaction().execute((trx) => lapseReservations(trx, now));
  const seen = await look(db, now);
  const last = lastSeen.get(db);
  const since = new Date(now.getTime() - SETTLE_MS).toISOString();
  const items = new Map<string, { state: string; at: string }>();
  if (last) for (const [id, item] of last.items) if (item.at > since) items.set(id, item);
  const moved = new Set<string>();
  // By stock item: two variants of one product are two items, and neither hides the other's sale.
  for (const item of seen.items) {
    if (items.get(item.itemId)?.state !== item.state) moved.add(item.productId);
    items.set(item.itemId, { state: item.state, at: item.at });
  }
  lastSeen.set(db, { version: seen.version, items });
  if (last === undefined) return;
  if (seen.version !== last.version) shopChanged({ kind: 'catalogue' });
  else if (moved.size) shopChanged({ kind: 'stock', productIds: moved });
}

/** Polls the version and the stock; stops with the returned function. */
export function watchShopChanges(db: Kysely<Database>, pollMs: number, onError: (err: unknown) => void): () => void {
  let busy = false;
  let failing = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      await checkShopChanges(db);
      failing = false;
    } catch (err) {
      // Reported once per outage; caches are dropped, since a change may be going unseen.
      if (!failing) onError(err);
      failing = true;
      lastSeen.delete(db);
      shopChanged({ kind: 'catalogue' });
    } finally {
      busy = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), pollMs);
  timer.unref();
  return () => clearInterval(timer);
}
