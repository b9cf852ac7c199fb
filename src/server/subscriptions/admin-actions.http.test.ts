import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { makeSubscription, type TestSubscription } from '../test/subscriptions.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { spellings } from '../security/path-spellings.js';
import { addWeeks, SUBSCRIPTION_MESSAGES } from '../../shared/subscriptions.js';
import { AdminDeliverNowResponse, AdminSubscriptionDetailResponse } from '../../client/admin/subscriptions/subscription-schemas.js';

/**
 * The owner's desk (issue [5/8]): each of the customer's actions through the back office
 * (admin-action-routes.ts) changes the subscription as the customer's own would, writes its event
 * under the admin's e-mail and one `subscription.changed` audit row in the same transaction (a
 * refusal writes neither), and e-mails the customer unless the owner says not; the back office's
 * guard holds on every route however its path is spelled.
 */
let t: TestApp;
let admin: TestClient;
let customer: TestClient;
let guest: TestClient;
let adminId: string;

const DAY = 86_400_000;
const NOW = Date.now();
const inDays = (d: number) => new Date(NOW + d * DAY).toISOString();
const dayIn = (d: number) => inDays(d).slice(0, 10);
/** Far enough ahead that no cycle is written yet (three days before): the next delivery is the subscription's own date. */
const NEXT = new Date(
  Date.UTC(new Date(NOW).getUTCFullYear(), new Date(NOW).getUTCMonth(), new Date(NOW).getUTCDate() + 20, 10),
).toISOString();

beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app, '10.66.0.1');
  expect((await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
  const user = await createUser(t.db, { email: 'actions.customer@example.com' });
  customer = new TestClient(t.app, '10.66.0.2');
  expect((await customer.signIn(user.email, user.password)).statusCode).toBe(200);
  guest = new TestClient(t.app, '10.66.0.3');
  adminId = (await t.db.selectFrom('users').select('id').where('email', '=', DEMO_ADMIN.email).executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await t?.close();
});

const base = (id: string) => `/api/admin/subscriptions/${id}`;
const row = (id: string) => t.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const events = (id: string) => t.db.selectFrom('subscription_events').selectAll().where('subscription_id', '=', id).orderBy('id').execute();
const audits = async (id: string) =>
  (await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'subscription.changed').orderBy('id').execute()).filter(
    (a) => (JSON.parse(a.details ?? '{}') as { subscriptionId?: string }).subscriptionId === id,
  );
const mails = (to: string, templateId?: string) => {
  let q = t.db.selectFrom('email_outbox').selectAll().where('to_address', '=', to);
  if (templateId) q = q.where('template_id', '=', templateId);
  return q.orderBy('created_at').execute();
};
const subscriptionMails = async (to: string) => (await mails(to)).filter((m) => m.template_id?.startsWith('subscription-'));

/** What a refusal must leave as it was: the row, its items and extras, its events, audits and e-mails. */
async function snapshot(s: TestSubscription) {
  return {
    row: await row(s.id),
    items: await t.db.selectFrom('subscription_items').selectAll().where('subscription_id', '=', s.id).orderBy('variant_id').execute(),
    extras: await t.db.selectFrom('subscription_extras').selectAll().where('subscription_id', '=', s.id).orderBy('variant_id').execute(),
    cycles: await t.db.selectFrom('subscription_cycles').selectAll().where('subscription_id', '=', s.id).orderBy('cycle').execute(),
    events: (await events(s.id)).length,
    audits: (await audits(s.id)).length,
    mails: (await mails(s.email)).length,
  };
}

