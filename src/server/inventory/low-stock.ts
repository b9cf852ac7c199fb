import { sql, type RawBuilder } from 'kysely';

/**
 * The low-stock rule, written once (decision 0051): a level at or below 0 is sold out (`out`), at or
 * below the item's threshold is low (`low`: the storefront's "Only N left", the owner's flag and
 * e-mail), above it `ok`. `alertStateOf` answers it in TypeScript, `alertStateSql` in SQL for the
 * statements that decide it in the database; low-stock.test.ts holds the two equal on SQLite and
 * PostgreSQL.
 */
export type AlertState = 'ok' | 'low' | 'out';

/** The storefront's "Only N left" line and the owner's low-stock flag start here unless the owner sets another. */
export const DEFAULT_LOW_STOCK_THRESHOLD = 10;

/** How bad a state is: a move to a higher rank is news (an e-mail), a move down re-arms it. */
export const ALERT_RANK: Readonly<Record<AlertState, number>> = { ok: 0, low: 1, out: 2 };

/** Where a level stands against its threshold. */
export function alertStateOf(onHand: number, threshold: number): AlertState {
  if (onHand <= 0) return 'out';
  if (onHand <= threshold) return 'low';
  return 'ok';
}

/** The same rule as a SQL expression over a level and a threshold (columns, or values bound as parameters). */
export function alertStateSql(onHand: RawBuilder<unknown>, threshold: RawBuilder<unknown>): RawBuilder<AlertState> {
  return sql<AlertState>`(case when ${onHand} <= 0 then 'out' when ${onHand} <= ${threshold} then 'low' else 'ok' end)`;
}
