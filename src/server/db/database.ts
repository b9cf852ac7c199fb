import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, type LogEvent, sql, type SqliteDatabase } from 'kysely';
import { ShopPostgresDialect } from './pg-driver.js';
import type { Database } from './schema.js';
import { GroupCommitSqliteDialect } from './sqlite-group-commit.js';
import { startCheckpointer } from './sqlite-checkpointer.js';
import { keepSqliteFilesPrivate, PRIVATE_DIR_MODE } from '../lib/private-files.js';

export type Dialect = 'sqlite' | 'postgres';

// Money columns are bigint (int8) on PostgreSQL, and count(*) answers int8: node-pg hands those
// over as strings unless told otherwise. Amounts are capped at $999,999.99 and counts are row
// counts, far inside a JavaScript number's exact range (2^53), so they arrive as numbers, as on SQLite.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${value} is beyond a JavaScript number's exact range`);
  return n;
});

type Db = {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The PostgreSQL schema the app is confined to, when the URL names one. */
  schema?: string;
  close: () => Promise<void>;
};

/**
 * better-sqlite3 compiles a statement on every prepare(); the shop runs the same few hundred
 * statements over and over, so keep the compiled ones (at most 500, the oldest going first).
 * Statements run synchronously, so one compiled statement is never used by two queries at once.
 */
function withStatementCache(sqlite: SQLite.Database, max = 500): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (sql: string) => {
      // A hit is answered as it is (no reordering: the shop's few hundred statements fit, and a
      // checkout prepares some forty); the oldest compiled statement goes when a new one needs room.
      const hit = cache.get(sql);
      if (hit) return hit;
      const stmt = sqlite.prepare(sql);
      if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      cache.set(sql, stmt);
      return stmt;
    },
  };
}

export type OpenOptions = {
  /** PostgreSQL: the name the connections carry in pg_stat_activity (default `eco-shop`, or `eco-shop/<schema>`). */
  applicationName?: string;
  /** PostgreSQL: how long a query may wait for a connection before it fails. */
  connectTimeoutMs?: number;
  /** Measuring only (QUERY_PROFILE=true): every statement's time is added up by its SQL and printed at exit. */
  profileQueries?: boolean;
  /** PostgreSQL: prepare each statement once per connection (default); off behind a pooler that cannot keep them (PG_PREPARED_STATEMENTS=false). */
  preparedStatements?: boolean;
  /** PostgreSQL: told when a connection is lost (the server ended it, restarted, or the network dropped it). */
  onConnectionLost?: (err: Error) => void;
};

/** The name the shop's PostgreSQL connections carry (pg_stat_activity.application_name). */
export function applicationName(schema?: string | null): string {
  return schema ? `eco-shop/${schema}` : 'eco-shop';
}

/**
 * A PostgreSQL connection can be lost at any moment: the server restarts, a failover, a proxy or
 * PgBouncer reaps it, an operator ends it. node-pg reports that as an 'error' event on the pool
 * (an idle connection) or on the client (one in use), and an 'error' event nobody listens to ends
 * the process. Listening turns it into what it is: the queries on that connection fail (the
 * request answers 503, see http/database-errors.ts), the pool drops the broken connection when it
 * is released, and the next query opens a new one.
 */
function watchConnections(pool: pg.Pool, onLost: (err: Error) => void): void {
  pool.on('error', onLost);
  pool.on('connect', (client) => client.on('error', onLost));
}

let lastReport = 0;
let unreported = 0;
/** One line per burst of lost connections (a restart ends them all at once), not one per connection. */
function reportConnectionLost(err: Error): void {
  const now = Date.now();
  if (now - lastReport < 5000) {
    unreported++;
    return;
  }
  const more = unreported ? ` (and ${unreported} more since the last report)` : '';
  lastReport = now;
  unreported = 0;
  console.error(`PostgreSQL connection lost: ${err.message}${more}. Requests using it fail; new connections are opened as needed.`);
}

/**
 * Opens the database named by a URL: `sqlite:path/to/file.db`, `sqlite::memory:`,
 * or `postgres://user@host:port/db` (an optional `?schema=name` confines the app to one schema,
 * which the tests use to give every test file its own database).
 */