async function offerPlan(productId: string, intervals = [2, 4, 8]) {
  const at = new Date().toISOString();
  await t.db
    .insertInto('subscription_plans')
    .values({
      product_id: productId,
      variant_id: '',
      enabled: 1,
      intervals: JSON.stringify(intervals),
      discount_percent: 10,
      later_discount_percent: null,
      later_from_delivery: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

/** A subscription of two items (each with a plan offering 2, 4 and 8 weeks). */
async function twoItems(): Promise<{ s: TestSubscription; second: { productId: string; variantId: string } }> {
  const s = await makeSubscription(t.db, { nextRenewalAt: NEXT, priceCents: 2000 });
  const mop = await createProduct(t.db, { name: 'Mop Head', priceCents: 1000, inventory: 30 });
  await t.db
    .insertInto('subscription_items')
    .values({ subscription_id: s.id, product_id: mop.id, variant_id: `var_${mop.id}`, quantity: 1 })
    .execute();
  await offerPlan(s.productId);
  await offerPlan(mop.id);
  return { s, second: { productId: mop.id, variantId: `var_${mop.id}` } };
}

/** Sends an action as the owner and reads the answer's subscription (200 expected). */
async function act(method: string, url: string, body?: unknown) {
  const res = await admin.request(method, url, body);
  expect(res.statusCode, res.body).toBe(200);
  return AdminSubscriptionDetailResponse.parse(res.json()).subscription;
}

/** The one audit row and the newest event an action wrote, both under the admin. */
async function expectRecorded(
  s: TestSubscription,
  o: { audits: number; action: string; notified: boolean; event: string; details?: object },
) {
  const rows = await audits(s.id);
  expect(rows).toHaveLength(o.audits);
  const last = rows.at(-1)!;
  expect(last).toMatchObject({ actor_user_id: adminId, acting_as_user_id: null, target_user_id: s.userId });
  expect(JSON.parse(last.details!)).toEqual({ subscriptionId: s.id, action: o.action, notified: o.notified, ...o.details });
  const ev = (await events(s.id)).filter((e) => e.type === o.event).at(-1);
  expect(ev, o.event).toMatchObject({ actor_user_id: adminId, actor_label: DEMO_ADMIN.email });
  return ev!;
}

describe(`the owner skips, pauses and resumes on ${testDialect()}`, () => {
  it('skips the next delivery as the customer would, e-mailing them; the same date again is 409 and writes nothing', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    const after = await act('POST', `${base(s.id)}/skip`, { renewalAt: NEXT });
    expect(after.nextRenewalAt).toBe(addWeeks(NEXT, 4));
    expect(after.cycles).toMatchObject([{ status: 'skipped', dueAt: NEXT }]);
    expect(after.events[0]).toMatchObject({ type: 'skipped', actor: DEMO_ADMIN.email });
    await expectRecorded(s, { audits: 1, action: 'skip', notified: true, event: 'skipped', details: { delivery: NEXT } });
    expect(await mails(s.email, 'subscription-skipped')).toHaveLength(1);

    const before = await snapshot(s);
    const again = await admin.post(`${base(s.id)}/skip`, { renewalAt: NEXT });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(SUBSCRIPTION_MESSAGES.staleDelivery);
    expect(await snapshot(s)).toEqual(before);
  });

  it('skips without e-mailing the customer when told not to; the audit row says so', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    await act('POST', `${base(s.id)}/skip`, { renewalAt: NEXT, notifyCustomer: false });
    expect((await row(s.id)).next_renewal_at).toBe(addWeeks(NEXT, 4));
    await expectRecorded(s, { audits: 1, action: 'skip', notified: false, event: 'skipped', details: { delivery: NEXT } });
    expect(await subscriptionMails(s.email)).toEqual([]);
  });

  it('pauses without an e-mail, refuses a second pause and a skip while paused, resumes with one', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    const until = dayIn(60);
    const paused = await act('POST', `${base(s.id)}/pause`, { until, notifyCustomer: false });
    expect(paused).toMatchObject({ status: 'paused', nextRenewalAt: `${until}T10:00:00.000Z` });
    const ev = await expectRecorded(s, { audits: 1, action: 'pause', notified: false, event: 'paused', details: { until } });
    expect(JSON.parse(ev.data)).toEqual({ until: `${until}T10:00:00.000Z` });
    expect(await subscriptionMails(s.email)).toEqual([]);

    const before = await snapshot(s);
    for (const [path, body, message] of [
      ['pause', { until: dayIn(30) }, SUBSCRIPTION_MESSAGES.alreadyPaused],
      ['skip', { renewalAt: `${until}T10:00:00.000Z` }, SUBSCRIPTION_MESSAGES.pausedNoSkip],
      ['deliver-now', { renewalAt: `${until}T10:00:00.000Z` }, SUBSCRIPTION_MESSAGES.pausedNoDeliver],
    ] as const) {
      const res = await admin.post(`${base(s.id)}/${path}`, body);
      expect(res.statusCode, path).toBe(409);
      expect(res.json().error).toBe(message);
    }
    expect(await snapshot(s)).toEqual(before);

    const day = dayIn(5);
    const resumed = await act('POST', `${base(s.id)}/resume`, { nextDeliveryOn: day });
    expect(resumed).toMatchObject({ status: 'active', nextRenewalAt: `${day}T10:00:00.000Z` });
    await expectRecorded(s, { audits: 2, action: 'resume', notified: true, event: 'resumed', details: { nextDeliveryOn: day } });
    expect(await mails(s.email, 'subscription-changed')).toHaveLength(1);
    const twice = await admin.post(`${base(s.id)}/resume`, { nextDeliveryOn: day });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe(SUBSCRIPTION_MESSAGES.notPaused);
    expect(await audits(s.id)).toHaveLength(2);
  });

  it('pauses with the customer’s e-mail by default', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    await act('POST', `${base(s.id)}/pause`, { until: dayIn(40) });
    expect(await mails(s.email, 'subscription-paused')).toHaveLength(1);
    await expectRecorded(s, { audits: 1, action: 'pause', notified: true, event: 'paused', details: { until: dayIn(40) } });
  });
});

