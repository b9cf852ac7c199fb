import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/server/db/database.js';
import type { Database } from '../src/server/db/schema.js';
import { createTestDatabase } from '../src/server/test/harness.js';
import { adjustStock } from '../src/server/inventory/admin.js';
import { sqliteUrl, startServer, type ServerProcess } from './server-process.js';

/**
 * `npm run backup` while shoppers are paying, then `npm run restore` into a fresh database: every
 * order paid before the backup started is there and paid, stock and sales agree for every product
 * (the snapshot is one moment, not a smear across payments), and the uploads came back.
 */
const PRODUCT = 'cloth-5-pack';
const STOCK = 5000;
const ADDRESS = { name: 'Backup Tester', address: '1 Archive Way', city: 'Austin', state: 'TX', zip: '78701', country: 'US' };
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Backup Tester' };
const HAS_PG = Boolean(process.env.TEST_DATABASE_URL);

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A fresh, empty database: a SQLite file not yet created, or a new PostgreSQL schema. */
async function freshDatabase(kind: 'sqlite' | 'postgres'): Promise<string> {
  if (kind === 'sqlite') {
    const s = sqliteUrl();
    cleanups.push(s.drop);
    return s.url;
  }
  const t = await createTestDatabase('postgres');
  cleanups.push(t.drop);
  return t.url;
}

function open(url: string): { db: Kysely<Database>; close: () => Promise<void> } {
  const { db, close } = openDatabase(url);
  let closed: Promise<void> | undefined;
  const once = () => (closed ??= close());
  cleanups.push(once);
  return { db, close: once };
}

async function countMigrations(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from kysely_migration`.execute(db);
  return Number(rows[0]?.n);
}

/** `npm run <script> -- args` with the shop's environment pointed at one database and uploads folder. */
function npmRun(
  script: 'backup' | 'restore',
  args: string[],
  env: { DATABASE_URL: string; UPLOAD_DIR: string },
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', script, '--', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

type Sale = { orderId: string; paid: boolean; answeredAt: number };

/** One shopper from its own address (the server trusts X-Forwarded-For here): checkout, then the card page. */
async function buyOne(base: string, n: number): Promise<Sale | null> {
  const headers = { origin: base, 'x-forwarded-for': `10.77.${(n >> 8) & 255}.${n & 255}` };
  const res = await fetch(`${base}/api/create-checkout-session`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      items: [{ productId: PRODUCT, quantity: 1 }],
      customerEmail: `backup.${n}@example.com`,
      shippingAddress: ADDRESS,
    }),
  });
  if (!res.ok) return null;
  const { sessionId, orderId } = (await res.json()) as { sessionId: string; orderId: string };
  const pay = await fetch(`${base}/pay/${sessionId}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(CARD).toString(),
    redirect: 'manual',
  });
  return { orderId, paid: pay.status === 303, answeredAt: Date.now() };
}

/** Shoppers paying one after another on a few lanes until stopped. */
function payInALoop(base: string, lanes = 3) {
  const sales: Sale[] = [];
  let failures = 0;
  let stop = false;
  let n = 0;
  const running = Array.from({ length: lanes }, async () => {
    while (!stop && n < STOCK - 100) {
      const sale = await buyOne(base, n++);
      if (sale) sales.push(sale);
      else failures++;
    }
  });
  return {
    sales,
    paid: () => sales.filter((s) => s.paid),
    failures: () => failures,
    stop: async () => {
      stop = true;
      await Promise.all(running);
    },
  };
}

/** For every product: units on the shelf plus units in paid orders. */
async function shelfPlusSold(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('products as p')
    .leftJoin(
      db
        .selectFrom('order_items as i')
        .innerJoin('orders as o', 'o.id', 'i.order_id')
        .where('o.payment_status', '=', 'paid')
        .select(['i.product_id', sql<number | string>`sum(i.quantity)`.as('units')])
        .groupBy('i.product_id')
        .as('s'),
      's.product_id',
      'p.id',
    )
    .select(['p.id', 'p.inventory', 's.units'])
    .execute();
  return Object.fromEntries(rows.map((r) => [r.id, r.inventory + Number(r.units ?? 0)]));
}

