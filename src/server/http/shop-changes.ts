import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { clearAllCaches } from './micro-cache.js';

/**
 * How every process learns that what the storefront shows may have changed, within a moment:
 *
 * - A back-office write bumps `shop_changes.version` after it commits (`noteShopChange`), and
 *   clears this process's caches at once.
 * - Each process reads one small row every `pollMs` (`watchShopChanges`): the version, and a
 *   fingerprint of the open stock holds (how many, how many units, the latest end). A checkout
 *   taking units, a payment or cancel giving them back, and a hold lapsing with time all change
 *   it, and that is what shop pages show as stock. A change clears every cache in the process:
 *   the cached pages (src/server/seo/page-cache.ts) and the short API caches (micro-cache.ts).
 *
 * Shoppers' transactions never touch the version row, so checkouts never wait on one another for it.
 */
const listeners = new Set<() => void>();

/** Called whenever this process drops its caches because the shop changed. */
export function onShopChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function shopChanged(): void {
  clearAllCaches();
  for (const listener of listeners) {
    // One listener failing must not keep the others (the page cache) from forgetting.
    try {
      listener();
    } catch (err) {
      console.error('a shop-change listener failed', err);
    }
  }
}

/** After a back-office write has committed: this process forgets at once, the others on their next poll. */
export async function noteShopChange(db: Kysely<Database>): Promise<void> {
  shopChanged();
  await db.updateTable('shop_changes').set({ version: sql`version + 1` }).where('id', '=', 1).execute();
}

async function readFingerprint(db: Kysely<Database>): Promise<string> {
  const now = new Date().toISOString();
  // Built with the query builder (not raw SQL), so a schema-qualified database (tests) reads its own tables.
  const row = await db
    .selectFrom('stock_holds')
    .select((eb) => [
      eb.selectFrom('shop_changes').select('version').where('id', '=', 1).as('v'),
      sql<number | string>`count(*)`.as('n'),
      sql<number | string | null>`sum(quantity)`.as('q'),
      sql<string | null>`max(expires_at)`.as('x'),
    ])
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ? `${String(row.v)}|${String(row.n)}|${String(row.q)}|${String(row.x)}` : '';
}

/** What each database's watcher last saw (one entry per database handle). */
const lastSeen = new WeakMap<Kysely<Database>, string>();

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
  if (last !== undefined && seen !== last) shopChanged();
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
      shopChanged();
    } finally {
      busy = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), pollMs);
  timer.unref();
  return () => clearInterval(timer);
}
