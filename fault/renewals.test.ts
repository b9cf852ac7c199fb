import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/server/db/database.js';
import type { Database } from '../src/server/db/schema.js';
import { createProduct } from '../src/server/db/seed/factories.js';
import { createTestDatabase } from '../src/server/test/harness.js';
import { makeSubscription } from '../src/server/test/subscriptions.js';
import { newManageLink } from '../src/server/subscriptions/manage-links.js';
import { Browserish, startServer, type ServerProcess } from './server-process.js';

/**
 * Issue [4/8]: renewals on the shop's own schedule, run by every process. Two server processes
 * share one PostgreSQL, each running the schedule every 100 ms; subscriptions fall due at once
 * while their customers cancel half of them through the e-mail's link, on either process. Every
 * cycle is charged at most once (one test charge per key, one paid order per subscription), every
 * subscription left active is renewed, and no cancelled one keeps a renewal paid after its
 * cancellation. Stock: the ledger's sales are the renewals paid.
 */
const HAS_PG = Boolean(process.env.TEST_DATABASE_URL);
const SUBSCRIPTIONS = 40;

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** Two server processes on one fresh PostgreSQL database, each running the schedule every 100 ms, and a connection of the test's own. */
async function twoServers(): Promise<{ servers: ServerProcess[]; db: ReturnType<typeof openDatabase>['db'] }> {
  const testDb = await createTestDatabase('postgres');
  cleanups.push(testDb.drop);
  const servers: ServerProcess[] = [];
  for (let i = 0; i < 2; i++) {
    const s = await startServer(testDb.url, { WORKER_INTERVAL_MS: '100' });
    cleanups.push(() => s.stop('SIGKILL'));
    servers.push(s);
  }
  const { db, close } = openDatabase(testDb.url);
  cleanups.push(close);
  return { servers, db };
}