describe.each(HAS_PG ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const))('a backup taken while orders are paid (%s)', (kind) => {
  it('restores into a fresh database with every paid order, stock that adds up, and the uploads', { timeout: 90_000 }, async () => {
    const sourceUrl = await freshDatabase(kind);
    const uploads = tempDir('shop-backup-uploads-');
    const server: ServerProcess = await startServer(sourceUrl, { UPLOAD_DIR: uploads, TRUST_PROXY: 'true' });
    cleanups.push(() => server.stop('SIGKILL'));
    const { db: source } = open(sourceUrl);
    // Set as the owner sets it: a shelf count, a ledger row (decision 0022).
    await adjustStock(source, PRODUCT, { reason: 'counted', quantity: STOCK }, { userId: null, label: 'fault test' });
    const stockAtStart = await shelfPlusSold(source);
    const image = crypto.randomBytes(4096);
    fs.mkdirSync(path.join(uploads, 'products'), { recursive: true });
    fs.writeFileSync(path.join(uploads, 'products', 'backup-probe.png'), image);

    const shoppers = payInALoop(server.base);
    await expect.poll(() => shoppers.paid().length, { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(10);

    const folder = path.join(tempDir('shop-backup-'), 'snapshot');
    const backupStarted = Date.now();
    const paidBefore = shoppers.paid().filter((s) => s.answeredAt < backupStarted);
    const backup = await npmRun('backup', [folder], { DATABASE_URL: sourceUrl, UPLOAD_DIR: uploads });
    const backupEnded = Date.now();
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toContain(`Backup written to ${folder}`);
    const paidAtEnd = shoppers.paid().length;
    await expect.poll(() => shoppers.paid().length, { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(paidAtEnd + 5);
    await shoppers.stop();
    const paidDuring = shoppers.paid().filter((s) => s.answeredAt >= backupStarted && s.answeredAt <= backupEnded).length;

    // The shop is still running: its SQLite file is never replaced under it, even with --force.
    if (kind === 'sqlite') {
      const refused = await npmRun('restore', [folder, '--force'], { DATABASE_URL: sourceUrl, UPLOAD_DIR: uploads });
      expect(refused.code).not.toBe(0);
      expect(refused.out).toMatch(/open in another process/);
      expect((await fetch(`${server.base}/api/health`)).ok).toBe(true);
    }

    const targetUrl = await freshDatabase(kind);
    const targetUploads = tempDir('shop-restored-uploads-');
    const restore = await npmRun('restore', [folder], { DATABASE_URL: targetUrl, UPLOAD_DIR: targetUploads });
    expect(restore.code, restore.out).toBe(0);
    expect(restore.out).toMatch(/checked\s+\d+ orders/);

    let { db: restored, close: closeRestored } = open(targetUrl);
    const paidInRestore = await restored.selectFrom('orders').select('id').where('payment_status', '=', 'paid').execute();
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as {
      createdAt: string;
      counts: { paidOrders: number };
    };
    // The script notes its start just before it reads the database: a payment answered before that is in the snapshot too.
    const paidBeforeSnapshot = shoppers.paid().filter((s) => s.answeredAt < Date.parse(manifest.createdAt));
    console.log(
      `${kind}: ${paidBefore.length} paid before the backup, ${paidBeforeSnapshot.length} before its snapshot, ${paidDuring} while it ran (${backupEnded - backupStarted} ms), ` +
        `${shoppers.paid().length} in all; the restore holds ${paidInRestore.length} paid orders (${shoppers.failures()} checkouts refused)`,
    );

    // Every order paid before the backup started is in the restore, paid.
    const restoredPaid = new Set(paidInRestore.map((r) => r.id));
    expect(paidBefore.filter((s) => !restoredPaid.has(s.orderId))).toEqual([]);
    expect(paidBeforeSnapshot.filter((s) => !restoredPaid.has(s.orderId))).toEqual([]);
    expect(paidInRestore.length).toBe(manifest.counts.paidOrders);
    expect(paidInRestore.length).toBeLessThanOrEqual(shoppers.paid().length);
    // The snapshot is one moment: for every product, the shelf plus what paid orders took is the stock it started with.
    expect(await shelfPlusSold(restored)).toEqual(stockAtStart);
    // The uploads came back, byte for byte.
    expect(fs.readFileSync(path.join(targetUploads, 'products', 'backup-probe.png')).equals(image)).toBe(true);
    // The restored database is ready for the code that runs it.
    expect(await countMigrations(restored)).toBe(await countMigrations(source));

    // Restoring over a database that holds data is refused without --force (nothing has the SQLite file open now)…
    await restored.updateTable('products').set({ inventory: 0 }).execute();
    await closeRestored();
    const again = await npmRun('restore', [folder], { DATABASE_URL: targetUrl, UPLOAD_DIR: targetUploads });
    expect(again.code).not.toBe(0);
    expect(again.out).toMatch(/not empty|holds a database/);
    expect(again.out).toMatch(/--force/);
    // …and replaces it with --force.
    const forced = await npmRun('restore', [folder, '--force'], { DATABASE_URL: targetUrl, UPLOAD_DIR: targetUploads });
    expect(forced.code, forced.out).toBe(0);
    ({ db: restored, close: closeRestored } = open(targetUrl));
    expect(await shelfPlusSold(restored)).toEqual(stockAtStart);
  });
});
