// `npm run restore -- <backup folder> [--force]`: brings a backup made by `npm run backup` back
// into the database DATABASE_URL names and the folder UPLOAD_DIR names, then migrates it to the
// code's latest and checks that it counts what the manifest says.
//
// The database must be empty; `--force` replaces what it holds (SQLite: the file; PostgreSQL: the
// schema of `?schema=`, or every schema of the database for a whole-database backup). A SQLite
// file that a running shop has open is never replaced: stop the shop first.
// Uploads are merged into the file store: UPLOAD_DIR, or the bucket when FILE_STORE=s3 (upload
// names are never reused; a file already there with the same size is left as it is).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../src/server/config.js';
import { createFileStore } from '../src/server/files/create-file-store.js';
import { contentTypeOf, isFileKey, type FileStore } from '../src/server/files/file-store.js';
import { openDatabase } from '../src/server/db/database.js';
import { migrateToLatest } from '../src/server/db/migrate.js';
import {
  describeFacts,
  fail,
  formatBytes,
  listFiles,
  MANIFEST,
  pgTarget,
  readFacts,
  requireTool,
  ScriptError,
  sha256,
  sqlitePath,
  UPLOADS,
  type Manifest,
} from './backup-common.js';

const USAGE = 'Usage: npm run restore -- <backup folder> [--force]';

function readManifest(folder: string): Manifest {
  const file = path.join(folder, MANIFEST);
  if (!fs.existsSync(file)) {
    throw new ScriptError(
      fs.existsSync(`${folder}.partial`) || folder.endsWith('.partial')
        ? `${folder} is an unfinished backup (the backup stopped before writing its manifest); use another one.`
        : `${folder} is not a backup folder: it has no ${MANIFEST}.`,
    );
  }
  let m: Manifest;
  try {
    m = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  } catch (err) {
    throw new ScriptError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (m.format !== 1 || !['sqlite', 'postgres'].includes(m.dialect) || !Array.isArray(m.files) || !m.counts) {
    throw new ScriptError(`${file} is not a manifest this version understands (format ${String(m.format)}).`);
  }
  return m;
}

/** Every file is there with the size and checksum the backup wrote: a damaged backup is refused before anything changes. */
async function verifyFiles(folder: string, m: Manifest): Promise<void> {
  for (const f of m.files) {
    const p = path.join(folder, f.path);
    if (!fs.existsSync(p)) throw new ScriptError(`The backup is damaged: ${f.path} is missing.`);
    if (fs.statSync(p).size !== f.bytes || (await sha256(p)) !== f.sha256)
      throw new ScriptError(`The backup is damaged: ${f.path} does not match its checksum.`);
  }
}

// ---------- SQLite ----------

/** Whether another connection (a running shop) has the file open, and how many tables and orders it holds. */
function inspectSqlite(file: string): { inUse: boolean; tables: number; orders: number | null; notADatabase?: boolean } {
  const probe = new SQLite(file, { fileMustExist: true });
  try {
    probe.pragma('busy_timeout = 0');
    // A running shop holds a shared lock on the file (and its -shm) for as long as it is open.
    probe.pragma('locking_mode = exclusive');
    try {
      probe.exec('begin exclusive');
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return { inUse: true, tables: 0, orders: null };
      if (code === 'SQLITE_NOTADB') return { inUse: false, tables: 1, orders: null, notADatabase: true };
      throw err;
    }
    const tables = (probe.prepare("select count(*) as n from sqlite_master where type = 'table'").get() as { n: number }).n;
    const hasOrders = probe.prepare("select 1 from sqlite_master where type = 'table' and name = 'orders'").get();
    const orders = hasOrders ? (probe.prepare('select count(*) as n from orders').get() as { n: number }).n : null;
    probe.exec('commit');
    return { inUse: false, tables, orders };
  } finally {
    probe.close();
  }
}

function restoreSqlite(folder: string, m: Manifest, url: string, force: boolean): string {
  const target = sqlitePath(url);
  if (fs.existsSync(target)) {
    const seen = inspectSqlite(target);
    if (seen.inUse) throw new ScriptError(`${target} is open in another process (is the shop running?). Stop it, then restore.`);
    if (seen.tables > 0 && !force) {
      const what = seen.notADatabase
        ? 'is not an empty file'
        : `holds a database (${seen.tables} tables${seen.orders !== null ? `, ${seen.orders} orders` : ''})`;
      throw new ScriptError(`${target} ${what}. Restore into an empty database, or pass --force to replace it.`);
    }
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  // Copied beside the target and renamed over it: the target is either the old file or the whole snapshot.
  const tmp = `${target}.restoring-${process.pid}`;
  fs.copyFileSync(path.join(folder, m.database), tmp);
  const fd = fs.openSync(tmp, 'r+');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  for (const side of ['-wal', '-shm', '-journal']) fs.rmSync(`${target}${side}`, { force: true });
  fs.renameSync(tmp, target);
  return target;
}

// ---------- PostgreSQL ----------

const SYSTEM_SCHEMA = "n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'";

async function pgRelations(client: pg.Client, schema: string | null): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f') and ${schema ? 'n.nspname = $1' : SYSTEM_SCHEMA} order by 1`,
    schema ? [schema] : [],
  );
  return rows.map((r) => r.name);
}

