import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationName, openDatabase } from '../src/server/db/database.js';
import type { Database } from '../src/server/db/schema.js';
import { createProduct } from '../src/server/db/seed/factories.js';
import { DEMO_ADMIN } from '../src/server/db/seed/demo-accounts.js';
import { createTestDatabase } from '../src/server/test/harness.js';
import { guestCheckoutBody } from '../src/server/test/checkout-orders.js';
import { Browserish, startServer, type ServerProcess } from './server-process.js';

/**
 * Issue [7/8]: the two marketing passes (checkout recovery, reorder reminders) of two real server
 * processes sharing one PostgreSQL, cut off mid-way by a database that drops every connection of
 * both, again and again. The shoppers' checkouts and payments are made through the shop's own HTTP
 * API, the owner's settings, cancellations and refunds through the back office; then the checkouts
 * are left for two hours and the orders' refills run low, both at once. When the processes have
 * caught up: each checkout and each order line decided once, an e-mail for each that may have one
 * and none for the others (no consent, paid, cancelled, refunded), and both processes still up.
 */
const HAS_PG = Boolean(process.env.TEST_DATABASE_URL);
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Abandoned checkouts of addresses that said yes: some seconds of the recovery pass's work, so the drops land in it. */
const ABANDONED = 160;
/** Abandoned checkouts of addresses that never said yes (decided, not e-mailed), and checkouts paid (never decided). */
const NO_CONSENT = 8;
const PAID_CHECKOUTS = 8;
/** Paid one-time orders of the refills whose period runs out at once; of them, some cancelled and some refunded since. */
const REFILL_ORDERS = 160;
const CANCELLED = 8;
const REFUNDED = 8;
const REORDER_DAYS = 30;
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Pat Buyer' };

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Ends every connection of the shop's processes (not the test's own, which has another name). */
async function dropConnections(db: Kysely<Database>, schema: string): Promise<void> {
  await sql`select pg_terminate_backend(pid) from pg_stat_activity
            where application_name = ${applicationName(schema)} and pid <> pg_backend_pid()`.execute(db);
}

