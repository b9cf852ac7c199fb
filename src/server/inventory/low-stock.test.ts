import { afterAll, describe, expect, it } from 'vitest';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { ALERT_RANK, alertStateOf, alertStateSql, type AlertState } from './low-stock.js';

/**
 * The low-stock rule has one source (low-stock.ts) in two forms: TypeScript for the rows the server
 * holds, SQL for the statements that decide in the database (order-stock.ts, stock.ts). Both give
 * the same answer for every level and threshold tried, on SQLite and on PostgreSQL.
 */
const LEVELS = Array.from({ length: 25 }, (_, i) => i - 4); // -4 … 20
const THRESHOLDS = [0, 1, 2, 5, 10, 15];
const ROWS = LEVELS.flatMap((onHand) => THRESHOLDS.map((threshold) => ({ onHand, threshold })));
const TAKEN = 3; // order-stock.ts asks the rule of the level after a take: `on_hand - quantity`

async function sqlStates(db: Kysely<unknown>): Promise<{ now: AlertState[]; afterTake: AlertState[] }> {
  const values = sql.join(ROWS.map((r) => sql`(${sql.lit(r.onHand)}, ${sql.lit(r.threshold)}, ${sql.lit(ROWS.indexOf(r))})`));
  const { rows } = await sql<{ now: AlertState; after_take: AlertState }>`
    with t(on_hand, threshold, n) as (values ${values})
    select ${alertStateSql(sql.ref('on_hand'), sql.ref('threshold'))} as now,
           ${alertStateSql(sql`on_hand - ${TAKEN}`, sql.ref('threshold'))} as after_take
    from t order by n`.execute(db);
  return { now: rows.map((r) => r.now), afterTake: rows.map((r) => r.after_take) };
}

const expected = {
  now: ROWS.map((r) => alertStateOf(r.onHand, r.threshold)),
  afterTake: ROWS.map((r) => alertStateOf(r.onHand - TAKEN, r.threshold)),
};

describe('the low-stock rule in TypeScript', () => {
  it('says out at or below zero, low at or below the threshold, ok above it', () => {
    expect(alertStateOf(0, 10)).toBe('out');
    expect(alertStateOf(-2, 0)).toBe('out');
    expect(alertStateOf(10, 10)).toBe('low');
    expect(alertStateOf(1, 10)).toBe('low');
    expect(alertStateOf(11, 10)).toBe('ok');
    expect(alertStateOf(1, 0)).toBe('ok');
    expect(ALERT_RANK.out).toBeGreaterThan(ALERT_RANK.low);
    expect(ALERT_RANK.low).toBeGreaterThan(ALERT_RANK.ok);
    // The sample covers every state, so the comparisons below can tell the forms apart.
    expect(new Set(expected.now)).toEqual(new Set(['ok', 'low', 'out']));
  });
});

describe('the low-stock rule in SQL, on SQLite', () => {
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });
  afterAll(() => db.destroy());

  it('answers as the TypeScript form on every sample row', async () => {
    expect(await sqlStates(db)).toEqual(expected);
  });
});

// Skipped, and shown as skipped, where no PostgreSQL is given (a plain `npm test` names it at its end).
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('the low-stock rule in SQL, on PostgreSQL', () => {
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 1 }) }),
  });
  afterAll(() => db.destroy());

  it('answers as the TypeScript form on every sample row', async () => {
    expect(await sqlStates(db)).toEqual(expected);
  });
});
