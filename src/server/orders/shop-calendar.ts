import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.js';
import { isPostgres } from '../db/query-helpers.js';
import { readSettings } from '../content/admin.js';
import {
  addDays,
  canonicalTimeZone,
  DEFAULT_SHOP_TIME_ZONE,
  localDateOf,
  offsetStretches,
  periodRange,
  type PeriodRange,
} from '../../shared/shop-time.js';

/** The settings key of the shop's time zone (an IANA name; the Settings tab's General section). */
export const SHOP_TIME_ZONE_KEY = 'shop_time_zone';

/** The shop's time zone: the one the owner chose, or the default (also for a stored name the runtime no longer knows). */
export async function shopTimeZone(db: Kysely<Database>): Promise<string> {
  const stored = (await readSettings(db, [SHOP_TIME_ZONE_KEY]))[SHOP_TIME_ZONE_KEY];
  return (stored && canonicalTimeZone(stored)) || DEFAULT_SHOP_TIME_ZONE;
}

/** The last `days` of the shop's days, today (where the shop is) last. */
export function lastDays(days: number, timeZone: string, now: Date = new Date()): PeriodRange {
  const today = localDateOf(now.getTime(), timeZone);
  return periodRange(addDays(today, -(days - 1)), today, timeZone);
}

/** A validated `from`–`to` of the shop's days as instants, or null when the caller gave none. */
export function periodOf(q: { from?: string | undefined; to?: string | undefined }, timeZone: string): PeriodRange | null {
  return q.from && q.to ? periodRange(q.from, q.to, timeZone) : null;
}

/** `created_at` (of `alias`, if given) inside the period: a range of any index led by created_at. */
export function inPeriodSql(period: PeriodRange, alias?: string, column = 'created_at'): RawBuilder<SqlBool> {
  const col = sql.ref(alias ? `${alias}.${column}` : column);
  return sql<SqlBool>`${col} >= ${period.start} and ${col} < ${period.end}`;
}

/**
 * The shop's calendar day ('YYYY-MM-DD') of `created_at`, for a GROUP BY over a period. SQLite and
 * PostgreSQL both store the instant as UTC ISO text; each stretch of the period with one offset
 * (offsetStretches: one, or a few around a daylight-saving change) shifts it by that offset with
 * the engine's own date arithmetic. Values are written into the SQL as literals, so the same
 * expression in SELECT and GROUP BY reads the same to PostgreSQL.
 */
export function shopDaySql(
  db: Kysely<Database>,
  period: PeriodRange,
  timeZone: string,
  alias?: string,
  column = 'created_at',
): RawBuilder<string> {
  const col = sql.ref(alias ? `${alias}.${column}` : column);
  const pg = isPostgres(db);
  const shifted = (offsetMs: number) => {
    const seconds = Math.round(offsetMs / 1000);
    return pg
      ? sql<string>`to_char(cast(${col} as timestamp) + interval ${sql.lit(`${seconds} seconds`)}, 'YYYY-MM-DD')`
      : sql<string>`strftime('%Y-%m-%d', ${col}, ${sql.lit(`${seconds >= 0 ? '+' : ''}${seconds} seconds`)})`;
  };
  const stretches = offsetStretches(Date.parse(period.start), Date.parse(period.end), timeZone);
  if (stretches.length === 1) return shifted(stretches[0]!.offsetMs);
  const branches = stretches
    .slice(0, -1)
    .map((s) => sql`when ${col} < ${sql.lit(new Date(s.until).toISOString())} then ${shifted(s.offsetMs)}`);
  return sql<string>`case ${sql.join(branches, sql` `)} else ${shifted(stretches.at(-1)!.offsetMs)} end`;
}