/** Waits (60 s at most) until none of these subscriptions' cycles is open and at least `atLeast` were written. */
async function cyclesSettled(db: Awaited<ReturnType<typeof twoServers>>['db'], ids: string[], atLeast: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const rows = await db.selectFrom('subscription_cycles').select('status').where('subscription_id', 'in', ids).execute();
    const open = rows.filter((r) => ['scheduled', 'charging', 'retrying'].includes(r.status)).length;
    if (open === 0 && rows.length >= atLeast) return;
    if (Date.now() > deadline) throw new Error(`cycles still open: ${open}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!HAS_PG)('renewals on two processes sharing one PostgreSQL', () => {
  it('each cycle once, cancels honoured, every active subscription renewed', async () => {
    const { servers, db } = await twoServers();

    const product = await createProduct(db as Kysely<Database>, { name: 'Race Refill', priceCents: 1500, inventory: 1000 });
    const due = new Date(Date.now() + 1500).toISOString();
    const subs: Awaited<ReturnType<typeof makeSubscription>>[] = [];
    for (let i = 0; i < SUBSCRIPTIONS; i++)
      subs.push(await makeSubscription(db, { nextRenewalAt: due, product: { id: product.id, variantId: `var_${product.id}` } }));
    const tokens = await Promise.all(subs.map(async (s) => (await newManageLink(db, s.id, new Date(), 'x')).split('/').pop()!));

    // Half the customers cancel as their renewal falls due, through either process.
    await new Promise((r) => setTimeout(r, 1400));
    const cancels = await Promise.all(
      subs
        .filter((_, i) => i % 2 === 0)
        .map((s, i) =>
          new Browserish(servers[i % 2]!.base).request('POST', `/api/subscriptions/manage/${tokens[subs.indexOf(s)]}/cancel`, {}),
        ),
    );
    expect(cancels.map((r) => r.status).every((st) => st === 200)).toBe(true);

    // Every cycle settles.
    await cyclesSettled(
      db,
      subs.map((s) => s.id),
      SUBSCRIPTIONS / 2,
    );

    let renewed = 0;
    for (const [i, s] of subs.entries()) {
      const row = await db.selectFrom('subscriptions').selectAll().where('id', '=', s.id).executeTakeFirstOrThrow();
      const paid = await db
        .selectFrom('orders')
        .selectAll()
        .where('user_id', '=', s.userId)
        .where('origin', '=', 'renewal')
        .where('payment_status', '=', 'paid')
        .execute();
      const charges = await db
        .selectFrom('test_off_session_charges')
        .select('idempotency_key')
        .where('idempotency_key', 'like', `renewal_${s.id}_%`)
        .execute();
      expect(paid.length).toBeLessThanOrEqual(1);
      expect(charges.length).toBeLessThanOrEqual(1);
      if (i % 2 === 1) {
        expect(row.status).toBe('active');
        expect(paid).toHaveLength(1);
        expect(row.deliveries).toBe(2);
      } else {
        expect(row.status).toBe('cancelled');
        // Paid only if it was paid before the cancellation was.
        for (const o of paid) expect(o.paid_at! <= row.cancelled_at!).toBe(true);
      }
      renewed += paid.length;
    }
    const sold = await db
      .selectFrom('stock_movements')
      .select((eb) => eb.fn.sum<number>('quantity').as('n'))
      .where(
        'stock_item_id',
        '=',
        (await db.selectFrom('stock_items').select('id').where('variant_id', '=', `var_${product.id}`).executeTakeFirstOrThrow()).id,
      )
      .where('kind', '=', 'sold')
      .executeTakeFirst();
    expect(-Number(sold?.n ?? 0)).toBe(renewed);
    const level = await db
      .selectFrom('stock_items')
      .select('on_hand')
      .where('variant_id', '=', `var_${product.id}`)
      .executeTakeFirstOrThrow();
    expect(Number(level.on_hand)).toBe(1000 - renewed);
  });

  it('skips sent to both processes as renewals fall due: each delivery skipped once and never charged, or charged once and the skips refused', async () => {
    const { servers, db } = await twoServers();
    const product = await createProduct(db as Kysely<Database>, { name: 'Skip Refill', priceCents: 1500, inventory: 1000 });
    const due = new Date(Date.now() + 1500).toISOString();
    const subs: Awaited<ReturnType<typeof makeSubscription>>[] = [];
    for (let i = 0; i < 24; i++)
      subs.push(await makeSubscription(db, { nextRenewalAt: due, product: { id: product.id, variantId: `var_${product.id}` } }));
    const tokens = await Promise.all(subs.map(async (s) => (await newManageLink(db, s.id, new Date(), 'x')).split('/').pop()!));

    // Each customer clicks Skip in two tabs, one on each process, as the renewal falls due.
    await new Promise((r) => setTimeout(r, 1400));
    const skips = await Promise.all(
      subs.map((_, i) =>
        Promise.all(
          servers.map((srv) => new Browserish(srv.base).request('POST', `/api/subscriptions/manage/${tokens[i]}/skip`, { renewalAt: due })),
        ),
      ),
    );

    // Every cycle settles.
    await cyclesSettled(
      db,
      subs.map((s) => s.id),
      0,
    );
    for (const [i, s] of subs.entries()) {
      const codes = skips[i]!.map((r) => r.status);
      expect(
        codes.every((c) => c === 200 || c === 409),
        codes.join(),
      ).toBe(true);
      expect(codes.filter((c) => c === 200).length).toBeLessThanOrEqual(1);
      const paid = await db
        .selectFrom('orders')
        .select('id')
        .where('user_id', '=', s.userId)
        .where('origin', '=', 'renewal')
        .where('payment_status', '=', 'paid')
        .execute();
      const charges = await db
        .selectFrom('test_off_session_charges')
        .select('idempotency_key')
        .where('idempotency_key', 'like', `renewal_${s.id}_%`)
        .execute();
      const cycles = await db.selectFrom('subscription_cycles').select(['cycle', 'status']).where('subscription_id', '=', s.id).execute();
      expect(cycles).toHaveLength(1);
      if (codes.includes(200)) {
        expect(paid).toHaveLength(0);
        expect(cycles[0]!.status).toBe('skipped');
      } else {
        expect(paid).toHaveLength(1);
        expect(charges).toHaveLength(1);
        expect(cycles[0]!.status).toBe('paid');
      }
    }
  });
});
