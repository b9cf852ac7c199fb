import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql, type Kysely } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/server/db/database.js';
import type { Database } from '../src/server/db/schema.js';
import { createTestDatabase, type TestDb } from '../src/server/test/harness.js';
import { freePort } from '../src/server/test/free-port.js';
import { DEMO_ADMIN, DEMO_CUSTOMER } from '../src/server/db/seed/demo-accounts.js';
import { Browserish, sqliteUrl, startServer, type ServerProcess } from './server-process.js';
import { adjustStock } from '../src/server/inventory/admin.js';

/** The product's level, set as the owner sets it: a shelf count, a ledger row (decision 0022). */
async function setStock(db: Kysely<Database>, units: number): Promise<void> {
  await adjustStock(db, PRODUCT, { reason: 'counted', quantity: units }, { userId: null, label: 'fault test' });
}

/**
 * What happens when things go wrong, with real server processes: two of them on one database
 * with nothing shared in memory, one killed with SIGKILL mid-payment, and the mail server and the
 * workflow endpoint gone for a while.
 */
const PRODUCT = 'cloth-5-pack';
const ADDRESS = { name: 'Fault Tester', address: '1 Crash Ct', city: 'Austin', state: 'TX', zip: '78701', country: 'US' };
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Fault Tester' };
const HAS_PG = Boolean(process.env.TEST_DATABASE_URL);

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function database(kind: 'sqlite' | 'postgres'): Promise<{ url: string; db: Kysely<Database> }> {
  let url: string;
  if (kind === 'sqlite') {
    const s = sqliteUrl();
    cleanups.push(s.drop);
    url = s.url;
  } else {
    const t: TestDb = await createTestDatabase('postgres');
    cleanups.push(t.drop);
    url = t.url;
  }
  const { db, close } = openDatabase(url);
  cleanups.push(close);
  return { url, db };
}

async function server(url: string, env?: Record<string, string>, port?: number): Promise<ServerProcess> {
  const s = await startServer(url, env, port);
  cleanups.push(() => s.stop('SIGKILL'));
  return s;
}

async function checkout(base: string): Promise<{ ok: boolean; sessionId?: string; orderId?: string; status: number }> {
  const res = await new Browserish(base).request('POST', '/api/create-checkout-session', {
    items: [{ productId: PRODUCT, quantity: 1 }],
    customerEmail: 'fault@example.com',
    shippingAddress: ADDRESS,
  });
  const body = (await res.json()) as { sessionId?: string; orderId?: string };
  return { ok: res.ok, status: res.status, ...body };
}

/** 'paid' when the card page says so (a redirect, or "already paid"); 'lost' when the answer never came. */
async function pay(base: string, sessionId: string): Promise<'paid' | 'refused' | 'lost'> {
  try {
    const res = await new Browserish(base).request('POST', `/pay/${sessionId}`, CARD, true);
    if (res.status === 303) return 'paid';
    const html = await res.text();
    return res.status === 409 && /already been paid|already paid/i.test(html) ? 'paid' : 'refused';
  } catch {
    return 'lost';
  }
}

async function stockAndSales(db: Kysely<Database>) {
  const product = await db.selectFrom('products').select('inventory').where('id', '=', PRODUCT).executeTakeFirstOrThrow();
  const sold = await db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select([sql<number | string>`coalesce(sum(i.quantity), 0)`.as('units'), sql<number | string>`count(distinct o.id)`.as('orders')])
    .where('i.product_id', '=', PRODUCT)
    .where('o.payment_status', '=', 'paid')
    .executeTakeFirstOrThrow();
  return { inventory: product.inventory, unitsSold: Number(sold.units), paidOrders: Number(sold.orders) };
}

