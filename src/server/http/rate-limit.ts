import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Fixed-window counters kept in the database, so every server process sees the same limits.
 * `hit` adds one and answers the count in the current window; `peek` only reads it.
 */
export async function hitRateLimit(db: Kysely<Database>, key: string, windowMs: number, now = new Date()): Promise<number> {
  const at = now.toISOString();
  const windowStart = new Date(now.getTime() - windowMs).toISOString();
  await db
    .insertInto('rate_limits')
    .values({ key, hits: 1, window_started_at: at })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql`case when rate_limits.window_started_at < ${windowStart} then 1 else rate_limits.hits + 1 end`,
        window_started_at: sql`case when rate_limits.window_started_at < ${windowStart} then ${at} else rate_limits.window_started_at end`,
      }),
    )
    .execute();
  return peekRateLimit(db, key, windowMs, now);
}

export async function peekRateLimit(db: Kysely<Database>, key: string, windowMs: number, now = new Date()): Promise<number> {
  const row = await db.selectFrom('rate_limits').select(['hits', 'window_started_at']).where('key', '=', key).executeTakeFirst();
  if (!row) return 0;
  if (row.window_started_at < new Date(now.getTime() - windowMs).toISOString()) return 0;
  return row.hits;
}

export async function clearRateLimit(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** Drops windows that ended long ago, so the table stays small. */
export async function pruneRateLimits(db: Kysely<Database>, olderThanMs = 24 * 3_600_000): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where('window_started_at', '<', new Date(Date.now() - olderThanMs).toISOString())
    .execute();
}