let shopper = 0;
/** A shopper's request as their browser sends it, from an address of their own (TRUST_PROXY). */
async function shopperRequest(base: string, url: string, body: Record<string, unknown>, form = false): Promise<Response> {
  const n = ++shopper;
  return fetch(`${base}${url}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: base,
      'x-forwarded-for': `10.${80 + Math.floor(n / 62_500)}.${Math.floor(n / 250) % 250}.${n % 250}`,
      'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
    },
    body: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
  });
}

/** A checkout left on the card page (`marketing`: the "send me offers" box ticked). */
async function leaveCheckout(
  base: string,
  email: string,
  items: { productId: string; quantity: number }[],
  marketing: boolean,
): Promise<{ orderId: string; sessionId: string }> {
  const res = await shopperRequest(base, '/api/create-checkout-session', { ...guestCheckoutBody(items), customerEmail: email, marketing });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`checkout: ${res.status} ${body}`);
  return JSON.parse(body) as { orderId: string; sessionId: string };
}

/** The checkout paid on the test card page. */
async function pay(base: string, sessionId: string): Promise<void> {
  const res = await shopperRequest(base, `/pay/${sessionId}`, CARD, true);
  await res.arrayBuffer();
  if (res.status !== 303) throw new Error(`payment: ${res.status}`);
}

/** `count` jobs, sixteen at a time (the callers spread them over both processes). */
async function inBatches<T>(count: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let from = 0; from < count; from += 16)
    out.push(...(await Promise.all(Array.from({ length: Math.min(16, count - from) }, (_, n) => job(from + n)))));
  return out;
}

type Checkout = { orderId: string; email: string; kind: 'abandoned' | 'no-consent' | 'paid' };
type RefillOrder = { orderId: string; email: string; products: string[]; kind: 'kept' | 'cancelled' | 'refunded' };

describe.skipIf(!HAS_PG)('the marketing passes across a database that drops its connections (PostgreSQL, two processes)', () => {
  let schema: string;
  let db: Kysely<Database>;
  let servers: ServerProcess[];
  let checkouts: Checkout[];
  let refillOrders: RefillOrder[];
  let setUpMs: number;

  beforeAll(async () => {
    const started = Date.now();
    const t = await createTestDatabase('postgres');
    cleanups.push(t.drop);
    schema = new URL(t.url).searchParams.get('schema')!;
    servers = [];
    for (let i = 0; i < 2; i++) {
      // The two passes look for due work five times a second, not once a minute; each shopper
      // checks out from an address of their own (TRUST_PROXY), and many (the limits).
      const s = await startServer(t.url, {
        WORKER_INTERVAL_MS: '200',
        RECOVERY_INTERVAL_MS: '200',
        REORDER_REMINDER_INTERVAL_MS: '200',
        TRUST_PROXY: 'true',
        CHECKOUT_LIMIT_PER_IP: '10000',
        CHECKOUT_LIMIT_PER_DEVICE: '10000',
      });
      cleanups.push(() => s.stop('SIGKILL'));
      servers.push(s);
    }
    const opened = openDatabase(t.url, { applicationName: 'eco-shop-fault-test' });
    db = opened.db;
    cleanups.push(opened.close);
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const base = (i: number) => servers[i % 2]!.base;

    // The owner: the shop's postal address (Settings → General), then recovery on, an hour after the checkout.
    const owner = new Browserish(a.base);
    const signIn = await owner.request('POST', '/api/auth/sign-in', {
      email: DEMO_ADMIN.email,
      password: DEMO_ADMIN.password,
      elapsedMs: 3000,
    });
    expect(signIn.status).toBe(200);
    const { settings } = (await (await owner.request('GET', '/api/admin/settings')).json()) as { settings: Record<string, string> };
    const general = await owner.request('PUT', '/api/admin/settings/general', {
      contact_email: settings.contact_email ?? '',
      contact_phone: settings.contact_phone ?? '',
      contact_hours: settings.contact_hours ?? '',
      shop_postal_address: 'EcoClean\n12 Green Lane\nPortland, OR 97201',
    });
    expect(general.status, await general.text()).toBe(200);
    const ownerOnB = new Browserish(b.base);
    ownerOnB.cookies = new Map(owner.cookies);
    const on = await ownerOnB.request('PUT', '/api/admin/recovery/settings', {
      enabled: true,
      firstAfterHours: 1,
      secondAfterHours: 24,
      couponPercent: 0,
      couponDays: 7,
    });
    expect(on.status, await on.text()).toBe(200);

    const cart = await createProduct(db, { name: 'Recovery Soap', priceCents: 900, inventory: 100_000 });
    const powder = await createProduct(db, { name: 'Refill Powder', priceCents: 1800, inventory: 100_000, reorderAfterDays: REORDER_DAYS });
    const pads = await createProduct(db, { name: 'Refill Pads', priceCents: 700, inventory: 100_000, reorderAfterDays: REORDER_DAYS });
    const tabs = await createProduct(db, { name: 'Refill Tabs', priceCents: 1100, inventory: 100_000, reorderAfterDays: REORDER_DAYS });
    const run = Date.now().toString(36);

    // Checkouts left on the card page: by addresses that said yes, by some that did not, and some paid.
    checkouts = await inBatches(ABANDONED + NO_CONSENT + PAID_CHECKOUTS, async (i) => {
      const kind: Checkout['kind'] = i < ABANDONED ? 'abandoned' : i < ABANDONED + NO_CONSENT ? 'no-consent' : 'paid';
      const email = `left-${run}-${i}@example.com`;
      const { orderId, sessionId } = await leaveCheckout(
        base(i),
        email,
        [{ productId: cart.id, quantity: 1 + (i % 3) }],
        kind !== 'no-consent',
      );
      if (kind === 'paid') await pay(base(i + 1), sessionId);
      return { orderId, email, kind };
    });
    // Refills bought one-time and paid, by addresses that said yes: one, two or three refills an
    // order, so the pass's batches of lines (100) end inside orders.
    refillOrders = await inBatches(REFILL_ORDERS, async (i) => {
      const products = [powder.id, pads.id, tabs.id].slice(0, 1 + (i % 3));
      const email = `refill-${run}-${i}@example.com`;
      const items = products.map((productId) => ({ productId, quantity: 1 }));
      const { orderId, sessionId } = await leaveCheckout(base(i), email, items, true);
      await pay(base(i + 1), sessionId);
      const kind: RefillOrder['kind'] = i % 20 === 1 ? 'cancelled' : i % 20 === 2 ? 'refunded' : 'kept';
      return { orderId, email, products, kind };
    });
    // The owner cancels some (no refund) and refunds others in full, in the back office.
    for (const o of refillOrders.filter((r) => r.kind !== 'kept')) {
      if (o.kind === 'cancelled') {
        const res = await owner.request('PATCH', `/api/admin/orders/${o.orderId}/status`, { status: 'cancelled', notify: false });
        expect(res.status, await res.text()).toBe(200);
      } else {
        // Shipped, then refunded in full (a full refund before shipping cancels the order instead).
        const shipped = await owner.request('PATCH', `/api/admin/orders/${o.orderId}/status`, { status: 'shipped', notify: false });
        expect(shipped.status, await shipped.text()).toBe(200);
        const { total_cents } = await db.selectFrom('orders').select('total_cents').where('id', '=', o.orderId).executeTakeFirstOrThrow();
        const res = await owner.request('POST', `/api/admin/orders/${o.orderId}/refunds`, {
          amountCents: Number(total_cents),
          reason: 'Changed mind',
        });
        expect(res.status, await res.text()).toBe(201);
      }
    }
    expect(refillOrders.filter((o) => o.kind === 'cancelled')).toHaveLength(CANCELLED);
    expect(refillOrders.filter((o) => o.kind === 'refunded')).toHaveLength(REFUNDED);
    setUpMs = Date.now() - started;
  });

  it(
    'both passes cut off mid-way: each checkout and each order line decided once, one e-mail when sent, none when not',
    { timeout: 90_000 },
    async () => {
      const checkoutIds = checkouts.map((c) => c.orderId);
      const dueCheckouts = checkouts.filter((c) => c.kind !== 'paid');
      const dueCheckoutIds = dueCheckouts.map((c) => c.orderId);
      const refillIds = refillOrders.map((o) => o.orderId);
      const refillLines = refillOrders.reduce((n, o) => n + o.products.length, 0);
      const count = async (table: 'checkout_recoveries' | 'reorder_reminders', ids: string[]) =>
        Number(
          (
            await db
              .selectFrom(table)
              .select(sql<number>`count(*)`.as('n'))
              .where('order_id', 'in', ids)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const decided = async () => ({
        recovery: await count('checkout_recoveries', checkoutIds),
        reorder: await count('reorder_reminders', refillIds),
      });
      expect(await decided()).toEqual({ recovery: 0, reorder: 0 });

      // Both at once: the checkouts left two hours ago (an hour past the first e-mail's time), and
      // the refills paid a month and an hour ago (their period of 30 days just run out).
      const now = Date.now();
      const left = new Date(now - 2 * HOUR_MS).toISOString();
      const paid = new Date(now - REORDER_DAYS * DAY_MS - HOUR_MS);
      await Promise.all([
        db.updateTable('orders').set({ created_at: left, updated_at: left }).where('id', 'in', checkoutIds).execute(),
        db
          .updateTable('orders')
          .set({ created_at: new Date(paid.getTime() - 60_000).toISOString(), paid_at: paid.toISOString() })
          .where('id', 'in', refillIds)
          .execute(),
      ]);
      const moved = Date.now();
      const deadline = moved + 20_000;
      for (;;) {
        const d = await decided();
        if (d.recovery > 0 && d.reorder > 0) break;
        if (Date.now() > deadline) throw new Error(`the processes did not start both passes within 20 s: ${JSON.stringify(d)}`);
        await sleep(10);
      }
      const atFirstDrop = await decided();
      const startedAfter = Date.now() - moved;
      for (let k = 0; k < 8; k++) {
        await dropConnections(db, schema);
        await sleep(400);
      }
      const afterDrops = await decided();
      // The processes' own passes, cut off, go on at their next look: every checkout and order line is decided.
      const caughtUp = Date.now() + 40_000;
      for (;;) {
        const d = await decided();
        if (d.recovery >= dueCheckoutIds.length && d.reorder >= refillLines) break;
        if (Date.now() > caughtUp)
          throw new Error(
            `within 40 s of the drops the processes decided ${d.recovery} of ${dueCheckoutIds.length} checkouts and ${d.reorder} of ${refillLines} order lines`,
          );
        await sleep(100);
      }
      console.log(
        `set-up ${setUpMs} ms; ${dueCheckoutIds.length} checkouts and ${refillLines} order lines (${refillOrders.length} orders) due; passes started ${startedAfter} ms after the move; decided at the first drop ${JSON.stringify(atFirstDrop)}, after the drops ${JSON.stringify(afterDrops)}, all at ${Date.now() - moved} ms`,
      );

      // The drops landed inside both passes: each had started and not finished.
      expect(atFirstDrop.recovery).toBeLessThan(dueCheckoutIds.length);
      expect(atFirstDrop.reorder).toBeLessThan(refillLines);
      expect(servers.some((s) => s.output().includes('checkout recovery turn failed'))).toBe(true);
      expect(servers.some((s) => s.output().includes('reorder reminder turn failed'))).toBe(true);
      for (const s of servers) {
        expect(s.child.exitCode, s.output()).toBeNull();
        expect(s.output()).not.toContain('Unhandled rejection');
      }

      const tally = <T>(rows: T[], key: (r: T) => string | null) => {
        const m = new Map<string, number>();
        for (const r of rows) m.set(key(r) ?? '', (m.get(key(r) ?? '') ?? 0) + 1);
        return m;
      };

      // Checkout recovery: one row per checkout left (none for a paid one); the first e-mail, once, to each that said yes.
      const recoveries = await db.selectFrom('checkout_recoveries').selectAll().where('order_id', 'in', checkoutIds).execute();
      const recoveryMails = await db
        .selectFrom('email_outbox')
        .select(['id', 'to_address', 'template_id'])
        .where('template_id', 'in', ['checkout-recovery', 'checkout-recovery-reminder'])
        .where(
          'to_address',
          'in',
          checkouts.map((c) => c.email),
        )
        .execute();
      const rowsOf = tally(recoveries, (r) => r.order_id);
      const mailsTo = tally(recoveryMails, (m) => m.to_address);
      for (const c of checkouts) {
        const row = recoveries.find((r) => r.order_id === c.orderId);
        if (c.kind === 'paid') {
          expect([rowsOf.get(c.orderId) ?? 0, mailsTo.get(c.email) ?? 0], c.orderId).toEqual([0, 0]);
          continue;
        }
        expect(rowsOf.get(c.orderId) ?? 0, c.orderId).toBe(1);
        if (c.kind === 'no-consent') {
          expect([row!.state, row!.reason, row!.emails_sent, row!.mail_id, mailsTo.get(c.email) ?? 0], c.orderId).toEqual([
            'abandoned',
            'no-consent',
            0,
            null,
            0,
          ]);
        } else {
          // E-mailed: one first e-mail, the one the row names, and the row counts one.
          const own = recoveryMails.filter((m) => m.to_address === c.email);
          expect([row!.state, row!.emails_sent, own.map((m) => m.template_id)], c.orderId).toEqual(['emailed', 1, ['checkout-recovery']]);
          expect(row!.mail_id, c.orderId).toBe(own[0]!.id);
        }
      }
      // The rows' count of e-mails is the outbox's.
      expect(recoveries.reduce((n, r) => n + r.emails_sent, 0)).toBe(recoveryMails.length);
      expect(recoveryMails).toHaveLength(ABANDONED);

      // Reorder reminders: one row per order line; the order's lines in one e-mail, once; nothing for a cancelled or refunded order.
      const reminders = await db.selectFrom('reorder_reminders').selectAll().where('order_id', 'in', refillIds).execute();
      const reminderMails = await db
        .selectFrom('email_outbox')
        .select(['id', 'to_address'])
        .where('template_id', '=', 'reorder-reminder')
        .where(
          'to_address',
          'in',
          refillOrders.map((o) => o.email),
        )
        .execute();
      const linesOf = tally(reminders, (r) => `${r.order_id}|${r.product_id}`);
      const remindersTo = tally(reminderMails, (m) => m.to_address);
      for (const o of refillOrders) {
        const own = reminders.filter((r) => r.order_id === o.orderId);
        for (const p of o.products) expect(linesOf.get(`${o.orderId}|${p}`) ?? 0, `${o.orderId} ${p}`).toBe(1);
        expect(own.map((r) => r.product_id).sort(), o.orderId).toEqual([...o.products].sort());
        if (o.kind === 'kept') {
          // One e-mail with all the order's lines, even where a batch of 100 lines ended inside the order.
          const mail = reminderMails.filter((m) => m.to_address === o.email);
          expect([own.map((r) => r.state), mail.length], o.orderId).toEqual([o.products.map(() => 'sent'), 1]);
          expect(new Set(own.map((r) => r.mail_id)), o.orderId).toEqual(new Set([mail[0]!.id]));
          expect(new Set(own.map((r) => r.batch_id)).size, o.orderId).toBe(1);
        } else {
          const reason = o.kind === 'cancelled' ? 'order-cancelled' : 'order-refunded';
          expect([own.map((r) => [r.state, r.reason, r.mail_id]), remindersTo.get(o.email) ?? 0], o.orderId).toEqual([
            o.products.map(() => ['skipped', reason, null]),
            0,
          ]);
        }
      }
      expect(reminderMails).toHaveLength(REFILL_ORDERS - CANCELLED - REFUNDED);
    },
  );
});