describe.skipIf(!HAS_PG)('two server processes on one PostgreSQL', () => {
  it('a session made on one works on the other; checkouts across both never oversell', { timeout: 120_000 }, async () => {
    const { url, db } = await database('postgres');
    const a = await server(url);
    const b = await server(url);

    const shopper = new Browserish(a.base);
    expect(
      (
        await shopper.request('POST', '/api/auth/sign-in', {
          email: DEMO_CUSTOMER.email,
          password: DEMO_CUSTOMER.password,
          elapsedMs: 5000,
        })
      ).status,
    ).toBe(200);
    const onB = (await (await shopper.pointAt(b.base).request('GET', '/api/session')).json()) as { user: { email: string } | null };
    expect(onB.user?.email).toBe(DEMO_CUSTOMER.email);
    // Signing out on B ends the session on A too: it lives in the database, not in a process.
    await shopper.request('POST', '/api/auth/sign-out');
    const onA = (await (await shopper.pointAt(a.base).request('GET', '/api/session')).json()) as { user: unknown };
    expect(onA.user).toBeNull();

    await setStock(db, 5);
    const attempts = await Promise.all(Array.from({ length: 20 }, (_, i) => checkout(i % 2 ? a.base : b.base)));
    const won = attempts.filter((r) => r.ok);
    expect(won).toHaveLength(5);
    expect(attempts.filter((r) => !r.ok).every((r) => r.status === 409)).toBe(true);
    const paid = await Promise.all(won.map((r, i) => pay(i % 2 ? a.base : b.base, r.sessionId!)));
    expect(paid).toEqual(Array(5).fill('paid'));
    expect(await stockAndSales(db)).toEqual({ inventory: 0, unitsSold: 5, paidOrders: 5 });
    // Nothing left to sell, from either process.
    expect((await checkout(a.base)).status).toBe(409);
    expect((await checkout(b.base)).status).toBe(409);
  });
});

describe.each(HAS_PG ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const))('SIGKILL in a stream of payments (%s)', (kind) => {
  it('loses no paid order and miscounts no stock', { timeout: 120_000 }, async () => {
    const { url, db } = await database(kind);
    const first = await server(url);
    const TOTAL = 40;
    await setStock(db, TOTAL);
    const sessions: string[] = [];
    for (let i = 0; i < TOTAL; i++) {
      const r = await checkout(first.base);
      expect(r.ok).toBe(true);
      sessions.push(r.sessionId!);
    }

    // Every payment at once; the process dies once a quarter of them have been answered.
    let answered = 0;
    let killed!: () => void;
    const quarter = new Promise<void>((r) => (killed = r));
    const outcomes = sessions.map((id) =>
      pay(first.base, id).then((r) => {
        if (r === 'paid' && ++answered >= TOTAL / 4) killed();
        return r;
      }),
    );
    await Promise.race([quarter, Promise.all(outcomes)]);
    await first.stop('SIGKILL');
    const results = await Promise.all(outcomes);

    const second = await server(url);
    const after = await stockAndSales(db);
    const count = (k: string) => results.filter((r) => r === k).length;
    console.log(
      `${kind}: killed with ${count('paid')} payments answered, ${count('lost')} cut off; ${after.paidOrders} paid orders in the database`,
    );
    // Every payment the shopper was told went through is a paid order…
    const paidIds = new Set(
      (await db.selectFrom('payment_sessions').select('id').where('status', '=', 'complete').execute()).map((r) => r.id),
    );
    sessions.forEach((id, i) => {
      if (results[i] === 'paid') expect(paidIds.has(id)).toBe(true);
    });
    // …and stock went down by exactly what was sold, once per order.
    expect(after.inventory + after.unitsSold).toBe(TOTAL);
    expect(after.paidOrders).toBe(paidIds.size);
    expect(results.filter((r) => r === 'paid').length).toBeLessThanOrEqual(after.paidOrders);

    // The shoppers who never got an answer try again on the restarted server: all paid, once.
    const retried = await Promise.all(sessions.map((id) => pay(second.base, id)));
    expect(retried).toEqual(Array(TOTAL).fill('paid'));
    expect(await stockAndSales(db)).toEqual({ inventory: 0, unitsSold: TOTAL, paidOrders: TOTAL });
  });
});

