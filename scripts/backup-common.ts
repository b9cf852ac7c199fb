// What `npm run backup` and `npm run restore` share: the manifest, the facts both sides count,
// the PostgreSQL URL as the app reads it, and the outside tools they run.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../src/server/config.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../src/server/lib/private-files.js';

export const MANIFEST = 'manifest.json';
export const SQLITE_FILE = 'shop.db';
export const PG_FILE = 'shop.dump';
export const UPLOADS = 'uploads';

/** What a snapshot holds, counted inside the snapshot itself; a restore must count the same. */
export type Facts = { orders: number; paidOrders: number; products: number };

export type Manifest = {
  format: 1;
  createdAt: string;
  dialect: 'sqlite' | 'postgres';
  /** PostgreSQL: the schema that was dumped (from `?schema=`), or null for the whole database. */
  schema: string | null;
  /** The database file inside the backup folder. */
  database: string;
  /** Migrations the snapshot had applied; a restore brings it up to the code's latest. */
  migrations: string[];
  counts: Facts;
  /** Every file of the backup but the manifest, with its size and SHA-256 (checked before a restore). */
  files: { path: string; bytes: number; sha256: string }[];
};

/** A failure the operator can act on: printed without a stack trace. */
export class ScriptError extends Error {}

type Query = (text: string) => Promise<Record<string, unknown>[]>;

/** The same three counts and the migration list, on either engine. */
export async function readFacts(query: Query): Promise<{ counts: Facts; migrations: string[] }> {
  const one = async (text: string) => Number(Object.values((await query(text))[0] ?? { n: 0 })[0]);
  const counts = {
    orders: await one('select count(*) as n from orders'),
    paidOrders: await one("select count(*) as n from orders where payment_status = 'paid'"),
    products: await one('select count(*) as n from products'),
  };
  const migrations = (await query('select name from kysely_migration order by name')).map((r) => String(r.name));
  return { counts, migrations };
}

export function describeFacts(c: Facts): string {
  return `${c.orders} orders (${c.paidOrders} paid), ${c.products} products`;
}

/** `postgres://…?schema=x` as src/server/db/database.ts reads it: the connection, and the schema the app is confined to. */
export function pgTarget(url: string): {
  connection: string;
  schema: string | null;
  shown: string;
  tool: { url: string; env: NodeJS.ProcessEnv };
} {
  const u = new URL(url);
  const schema = u.searchParams.get('schema');
  u.searchParams.delete('schema');
  // database.ts puts the name into search_path as it is, so only plain names work for the app anyway.
  if (schema !== null && !/^[a-z_][a-z0-9_]*$/.test(schema)) {
    throw new ScriptError(`The schema in DATABASE_URL (${schema}) must be lower-case letters, digits and underscores.`);
  }
  const shown = new URL(u.toString());
  if (shown.password) shown.password = '***';
  // pg_dump, pg_restore and psql get the password through the environment, not on a command line others can list.
  const toolUrl = new URL(u.toString());
  const password = decodeURIComponent(toolUrl.password);
  toolUrl.password = '';
  const tool = { url: toolUrl.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
  return { connection: u.toString(), schema, shown: `${shown.toString()}${schema ? ` (schema ${schema})` : ''}`, tool };
}

/** The path of `sqlite:path/to/file.db`, refusing the in-memory database. */
export function sqlitePath(url: string): string {
  const file = url.slice('sqlite:'.length);
  if (!file || file === ':memory:')
    throw new ScriptError('DATABASE_URL names an in-memory SQLite database; there is nothing to back up or restore.');
  return path.resolve(file);
}

/** Fails with a readable message when a PostgreSQL client tool is missing. */
export function requireTool(name: 'pg_dump' | 'pg_restore' | 'psql'): void {
  const r = spawnSync(name, ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    throw new ScriptError(
      `${name} was not found on PATH. Install the PostgreSQL client tools of the server's major version (Debian/Ubuntu: apt-get install postgresql-client).`,
    );
  }
}

/** Runs a tool to completion; its stderr becomes the error message when it fails. */
export function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new ScriptError(`${cmd} failed (exit ${code}):\n${err.trim()}`))));
  });
}

export async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every regular file under a folder, as paths relative to it with forward slashes, sorted. */
export function listFiles(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/**
 * A backup holds what the database holds (password hashes, customers, the cookie-signing key, the
 * ShipStation keys): everything the script creates is for the shop's user alone. The umask covers
 * what it and its tools (pg_dump) create; `makeTreePrivate` what was copied with its old modes.
 */
export function createPrivateFiles(): void {
  process.umask(0o077);
}

/** Every folder under `root` (itself included) 0700, every file 0600. */
export function makeTreePrivate(root: string): void {
  fs.chmodSync(root, PRIVATE_DIR_MODE);
  for (const e of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    const p = path.join(e.parentPath, e.name);
    if (e.isDirectory()) fs.chmodSync(p, PRIVATE_DIR_MODE);
    else if (e.isFile()) fs.chmodSync(p, PRIVATE_FILE_MODE);
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

/** Prints a ScriptError as a sentence, anything else with its stack; exits non-zero either way. */
export function fail(err: unknown): never {
  if (err instanceof ScriptError || err instanceof ConfigError) console.error(`\n${err.message}`);
  else console.error(err);
  process.exit(1);
}
