import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationName, openDatabase } from '../src/server/db/database.js';
import type { Database } from '../src/server/db/schema.js';
import { createProduct, createUser } from '../src/server/db/seed/factories.js';
import { DEMO_ADMIN } from '../src/server/db/seed/demo-accounts.js';
import { createTestDatabase } from '../src/server/test/harness.js';
import { makePaidOrder, makeReviewLink, ratingsBesideHandCount, reviewForm } from '../src/server/test/reviews.js';
import { REVIEW_HIDE_REASONS, type AdminReview, type MyReview, type ReviewFormState } from '../src/shared/reviews.js';
import { Browserish, startServer, type ServerProcess } from './server-process.js';

/**
 * Issue [6/8]: reviews on two real server processes sharing one PostgreSQL that drops every
 * connection of both, again and again. Customers write and edit their reviews through the account
 * and through a request e-mail's link while the owner hides, publishes and replies: every answer is
 * a write made (200/201), a refusal that says what holds (409), or "try again" (503), never a 500;
 * what was answered as written is kept; one review per product and author; and each product's
 * stored stars are what its published reviews say. Then the review-request pass of both processes,
 * cut off mid-way: each order decided once, with its e-mail and links or with none of them.
 */
const HAS_PG = Boolean(process.env.TEST_DATABASE_URL);
const DAY_MS = 86_400_000;
const CUSTOMERS = 10;
/** Shipped orders waiting for their request e-mail: some seconds of the pass's work, so the drops land in it. */
const SHIPPED_ORDERS = 400;

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Content = { rating: number; title: string; body: string };
type Answer = { status: number; body: unknown };