describe(`the owner changes a subscription on ${testDialect()}`, () => {
  it('changes the interval, a quantity and the day; an interval not offered is 400 and writes nothing', async () => {
    const { s, second } = await twoItems();
    const day = dayIn(25);
    const after = await act('PATCH', base(s.id), {
      everyWeeks: 8,
      items: [{ variantId: second.variantId, quantity: 3 }],
      nextDeliveryOn: day,
      notifyCustomer: false,
    });
    expect(after).toMatchObject({ everyWeeks: 8, nextRenewalAt: `${day}T10:00:00.000Z` });
    expect(after.items.find((i) => i.variantId === second.variantId)?.quantity).toBe(3);
    const ev = await expectRecorded(s, { audits: 1, action: 'change', notified: false, event: 'changed' });
    expect(JSON.parse(ev.data)).toMatchObject({
      everyWeeks: { from: 4, to: 8 },
      items: [{ variantId: second.variantId, quantity: { from: 1, to: 3 } }],
    });
    expect(await subscriptionMails(s.email)).toEqual([]);

    // Told this time: the "changed" e-mail with the new terms.
    await act('PATCH', base(s.id), { everyWeeks: 2 });
    expect(await mails(s.email, 'subscription-changed')).toHaveLength(1);
    expect(await audits(s.id)).toHaveLength(2);

    const before = await snapshot(s);
    for (const [body, status, message] of [
      [{ everyWeeks: 6 }, 400, SUBSCRIPTION_MESSAGES.intervalNotOffered],
      [{ items: [{ variantId: 'var_nope', quantity: 2 }] }, 400, SUBSCRIPTION_MESSAGES.itemUnknown],
      [{ notifyCustomer: true }, 400, SUBSCRIPTION_MESSAGES.nothingToChange],
      [{ everyWeeks: 4, notifyCustomer: 'no' }, 400, 'notifyCustomer must be true or false'],
      [{ nextDeliveryOn: dayIn(400) }, 400, SUBSCRIPTION_MESSAGES.dateRange],
    ] as const) {
      const res = await admin.request('PATCH', base(s.id), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error).toBe(message);
    }
    expect(await snapshot(s)).toEqual(before);
  });

  it('changes the address, e-mailed unless unticked, for this subscription or everywhere', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    const address = { name: 'Sam Sub', address: '9 New Street', city: 'Bend', state: 'OR', zip: '97701', country: 'US' };
    await act('PUT', `${base(s.id)}/address`, { address, everywhere: false });
    expect(JSON.parse((await row(s.id)).shipping_address!)).toMatchObject({ ...address, email: s.email });
    await expectRecorded(s, { audits: 1, action: 'address', notified: true, event: 'address.changed', details: { everywhere: false } });
    await act('PUT', `${base(s.id)}/address`, {
      address: { ...address, city: 'Salem', zip: '97301' },
      everywhere: true,
      notifyCustomer: false,
    });
    await expectRecorded(s, { audits: 2, action: 'address', notified: false, event: 'address.changed', details: { everywhere: true } });
    const user = await t.db.selectFrom('users').select('shipping_address').where('id', '=', s.userId).executeTakeFirstOrThrow();
    expect(JSON.parse(user.shipping_address!)).toMatchObject({ city: 'Salem' });
    expect((await subscriptionMails(s.email)).map((m) => m.template_id)).toEqual(['subscription-address-changed']);

    const before = await snapshot(s);
    const bad = await admin.request('PUT', `${base(s.id)}/address`, { address: { ...address, zip: 'nope' }, everywhere: false });
    expect(bad.statusCode).toBe(400);
    expect(await snapshot(s)).toEqual(before);
  });
});

