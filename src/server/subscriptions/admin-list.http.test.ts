import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { makeSubscription, renewalDeps, type TestSubscription } from '../test/subscriptions.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { runRenewals } from './renewals.js';
import { spellings } from '../security/path-spellings.js';
import { SUBSCRIPTION_MESSAGES } from '../../shared/subscriptions.js';
import { AdminSubscriptionDetailResponse, AdminSubscriptionPage } from '../../client/admin/subscriptions/subscription-schemas.js';
import { ADMIN_SUBSCRIPTION_MESSAGES } from './admin-list.js';

/**
 * The owner's Subscriptions tab (issue [5/8]): the list filtered by status and searched by
 * e-mail, id, product name and SKU, a page at a time with the count of each status; one
 * subscription with its cycles; the owner's cancellation (audited, e-mailed only when asked);
 * refusals; and the back office's guard on every route however its path is spelled.
 */
let t: TestApp;
let admin: TestClient;
let customer: TestClient;
let guest: TestClient;
let adminId: string;

const DAY = 86_400_000;
const NEXT = new Date(Date.now() + 20 * DAY).toISOString();

beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app, '10.59.0.1');
  expect((await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
  const user = await createUser(t.db, { email: 'subs.customer@example.com' });
  customer = new TestClient(t.app, '10.59.0.2');
  expect((await customer.signIn(user.email, user.password)).statusCode).toBe(200);
  guest = new TestClient(t.app, '10.59.0.3');
  adminId = (await t.db.selectFrom('users').select('id').where('email', '=', DEMO_ADMIN.email).executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await t?.close();
});

async function list(query = '') {
  const res = await admin.get(`/api/admin/subscriptions${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return AdminSubscriptionPage.parse(res.json());
}

async function detail(id: string) {
  const res = await admin.get(`/api/admin/subscriptions/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return AdminSubscriptionDetailResponse.parse(res.json()).subscription;
}

const cancelMails = (to: string) =>
  t.db.selectFrom('email_outbox').select('id').where('to_address', '=', to).where('template_id', '=', 'subscription-cancelled').execute();
const cancelAudits = () =>
  t.db.selectFrom('audit_log').selectAll().where('action', '=', 'subscription.cancelled').orderBy('created_at').execute();

/** A subscription of its own product (name and SKU given), made `daysAgo` days ago (newer lists first). */
async function subscriptionOf(name: string, sku: string, daysAgo: number): Promise<TestSubscription> {
  const product = await createProduct(t.db, { name, sku, priceCents: 1500, inventory: 40 });
  const s = await makeSubscription(t.db, { nextRenewalAt: NEXT, product: { id: product.id, variantId: `var_${product.id}` } });
  const at = new Date(Date.now() - daysAgo * DAY).toISOString();
  await t.db.updateTable('subscriptions').set({ created_at: at }).where('id', '=', s.id).execute();
  return s;
}

describe(`the owner's subscription list on ${testDialect()}`, () => {
  let lavender: TestSubscription;
  let citrus: TestSubscription;
  let paused: TestSubscription;
  let failing: TestSubscription;
  const failingSince = new Date(Date.now() - 2 * DAY).toISOString();

  beforeAll(async () => {
    lavender = await subscriptionOf('Lavender Powder', 'LAV-POW-77', 4);
    citrus = await subscriptionOf('Citrus Cleaner', 'CIT-CLN-12', 3);
    paused = await subscriptionOf('Oxygen Boost', 'OXY-BST-3', 2);
    failing = await subscriptionOf('Wool Wash', 'WOL-WSH-9', 1);
    await t.db.updateTable('subscriptions').set({ status: 'paused' }).where('id', '=', paused.id).execute();
    await t.db
      .updateTable('subscriptions')
      .set({ status: 'payment_failing', failing_since: failingSince })
      .where('id', '=', failing.id)
      .execute();
  });

  it('lists newest first with items, terms and counts per status', async () => {
    const page = await list();
    expect(page.total).toBe(4);
    expect(page.counts).toEqual({ active: 2, paused: 1, payment_failing: 1, cancelled: 0 });
    expect(page.subscriptions.map((s) => s.id)).toEqual([failing.id, paused.id, citrus.id, lavender.id]);
    expect(page.subscriptions[3]).toMatchObject({
      id: lavender.id,
      status: 'active',
      email: lavender.email,
      userId: lavender.userId,
      terms: 'Every 4 weeks · 10% off',
      items: [{ name: 'Lavender Powder', quantity: 1, sku: 'LAV-POW-77', variantId: lavender.variantId }],
      nextRenewalAt: NEXT,
      deliveries: 1,
      failingSince: null,
      cancelledAt: null,
      cancelReason: null,
    });
    expect(page.subscriptions[0]).toMatchObject({ status: 'payment_failing', failingSince });
  });

  it('filters by status; the counts stay those of every status', async () => {
    const active = await list('?status=active');
    expect(active.subscriptions.map((s) => s.id)).toEqual([citrus.id, lavender.id]);
    expect(active.total).toBe(2);
    expect(active.counts).toEqual({ active: 2, paused: 1, payment_failing: 1, cancelled: 0 });
    expect((await list('?status=paused')).subscriptions.map((s) => s.id)).toEqual([paused.id]);
    expect((await list('?status=payment_failing')).subscriptions.map((s) => s.id)).toEqual([failing.id]);
    const none = await list('?status=cancelled');
    expect(none).toMatchObject({ subscriptions: [], total: 0 });
    // An empty status is "any".
    expect((await list('?status=')).total).toBe(4);
  });

  it('searches the e-mail (any case, part of it), the id, a product name and a SKU', async () => {
    const ids = async (q: string, status = '') =>
      (await list(`?q=${encodeURIComponent(q)}${status ? `&status=${status}` : ''}`)).subscriptions.map((s) => s.id);
    expect(await ids(citrus.email.toUpperCase())).toEqual([citrus.id]);
    expect(await ids(citrus.email.slice(0, citrus.email.indexOf('@')))).toEqual([citrus.id]);
    expect(await ids(paused.id)).toEqual([paused.id]);
    expect(await ids('lavender')).toEqual([lavender.id]);
    expect(await ids('powder')).toEqual([lavender.id]);
    expect(await ids('wol-wsh')).toEqual([failing.id]);
    expect(await ids('CIT-CLN-12')).toEqual([citrus.id]);
    // The search narrows the counts too; the status filter then narrows the page.
    const searched = await list(`?q=${encodeURIComponent('-')}&status=active`);
    expect(searched.counts).toEqual({ active: 2, paused: 1, payment_failing: 1, cancelled: 0 });
    expect((await list('?q=wool')).counts).toEqual({ active: 0, paused: 0, payment_failing: 1, cancelled: 0 });
    expect(await ids('wool', 'active')).toEqual([]);
    // Wildcards are text: "%" matches only a "%".
    expect(await ids('%')).toEqual([]);
    expect(await ids('nobody-has-this')).toEqual([]);
  });

  it('pages: pageSize and page, the total and the pages count', async () => {
    const first = await list('?pageSize=3');
    expect(first).toMatchObject({ total: 4, page: 1, pageSize: 3, totalPages: 2 });
    expect(first.subscriptions.map((s) => s.id)).toEqual([failing.id, paused.id, citrus.id]);
    const second = await list('?pageSize=3&page=2');
    expect(second.subscriptions.map((s) => s.id)).toEqual([lavender.id]);
    expect((await list('?pageSize=3&page=3')).subscriptions).toEqual([]);
    expect((await list()).pageSize).toBe(20);
  });

  it('refuses a bad query with a message that says what to fix', async () => {
    const bad = async (query: string, message: string | RegExp) => {
      const res = await admin.get(`/api/admin/subscriptions${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toMatch(message);
    };
    await bad('?status=lapsed', ADMIN_SUBSCRIPTION_MESSAGES.badStatus);
    await bad(`?q=${'x'.repeat(101)}`, ADMIN_SUBSCRIPTION_MESSAGES.searchTooLong);
    await bad('?page=0', 'page must be at least 1');
    await bad('?page=two', 'page must be a number');
    await bad('?pageSize=0', 'pageSize must be at least 1');
    await bad('?pageSize=101', 'pageSize cannot exceed 100');
    await bad('?sort=email', /sort/);
    // 100 characters is still a search.
    expect((await list(`?q=${'x'.repeat(100)}`)).total).toBe(0);
  });
});

describe(`one subscription and the owner's cancellation on ${testDialect()}`, () => {
  it('shows the items, the consent and the cycles newest first with their orders', async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: past, priceCents: 2000, discountPercent: 10, quantity: 2 });
    const deps = renewalDeps(t);
    await runRenewals(deps, new Date());
    await runRenewals(deps, new Date(Date.now() + 1000));
    const cycle = await t.db.selectFrom('subscription_cycles').selectAll().where('subscription_id', '=', s.id).executeTakeFirstOrThrow();
    expect(cycle.status).toBe('paid');
    const order = await t.db
      .selectFrom('orders')
      .select(['id', 'order_number'])
      .where('id', '=', cycle.order_id!)
      .executeTakeFirstOrThrow();
    // A later cycle, skipped, to see the order of the timeline.
    const at = new Date().toISOString();
    await t.db
      .insertInto('subscription_cycles')
      .values({
        subscription_id: s.id,
        cycle: 3,
        due_at: new Date(Date.now() + 28 * DAY).toISOString(),
        status: 'skipped',
        order_id: null,
        amount_cents: null,
        next_attempt_at: at,
        lease_until: null,
        waiting_since: null,
        reminded_at: null,
        message: 'Skipped by the customer',
        created_at: at,
        updated_at: at,
      })
      .execute();

    const d = await detail(s.id);
    expect(d).toMatchObject({
      id: s.id,
      status: 'active',
      email: s.email,
      deliveries: 2,
      items: [{ variantId: s.variantId, quantity: 2 }],
      consentText: 'Every 4 weeks until cancelled.',
      firstOrder: { id: `order_first_${s.id}`, orderNumber: null },
    });
    expect(d.cycles).toEqual([
      expect.objectContaining({ cycle: 3, status: 'skipped', orderId: null, orderNumber: null, message: 'Skipped by the customer' }),
      expect.objectContaining({
        cycle: 2,
        status: 'paid',
        dueAt: past,
        attempts: 1,
        orderId: order.id,
        orderNumber: order.order_number,
        amountCents: Number(cycle.amount_cents),
      }),
    ]);
    expect(d.cycles[1]!.amountCents).toBeGreaterThan(0);
  });

  it('answers 404 for an unknown subscription, on every route', async () => {
    const read = await admin.get('/api/admin/subscriptions/sub_nope');
    expect(read.statusCode).toBe(404);
    expect(read.json().error).toBe(SUBSCRIPTION_MESSAGES.notFound);
    const cancel = await admin.post('/api/admin/subscriptions/sub_nope/cancel', { notifyCustomer: true });
    expect(cancel.statusCode).toBe(404);
    expect(cancel.json().error).toBe(SUBSCRIPTION_MESSAGES.notFound);
    expect(await cancelAudits()).toHaveLength(0);
  });

  it('cancels for the customer with a reason and e-mails them; audited under the admin; twice is 409', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    const res = await admin.post(`/api/admin/subscriptions/${s.id}/cancel`, { reason: ' Moved abroad ', notifyCustomer: true });
    expect(res.statusCode, res.body).toBe(200);
    const { subscription } = AdminSubscriptionDetailResponse.parse(res.json());
    expect(subscription).toMatchObject({ status: 'cancelled', nextRenewalAt: null, cancelReason: 'Moved abroad' });
    expect(subscription.cancelledAt).not.toBeNull();
    expect(await cancelMails(s.email)).toHaveLength(1);
    const audits = await cancelAudits();
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actor_user_id: adminId, acting_as_user_id: null, target_user_id: s.userId });
    expect(JSON.parse(audits[0]!.details!)).toEqual({ subscriptionId: s.id, notified: true, withReason: true });
    // The audit log names it with its label.
    const log = await admin.get('/api/admin/audit-log?action=subscription.cancelled');
    expect(log.statusCode).toBe(200);
    expect(log.json().items).toHaveLength(1);

    const again = await admin.post(`/api/admin/subscriptions/${s.id}/cancel`, { notifyCustomer: true });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(SUBSCRIPTION_MESSAGES.alreadyCancelled);
    expect(await cancelMails(s.email)).toHaveLength(1);
    expect(await cancelAudits()).toHaveLength(1);
    // Listed as cancelled, counted so.
    const cancelled = await list(`?status=cancelled&q=${encodeURIComponent(s.email)}`);
    expect(cancelled.subscriptions).toMatchObject([{ id: s.id, status: 'cancelled', nextRenewalAt: null, cancelReason: 'Moved abroad' }]);
    expect(cancelled.counts.cancelled).toBe(1);
  });

  it('cancels without e-mailing the customer when told not to; an open cycle ends', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    const at = new Date().toISOString();
    await t.db
      .insertInto('subscription_cycles')
      .values({
        subscription_id: s.id,
        cycle: 2,
        due_at: NEXT,
        status: 'scheduled',
        order_id: null,
        amount_cents: null,
        next_attempt_at: NEXT,
        lease_until: null,
        waiting_since: null,
        reminded_at: at,
        message: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const res = await admin.post(`/api/admin/subscriptions/${s.id}/cancel`, { notifyCustomer: false });
    expect(res.statusCode, res.body).toBe(200);
    const { subscription } = AdminSubscriptionDetailResponse.parse(res.json());
    expect(subscription).toMatchObject({ status: 'cancelled', cancelReason: null });
    expect(subscription.cycles).toMatchObject([{ cycle: 2, status: 'cancelled', message: 'Subscription cancelled' }]);
    expect(await cancelMails(s.email)).toHaveLength(0);
    const audit = (await cancelAudits()).find((a) => a.target_user_id === s.userId);
    expect(JSON.parse(audit!.details!)).toEqual({ subscriptionId: s.id, notified: false, withReason: false });
  });

  it('refuses a cancellation without notifyCustomer, with a reason too long, or with unknown fields; nothing changes', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    const before = (await cancelAudits()).length;
    for (const [body, message] of [
      [{}, ADMIN_SUBSCRIPTION_MESSAGES.notifyRequired],
      [{ notifyCustomer: 'yes' }, ADMIN_SUBSCRIPTION_MESSAGES.notifyRequired],
      [{ notifyCustomer: true, reason: 'x'.repeat(501) }, '500 characters'],
      [{ notifyCustomer: true, refund: true }, /refund/],
    ] as const) {
      const res = await admin.post(`/api/admin/subscriptions/${s.id}/cancel`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    expect((await t.db.selectFrom('subscriptions').select('status').where('id', '=', s.id).executeTakeFirstOrThrow()).status).toBe(
      'active',
    );
    expect(await cancelAudits()).toHaveLength(before);
    expect(await cancelMails(s.email)).toHaveLength(0);
  });
});

describe(`the guard on ${testDialect()}`, () => {
  it('turns a customer (403) and a guest (401) away from every route, however the path is spelled; nothing is cancelled', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    const routes = [
      { method: 'GET', path: '/api/admin/subscriptions' },
      { method: 'GET', path: '/api/admin/subscriptions?status=active&q=a' },
      { method: 'GET', path: `/api/admin/subscriptions/${s.id}` },
      { method: 'POST', path: `/api/admin/subscriptions/${s.id}/cancel`, body: { notifyCustomer: true } },
    ];
    const wrong: string[] = [];
    for (const r of routes) {
      for (const [who, client, expected] of [
        ['customer', customer, 403],
        ['guest', guest, 401],
      ] as const) {
        // As written, and with a letter percent-encoded (the router decodes it to the same route): refused as such.
        for (const url of [r.path, r.path.replace('/api/admin/', '/api/%61dmin/')]) {
          const res = await client.request(r.method, url, r.body);
          if (res.statusCode !== expected) wrong.push(`${who} ${r.method} ${url}: ${res.statusCode}`);
        }
        // Every other spelling (a doubled slash, dot segments, upper case, …): never an answer, never a 5xx.
        for (const url of spellings(r.path.split('?')[0]!)) {
          const res = await client.request(r.method, url, r.body);
          if (res.statusCode < 300 || res.statusCode >= 500 || res.body.includes(s.email))
            wrong.push(`${who} ${r.method} ${url}: ${res.statusCode}`);
        }
      }
    }
    // A doubled slash is no route at all, for the owner too: a 404, not a way round the guard.
    expect((await admin.get('/api/admin//subscriptions')).statusCode).toBe(404);
    expect(wrong).toEqual([]);
    expect((await t.db.selectFrom('subscriptions').select('status').where('id', '=', s.id).executeTakeFirstOrThrow()).status).toBe(
      'active',
    );
    expect(await cancelMails(s.email)).toHaveLength(0);
  });
});
