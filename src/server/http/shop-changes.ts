import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { clearAllCaches } from './micro-cache.js';
import { reservationFingerprint } from '../inventory/reservations.js';

/**
 * How every process learns that what the storefront shows may have changed, within a moment:
 *
 * - A back-office write bumps `shop_changes.version` after it commits (`noteShopChange`), and
 *   clears this process's caches at once.
 * - Each process reads one small row every `pollMs` (`watchShopChanges`): the version, and a
 *   fingerprint of stock: the open holds (how many, how many units, the latest end) and the latest
 *   product write. A checkout taking units, a payment or cancel giving them back, a hold lapsing
 *   with time and a payment taking stock all change it, and that is what shop pages show as stock. A change clears every cache in the process:
 *   the cached pages (src/server/pages/page-cache.ts) and the short API caches (micro-cache.ts).
 *
 * Shoppers' transactions never touch the version row, so checkouts never wait on one another for it.
 */
/**
 * What changed: `catalogue`, anything the back office wrote (or an unknown change: the watcher
 * lost the database); `stock`, only stock (units held or given back, stock taken by a payment).
 */
export type ShopChange = 'catalogue' | 'stock';

const listeners = new Set<(change: ShopChange) => void>();

/** Called whenever this process drops its caches because the shop changed. */
export function onShopChange(listener: (change: ShopChange) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function shopChanged(change: ShopChange): void {
  clearAllCaches();
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
  shopChanged('catalogue');
  await db
    .updateTable('shop_changes')
    .set({ version: sql`version + 1` })
    .where('id', '=', 1)
    .execute();
}

type Fingerprint = { version: string; stock: string };

async function readFingerprint(db: Kysely<Database>): Promise<Fingerprint | null> {
  const now = new Date();
  // Built with the query builder (not raw SQL), so a schema-qualified database (tests) reads its own tables.
  const row = await db
    .selectFrom('shop_changes')
    .select((eb) => [
      'version as v',
      // The latest product write (index products_updated_at_idx): stock taken by a payment whose
      // reservation had already lapsed changes no reservation, only the product.
      eb
        .selectFrom('products')
        .select((p) => p.fn.max('updated_at').as('u'))
        .as('u'),
      reservationFingerprint(db, now).as('r'),
    ])
    .where('id', '=', 1)
    .executeTakeFirst();
  return row ? { version: String(row.v), stock: `${String(row.u)}|${String(row.r)}` } : null;
}

/** What each database's watcher last saw (one entry per database handle). */
const lastSeen = new WeakMap<Kysely<Database>, Fingerprint | null>();

/**
 * Reads the version and the holds, and drops every cache when they changed since last seen. The
 * watcher calls it every `pollMs`; a page render calls it first, so what the page shows is never
 * older than what the watcher compares with: a hold taken and given back between two polls, seen
 * by a render, is seen as a change on the next poll.
 */
export async function checkShopChanges(db: Kysely<Database>): Promise<void> {
  const seen = await readFingerprint(db);
  const last = lastSeen.get(db);
  lastSeen.set(db, seen);
  if (last === undefined) return;
  if (seen?.version !== last?.version) shopChanged('catalogue');
  else if (seen?.stock !== last?.stock) shopChanged('stock');
}

/** Polls the version and the holds; stops with the returned function. */
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
      shopChanged('catalogue');
    } finally {
      busy = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), pollMs);
  timer.unref();
  return () => clearInterval(timer);
}