/**
 * pg_restore writes the dump as SQL; psql runs it in one transaction, after the statements that
 * make room for it. A schema dump restored under another schema name has its qualified names
 * rewritten (every name in a dump is schema-qualified; COPY data lines are left as they are).
 */
async function restorePostgres(folder: string, m: Manifest, url: string, force: boolean): Promise<string> {
  requireTool('pg_restore');
  requireTool('psql');
  const { connection, schema, shown, tool } = pgTarget(url);
  if (m.schema === null && schema) {
    throw new ScriptError(`This backup holds a whole database; restore it with a DATABASE_URL without ?schema= (it names ${schema}).`);
  }
  const target = m.schema === null ? null : (schema ?? 'public');

  const client = new pg.Client({ connectionString: connection });
  await client.connect().catch((err: Error) => {
    throw new ScriptError(`Could not connect to ${shown}: ${err.message}`);
  });
  let prelude: string[];
  try {
    const existing = await pgRelations(client, target);
    if (existing.length && !force) {
      const sample = existing.slice(0, 3).join(', ');
      throw new ScriptError(
        `${shown} is not empty (${existing.length} tables and sequences, e.g. ${sample}). Restore into an empty database, or pass --force to replace it.`,
      );
    }
    if (target) {
      prelude = force
        ? [`drop schema if exists ${target} cascade;`, `create schema ${target};`]
        : [`create schema if not exists ${target};`];
    } else {
      const { rows } = await client.query<{ name: string }>(
        `select n.nspname as name from pg_namespace n where ${SYSTEM_SCHEMA} order by 1`,
      );
      prelude = force ? [...rows.map((r) => `drop schema "${r.name.replace(/"/g, '""')}" cascade;`), 'create schema public;'] : [];
    }
  } finally {
    await client.end();
  }

  const rename = (line: string): string => {
    if (!m.schema || !target) return line;
    if (line === `CREATE SCHEMA ${m.schema};`) return `CREATE SCHEMA IF NOT EXISTS ${target};`;
    if (m.schema === target) return line;
    return line
      .replace(new RegExp(`(?<![\\w$"])"?${m.schema}"?(?=\\.)`, 'g'), target)
      .replace(new RegExp(`\\bSCHEMA ${m.schema}\\b`, 'g'), `SCHEMA ${target}`);
  };

  const restore = spawn('pg_restore', ['--no-owner', '--no-privileges', '-f', '-', path.join(folder, m.database)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const psql = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--single-transaction', '-d', tool.url], {
    env: tool.env,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let restoreErr = '';
  let psqlErr = '';
  restore.stderr.setEncoding('utf8').on('data', (d: string) => (restoreErr += d));
  psql.stderr.setEncoding('utf8').on('data', (d: string) => (psqlErr += d));
  psql.stdin.on('error', () => {}); // psql stopped at an error: its own message says which
  const exited = (p: ChildProcess) => new Promise<number | null>((r) => p.on('close', (code) => r(code)));
  const restoreExit = exited(restore);
  const psqlExit = exited(psql);

  const write = async (text: string) => {
    if (!psql.stdin.write(text)) await new Promise((r) => psql.stdin.once('drain', r));
  };
  await write(`SET client_min_messages = warning;\n${prelude.join('\n')}\n`);
  let inCopy = false;
  let rest = '';
  const emit = async (line: string) => {
    if (inCopy) {
      if (line === '\\.') inCopy = false;
      await write(`${line}\n`);
      return;
    }
    if (/^COPY .* FROM stdin;$/.test(line)) inCopy = true;
    await write(`${rename(line)}\n`);
  };
  restore.stdout.setEncoding('utf8');
  for await (const chunk of restore.stdout as AsyncIterable<string>) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    for (const line of lines) await emit(line);
    if (psql.exitCode !== null) break;
  }
  if (rest && psql.exitCode === null) await emit(rest);
  if (psql.exitCode !== null && restore.exitCode === null) restore.kill();
  const rc = await restoreExit;
  // psql commits at the end of its input: it sees the end only when pg_restore wrote the whole
  // dump. A pg_restore that failed half-way ends psql instead, and its transaction rolls back.
  if (rc === 0) psql.stdin.end();
  else psql.kill();
  const pc = await psqlExit;
  if (rc !== 0) throw new ScriptError(`pg_restore failed (exit ${rc}); nothing was changed:\n${restoreErr.trim()}`);
  if (pc !== 0) throw new ScriptError(`Restoring into ${shown} failed; nothing was changed (one transaction):\n${psqlErr.trim()}`);
  return `${shown}${target && target !== m.schema ? `, from schema ${m.schema}` : ''}`;
}

// ---------- uploads, migrations, the check ----------

async function restoreUploads(folder: string, store: FileStore): Promise<{ files: number; bytes: number; kept: number }> {
  const from = path.join(folder, UPLOADS);
  let files = 0;
  let bytes = 0;
  let kept = 0;
  for (const key of listFiles(from).filter(isFileKey)) {
    const src = path.join(from, ...key.split('/'));
    const size = fs.statSync(src).size;
    try {
      if ((await store.head(key))?.size === size) {
        kept++;
        continue;
      }
      await store.put(key, fs.readFileSync(src), contentTypeOf(key));
    } catch (err) {
      throw new ScriptError(
        `Could not put ${key} into ${store.description}: ${(err as Error).message}. The database is restored, the images in part: once the storage answers, run the same restore again with --force (images already there are skipped).`,
      );
    }
    files++;
    bytes += size;
  }
  return { files, bytes, kept };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) return void console.log(USAGE);
  const force = args.includes('--force');
  const unknown = args.filter((a) => a.startsWith('-') && a !== '--force');
  if (unknown.length) throw new ScriptError(`Unknown option ${unknown[0]}. ${USAGE}`);
  const positional = args.filter((a) => !a.startsWith('-'));
  if (positional.length !== 1) throw new ScriptError(`Name one backup folder. ${USAGE}`);
  const folder = path.resolve(positional[0]!);
  if (!fs.existsSync(folder)) throw new ScriptError(`${folder} does not exist.`);

  const config = loadConfig(process.env);
  const m = readManifest(folder);
  const dialect = config.databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgres';
  if (m.dialect !== dialect) throw new ScriptError(`This backup is of a ${m.dialect} database, and DATABASE_URL names a ${dialect} one.`);
  await verifyFiles(folder, m);
  // The images' store must answer before the database is touched: a restore that stops between the two is half done.
  const store = createFileStore(config.fileStore);
  await store.head('restore-check').catch((err: Error) => {
    store.close();
    throw new ScriptError(`The file storage (${store.description}) does not answer; nothing was changed: ${err.message}`);
  });
  console.log(`Restoring ${folder}`);
  console.log(`  taken     ${m.createdAt}: ${describeFacts(m.counts)}; ${m.files.length} files verified`);

  const t0 = Date.now();
  const where =
    dialect === 'sqlite'
      ? restoreSqlite(folder, m, config.databaseUrl, force)
      : await restorePostgres(folder, m, config.databaseUrl, force);
  const dbBytes = m.files.find((f) => f.path === m.database)?.bytes ?? 0;
  console.log(
    `  database  ${where}: ${m.database}, ${formatBytes(dbBytes)} in ${Date.now() - t0} ms${force ? ' (--force: replaced what was there)' : ''}`,
  );

  try {
    const up = await restoreUploads(folder, store);
    const where = config.fileStore.kind === 'local' ? path.resolve(config.uploadDir) : store.description;
    console.log(`  uploads   ${where}: ${up.files} files, ${formatBytes(up.bytes)}${up.kept ? `; ${up.kept} already there` : ''}`);
  } finally {
    store.close();
  }

  const { db, dialect: opened, schema, close } = openDatabase(config.databaseUrl);
  try {
    const applied = await migrateToLatest(db, schema);
    console.log(`  migrated  ${applied.length ? `applied ${applied.join(', ')}` : 'already up to date'}`);
    if (opened === 'postgres') {
      // Fresh planner statistics for the shop's tables (pg_restore leaves none).
      const tables = await sql<{
        t: string;
      }>`select quote_ident(schemaname) || '.' || quote_ident(tablename) as t from pg_tables where schemaname = current_schema()`.execute(
        db,
      );
      for (const { t } of tables.rows) await sql.raw(`analyze ${t}`).execute(db);
    }
    const after = await readFacts(async (text) => (await sql.raw(text).execute(db)).rows as Record<string, unknown>[]);
    const c = after.counts;
    if (c.orders !== m.counts.orders || c.paidOrders !== m.counts.paidOrders || c.products !== m.counts.products) {
      throw new ScriptError(
        `The restored database does not count what the backup did: ${describeFacts(c)} against ${describeFacts(m.counts)}.`,
      );
    }
    console.log(`  checked   ${describeFacts(c)}, as in the manifest`);
  } finally {
    await close();
  }
  console.log('Restore complete. Start the shop with npm start.');
}

main().catch(fail);
