import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export type Db = {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The PostgreSQL schema the app is confined to, when the URL names one. */
  schema?: string;
  close: () => Promise<void>;
};

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
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
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