describe(`the owner changes the next delivery only on ${testDialect()}`, () => {
  it('leaves one item out and brings it back; the last item left is 409', async () => {
    const { s, second } = await twoItems();
    const out = await act('POST', `${base(s.id)}/items/skip`, { variantId: second.variantId, skip: true });
    expect(out.skippedNext).toEqual([second.variantId]);
    await expectRecorded(s, {
      audits: 1,
      action: 'skip-item',
      notified: true,
      event: 'item.skipped',
      details: { variantId: second.variantId },
    });
    expect(await mails(s.email, 'subscription-next-delivery')).toHaveLength(1);

    const before = await snapshot(s);
    const last = await admin.post(`${base(s.id)}/items/skip`, { variantId: s.variantId, skip: true });
    expect(last.statusCode).toBe(409);
    expect(last.json().error).toBe(SUBSCRIPTION_MESSAGES.lastItem);
    expect(await snapshot(s)).toEqual(before);

    const back = await act('POST', `${base(s.id)}/items/skip`, { variantId: second.variantId, skip: false, notifyCustomer: false });
    expect(back.skippedNext).toEqual([]);
    await expectRecorded(s, {
      audits: 2,
      action: 'unskip-item',
      notified: false,
      event: 'item.unskipped',
      details: { variantId: second.variantId },
    });
    expect(await mails(s.email, 'subscription-next-delivery')).toHaveLength(1);
  });

  it('adds a one-time item without an e-mail, removes it with one; removing it twice is 404 and writes nothing', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    const glass = await createProduct(t.db, { name: 'Glass Cleaner', priceCents: 700, inventory: 10 });
    const variantId = `var_${glass.id}`;
    const added = await act('POST', `${base(s.id)}/extras`, { variantId, quantity: 2, notifyCustomer: false });
    expect(added.extras).toEqual([{ variantId, name: 'Glass Cleaner', quantity: 2, unitPriceCents: 700 }]);
    const ev = await expectRecorded(s, {
      audits: 1,
      action: 'add-extra',
      notified: false,
      event: 'extra.added',
      details: { variantId, quantity: 2 },
    });
    expect(JSON.parse(ev.data)).toMatchObject({ name: 'Glass Cleaner', quantity: 2 });
    expect(await subscriptionMails(s.email)).toEqual([]);

    const before = await snapshot(s);
    const short = await admin.post(`${base(s.id)}/extras`, { variantId, quantity: 11 });
    expect(short.statusCode).toBe(409);
    expect(short.json().error).toBe(SUBSCRIPTION_MESSAGES.extraShort);
    expect(await snapshot(s)).toEqual(before);

    const removed = await act('DELETE', `${base(s.id)}/extras/${variantId}`);
    expect(removed.extras).toEqual([]);
    await expectRecorded(s, { audits: 2, action: 'remove-extra', notified: true, event: 'extra.removed', details: { variantId } });
    expect(await mails(s.email, 'subscription-next-delivery')).toHaveLength(1);

    const after = await snapshot(s);
    const twice = await admin.request('DELETE', `${base(s.id)}/extras/${variantId}?notifyCustomer=false`);
    expect(twice.statusCode).toBe(404);
    expect(twice.json().error).toBe(SUBSCRIPTION_MESSAGES.extraNotFound);
    const badQuery = await admin.request('DELETE', `${base(s.id)}/extras/${variantId}?notifyCustomer=maybe`);
    expect(badQuery.statusCode).toBe(400);
    expect(await snapshot(s)).toEqual(after);
  });

  it('removes a one-time item quietly when told not to e-mail', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    const cloth = await createProduct(t.db, { name: 'Cloth', priceCents: 300, inventory: 10 });
    await act('POST', `${base(s.id)}/extras`, { variantId: `var_${cloth.id}`, quantity: 1, notifyCustomer: false });
    await act('DELETE', `${base(s.id)}/extras/var_${cloth.id}?notifyCustomer=false`);
    await expectRecorded(s, {
      audits: 2,
      action: 'remove-extra',
      notified: false,
      event: 'extra.removed',
      details: { variantId: `var_${cloth.id}` },
    });
    expect(await subscriptionMails(s.email)).toEqual([]);
  });
});

