import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';

/**
 * The SQLite database, its WAL and every backup hold password hashes, customers' data, the
 * cookie-signing key and the ShipStation keys: readable by the shop's own user only, whatever the
 * umask (022 here, the usual default, under which files would be 0644).
 */
let root: string;
let previousUmask: number;
beforeAll(() => {
  previousUmask = process.umask(0o022);
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-modes-'));
});
afterAll(() => {
  process.umask(previousUmask);
  fs.rmSync(root, { recursive: true, force: true });
});

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe('SQLite files', () => {
  it('a new database: its folders 0700, the file, its -wal and -shm 0600', async () => {
    const file = path.join(root, 'fresh', 'data', 'shop.db');
    const { db, schema, close } = openDatabase(`sqlite:${file}`);
    try {
      await migrateToLatest(db, schema);
      await sql`create table modes_test (x integer)`.execute(db);
      await sql`insert into modes_test (x) values (1)`.execute(db);
      expect(fs.existsSync(`${file}-wal`)).toBe(true);
      expect(fs.existsSync(`${file}-shm`)).toBe(true);
      expect({ db: mode(file), wal: mode(`${file}-wal`), shm: mode(`${file}-shm`) }).toEqual({ db: 0o600, wal: 0o600, shm: 0o600 });
      expect(mode(path.dirname(file))).toBe(0o700);
      expect(mode(path.join(root, 'fresh'))).toBe(0o700);
    } finally {
      await close();
    }
  });

  it('a database left readable by others is made private when the shop opens it', async () => {
    const dir = path.join(root, 'old');
    fs.mkdirSync(dir);
    const file = path.join(dir, 'shop.db');
    fs.writeFileSync(file, '');
    fs.writeFileSync(`${file}-wal`, '');
    fs.chmodSync(file, 0o644);
    fs.chmodSync(`${file}-wal`, 0o664);
    const { close } = openDatabase(`sqlite:${file}`);
    await close();
    expect(mode(file)).toBe(0o600);
    if (fs.existsSync(`${file}-wal`)) expect(mode(`${file}-wal`)).toBe(0o600);
  });
});

describe('backups', () => {
  it('every folder of a backup is 0700 and every file 0600, uploads copied from 0644 files included', async () => {
    const file = path.join(root, 'live', 'shop.db');
    const { db, schema, close } = openDatabase(`sqlite:${file}`);
    await migrateToLatest(db, schema);
    await close();
    const uploads = path.join(root, 'live', 'uploads', 'products');
    fs.mkdirSync(uploads, { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(uploads, 'a.png'), 'png', { mode: 0o644 });
    const backupDir = path.join(root, 'backups');

    const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: `sqlite:${file}`,
        UPLOAD_DIR: path.join(root, 'live', 'uploads'),
        BACKUP_DIR: backupDir,
      },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(mode(backupDir)).toBe(0o700);
    const [taken] = fs.readdirSync(backupDir);
    const folder = path.join(backupDir, taken!);
    const wrong: string[] = [];
    for (const e of [
      { p: folder, dir: true },
      ...fs
        .readdirSync(folder, { recursive: true, withFileTypes: true })
        .map((x) => ({ p: path.join(x.parentPath, x.name), dir: x.isDirectory() })),
    ]) {
      const expected = e.dir ? 0o700 : 0o600;
      if (mode(e.p) !== expected) wrong.push(`${path.relative(backupDir, e.p)}: ${mode(e.p).toString(8)}`);
    }
    expect(wrong).toEqual([]);
    expect(fs.existsSync(path.join(folder, 'uploads', 'products', 'a.png'))).toBe(true);
    expect(fs.existsSync(path.join(folder, 'shop.db'))).toBe(true);
  });
});
