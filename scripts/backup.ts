// `npm run backup [-- <folder>]`: a consistent snapshot of the database and the uploads folder,
// taken while the shop runs.
//
//   npm run backup                    into $BACKUP_DIR/<UTC timestamp>/ (BACKUP_DIR defaults to backups/)
//   npm run backup -- /path/folder    into that folder (it must not exist, or be empty)
//
// SQLite: better-sqlite3's online backup API, all pages in one step, so the copy is one read
// transaction (WAL mode: payments keep committing meanwhile). PostgreSQL: pg_dump -Fc inside an
// exported REPEATABLE READ snapshot, the same snapshot the manifest's counts are taken in; with
// `?schema=` in DATABASE_URL only that schema. The uploaded images are copied after the database,
// so every image the snapshot's rows name is in the copy (upload names are never reused): from the
// uploads folder, or from the bucket when FILE_STORE=s3 (decision 0062).
// The folder is written as <folder>.partial and renamed when complete: a folder with a
// manifest is a whole backup.
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../src/server/config.js';
import { createFileStore } from '../src/server/files/create-file-store.js';
import type { FileStore } from '../src/server/files/file-store.js';
import {
  createPrivateFiles,
  describeFacts,
  fail,
  formatBytes,
  listFiles,
  makeTreePrivate,
  MANIFEST,
  PG_FILE,
  pgTarget,
  requireTool,
  run,
  ScriptError,
  sha256,
  SQLITE_FILE,
  sqlitePath,
  UPLOADS,
  readFacts,
  type Facts,
  type Manifest,
} from './backup-common.js';

type Snapshot = { database: string; counts: Facts; migrations: string[]; schema: string | null; source: string };

async function snapshotSqlite(url: string, work: string): Promise<Snapshot> {
  const file = sqlitePath(url);
  if (!fs.existsSync(file)) throw new ScriptError(`There is no database at ${file} (DATABASE_URL=${url}).`);
  const out = path.join(work, SQLITE_FILE);
  const source = new SQLite(file, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    // After the first step, the rest in one step: one read transaction, never restarted by a write.
    await source.backup(out, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  const copy = new SQLite(out);
  try {
    // One self-contained file (no -wal beside it); the server puts it back in WAL mode when it opens it.
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new ScriptError(`The snapshot failed SQLite's quick_check: ${String(check)}`);
    const facts = await readFacts(async (text) => copy.prepare(text).all() as Record<string, unknown>[]);
    return { database: SQLITE_FILE, ...facts, schema: null, source: file };
  } finally {
    copy.close();
  }
}

async function snapshotPostgres(url: string, work: string): Promise<Snapshot> {
  requireTool('pg_dump');
  const { connection, schema, shown, tool } = pgTarget(url);
  const client = new pg.Client({ connectionString: connection });
  await client.connect().catch((err: Error) => {
    throw new ScriptError(`Could not connect to ${shown}: ${err.message}`);
  });
  try {
    // pg_dump reads the very snapshot the counts are taken in.
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    if (schema) await client.query(`set local search_path to ${schema}`);
    const facts = await readFacts(async (text) => (await client.query(text)).rows as Record<string, unknown>[]);
    const out = path.join(work, PG_FILE);
    await run('pg_dump', ['-Fc', `--snapshot=${rows[0]!.id}`, ...(schema ? ['-n', schema] : []), '-f', out, '-d', tool.url], tool.env);
    await client.query('commit');
    return { database: PG_FILE, ...facts, schema, source: shown };
  } finally {
    await client.end();
  }
}

/** Every file of the store into `dest`, by key; answers how many (a store that fails ends the backup). */
async function copyUploads(store: FileStore, dest: string): Promise<number> {
  fs.mkdirSync(dest, { recursive: true });
  let copied = 0;
  for await (const info of store.list('')) {
    const file = await store.get(info.key);
    if (!file || !('body' in file)) continue; // removed since it was listed (a review photo dropped)
    const out = path.join(dest, ...info.key.split('/'));
    fs.mkdirSync(path.dirname(out), { recursive: true });
    await pipeline(file.body, fs.createWriteStream(out));
    fs.utimesSync(out, info.lastModified, info.lastModified);
    copied++;
  }
  return copied;
}

function timestamp(d = new Date()): string {
  return d
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log('Usage: npm run backup [-- <folder>]   (default: $BACKUP_DIR/<UTC timestamp>, BACKUP_DIR defaults to backups)');
    return;
  }
  const unknown = args.filter((a) => a.startsWith('-'));
  if (unknown.length) throw new ScriptError(`Unknown option ${unknown[0]}. Usage: npm run backup [-- <folder>]`);
  if (args.length > 1) throw new ScriptError('Give at most one folder. Usage: npm run backup [-- <folder>]');

  const config = loadConfig(process.env);
  createPrivateFiles();
  const startedAt = new Date();
  const dest = path.resolve(args[0] ?? path.join(config.backupDir, timestamp(startedAt)));
  if (fs.existsSync(dest) && fs.readdirSync(dest).length)
    throw new ScriptError(`${dest} already exists and is not empty; a backup goes into a new folder.`);
  const work = `${dest}.partial`;
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });

  try {
    const dialect = config.databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgres';
    const t0 = Date.now();
    const snap = dialect === 'sqlite' ? await snapshotSqlite(config.databaseUrl, work) : await snapshotPostgres(config.databaseUrl, work);
    const dbMs = Date.now() - t0;

    const store = createFileStore(config.fileStore);
    const uploadDir = path.resolve(config.uploadDir);
    const absent = config.fileStore.kind === 'local' && !fs.existsSync(uploadDir);
    try {
      await copyUploads(store, path.join(work, UPLOADS)).catch((err: Error) => {
        throw new ScriptError(`Could not copy the uploaded images from ${store.description}: ${err.message}`);
      });
    } finally {
      store.close();
    }
    // Copies keep their sources' modes: the uploads too become the shop's user's alone.
    makeTreePrivate(work);

    const files = await Promise.all(
      listFiles(work).map(async (p) => ({
        path: p,
        bytes: fs.statSync(path.join(work, p)).size,
        sha256: await sha256(path.join(work, p)),
      })),
    );
    const manifest: Manifest = {
      format: 1,
      createdAt: startedAt.toISOString(),
      dialect,
      schema: snap.schema,
      database: snap.database,
      migrations: snap.migrations,
      counts: snap.counts,
      files,
    };
    fs.writeFileSync(path.join(work, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    if (fs.existsSync(dest)) fs.rmdirSync(dest);
    fs.renameSync(work, dest);

    const dbBytes = files.find((f) => f.path === snap.database)?.bytes ?? 0;
    const uploads = files.filter((f) => f.path.startsWith(`${UPLOADS}/`));
    console.log(`Backup written to ${dest}`);
    console.log(`  database  ${dialect} ${snap.source}`);
    console.log(`            ${snap.database}, ${formatBytes(dbBytes)} in ${dbMs} ms: ${describeFacts(snap.counts)}`);
    console.log(`            migrations: ${snap.migrations.at(-1) ?? 'none'} (${snap.migrations.length})`);
    console.log(
      `  uploads   ${config.fileStore.kind === 's3' ? store.description : absent ? `${uploadDir} (absent, nothing copied)` : uploadDir}: ${uploads.length} files, ${formatBytes(uploads.reduce((n, f) => n + f.bytes, 0))}`,
    );
    console.log(`  manifest  ${MANIFEST} (${files.length} files with SHA-256)`);
  } catch (err) {
    fs.rmSync(work, { recursive: true, force: true });
    throw err;
  }
}

main().catch(fail);