describe(`the owner delivers now on ${testDialect()}`, () => {
  it('renews at once through the schedule’s path; the same date again orders nothing', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT, priceCents: 2000 });
    const res = await admin.post(`${base(s.id)}/deliver-now`, { renewalAt: NEXT, notifyCustomer: false });
    expect(res.statusCode, res.body).toBe(200);
    const { subscription, delivery } = AdminDeliverNowResponse.parse(res.json());
    expect(delivery.status).toBe('paid');
    expect(delivery.orderNumber).not.toBeNull();
    expect(subscription.deliveries).toBe(2);
    expect(subscription.cycles[0]).toMatchObject({ status: 'paid', orderId: delivery.orderId });
    await expectRecorded(s, { audits: 1, action: 'deliver-now', notified: false, event: 'delivered_now' });
    expect((await events(s.id)).map((e) => e.type)).toEqual(['delivered_now', 'renewed']);
    const order = await t.db
      .selectFrom('orders')
      .select(['origin', 'payment_status'])
      .where('id', '=', delivery.orderId!)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ origin: 'renewal', payment_status: 'paid' });
    // No subscription e-mail of the owner's action; the order itself is confirmed as every order is.
    expect(await subscriptionMails(s.email)).toEqual([]);

    const before = await snapshot(s);
    const again = await admin.post(`${base(s.id)}/deliver-now`, { renewalAt: NEXT });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(SUBSCRIPTION_MESSAGES.staleDeliverNow);
    expect(await snapshot(s)).toEqual(before);
  });
});

/** Every action route, with a body the owner would send for a subscription renewing on NEXT. */
function routes(s: TestSubscription, extraVariant: string) {
  return [
    { method: 'POST', path: `${base(s.id)}/skip`, body: { renewalAt: NEXT } },
    { method: 'POST', path: `${base(s.id)}/pause`, body: { until: dayIn(30) } },
    { method: 'POST', path: `${base(s.id)}/resume`, body: { nextDeliveryOn: dayIn(5) } },
    { method: 'POST', path: `${base(s.id)}/deliver-now`, body: { renewalAt: NEXT } },
    {
      method: 'PUT',
      path: `${base(s.id)}/address`,
      body: { address: { name: 'A', address: '1 B St', city: 'C', state: 'OR', zip: '97201', country: 'US' }, everywhere: false },
    },
    { method: 'PATCH', path: base(s.id), body: { items: [{ variantId: s.variantId, quantity: 2 }] } },
    { method: 'POST', path: `${base(s.id)}/items/skip`, body: { variantId: s.variantId, skip: true } },
    { method: 'POST', path: `${base(s.id)}/extras`, body: { variantId: extraVariant, quantity: 1 } },
    { method: 'DELETE', path: `${base(s.id)}/extras/${extraVariant}`, body: undefined },
  ] as const;
}