/** A review's multipart form sent as a browser does, from `ip` (TRUST_PROXY: the write limit counts per address). */
async function sendReview(
  base: string,
  method: 'POST' | 'PUT',
  url: string,
  content: Content,
  o: { ip: string; cookies?: Map<string, string> },
): Promise<Answer> {
  const form = reviewForm({ ...content, displayName: 'Pat B.' });
  const headers: Record<string, string> = { ...form.headers, origin: base, 'x-forwarded-for': o.ip };
  if (o.cookies?.size) headers.cookie = [...o.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  try {
    const res = await fetch(`${base}${url}`, { method, headers, body: new Uint8Array(form.payload) });
    return { status: res.status, body: await res.json().catch(() => null) };
  } catch {
    return { status: 0, body: null }; // the connection itself dropped: no answer, "try again" to the customer
  }
}

async function send(client: Browserish, method: string, url: string, body?: unknown): Promise<Answer> {
  try {
    const res = await client.request(method, url, body);
    return { status: res.status, body: await res.json().catch(() => null) };
  } catch {
    return { status: 0, body: null };
  }
}

/** Ends every connection of the shop's processes (not the test's own, which has another name). */
async function dropConnections(db: Kysely<Database>, schema: string): Promise<void> {
  await sql`select pg_terminate_backend(pid) from pg_stat_activity
            where application_name = ${applicationName(schema)} and pid <> pg_backend_pid()`.execute(db);
}

describe.skipIf(!HAS_PG)('reviews across a database that drops its connections (PostgreSQL, two processes)', () => {
  let schema: string;
  let db: Kysely<Database>;
  let servers: ServerProcess[];
  let shippedOrders: { orderId: string; products: string[]; cancelled: boolean }[];

  beforeAll(async () => {
    const t = await createTestDatabase('postgres');
    cleanups.push(t.drop);
    schema = new URL(t.url).searchParams.get('schema')!;
    servers = [];
    for (let i = 0; i < 2; i++) {
      // TRUST_PROXY: each customer writes from an address of their own (X-Forwarded-For), as in a shop behind a proxy.
      // REVIEW_REQUEST_INTERVAL_MS: each process looks for due review requests five times a second, not once a minute.
      const s = await startServer(t.url, { WORKER_INTERVAL_MS: '200', REVIEW_REQUEST_INTERVAL_MS: '200', TRUST_PROXY: 'true' });
      cleanups.push(() => s.stop('SIGKILL'));
      servers.push(s);
    }
    const opened = openDatabase(t.url, { applicationName: 'eco-shop-fault-test' });
    db = opened.db;
    cleanups.push(opened.close);

    // The request pass's orders: shipped two days ago, so not yet due (the setting's default is 10
    // days) until their test moves the day back; one in eight cancelled since (a 'skipped' row, no e-mail).
    const refill = await createProduct(db, { name: 'Request Refill', priceCents: 1200, inventory: 1000 });
    const cloth = await createProduct(db, { name: 'Request Cloth', priceCents: 600, inventory: 1000 });
    const shipped = new Date(Date.now() - 2 * DAY_MS);
    shippedOrders = [];
    // Ten at a time (the pool's size): written one by one they take half a minute on a busy machine.
    for (let from = 0; from < SHIPPED_ORDERS; from += 10) {
      const batch = Array.from({ length: Math.min(10, SHIPPED_ORDERS - from) }, async (_, n) => {
        const i = from + n;
        const products = i % 3 === 0 ? [refill.id, cloth.id] : [refill.id];
        const cancelled = i % 8 === 0;
        const { orderId } = await makePaidOrder({ db }, { productId: products[0]!, moreProductIds: products.slice(1), shipped, cancelled });
        return { orderId, products, cancelled };
      });
      shippedOrders.push(...(await Promise.all(batch)));
    }
  });

  it(
    'writes and moderation answer 200/201, 409 or 503, never 500; what was answered is kept; the stars match',
    { timeout: 60_000 },
    async () => {
      const [a, b] = servers as [ServerProcess, ServerProcess];
      const soap = await createProduct(db, { name: 'Fault Soap', priceCents: 900, inventory: 100 });
      const spray = await createProduct(db, { name: 'Fault Spray', priceCents: 1100, inventory: 100 });

      // Customers, each with a paid order of both products and the request link for the spray, signed in before the drops.
      type Customer = { i: number; user: { id: string }; orderId: string; token: string; client: Browserish };
      const customers: Customer[] = [];
      for (let i = 0; i < CUSTOMERS; i++) {
        const user = await createUser(db, { fullName: `Fault Buyer ${i}` });
        const { orderId } = await makePaidOrder({ db }, { userId: user.id, productId: soap.id, moreProductIds: [spray.id] });
        const { token } = await makeReviewLink({ db }, { orderId, productId: spray.id });
        const client = new Browserish(servers[i % 2]!.base);
        const signIn = await client.request('POST', '/api/auth/sign-in', { email: user.email, password: user.password, elapsedMs: 3000 });
        expect(signIn.status).toBe(200);
        customers.push({ i, user, orderId, token, client });
      }
      const owner = new Browserish(a.base);
      expect(
        (await owner.request('POST', '/api/auth/sign-in', { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password, elapsedMs: 3000 }))
          .status,
      ).toBe(200);
      const ownerOnB = new Browserish(b.base);
      ownerOnB.cookies = new Map(owner.cookies);

      const statuses: { what: string; status: number }[] = [];
      // Per `userId|productId`: every write in the order sent, with its content and answer.
      const writes = new Map<string, { content: Content; status: number; door: string }[]>();
      const note = (key: string, content: Content, door: string, status: number) => {
        statuses.push({ what: door, status });
        writes.set(key, [...(writes.get(key) ?? []), { content, status, door }]);
      };
      const reviewIdOf = (r: Answer) => (r.body as { review?: MyReview } | null)?.review?.id;
      /** The customer's review of a product, as their form shows it (retried through the drops). */
      const formReviewId = async (c: Customer, productId: string): Promise<string> => {
        for (const until = Date.now() + 30_000; Date.now() < until;) {
          const r = await send(c.client, 'GET', `/api/account/reviews/product/${productId}`);
          statuses.push({ what: 'form', status: r.status });
          if (r.status === 200) {
            const id = (r.body as ReviewFormState).review?.id;
            expect(id, `${c.user.id} ${productId}`).toBeTruthy();
            return id!;
          }
          await sleep(100);
        }
        throw new Error('the form never answered');
      };

      let customersDone = false;
      const customerWork = Promise.allSettled(
        customers.map(async (c) => {
          await sleep(c.i * 60);
          const home = servers[c.i % 2]!.base;
          const other = servers[(c.i + 1) % 2]!.base;
          // Each write from an address of its own: the per-address write limit is not what this tests.
          let sent = 0;
          const ip = () => `10.77.${c.i}.${++sent}`;
          const content = (what: string, k: number): Content => ({
            rating: ((c.i + k) % 5) + 1,
            title: `${what} ${c.i}.${k}`,
            body: `Customer ${c.i} says ${what} ${k}: it cleans well.`,
          });

          // The soap through the account: sent again after "try again" until written (201) or already written (409).
          const soapKey = `${c.user.id}|${soap.id}`;
          let soapId: string | undefined;
          // Sent again after "try again" (the drops stop after some seconds; a loaded machine answers slowly).
          const until = Date.now() + 30_000;
          while (!soapId && Date.now() < until) {
            const w = content('soap', 0);
            const r = await sendReview(home, 'POST', `/api/account/reviews/product/${soap.id}`, w, {
              ip: ip(),
              cookies: c.client.cookies,
            });
            note(soapKey, w, 'account POST', r.status);
            if (r.status === 201) soapId = reviewIdOf(r);
            else if (r.status === 409) soapId = await formReviewId(c, soap.id);
            else await sleep(150);
          }
          expect(soapId, 'the soap review was never answered').toBeTruthy();

          // The spray through both doors at once (the account on one process, the link on the other): one review.
          const sprayKey = `${c.user.id}|${spray.id}`;
          let answered = false;
          let linkMade = false;
          while (!answered && Date.now() < until) {
            const viaAccount = content('spray account', 0);
            const viaLink = content('spray link', 0);
            const [r1, r2] = await Promise.all([
              sendReview(home, 'POST', `/api/account/reviews/product/${spray.id}`, viaAccount, { ip: ip(), cookies: c.client.cookies }),
              sendReview(other, 'POST', `/api/reviews/link/${c.token}`, viaLink, { ip: ip() }),
            ]);
            note(sprayKey, viaAccount, 'account POST', r1.status);
            note(sprayKey, viaLink, 'link POST', r2.status);
            linkMade ||= r2.status === 201;
            answered = [r1.status, r2.status].some((s) => s === 201 || s === 409);
            if (!answered) await sleep(150);
          }
          expect(answered, 'the spray review was never answered').toBe(true);
          const sprayId = await formReviewId(c, spray.id);

          // Edits, each sent once, on either process.
          for (let k = 1; k <= 3; k++) {
            const base = k % 2 ? other : home;
            const w = content('soap edit', k);
            note(
              soapKey,
              w,
              'account PUT',
              (await sendReview(base, 'PUT', `/api/account/reviews/${soapId}`, w, { ip: ip(), cookies: c.client.cookies })).status,
            );
            await sleep(300);
            const s = content('spray edit', k);
            const viaLink = linkMade && k === 2;
            const r = viaLink
              ? await sendReview(base, 'PUT', `/api/reviews/link/${c.token}`, s, { ip: ip() })
              : await sendReview(base, 'PUT', `/api/account/reviews/${sprayId}`, s, { ip: ip(), cookies: c.client.cookies });
            note(sprayKey, s, viaLink ? 'link PUT' : 'account PUT', r.status);
            await sleep(300);
          }
        }),
      ).finally(() => {
        customersDone = true;
      });

      // The owner moderates meanwhile, one action after another, on either process.
      type Moderation = {
        reviewId: string;
        action: 'hide' | 'approve' | 'reply';
        status: number;
        reason?: string;
        note?: string;
        text?: string;
      };
      const moderation: Moderation[] = [];
      let dropsDone = false;
      const ownerWork = (async () => {
        for (let k = 0; !dropsDone || !customersDone || k < 12; k++) {
          const client = k % 2 ? ownerOnB : owner;
          const list = await send(client, 'GET', '/api/admin/reviews?status=all&pageSize=100');
          statuses.push({ what: 'admin list', status: list.status });
          const items = list.status === 200 ? (list.body as { items: AdminReview[] }).items : [];
          if (items.length === 0) {
            await sleep(60);
            continue;
          }
          const review = items[(k * 7919) % items.length]!;
          const action = (['hide', 'approve', 'reply'] as const)[k % 3]!;
          let m: Moderation;
          if (action === 'hide') {
            const reason = REVIEW_HIDE_REASONS[k % REVIEW_HIDE_REASONS.length]!;
            const hideNote = `owner note ${k}`;
            const r = await send(client, 'POST', `/api/admin/reviews/${review.id}/hide`, { reason, note: hideNote });
            m = { reviewId: review.id, action, status: r.status, reason, note: hideNote };
          } else if (action === 'approve') {
            m = { reviewId: review.id, action, status: (await send(client, 'POST', `/api/admin/reviews/${review.id}/approve`, {})).status };
          } else {
            const text = `Thank you, from the shop (${k}).`;
            m = {
              reviewId: review.id,
              action,
              status: (await send(client, 'POST', `/api/admin/reviews/${review.id}/reply`, { text })).status,
              text,
            };
          }
          moderation.push(m);
          statuses.push({ what: `admin ${action}`, status: m.status });
          await sleep(40);
        }
      })();

      // The database drops every connection of both processes, six times, while the customers write.
      for (let k = 0; k < 6; k++) {
        await sleep(700);
        await dropConnections(db, schema);
      }
      dropsDone = true;
      const [settled] = await Promise.all([customerWork, ownerWork]);
      for (const r of settled) if (r.status === 'rejected') throw r.reason;

      // Answers: never a 500, only the four the contract names.
      expect(statuses.filter((s) => s.status >= 500 && s.status !== 503)).toEqual([]);
      expect(statuses.filter((s) => ![0, 200, 201, 409, 503].includes(s.status))).toEqual([]);
      expect(statuses.filter((s) => s.status === 503).length, 'the drops reached the writes').toBeGreaterThan(0);
      expect(moderation.filter((m) => m.status === 200).length).toBeGreaterThan(3);

      const reviews = await db.selectFrom('reviews').selectAll().where('product_id', 'in', [soap.id, spray.id]).execute();
      // One review per product and author.
      const perAuthor = new Map<string, number>();
      for (const r of reviews)
        perAuthor.set(`${r.product_id}|${r.author_key}`, (perAuthor.get(`${r.product_id}|${r.author_key}`) ?? 0) + 1);
      expect([...perAuthor].filter(([, n]) => n > 1)).toEqual([]);
      expect(reviews).toHaveLength(CUSTOMERS * 2);

      for (const c of customers) {
        for (const productId of [soap.id, spray.id]) {
          const key = `${c.user.id}|${productId}`;
          const tried = writes.get(key) ?? [];
          const row = reviews.find((r) => r.product_id === productId && r.user_id === c.user.id);
          expect(row, key).toBeDefined();
          // "Verified buyer" from the customer's order, found by the server.
          expect(row!.order_id).toBe(c.orderId);
          // Never two reviews written (201) for one product and author, by either door.
          expect(tried.filter((w) => w.status === 201).length, key).toBeLessThanOrEqual(1);
          // The stored words are those of the last write answered as written, or of a later one whose answer was lost.
          const lastKept = tried.map((w) => w.status === 200 || w.status === 201).lastIndexOf(true);
          const candidates = tried
            .slice(Math.max(lastKept, 0))
            .filter((w, n) => (n === 0 && lastKept >= 0) || w.status === 0 || w.status === 503);
          const stored = { rating: row!.rating, title: row!.title, body: row!.body };
          expect(
            candidates.map((w) => w.content),
            `${key}: ${JSON.stringify(tried)}`,
          ).toContainEqual(stored);
          if (lastKept === tried.length - 1) expect(stored).toEqual(tried[lastKept]!.content);
        }
        // The link is marked used exactly when the spray's review came through it, in the same transaction.
        const link = await db.selectFrom('review_links').selectAll().where('order_id', '=', c.orderId).executeTakeFirstOrThrow();
        const sprayReview = reviews.find((r) => r.product_id === spray.id && r.user_id === c.user.id)!;
        if (sprayReview.source === 'link') expect(link.review_id).toBe(sprayReview.id);
        else expect(link.used_at).toBeNull();
      }

      // The owner's actions answered 200 are kept: the reply's words, and the last hide or approval of each review.
      const byId = new Map(reviews.map((r) => [r.id, r]));
      for (const m of moderation) if (m.action === 'reply' && m.status === 200) expect(byId.get(m.reviewId)!.reply_text).toBe(m.text);
      for (const [id, row] of byId) {
        const last = moderation.filter((m) => m.reviewId === id && m.action !== 'reply').pop();
        if (!last || last.status !== 200) continue;
        if (last.action === 'hide') expect([row.status, row.hidden_reason, row.hidden_note]).toEqual(['hidden', last.reason, last.note]);
        else expect(row.status).toBe('published');
      }
      // Each change with its audit entry, nothing half-written: one 'replied' per reply stored; a 'hidden' per hide answered, at most one per hide sent.
      const audits = await db
        .selectFrom('audit_log')
        .select(['action', sql<number>`count(*)`.as('n')])
        .where('action', 'in', ['review.replied', 'review.hidden'])
        .groupBy('action')
        .execute();
      const audited = (action: string) => Number(audits.find((x) => x.action === action)?.n ?? 0);
      expect(audited('review.replied')).toBe(reviews.filter((r) => r.reply_text !== null).length);
      const hides = moderation.filter((m) => m.action === 'hide');
      expect(audited('review.hidden')).toBeGreaterThanOrEqual(hides.filter((m) => m.status === 200).length);
      expect(audited('review.hidden')).toBeLessThanOrEqual(hides.length);

      // The stars stored are what the published reviews say, counted again here.
      for (const productId of [soap.id, spray.id]) {
        const { stored, counted } = await ratingsBesideHandCount(db, productId);
        expect(stored, productId).toEqual(counted);
      }
    },
  );

  it(
    'the request pass cut off mid-way: each order decided once, its e-mail and links with it or none of them',
    { timeout: 90_000 },
    async () => {
      const orderIds = shippedOrders.map((o) => o.orderId);
      const decided = async () =>
        Number(
          (
            await db
              .selectFrom('review_requests')
              .select(sql<number>`count(*)`.as('n'))
              .where('order_id', 'in', orderIds)
              .executeTakeFirstOrThrow()
          ).n,
        );
      // Shipped 12 days ago now: due at the processes' next look.
      await db
        .updateTable('orders')
        .set({ shipped_at: new Date(Date.now() - 12 * DAY_MS).toISOString() })
        .where('id', 'in', orderIds)
        .execute();
      const deadline = Date.now() + 20_000;
      while ((await decided()) === 0) {
        if (Date.now() > deadline) throw new Error('no process started its review-request pass');
        await sleep(10);
      }
      const atFirstDrop = await decided();
      for (let k = 0; k < 8; k++) {
        await dropConnections(db, schema);
        await sleep(400);
      }
      // The processes' own passes, cut off, go on at their next look: every order is decided.
      const caughtUp = Date.now() + 40_000;
      while ((await decided()) < SHIPPED_ORDERS) {
        if (Date.now() > caughtUp)
          throw new Error(`the processes decided ${await decided()} of ${SHIPPED_ORDERS} orders within 40 s of the drops`);
        await sleep(100);
      }

      // The drops landed inside the processes' pass: it had started and not finished.
      expect(atFirstDrop).toBeLessThan(SHIPPED_ORDERS);
      expect(servers.some((s) => s.output().includes('review requests turn failed'))).toBe(true);
      for (const s of servers) {
        expect(s.child.exitCode, s.output()).toBeNull();
        expect(s.output()).not.toContain('Unhandled rejection');
      }

      const requests = await db.selectFrom('review_requests').selectAll().where('order_id', 'in', orderIds).execute();
      const emails = await db
        .selectFrom('email_outbox')
        .select(['order_id', 'to_address'])
        .where('template_id', '=', 'review-request')
        .where('order_id', 'in', orderIds)
        .execute();
      const links = await db
        .selectFrom('review_links')
        .select(['order_id', 'product_id', 'request_id'])
        .where('order_id', 'in', orderIds)
        .execute();
      const count = <T>(rows: T[], key: (r: T) => string | null) => {
        const m = new Map<string, number>();
        for (const r of rows) m.set(key(r) ?? '', (m.get(key(r) ?? '') ?? 0) + 1);
        return m;
      };
      const requestsOf = count(requests, (r) => r.order_id);
      const emailsOf = count(emails, (e) => e.order_id);
      const linksOf = count(links, (l) => l.order_id);
      for (const o of shippedOrders) {
        const request = requests.find((r) => r.order_id === o.orderId);
        expect(requestsOf.get(o.orderId) ?? 0, o.orderId).toBe(1);
        if (o.cancelled) {
          expect([request!.status, request!.skip_reason, emailsOf.get(o.orderId) ?? 0, linksOf.get(o.orderId) ?? 0], o.orderId).toEqual([
            'skipped',
            'cancelled',
            0,
            0,
          ]);
        } else {
          // Sent: one e-mail, and one link per product, all of this request.
          expect([request!.status, emailsOf.get(o.orderId) ?? 0], o.orderId).toEqual(['sent', 1]);
          const own = links.filter((l) => l.order_id === o.orderId);
          expect(own.map((l) => l.product_id).sort(), o.orderId).toEqual([...o.products].sort());
          expect(own.every((l) => l.request_id === request!.id)).toBe(true);
        }
      }
    },
  );
});
