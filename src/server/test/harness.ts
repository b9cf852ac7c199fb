import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Dialect } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { seedDatabase } from '../db/seed/seed.js';
import type { Database } from '../db/schema.js';
import { buildApp, type AppDeps } from '../app.js';
import { randomString } from '../lib/ids.js';
import { createFileStore } from '../files/create-file-store.js';
import type { FileStore } from '../files/file-store.js';
import { recordPostgresWire, type WireRecorder } from './pg-wire-recorder.js';

export type TestDb = { url: string; dialect: Dialect; drop: () => Promise<void> };

/** Which engine the HTTP suite runs on: TEST_DB=postgres uses TEST_DATABASE_URL, else SQLite. */
export function testDialect(): Dialect {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
}

/** A fresh, empty database for one test file: a SQLite file, or a PostgreSQL schema. */
export async function createTestDatabase(dialect: Dialect = testDialect()): Promise<TestDb> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-test-'));
    return {
      url: `sqlite:${path.join(dir, 'shop.db')}`,
      dialect,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const schema = `t_${randomString(12)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const u = new URL(base);
  u.searchParams.set('schema', schema);
  return {
    url: u.toString(),
    dialect,
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

export type TestApp = {
  app: FastifyInstance;
  db: Kysely<Database>;
  dialect: Dialect;
  config: Config;
  /** Where the app keeps uploaded images: its own uploads folder, or the bucket its env names. */
  files: FileStore;
  /** What went over the wire to PostgreSQL, with `recordWire`. */
  wire?: WireRecorder;
  close: () => Promise<void>;
};

export async function createTestApp(
  options: {
    seed?: boolean;
    env?: Record<string, string>;
    logStream?: AppDeps['logStream'];
    /** How long a request may wait for one of the pool's connections (the shop's 5 s when not given). */
    connectTimeoutMs?: number;
    /** PostgreSQL only: the app reaches its database through a recorder of every protocol message (test/pg-wire-recorder.ts). */
    recordWire?: boolean;
  } = {},
): Promise<TestApp> {
  const testDb = await createTestDatabase();
  let wire: WireRecorder | undefined;
  let databaseUrl = testDb.url;
  if (options.recordWire) {
    if (testDb.dialect !== 'postgres') throw new Error('recordWire: the wire is PostgreSQL’s');
    const direct = new URL(testDb.url);
    wire = await recordPostgresWire({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(testDb.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(wire.port);
    databaseUrl = proxied.toString();
  }
  // Uploads go to a folder of this app's own, never the shop's data/uploads (a test's files there
  // would be served, and re-sized, by the next `npm start`). The shop creates `uploads` itself, with
  // its own modes, as on a first start.
  const uploadRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-test-uploads-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://shop.test',
    CLIENT_DIR: 'dist/client-absent-in-tests',
    UPLOAD_DIR: path.join(uploadRoot, 'uploads'),
    ...options.env,
  });
  const { db, schema, close } = openDatabase(databaseUrl, { connectTimeoutMs: options.connectTimeoutMs });
  await migrateToLatest(db, schema);
  if (options.seed !== false) await seedDatabase(db, config);
  const files = createFileStore(config.fileStore);
  const app = await buildApp({ config, db, dialect: testDb.dialect, logStream: options.logStream, files });
  await app.ready();
  return {
    app,
    db,
    dialect: testDb.dialect,
    config,
    files,
    wire,
    close: async () => {
      await app.close();
      files.close();
      await close();
      await wire?.close();
      await testDb.drop();
      fs.rmSync(uploadRoot, { recursive: true, force: true });
    },
  };
}
