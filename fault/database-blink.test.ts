import net from 'node:net';
import { sql, type Kysely } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { applicationName, openDatabase } from '../src/server/db/database.js';
import type { Database } from '../src/server/db/schema.js';
import { createTestDatabase } from '../src/server/test/harness.js';
import { adjustStock } from '../src/server/inventory/admin.js';
import { freePort } from '../src/server/test/free-port.js';
import { stockAndPaidUnits } from '../src/server/test/stock-checks.js';
import { DEMO_CUSTOMER } from '../src/server/db/seed/demo-accounts.js';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../src/server/http/database-errors.js';
import { Browserish, startServer, type ServerProcess } from './server-process.js';

/**
 * The database blinks: its connections are ended under the shop (an operator, a restart, a
 * failover, a proxy reaping them), or it is away for a moment. The processes stay up, fail at most
 * the requests that were using a lost connection (503, never 500, never a crash), answer again
 * within two seconds, and lose no payment they said was made.
 */
const HAS_PG = Boolean(process.env.TEST_DATABASE_URL);
const PRODUCT = 'cloth-5-pack';
const ADDRESS = { name: 'Blink Tester', address: '1 Crash Ct', city: 'Austin', state: 'TX', zip: '78701', country: 'US' };
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Blink Tester' };

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A PostgreSQL schema of its own, and the test's own connection to it (named apart from the shop's). */
async function postgres(): Promise<{ url: string; schema: string; db: Kysely<Database> }> {
  const t = await createTestDatabase('postgres');
  cleanups.push(t.drop);
  const schema = new URL(t.url).searchParams.get('schema')!;
  const { db, close } = openDatabase(t.url, { applicationName: 'eco-shop-fault-test' });
  cleanups.push(close);
  return { url: t.url, schema, db };
}

async function server(url: string, env?: Record<string, string>): Promise<ServerProcess> {
  const s = await startServer(url, env);
  cleanups.push(() => s.stop('SIGKILL'));
  return s;
}

/** Ends every connection the shop's processes hold (the issue's `pg_terminate_backend`), as an operator would. */
async function terminateShopBackends(db: Kysely<Database>, schema: string): Promise<number> {
  const { rows } = await sql<{ ended: boolean }>`
    select pg_terminate_backend(pid) as ended from pg_stat_activity
    where application_name = ${applicationName(schema)} and pid <> pg_backend_pid()`.execute(db);
  return rows.filter((r) => r.ended).length;
}

async function checkout(base: string): Promise<{ status: number; sessionId?: string }> {
  try {
    const res = await new Browserish(base).request('POST', '/api/create-checkout-session', {
      items: [{ productId: PRODUCT, quantity: 1 }],
      customerEmail: 'blink@example.com',
      shippingAddress: ADDRESS,
    });
    const body = (await res.json()) as { sessionId?: string };
    return { status: res.status, sessionId: body.sessionId };
  } catch {
    return { status: 0 };
  }
}

/** 'paid' when the card page says so; otherwise the status it answered (0: no answer at all). */
async function pay(base: string, sessionId: string): Promise<'paid' | number> {
  try {
    const res = await new Browserish(base).request('POST', `/pay/${sessionId}`, CARD, true);
    if (res.status === 303) return 'paid';
    const html = await res.text();
    return res.status === 409 && /already been paid|already paid/i.test(html) ? 'paid' : res.status;
  } catch {
    return 0;
  }
}

/** How long until the process answers readiness (it reaches the database) again. */
async function msUntilReady(base: string, limitMs = 10_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    try {
      if ((await fetch(`${base}/api/health/ready`)).status === 200) return Date.now() - started;
    } catch {
      // not answering at all: counted as not ready
    }
    await sleep(50);
  }
  return Infinity;
}