describe(`refusals on ${testDialect()}`, () => {
  it('a cancelled subscription: every action is 409 and writes nothing', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    const glass = await createProduct(t.db, { name: 'Glass Cleaner', priceCents: 700, inventory: 10 });
    expect((await admin.post(`${base(s.id)}/cancel`, { notifyCustomer: false })).statusCode).toBe(200);
    const before = await snapshot(s);
    for (const r of routes(s, `var_${glass.id}`)) {
      const res = await admin.request(r.method, r.path, r.body);
      expect(res.statusCode, `${r.method} ${r.path}`).toBe(409);
      expect(res.json().error, r.path).toBe(SUBSCRIPTION_MESSAGES.notRenewing);
    }
    expect(await snapshot(s)).toEqual(before);
  });

  it('an unknown subscription is 404 on every route', async () => {
    const ghost = { id: 'sub_nope', variantId: 'var_x' } as TestSubscription;
    for (const r of routes(ghost, 'var_y')) {
      const res = await admin.request(r.method, r.path, r.body);
      expect(res.statusCode, `${r.method} ${r.path}`).toBe(404);
      expect(res.json().error).toBe(SUBSCRIPTION_MESSAGES.notFound);
    }
  });

  it('a body with unknown fields or a bad notifyCustomer is 400 and writes nothing', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    const before = await snapshot(s);
    for (const [path, body] of [
      ['skip', { renewalAt: NEXT, notifyCustomer: 'yes' }],
      ['skip', { renewalAt: NEXT, refund: true }],
      ['pause', { until: 'next week' }],
      ['extras', { variantId: '', quantity: 1 }],
    ] as const) {
      const res = await admin.post(`${base(s.id)}/${path}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(typeof res.json().error).toBe('string');
    }
    expect(await snapshot(s)).toEqual(before);
  });
});

describe(`the guard on ${testDialect()}`, () => {
  it('turns a guest (401) and a customer (403) away from every action, however the path is spelled; nothing changes', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    const glass = await createProduct(t.db, { name: 'Glass Cleaner', priceCents: 700, inventory: 10 });
    const before = await snapshot(s);
    const wrong: string[] = [];
    for (const r of routes(s, `var_${glass.id}`)) {
      for (const [who, client, expected] of [
        ['guest', guest, 401],
        ['customer', customer, 403],
      ] as const) {
        // As written, with a letter of the surface or of the id percent-encoded: the router decodes them to the route, the surface refuses.
        const encodedId = r.path.replace(`/subscriptions/${s.id}`, `/subscriptions/%73${s.id.slice(1)}`);
        for (const url of [r.path, r.path.replace('/api/admin/', '/api/%61dmin/'), encodedId]) {
          const res = await client.request(r.method, url, r.body);
          if (res.statusCode !== expected) wrong.push(`${who} ${r.method} ${url}: ${res.statusCode}`);
        }
        // Every other spelling (a doubled slash, a trailing slash, dot segments, upper case, …): never an answer, never a 5xx.
        for (const url of spellings(r.path)) {
          const res = await client.request(r.method, url, r.body);
          if (res.statusCode < 300 || res.statusCode >= 500 || res.body.includes(s.email))
            wrong.push(`${who} ${r.method} ${url}: ${res.statusCode}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshot(s)).toEqual(before);
    // A doubled slash or a trailing slash is no route for the owner either: a 404, not a way round the guard.
    expect((await admin.post(`/api/admin//subscriptions/${s.id}/pause`, { until: dayIn(30) })).statusCode).toBe(404);
    expect((await admin.post(`${base(s.id)}/pause/`, { until: dayIn(30) })).statusCode).toBe(404);
    expect(await snapshot(s)).toEqual(before);
    // The owner's own request with the id's letter encoded reaches the same subscription.
    await act('POST', `/api/admin/subscriptions/%73${s.id.slice(1)}/pause`, { until: dayIn(30), notifyCustomer: false });
    expect((await row(s.id)).status).toBe('paused');
  });
});