export function openDatabase(url: string, options: OpenOptions = {}): Db {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') {
      // Private to the shop's user (private-files.ts): a folder it creates 0700, the database 0600.
      fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: PRIVATE_DIR_MODE });
      keepSqliteFilesPrivate(file);
    }
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // 4 MB of pages kept by SQLite itself (better-sqlite3's build keeps 16): a sale's hot pages fit,
    // the rest is in the kernel's file cache, and the process stays under 150 MB (decision 0023).
    sqlite.pragma('cache_size = -4000');
    // The log is copied back into the database file by a thread of its own (sqlite-checkpointer.ts),
    // never inside a request's commit; SQLite's own checkpoint stays as a backstop at 40,000 pages.
    sqlite.pragma('wal_autocheckpoint = 40000');
    const checkpointer = file === ':memory:' ? null : startCheckpointer(file);
    // Fresh planner statistics where they are missing or stale (cheap; SQLite's advice for long-lived connections).
    sqlite.pragma('optimize = 0x10002');
    const db = new Kysely<Database>({
      dialect: new GroupCommitSqliteDialect(sqlite, withStatementCache(sqlite)),
      log: queryProfile(options.profileQueries),
    });
    return {
      db,
      dialect: 'sqlite',
      close: async () => {
        await db.destroy();
        await checkpointer?.stop();
      },
    };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const u = new URL(url);
    const schema = u.searchParams.get('schema');
    u.searchParams.delete('schema');
    const pool = new pg.Pool({
      connectionString: u.toString(),
      max: 10,
      // A request waits at most this long for a connection; past it, it fails (503) instead of
      // hanging while the database is away.
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      // TCP keepalive: a connection cut without a word (failover, a NAT or proxy forgetting it) is noticed.
      keepAlive: true,
      // BEGIN with a transaction's first statement, guarded writes with its COMMIT: sent without
      // waiting for each answer, each bound (db/pg-connection.ts, decision 0050).
      pipeline: true,
      // The shop's own connections are recognisable in pg_stat_activity (and can be ended by name).
      ...(u.searchParams.has('application_name') ? {} : { application_name: options.applicationName ?? applicationName(schema) }),
      // Every statement is planned for its own values, as when they were written into its text
      // (decision 0050): a prepared statement's generic plan cannot see how many rows a search word's
      // range of terms holds, and an SKU search of 1,000 orders went from 13 ms to 200 ms with it.
      // Parsing stays cached in the prepared statement; planning these small statements is cheap.
      // No JIT compilation: the shop's statements run in milliseconds, and a report's estimated cost
      // (a year of renewals with its per-order refund look-up) made PostgreSQL compile it for about
      // 220 ms of a 300 ms answer, for work that runs in 80 ms without (admin-figures.scale.test.ts).
      options: [...(schema ? [`-c search_path=${schema}`] : []), '-c plan_cache_mode=force_custom_plan', '-c jit=off'].join(' '),
    });
    // A transaction's last writes go out with its COMMIT (pg-driver.ts), and may wait there for a
    // row lock: should the shop's connection be cut meanwhile, PostgreSQL (14 and later) notices
    // within half a second and rolls back, instead of committing work whose answer no one will read.
    // Older servers do not know the setting; they are left as they are.
    pool.on('connect', (client) => {
      client.query('set client_connection_check_interval = 500').catch(() => undefined);
    });
    watchConnections(pool, options.onConnectionLost ?? reportConnectionLost);
    const db = new Kysely<Database>({
      dialect: new ShopPostgresDialect(pool, { prepare: options.preparedStatements ?? true }),
      log: queryProfile(options.profileQueries),
    });
    return { db, dialect: 'postgres', schema: schema ?? undefined, close: () => db.destroy() };
  }
  throw new Error(`Unsupported DATABASE_URL: ${url}`);
}

/**
 * Whether the database answers a trivial query within `timeoutMs`: the readiness answer a load
 * balancer asks for. Never throws; says why when it does not answer.
 */
export async function pingDatabase(
  db: Kysely<Database>,
  timeoutMs = 2000,
): Promise<{ ok: true; ms: number } | { ok: false; error: string }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      sql`select 1`.execute(db),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * QUERY_PROFILE=true (measuring only): every statement's time is added up by its SQL text, and the
 * 40 costliest are printed to stderr when the process exits. How the sale-day work found its costs.
 */
function queryProfile(enabled = false): ((event: LogEvent) => void) | undefined {
  if (!enabled) return undefined;
  const totals = new Map<string, { ms: number; n: number }>();
  process.once('exit', () => {
    const rows = [...totals].sort((a, b) => b[1].ms - a[1].ms).slice(0, 40);
    for (const [text, t] of rows)
      process.stderr.write(`${t.ms.toFixed(0).padStart(8)} ms ${String(t.n).padStart(7)}× ${text.slice(0, 240)}\n`);
  });
  return (event) => {
    const text = event.query.sql;
    const t = totals.get(text) ?? { ms: 0, n: 0 };
    t.ms += event.queryDurationMillis;
    t.n++;
    totals.set(text, t);
  };
}
