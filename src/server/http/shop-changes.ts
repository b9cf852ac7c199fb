import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { clearAllCaches } from './micro-cache.js';
import { anyReservationLapsed, lapseReservations } from '../inventory/reservations.js';
import { stockWrittenSince } from '../inventory/stock.js';
import { starsStampedSince } from '../lib/product-reviews.js';

/**
 * How every process learns that what the storefront shows may have changed, within a moment:
 *
 * - A back-office write bumps `shop_changes.version` after it commits (`noteShopChange`), and
 *   clears this process's caches at once: a `catalogue` change, which drops everything.
 * - Each process looks every `pollMs` (`watchShopChanges`, 250 ms by default): first it counts out
 *   reservations whose firm time has run out (inventory/reservations.ts, so what they kept is on
 *   sale again within the poll), then it reads the version, the stock items written in the last
 *   SETTLE_MS (index stock_items_changed_idx) and the products' ratings rows stamped in that while
 *   (index product_ratings_updated_idx). An item whose level or reserved units differ from what
 *   this process last saw is a `stock` change of that product only; a ratings row whose stamp or
 *   sums differ (a review published, edited, approved, hidden, its photos hidden) is a `ratings`
 *   change of that product only. Either way the pages, lists and answers that show the product are
 *   dropped, nothing else (decision 0023): a sale or a review of one product re-renders that
 *   product's page and the lists holding it at most once per poll, not the shop.
 *
 * Shoppers' transactions never touch the version row, so checkouts and reviews never wait on one another for it.
 */
/**
 * What changed: `catalogue`, anything the back office wrote (or an unknown change: the watcher
 * lost the database); `stock`, only the stock of these products (units reserved or given back,
 * taken by a payment, returned, counted); `ratings`, only the stars and published reviews of these
 * products (reviews/ratings.ts stamps its row in every review write's transaction).
 */
export type ShopChange =
  { kind: 'catalogue' } | { kind: 'stock'; productIds: ReadonlySet<string> } | { kind: 'ratings'; productIds: ReadonlySet<string> };

/** A change of some products only (what they show), not of the whole shop. */
export type ProductsChange = Exclude<ShopChange, { kind: 'catalogue' }>;

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

/** A recently written row as last seen: what it showed (`state`) and when it was stamped. */
type SeenRow = { state: string; at: string };

/**
 * What one database's watcher last saw: the version, each recently written stock item's level and
 * reserved units (by item), and each recently stamped ratings row's sums and stamp (by product).
 */
type Seen = { version: string; items: Map<string, SeenRow>; ratings: Map<string, SeenRow> };

type RecentRow = { key: string; productId: string; state: string; at: string };

/** What each database's watcher last saw (one entry per database handle). */
const lastSeen = new WeakMap<Kysely<Database>, Seen>();

async function look(db: Kysely<Database>, now: Date): Promise<{ version: string; items: RecentRow[]; ratings: RecentRow[] }> {
  const since = new Date(now.getTime() - SETTLE_MS).toISOString();
  // Built with the query builder (not raw SQL), so a schema-qualified database (tests) reads its own tables.
  const [version, items, ratings] = await Promise.all([
    db.selectFrom('shop_changes').select('version').where('id', '=', 1).executeTakeFirst(),
    stockWrittenSince(db, since, 5000),
    starsStampedSince(db, since, 5000),
  ]);
  return {
    version: String(version?.version ?? ''),
    items: items.map((i) => ({ key: i.itemId, productId: i.productId, state: i.state, at: i.at })),
    // The stamp is part of the state (reviews/ratings.ts stamps the row at every refresh): a review's
    // new text, or its photos hidden, changes what the page shows and leaves the sums as they were.
    ratings: ratings.map((r) => ({ key: r.productId, productId: r.productId, state: r.state, at: r.at })),
  };
}

/**
 * The products whose rows differ from what was last seen (rows stamped before `since` are
 * forgotten: no later look reads them), and what is seen now.
 */
function compare(
  last: Map<string, SeenRow> | undefined,
  rows: RecentRow[],
  since: string,
): { moved: Set<string>; seen: Map<string, SeenRow> } {
  const seen = new Map<string, SeenRow>();
  if (last) for (const [key, row] of last) if (row.at > since) seen.set(key, row);
  const moved = new Set<string>();
  for (const row of rows) {
    if (seen.get(row.key)?.state !== row.state) moved.add(row.productId);
    seen.set(row.key, { state: row.state, at: row.at });
  }
  return { moved, seen };
}

/**
 * Counts out lapsed reservations, reads the version, the recent stock writes and the recently
 * stamped ratings, and tells what changed since last seen. The watcher calls it every `pollMs`; a page render calls it first, so
 * what the page shows is never older than what the watcher compares with: a change between two
 * polls, seen by a render, is seen as a change on the next poll.
 */
export async function checkShopChanges(db: Kysely<Database>, now = new Date()): Promise<void> {
  if (await anyReservationLapsed(db, now)) await db.transaction().execute((trx) => lapseReservations(trx, now));
  const seen = await look(db, now);
  const last = lastSeen.get(db);
  const since = new Date(now.getTime() - SETTLE_MS).toISOString();
  // By stock item: two variants of one product are two items, and neither hides the other's sale.
  const stock = compare(last?.items, seen.items, since);
  const ratings = compare(last?.ratings, seen.ratings, since);
  lastSeen.set(db, { version: seen.version, items: stock.seen, ratings: ratings.seen });
  if (last === undefined) return;
  if (seen.version !== last.version) {
    shopChanged({ kind: 'catalogue' });
    return;
  }
  if (stock.moved.size) shopChanged({ kind: 'stock', productIds: stock.moved });
  if (ratings.moved.size) shopChanged({ kind: 'ratings', productIds: ratings.moved });
}

/** Polls the version, the stock and the ratings; stops with the returned function. */
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