describe('the mail server and the workflow endpoint go away for a while', () => {
  it('every e-mail and every contact message is delivered once they are back', { timeout: 120_000 }, async () => {
    const { url, db } = await database('sqlite');
    const smtpPort = await freePort(); // nothing listens here yet
    let workflowUp = false;
    const received: { subject: string }[] = [];
    const workflow = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (!workflowUp) return void res.writeHead(503).end();
        received.push(JSON.parse(body) as { subject: string });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => workflow.listen(0, '127.0.0.1', () => r()));
    cleanups.push(() => new Promise<void>((r) => workflow.close(() => r())));
    const workflowUrl = `http://127.0.0.1:${(workflow.address() as AddressInfo).port}/hook`;

    const s = await server(url, { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, RETRY_BASE_MS: '300', WORKER_INTERVAL_MS: '200' });
    const admin = new Browserish(s.base);
    expect(
      (await admin.request('POST', '/api/auth/sign-in', { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password, elapsedMs: 5000 }))
        .status,
    ).toBe(200);
    expect(
      (
        await admin.request('PUT', '/api/admin/settings/integrations', {
          power_automate_endpoint: workflowUrl,
          power_automate_enabled: true,
        })
      ).status,
    ).toBe(200);

    const newcomer = `fault.newcomer.${Date.now()}@example.com`;
    const signUp = await new Browserish(s.base).request('POST', '/api/auth/sign-up', {
      fullName: 'Fault Newcomer',
      email: newcomer,
      password: 'Fault-Password-1',
      elapsedMs: 5000,
    });
    expect(signUp.status).toBeLessThan(300);
    for (const subject of ['Down one', 'Down two']) {
      const res = await new Browserish(s.base).request('POST', '/api/contact', {
        name: 'Visitor',
        email: 'visitor@example.org',
        subject,
        message: 'Hello?',
        elapsedMs: 5000,
      });
      expect(res.status).toBe(200);
    }

    // Both are down: the work waits in the database, tried and not lost.
    await expect
      .poll(
        async () => {
          const mail = await db
            .selectFrom('email_outbox')
            .select(['status', 'attempts'])
            .where('to_address', '=', newcomer)
            .executeTakeFirst();
          const msgs = await db
            .selectFrom('contact_messages')
            .select(['forward_status', 'forward_attempts'])
            .where('subject', 'in', ['Down one', 'Down two'])
            .execute();
          return (
            Boolean(mail && mail.attempts >= 2 && mail.status !== 'sent') &&
            msgs.length === 2 &&
            msgs.every((m) => m.forward_attempts >= 2 && m.forward_status === 'pending')
          );
        },
        { timeout: 20_000, interval: 250 },
      )
      .toBe(true);

    // They come back.
    const mails: { to: string[]; subject: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, cb) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString()));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), subject: /^Subject: (.*)$/im.exec(raw)?.[1] ?? '' });
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(smtpPort, '127.0.0.1', () => r()));
    cleanups.push(() => new Promise<void>((r) => smtp.close(() => r())));
    workflowUp = true;

    // The newcomer's two: the welcome and the link that verifies their address (decision 0032).
    await expect.poll(() => mails.filter((m) => m.to.includes(newcomer)).length, { timeout: 30_000, interval: 250 }).toBe(2);
    await expect.poll(() => received.map((m) => m.subject).sort(), { timeout: 30_000, interval: 250 }).toEqual(['Down one', 'Down two']);
    // And only once, however many tries it took.
    await new Promise((r) => setTimeout(r, 1500));
    const theirs = mails.filter((m) => m.to.includes(newcomer));
    expect(theirs).toHaveLength(2);
    expect(new Set(theirs.map((m) => m.subject)).size).toBe(2);
    expect(received).toHaveLength(2);
    const rows = await db
      .selectFrom('contact_messages')
      .select('forward_status')
      .where('subject', 'in', ['Down one', 'Down two'])
      .execute();
    expect(rows.map((r) => r.forward_status)).toEqual(['forwarded', 'forwarded']);
  });
});
