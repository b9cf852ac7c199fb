import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import type { Database } from './schema.js';

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
 * statements over and over, so keep the compiled ones (most recently used first, at most 500).
 * Statements run synchronously, so one compiled statement is never used by two queries at once.
 */
function withStatementCache(sqlite: SQLite.Database, max = 500): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (sql: string) => {
      let stmt = cache.get(sql);
      if (stmt) {
        cache.delete(sql);
      } else {
        stmt = sqlite.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, stmt);
      return stmt;
    },
  };
}

/**
 * Opens the database named by a URL: `sqlite:path/to/file.db`, `sqlite::memory:`,
 * or `postgres://user@host:port/db` (an optional `?schema=name` confines the app to one schema,
 * which the tests use to give every test file its own database).
 */
export function openDatabase(url: string): Db {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // Fresh planner statistics where they are missing or stale (cheap; SQLite's advice for long-lived connections).
    sqlite.pragma('optimize = 0x10002');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const u = new URL(url);
    const schema = u.searchParams.get('schema');
    u.searchParams.delete('schema');
    const pool = new pg.Pool({
      connectionString: u.toString(),
      max: 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', schema: schema ?? undefined, close: () => db.destroy() };
  }
  throw new Error(`Unsupported DATABASE_URL: ${url}`);
}
