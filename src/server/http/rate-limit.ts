import { sql, type Kysely, type OnConflictBuilder } from 'kysely';
import type { Database } from '../db/schema.js';
import { compiledOnce, listOf, listValues } from '../db/compiled-once.js';
import { planOnce } from '../db/pg-connection.js';

/**
 * Fixed-window counters kept in the database, so every server process sees the same limits.
 * A limit is always taken before the work it guards: `hitRateLimit` counts the attempt and answers
 * the count in one statement (insert-or-increment returning the count, the window's reset folded
 * in), so simultaneous requests each see a different count and at most `limit` of them get
 * `count <= limit`, on one process or many. Reading a counter first and counting afterwards lets
 * a burst through, which is why there is no "peek".
 */
export async function hitRateLimit(db: Kysely<Database>, key: string, windowMs: number, now = new Date()): Promise<number> {
  return (await hitRateLimitWindow(db, key, windowMs, now)).hits;
}

export type RateLimitHit = {
  /** Attempts in the current window, this one included. */
  hits: number;
  /** When the current window started (ISO); it ends `windowMs` later. */
  windowStartedAt: string;
};

/** An existing counter counts one more in its window, or starts a new window at `at` once its own is over. */
function countInWindow(at: string, windowStart: string) {
  return (oc: OnConflictBuilder<Database, 'rate_limits'>) =>
    oc.column('key').doUpdateSet({
      hits: sql`case when rate_limits.window_started_at < ${windowStart} then 1 else rate_limits.hits + 1 end`,
      window_started_at: sql`case when rate_limits.window_started_at < ${windowStart} then ${at} else rate_limits.window_started_at end`,
    });
}

/** `hitRateLimit` that also answers when the window started, for a `Retry-After` or a schedule within the window. */
export async function hitRateLimitWindow(db: Kysely<Database>, key: string, windowMs: number, now = new Date()): Promise<RateLimitHit> {
  const at = now.toISOString();
  const windowStart = new Date(now.getTime() - windowMs).toISOString();
  const row = await db
    .insertInto('rate_limits')
    .values({ key, hits: 1, window_started_at: at })
    .onConflict(countInWindow(at, windowStart))
    .returning(['hits', 'window_started_at'])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), windowStartedAt: row.window_started_at };
}

/**
 * `hitRateLimit` for several keys of one window in one statement (a checkout's per-address and
 * per-browser limits): each counted, answered in the order given.
 */
export async function hitRateLimits(db: Kysely<Database>, keys: readonly string[], windowMs: number, now = new Date()): Promise<number[]> {
  const at = now.toISOString();
  const windowStart = new Date(now.getTime() - windowMs).toISOString();
  // Planned once (an upsert by key: its plan does not depend on the values), and committed without
  // waiting for the disk: a count lost with a crash of PostgreSQL itself harms nothing.
  const statement = hitStatement(db, { at, windowStart, ...listValues('key', [...new Set(keys)]) });
  const { rows } = await db.executeQuery(planOnce(statement, { commitWithoutWaiting: true }));
  const hits = new Map(rows.map((r) => [r.key, Number(r.hits)]));
  return keys.map((k) => hits.get(k) ?? 0);
}

/** hitRateLimits' statement for its keys (`key0`, `key1`, …), built once for each number of keys (db/compiled-once.ts). */
const hitStatement = compiledOnce((db, v: Record<string, string>) => {
  return db
    .insertInto('rate_limits')
    .values(listOf(v, 'key').map((key) => ({ key, hits: 1, window_started_at: v.at! })))
    .onConflict(countInWindow(v.at!, v.windowStart!))
    .returning(['key', 'hits']);
});

/** Whole seconds until a window that started at `windowStartedAt` ends (at least 1), for `Retry-After`. */
export function secondsUntilWindowEnds(windowStartedAt: string, windowMs: number, now = new Date()): number {
  return Math.max(1, Math.ceil((Date.parse(windowStartedAt) + windowMs - now.getTime()) / 1000));
}

/**
 * Gives back one counted attempt (never below zero), for limits that count attempts before the
 * work but should only keep the ones that failed: the attempt stayed counted while it was in flight.
 */
export async function refundRateLimit(db: Kysely<Database>, key: string): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ hits: sql`case when hits > 0 then hits - 1 else 0 end` })
    .where('key', '=', key)
    .execute();
}

/**
 * Clears a counter, unless it went past `unlessAbove` in this window: then requests racing this
 * one were refused, and clearing would let the rest of a simultaneous burst through.
 */
export async function clearRateLimit(db: Kysely<Database>, key: string, unlessAbove?: number): Promise<void> {
  let q = db.deleteFrom('rate_limits').where('key', '=', key);
  if (unlessAbove !== undefined) q = q.where('hits', '<=', unlessAbove);
  await q.execute();
}

/** Drops windows that ended long ago, so the table stays small. */
export async function pruneRateLimits(db: Kysely<Database>, olderThanMs = 24 * 3_600_000): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where('window_started_at', '<', new Date(Date.now() - olderThanMs).toISOString())
    .execute();
}