describe.skipIf(!HAS_PG)('the shop’s PostgreSQL connections are ended under load (two processes)', () => {
  it('both processes keep running, answer within 2 s, and lose no committed payment', { timeout: 120_000 }, async () => {
    const { url, schema, db } = await postgres();
    // A mail server, so the e-mail worker has work that crosses the outages.
    const mails: string[] = [];
    const smtpPort = await freePort();
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, cb) {
        stream.on('data', () => undefined);
        stream.on('end', () => {
          mails.push(...session.envelope.rcptTo.map((r) => r.address));
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(smtpPort, '127.0.0.1', () => r()));
    cleanups.push(() => new Promise<void>((r) => smtp.close(() => r())));
    const env = { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, WORKER_INTERVAL_MS: '200', RETRY_BASE_MS: '200', SHOP_CHANGE_POLL_MS: '100' };
    const servers = [await server(url, env), await server(url, env)];
    const [a, b] = servers as [ServerProcess, ServerProcess];

    const TOTAL = 400;
    // Set as the owner sets it: a shelf count, a ledger row (decision 0022).
    await adjustStock(db, PRODUCT, { reason: 'counted', quantity: TOTAL }, { userId: null, label: 'fault test' });
    // A signed-in shopper whose session is read from the database on every request.
    const shopper = new Browserish(a.base);
    const signIn = await shopper.request('POST', '/api/auth/sign-in', {
      email: DEMO_CUSTOMER.email,
      password: DEMO_CUSTOMER.password,
      elapsedMs: 5000,
    });
    expect(signIn.status).toBe(200);

    // Load: on both processes, shoppers check out and pay, browse and read their session.
    const statuses = new Map<number, number>();
    const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    const sessions: string[] = [];
    const told: Map<string, 'paid' | number> = new Map();
    let running = true;
    const buyers = Array.from({ length: 6 }, async (_, i) => {
      const base = servers[i % 2]!.base;
      while (running) {
        const c = await checkout(base);
        count(c.status);
        if (!c.sessionId) continue;
        sessions.push(c.sessionId);
        const paid = await pay(servers[(i + 1) % 2]!.base, c.sessionId);
        told.set(c.sessionId, paid);
        count(paid === 'paid' ? 303 : paid);
      }
    });
    const browsers = Array.from({ length: 4 }, async (_, i) => {
      const base = servers[i % 2]!.base;
      while (running) {
        for (const path of ['/api/products?page=1', '/api/session', '/', '/products/cloth-5-pack']) {
          try {
            const res = path === '/api/session' ? await shopper.pointAt(base).request('GET', path) : await fetch(`${base}${path}`);
            await res.arrayBuffer();
            count(res.status);
          } catch {
            count(0);
          }
        }
      }
    });

    // Five times, a second or so apart: end every connection the shop holds.
    const recoveries: number[] = [];
    for (let round = 0; round < 5; round++) {
      await sleep(700);
      expect(await terminateShopBackends(db, schema)).toBeGreaterThan(0);
      recoveries.push(Math.max(...(await Promise.all(servers.map((s) => msUntilReady(s.base))))));
      for (const s of servers) expect(s.child.exitCode, s.output()).toBeNull();
    }
    running = false;
    await Promise.all([...buyers, ...browsers]);
    console.log(
      `answers under 5 terminations: ${JSON.stringify(Object.fromEntries(statuses))}; ready again after ${recoveries.join(', ')} ms`,
    );

    // Both still running; nothing answered 500 or left the client without an answer.
    for (const s of servers) expect(s.child.exitCode, s.output()).toBeNull();
    expect(s500(statuses)).toEqual([]);
    expect(statuses.get(0) ?? 0).toBe(0);
    expect(recoveries.every((ms) => ms <= 2000)).toBe(true);
    expect(sessions.length).toBeGreaterThan(10);

    // Every payment the shopper was told went through is a paid order; none was counted twice.
    const complete = new Set(
      (await db.selectFrom('payment_sessions').select('id').where('status', '=', 'complete').execute()).map((r) => r.id),
    );
    for (const [id, outcome] of told) if (outcome === 'paid') expect(complete.has(id)).toBe(true);
    let stock = await stockAndPaidUnits(db, PRODUCT);
    expect(stock.inventory + stock.paidUnits).toBe(TOTAL);
    // Shoppers whose payment failed with the connection try again: every one goes through, once.
    const retried = await Promise.all(sessions.filter((id) => told.get(id) !== 'paid').map((id) => pay(a.base, id)));
    expect(retried.every((r) => r === 'paid')).toBe(true);
    stock = await stockAndPaidUnits(db, PRODUCT);
    expect(stock).toEqual({ inventory: TOTAL - sessions.length, paidUnits: sessions.length });

    // What runs by itself carries on: the session is read, the e-mail worker delivers the
    // confirmations queued across the outages, and a change seen by one process reaches the other.
    const me = (await (await shopper.pointAt(b.base).request('GET', '/api/session')).json()) as { user: { email: string } | null };
    expect(me.user?.email).toBe(DEMO_CUSTOMER.email);
    await expect
      .poll(() => mails.filter((m) => m === 'blink@example.com').length, { timeout: 20_000, interval: 200 })
      .toBe(sessions.length);
    await db.updateTable('products').set({ name: 'Blink-proof cloths' }).where('id', '=', PRODUCT).execute();
    await db
      .updateTable('shop_changes')
      .set({ version: sql`version + 1` })
      .where('id', '=', 1)
      .execute();
    for (const s of servers) {
      await expect
        .poll(
          async () => ((await (await fetch(`${s.base}/api/products/${PRODUCT}`)).json()) as { product?: { name?: string } }).product?.name,
          { timeout: 5000 },
        )
        .toBe('Blink-proof cloths');
    }
  });
});

function s500(statuses: Map<number, number>): number[] {
  return [...statuses.keys()].filter((s) => s >= 500 && s !== 503);
}

/**
 * A stand-in for the database server's address that can be "restarted": every connection through
 * it is cut at once and new ones are refused for a while, as when PostgreSQL restarts or fails over.
 */
async function restartableProxy(target: {
  host: string;
  port: number;
}): Promise<{ port: number; restart: (downMs: number) => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let down = false;
  const proxy = net.createServer((client) => {
    if (down) return void client.destroy();
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        proxy.close(() => r());
      }),
  );
  return {
    port: (proxy.address() as net.AddressInfo).port,
    restart: async (downMs) => {
      down = true;
      for (const s of sockets) s.destroy();
      await sleep(downMs);
      down = false;
    },
  };
}

