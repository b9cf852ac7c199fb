import { sql, type Kysely, type QueryExecutorProvider, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { Dialect } from './database.js';
import { withNext } from './pg-commit-tail.js';

/**
 * Row locks for rules about money and stock. PostgreSQL takes them with FOR UPDATE; SQLite needs
 * none because a write transaction there already runs alone (one connection, serialised).
 */
export function forUpdate<DB, TB extends keyof DB, O>(qb: SelectQueryBuilder<DB, TB, O>, dialect: Dialect): SelectQueryBuilder<DB, TB, O> {
  return dialect === 'postgres' ? qb.forUpdate() : qb;
}

/** PostgreSQL's answers that mean "run the transaction again": serialization failure and deadlock. */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);

function isRetryableTransactionError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && RETRYABLE_SQLSTATES.has(String((err as { code?: unknown }).code));
}

const TRANSACTION_TRIES = 5;

/**
 * Runs `work` in a transaction, and runs it again (at most `tries` times in all) when PostgreSQL
 * aborts it as a deadlock victim or a serialization failure. Such an abort undoes everything, so
 * running the whole transaction again is safe. The waits are random in a doubling range ("full
 * jitter"), so two transactions that collided do not collide again in step.
 */
export async function transactionWithRetry<DB, T>(
  db: Kysely<DB>,
  work: (trx: Transaction<DB>) => Promise<T>,
  { tries = TRANSACTION_TRIES, baseDelayMs = 15, maxDelayMs = 400 }: { tries?: number; baseDelayMs?: number; maxDelayMs?: number } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (err) {
      if (attempt >= tries || !isRetryableTransactionError(err)) throw err;
      const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
    }
  }
}

/**
 * Serialises one shopper's checkouts (by IP, device and account) on PostgreSQL, so two at once
 * cannot both pass the cap on units held. Transaction-scoped advisory locks, taken in sorted key
 * order and after the product and coupon locks (see docs/decisions/0005). SQLite needs none:
 * its write transactions already run one at a time.
 */
export async function lockShopperKeys(trx: QueryExecutorProvider, dialect: Dialect, keys: string[]): Promise<void> {
  if (dialect !== 'postgres') return;
  const sorted = [...new Set(keys)].sort();
  if (sorted.length === 0) return;
  // One statement. PostgreSQL evaluates a select list left to right, so the locks come in key order
  // (not a promise of SQL's: a deadlock that could cause is retried by transactionWithRetry). Its
  // answer says nothing: it goes with the transaction's next statement, in that one's round trip.
  const calls = sql.join(
    sorted.map((key) => sql`pg_advisory_xact_lock(hashtextextended(${key}, 0))`),
    sql`, `,
  );
  await trx.getExecutor().executeQuery(withNext(sql`select ${calls}`.compile(trx)));
}

/**
 * Runs `work` on one connection holding PostgreSQL's advisory lock for this schema's start-up, so
 * that processes started together (a deploy of several machines on a new database) migrate and
 * seed one after another: the second finds the first one's tables and rows instead of inserting
 * the same catalogue or settings again. SQLite has one process by design and runs `work` as is.
 */
export async function underStartLock<DB, T>(db: Kysely<DB>, dialect: Dialect, work: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  if (dialect !== 'postgres') return work(db);
  return db.connection().execute(async (conn) => {
    const key = sql`hashtext('eco-shop start ' || current_schema())`;
    await sql`select pg_advisory_lock(${key})`.execute(conn);
    try {
      return await work(conn);
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}