describe.skipIf(!HAS_PG)('the database restarts in the middle of a payment', () => {
  it(
    'the payment fails with a readable 503, the process stays up, and paying again takes it exactly once',
    { timeout: 60_000 },
    async () => {
      const { url, db } = await postgres();
      const direct = new URL(url);
      const proxy = await restartableProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
      const viaProxy = new URL(url);
      viaProxy.host = `127.0.0.1:${proxy.port}`;
      const s = await server(viaProxy.toString());

      await db.updateTable('products').set({ inventory: 10 }).where('id', '=', PRODUCT).execute();
      const c = await checkout(s.base);
      expect(c.status).toBe(200);
      const before = await stockAndPaidUnits(db, PRODUCT);

      // Hold the product's row, so the payment is caught inside its transaction, waiting for the lock…
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      const holder = db.transaction().execute(async (trx) => {
        await trx.selectFrom('products').select('id').where('id', '=', PRODUCT).forUpdate().execute();
        locked();
        await held;
      });
      await isLocked;
      const paying = new Browserish(s.base).request('POST', `/pay/${c.sessionId}`, CARD, true);
      await expect
        .poll(
          async () =>
            (
              await sql<{
                n: number | string;
              }>`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and application_name like 'eco-shop/%' and query ilike '%products%'`.execute(
                db,
              )
            ).rows[0]?.n,
          { timeout: 10_000, interval: 50 },
        )
        .not.toBe(0);
      // …then the database "restarts": every connection is cut, and new ones are refused for 1.5 s.
      await proxy.restart(1500);
      release();
      await holder;

      const answer = await paying;
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('2');
      expect(await answer.text()).toContain(DATABASE_UNAVAILABLE_MESSAGE);
      expect(s.child.exitCode, s.output()).toBeNull();
      // The cut payment changed nothing.
      expect(await stockAndPaidUnits(db, PRODUCT)).toEqual(before);
      expect(await msUntilReady(s.base)).toBeLessThanOrEqual(2000);

      // The shopper pays again: it goes through, once; a third try is told it is already paid.
      expect(await pay(s.base, c.sessionId!)).toBe('paid');
      expect(await pay(s.base, c.sessionId!)).toBe('paid');
      expect(await stockAndPaidUnits(db, PRODUCT)).toEqual({ inventory: before.inventory - 1, paidUnits: before.paidUnits + 1 });
      const paidOrders = await db.selectFrom('payment_sessions').select('status').where('id', '=', c.sessionId!).executeTakeFirstOrThrow();
      expect(paidOrders.status).toBe('complete');
    },
  );

  it('while the database is away, readiness says so and pages answer 503, not 500; then all is back', { timeout: 60_000 }, async () => {
    const { url } = await postgres();
    const direct = new URL(url);
    const proxy = await restartableProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const s = await server(viaProxy.toString(), { PAGE_CACHE_MB: '0' });
    expect((await fetch(`${s.base}/api/health/ready`)).status).toBe(200);

    const away = proxy.restart(3000);
    await sleep(200);
    const live = await fetch(`${s.base}/api/health`);
    expect(live.status).toBe(200);
    const ready = await fetch(`${s.base}/api/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ok: false, database: 'down' });
    const session = await new Browserish(s.base).request('POST', '/api/create-checkout-session', {
      items: [{ productId: PRODUCT, quantity: 1 }],
      customerEmail: 'blink@example.com',
      shippingAddress: ADDRESS,
    });
    expect(session.status).toBe(503);
    expect(((await session.json()) as { error: string }).error).toBe(DATABASE_UNAVAILABLE_MESSAGE);
    const page = await fetch(`${s.base}/faq`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('Back in a moment');
    await away;

    expect(await msUntilReady(s.base)).toBeLessThanOrEqual(2000);
    expect((await fetch(`${s.base}/faq`, { headers: { accept: 'text/html' } })).status).toBe(200);
    expect(s.child.exitCode, s.output()).toBeNull();
  });
});
