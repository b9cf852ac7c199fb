import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { makeSubscription, renewalDeps, type TestSubscription } from '../test/subscriptions.js';
import { newManageLink } from './manage-links.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { createVariant } from '../db/seed/factories.js';
import { runRenewals, type RenewalDeps } from './renewals.js';
import { addWeeks, renewalDateText, SUBSCRIPTION_MESSAGES, SubscriptionView } from '../../shared/subscriptions.js';

/**
 * Skip and change (issue [4/8] item 5: the reminder links to skip, change or cancel), from the
 * account and from an e-mail's link: what the next renewal then does, a stale page or a second
 * click skipping nothing more, a skip during a charge, a change the plans do not offer, and many
 * skips fired at once.
 */
let t: TestApp;
let deps: RenewalDeps;
const DAY = 86_400_000;
const NOW = Date.now();
const inDays = (d: number) => new Date(NOW + d * DAY);

beforeAll(async () => {
  t = await createTestApp();
  deps = renewalDeps(t);
});
afterAll(async () => {
  await t?.close();
});

const View = z.object({ subscription: SubscriptionView });
const cycles = (id: string) =>
  t.db.selectFrom('subscription_cycles').selectAll().where('subscription_id', '=', id).orderBy('cycle').execute();
const row = (id: string) => t.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const mails = (to: string, templateId: string) =>
  t.db.selectFrom('email_outbox').selectAll().where('to_address', '=', to).where('template_id', '=', templateId).execute();
const renewalOrders = (userId: string) =>
  t.db.selectFrom('orders').selectAll().where('user_id', '=', userId).where('origin', '=', 'renewal').execute();

async function offerPlan(s: TestSubscription, o: { intervals?: number[]; enabled?: boolean } = {}) {
  const at = new Date().toISOString();
  await t.db
    .insertInto('subscription_plans')
    .values({
      product_id: s.productId,
      variant_id: '',
      enabled: o.enabled === false ? 0 : 1,
      intervals: JSON.stringify(o.intervals ?? [2, 4, 8]),
      discount_percent: 10,
      later_discount_percent: null,
      later_from_delivery: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

let ips = 0;
async function signedIn(email: string) {
  const c = new TestClient(t.app, `10.62.0.${++ips}`);
  expect((await c.signIn(email, 'Test-Password-1')).statusCode).toBe(200);
  return c;
}
async function linkOf(id: string) {
  const url = await newManageLink(t.db, id, new Date(), t.config.publicUrl);
  return `/api/subscriptions/manage/${url.split('/').pop()!}`;
}

describe(`skipping the next delivery on ${testDialect()}`, () => {
  it('from the account, weeks ahead: the delivery is skipped on record, the next comes an interval later, and nothing is charged', async () => {
    const next = inDays(20).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next, everyWeeks: 4 });
    await offerPlan(s);
    const me = await signedIn(s.email);
    const done = await me.post(`/api/account/subscriptions/${s.id}/skip`, { renewalAt: next });
    expect(done.statusCode, done.body).toBe(200);
    const after = addWeeks(next, 4);
    expect(View.parse(done.json()).subscription).toMatchObject({ status: 'active', nextRenewalAt: after, intervals: [2, 4, 8] });
    expect(await cycles(s.id)).toMatchObject([{ cycle: 2, status: 'skipped', due_at: next, order_id: null }]);
    const told = await mails(s.email, 'subscription-skipped');
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain('you asked us to skip it.');

    // The same click again (a second tab, a double click): the page's date is no longer the next one.
    const again = await me.post(`/api/account/subscriptions/${s.id}/skip`, { renewalAt: next });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(SUBSCRIPTION_MESSAGES.staleDelivery);
    expect((await row(s.id)).next_renewal_at).toBe(after);

    // The day the skipped delivery was due: nothing renews. Three days before the next: its reminder.
    await runRenewals(deps, inDays(20.1));
    expect(await renewalOrders(s.userId)).toHaveLength(0);
    await runRenewals(deps, new Date(Date.parse(after) - 2.5 * DAY));
    expect(await cycles(s.id)).toMatchObject([
      { cycle: 2, status: 'skipped' },
      { cycle: 3, status: 'scheduled', due_at: after },
    ]);
    expect(await mails(s.email, 'subscription-renewal-reminder')).toHaveLength(1);
  });

  it('from the reminder’s link, after the reminder: the scheduled renewal is not charged on its day', async () => {
    const next = inDays(2).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next });
    await runRenewals(deps, new Date(NOW + 60_000));
    expect(await cycles(s.id)).toMatchObject([{ cycle: 2, status: 'scheduled' }]);
    const link = await linkOf(s.id);
    const guest = new TestClient(t.app, '10.62.1.1');
    const done = await guest.post(`${link}/skip`, { renewalAt: next });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().subscription.nextRenewalAt).toBe(addWeeks(next, 4));
    await runRenewals(deps, inDays(2.1));
    expect(await renewalOrders(s.userId)).toHaveLength(0);
    expect(await cycles(s.id)).toMatchObject([{ cycle: 2, status: 'skipped' }]);
  });

  it('a renewal waiting for payment: its unpaid order is cancelled and never charged; one being charged cannot be skipped', async () => {
    const next = inDays(1).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next, behaviour: 'decline' });
    await runRenewals(deps, inDays(1.01));
    const [waiting] = await cycles(s.id);
    expect(waiting).toMatchObject({ status: 'retrying' });
    const [order] = await renewalOrders(s.userId);
    expect(order).toMatchObject({ payment_status: 'unpaid' });

    // The moment its charge is under way: refused, and the page is told why.
    await t.db.updateTable('subscription_cycles').set({ status: 'charging' }).where('subscription_id', '=', s.id).execute();
    const link = await linkOf(s.id);
    const guest = new TestClient(t.app, '10.62.1.2');
    const busy = await guest.post(`${link}/skip`, { renewalAt: next });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error).toBe(SUBSCRIPTION_MESSAGES.chargingNow);
    await t.db.updateTable('subscription_cycles').set({ status: 'retrying' }).where('subscription_id', '=', s.id).execute();

    const done = await guest.post(`${link}/skip`, { renewalAt: next });
    expect(done.statusCode, done.body).toBe(200);
    const ended = await t.db
      .selectFrom('orders')
      .select(['status', 'payment_status'])
      .where('id', '=', order!.id)
      .executeTakeFirstOrThrow();
    expect(ended.status).toBe('cancelled');
    expect(ended.payment_status).not.toBe('paid');
    // The retry's day comes: nothing is charged.
    await runRenewals(deps, inDays(2.5));
    expect(await cycles(s.id)).toMatchObject([{ cycle: 2, status: 'skipped' }]);
    const orders = await renewalOrders(s.userId);
    expect(orders.every((o) => o.payment_status !== 'paid')).toBe(true);
  });

  it('40 skips fired at once, through the link and the account, spelled every way: one delivery skipped, one e-mail, never a 500', async () => {
    const next = inDays(30).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next });
    const link = await linkOf(s.id);
    const me = await signedIn(s.email);
    const guest = new TestClient(t.app, '10.62.1.3');
    const token = link.split('/').pop()!;
    const paths = [
      `${link}/skip`,
      `/api/subscriptions//manage/${token}/skip`,
      `/api/subscriptions/./manage/${token}/skip`,
      `/api/%73ubscriptions/manage/${token}/skip`,
    ];
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 5 === 4
          ? me.post(`/api/account/subscriptions/${s.id}/skip`, { renewalAt: next })
          : guest.post(paths[i % paths.length]!, { renewalAt: next }),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(
      codes.every((c) => c === 200 || c === 409 || c === 404),
      codes.join(','),
    ).toBe(true);
    expect(await cycles(s.id)).toMatchObject([{ cycle: 2, status: 'skipped' }]);
    expect((await row(s.id)).next_renewal_at).toBe(addWeeks(next, 4));
    expect(await mails(s.email, 'subscription-skipped')).toHaveLength(1);
  });

  it('skips fired at the moment their renewals run: each delivery is either skipped and never charged, or charged and the skip refused', async () => {
    const next = inDays(1).toISOString();
    const subs = await Promise.all(Array.from({ length: 12 }, () => makeSubscription(t.db, { nextRenewalAt: next, inventory: 5 })));
    await runRenewals(deps, new Date(NOW + 60_000));
    const links = await Promise.all(subs.map((s) => linkOf(s.id)));
    const guest = new TestClient(t.app, '10.62.1.5');
    const [skips] = await Promise.all([
      Promise.all(links.map((l) => guest.post(`${l}/skip`, { renewalAt: next }))),
      runRenewals(deps, inDays(1.01), 100),
      runRenewals(deps, inDays(1.01), 100),
    ]);
    await runRenewals(deps, inDays(1.02), 100);
    for (const [i, s] of subs.entries()) {
      const code = skips[i]!.statusCode;
      expect([200, 409], skips[i]!.body).toContain(code);
      const orders = await renewalOrders(s.userId);
      const paid = orders.filter((o) => o.payment_status === 'paid');
      const [cycle] = await cycles(s.id);
      if (code === 200) {
        expect(paid).toHaveLength(0);
        expect(cycle).toMatchObject({ status: 'skipped' });
      } else {
        expect(paid).toHaveLength(1);
        expect(cycle).toMatchObject({ status: 'paid' });
      }
    }
  });

  it('bad input and closed doors: no date, a malformed date, a cancelled subscription, another account’s, signed out', async () => {
    const next = inDays(15).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next });
    const other = await makeSubscription(t.db, { nextRenewalAt: next });
    const me = await signedIn(s.email);
    for (const body of [{}, { renewalAt: 'tomorrow' }, { renewalAt: next, extra: 1 }]) {
      const bad = await me.post(`/api/account/subscriptions/${s.id}/skip`, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json().error).toBeTruthy();
    }
    expect((await me.post(`/api/account/subscriptions/${other.id}/skip`, { renewalAt: next })).statusCode).toBe(404);
    expect((await me.request('PATCH', `/api/account/subscriptions/${other.id}`, { everyWeeks: 2 })).statusCode).toBe(404);
    const guest = new TestClient(t.app, '10.62.1.4');
    expect((await guest.post(`/api/account/subscriptions/${s.id}/skip`, { renewalAt: next })).statusCode).toBe(401);
    expect((await guest.post(`/api/subscriptions/manage/${'x'.repeat(43)}/skip`, { renewalAt: next })).statusCode).toBe(404);
    expect(await cycles(s.id)).toHaveLength(0);

    expect((await me.post(`/api/account/subscriptions/${s.id}/cancel`, {})).statusCode).toBe(200);
    const skip = await me.post(`/api/account/subscriptions/${s.id}/skip`, { renewalAt: next });
    expect(skip.statusCode).toBe(409);
    expect(skip.json().error).toBe(SUBSCRIPTION_MESSAGES.notRenewing);
    const change = await me.request('PATCH', `/api/account/subscriptions/${s.id}`, { everyWeeks: 2 });
    expect(change.statusCode).toBe(409);
    expect(change.json().subscription).toBeUndefined();
  });
});

describe(`changing a subscription on ${testDialect()}`, () => {
  it('interval and quantity: answered and e-mailed at today’s price; the next renewal brings the new quantity and the one after comes at the new interval', async () => {
    const next = inDays(2).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next, everyWeeks: 4, priceCents: 2000, quantity: 1, inventory: 20 });
    await offerPlan(s);
    // The reminder is out (one unit); the customer then asks for three, every 8 weeks.
    await runRenewals(deps, new Date(NOW + 60_000));
    expect(await mails(s.email, 'subscription-renewal-reminder')).toHaveLength(1);
    const link = await linkOf(s.id);
    const guest = new TestClient(t.app, '10.62.2.1');
    const done = await guest.request('PATCH', link, { everyWeeks: 8, items: [{ variantId: s.variantId, quantity: 3 }] });
    expect(done.statusCode, done.body).toBe(200);
    expect(View.parse(done.json()).subscription).toMatchObject({
      everyWeeks: 8,
      terms: 'Every 8 weeks · 10% off',
      nextRenewalAt: next,
      items: [{ variantId: s.variantId, quantity: 3 }],
    });
    const [told] = await mails(s.email, 'subscription-changed');
    expect(told).toBeDefined();
    // Three at $20.00 less 10% = $54.00, with shipping and tax on top.
    expect(told!.subject).toBe('Your subscription is changed: Every 8 weeks · 10% off');
    expect(told!.text).toContain(`From your delivery of ${renewalDateText(next)}, your subscription is Every 8 weeks · 10% off`);
    expect(told!.text).toContain('$54.00');

    await runRenewals(deps, inDays(2.01));
    const [order] = await renewalOrders(s.userId);
    expect(order).toMatchObject({ payment_status: 'paid' });
    const lines = await t.db.selectFrom('order_items').select(['quantity', 'every_weeks']).where('order_id', '=', order!.id).execute();
    expect(lines).toEqual([{ quantity: 3, every_weeks: 8 }]);
    expect((await row(s.id)).next_renewal_at).toBe(addWeeks(next, 8));
  });

  it('refuses what the plans do not offer, and stores nothing: an interval not listed, a plan turned off, a quantity out of range, an unknown item, nothing to change', async () => {
    const next = inDays(12).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next, everyWeeks: 4 });
    await offerPlan(s, { intervals: [4, 6] });
    const me = await signedIn(s.email);
    const url = `/api/account/subscriptions/${s.id}`;
    const cases: [unknown, number, string][] = [
      [{ everyWeeks: 5 }, 400, SUBSCRIPTION_MESSAGES.intervalNotOffered],
      [{ everyWeeks: 0 }, 400, SUBSCRIPTION_MESSAGES.intervalNotOffered],
      [{ everyWeeks: 'six' }, 400, SUBSCRIPTION_MESSAGES.intervalNotOffered],
      [{ items: [{ variantId: s.variantId, quantity: 0 }] }, 400, SUBSCRIPTION_MESSAGES.quantityRange],
      [{ items: [{ variantId: s.variantId, quantity: 100 }] }, 400, SUBSCRIPTION_MESSAGES.quantityRange],
      [{ items: [{ variantId: 'var_nope', quantity: 2 }] }, 400, SUBSCRIPTION_MESSAGES.itemUnknown],
      [{}, 400, SUBSCRIPTION_MESSAGES.nothingToChange],
      [{ everyWeeks: 6, userId: 'someone' }, 400, 'userId'],
    ];
    for (const [body, code, message] of cases) {
      const res = await me.request('PATCH', url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(code);
      expect(res.json().error).toContain(message);
    }
    expect(await row(s.id)).toMatchObject({ every_weeks: 4 });
    expect(await mails(s.email, 'subscription-changed')).toHaveLength(0);

    // The owner turns the plan off: the interval cannot change (the quantity still can).
    await t.db.updateTable('subscription_plans').set({ enabled: 0 }).where('product_id', '=', s.productId).execute();
    const off = await me.request('PATCH', url, { everyWeeks: 6 });
    expect(off.statusCode).toBe(409);
    expect(off.json().error).toBe(SUBSCRIPTION_MESSAGES.planOff);
    expect((await me.get('/api/account/subscriptions')).json().subscriptions[0].intervals).toEqual([]);
    const more = await me.request('PATCH', url, { items: [{ variantId: s.variantId, quantity: 2 }] });
    expect(more.statusCode, more.body).toBe(200);
    expect(more.json().subscription).toMatchObject({ everyWeeks: 4, items: [{ quantity: 2 }] });
  });
});

const dayIn = (d: number) => inDays(d).toISOString().slice(0, 10);

describe(`moving, pausing and resuming on ${testDialect()}`, () => {
  it('moves the next delivery to another day, keeping its hour; the reminder already sent is let go and a new one comes for the new day', async () => {
    const next = inDays(2).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next });
    await runRenewals(deps, new Date(NOW + 60_000));
    expect(await cycles(s.id)).toMatchObject([{ cycle: 2, status: 'scheduled' }]);
    const me = await signedIn(s.email);
    const url = `/api/account/subscriptions/${s.id}`;
    for (const [day, message] of [
      [dayIn(0), SUBSCRIPTION_MESSAGES.dateRange],
      [dayIn(-3), SUBSCRIPTION_MESSAGES.dateRange],
      [dayIn(400), SUBSCRIPTION_MESSAGES.dateRange],
      ['12/24/2026', SUBSCRIPTION_MESSAGES.dateFormat],
    ] as const) {
      const bad = await me.request('PATCH', url, { nextDeliveryOn: day });
      expect(bad.statusCode, day).toBe(400);
      expect(bad.json().error).toContain(message);
    }
    const moved = dayIn(9);
    const done = await me.request('PATCH', url, { nextDeliveryOn: moved });
    expect(done.statusCode, done.body).toBe(200);
    const nextAt = `${moved}T${next.slice(11)}`;
    expect(done.json().subscription.nextRenewalAt).toBe(nextAt);
    expect(await cycles(s.id)).toMatchObject([
      { cycle: 2, status: 'cancelled', message: `Moved to ${renewalDateText(nextAt)} by the customer` },
    ]);
    const [told] = await mails(s.email, 'subscription-changed');
    expect(told!.text).toContain(`From your delivery of ${renewalDateText(nextAt)}`);
    // The old day: nothing. Three days before the new one: a cycle and its reminder.
    await runRenewals(deps, inDays(2.1));
    expect(await renewalOrders(s.userId)).toHaveLength(0);
    await runRenewals(deps, new Date(Date.parse(nextAt) - 2.5 * DAY));
    expect(await cycles(s.id)).toMatchObject([
      { cycle: 2, status: 'cancelled' },
      { cycle: 3, status: 'scheduled', due_at: nextAt },
    ]);
    expect(await mails(s.email, 'subscription-renewal-reminder')).toHaveLength(2);
    await runRenewals(deps, new Date(Date.parse(nextAt) + 60_000));
    expect(await renewalOrders(s.userId)).toMatchObject([{ payment_status: 'paid' }]);
  });

  it('pauses until a day (nothing renews meanwhile, no skip), wakes itself three days before and renews on the day', async () => {
    const next = inDays(2).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next });
    await runRenewals(deps, new Date(NOW + 60_000));
    const link = await linkOf(s.id);
    const guest = new TestClient(t.app, '10.62.3.1');
    const resumeDay = dayIn(30);
    const paused = await guest.post(`${link}/pause`, { until: resumeDay });
    expect(paused.statusCode, paused.body).toBe(200);
    const resumeAt = `${resumeDay}T${next.slice(11)}`;
    expect(paused.json().subscription).toMatchObject({ status: 'paused', nextRenewalAt: resumeAt });
    expect(await cycles(s.id)).toMatchObject([{ cycle: 2, status: 'skipped', message: 'Paused by the customer' }]);
    const [told] = await mails(s.email, 'subscription-paused');
    expect(told!.subject).toBe(`Your subscription is paused until ${renewalDateText(resumeAt)}`);
    // While paused: a second pause and a skip are refused, and the old day renews nothing.
    const again = await guest.post(`${link}/pause`, { until: dayIn(40) });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(SUBSCRIPTION_MESSAGES.alreadyPaused);
    const skip = await guest.post(`${link}/skip`, { renewalAt: resumeAt });
    expect(skip.statusCode).toBe(409);
    expect(skip.json().error).toBe(SUBSCRIPTION_MESSAGES.pausedNoSkip);
    await runRenewals(deps, inDays(2.1));
    await runRenewals(deps, inDays(20));
    expect(await renewalOrders(s.userId)).toHaveLength(0);
    expect((await row(s.id)).status).toBe('paused');
    // Three days before the day: awake, reminded; on the day: renewed.
    await runRenewals(deps, new Date(Date.parse(resumeAt) - 2.5 * DAY));
    expect((await row(s.id)).status).toBe('active');
    expect(await mails(s.email, 'subscription-renewal-reminder')).toHaveLength(2);
    await runRenewals(deps, new Date(Date.parse(resumeAt) + 60_000));
    expect(await renewalOrders(s.userId)).toMatchObject([{ payment_status: 'paid' }]);
    expect((await row(s.id)).next_renewal_at).toBe(addWeeks(resumeAt, 4));
  });

  it('resumes early on the day chosen; resume on an active one is 409; 20 pauses at once pause once', async () => {
    const next = inDays(10).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next });
    const me = await signedIn(s.email);
    const url = `/api/account/subscriptions/${s.id}`;
    const notPaused = await me.post(`${url}/resume`, { nextDeliveryOn: dayIn(3) });
    expect(notPaused.statusCode).toBe(409);
    expect(notPaused.json().error).toBe(SUBSCRIPTION_MESSAGES.notPaused);
    const pauses = await Promise.all(Array.from({ length: 20 }, () => me.post(`${url}/pause`, { until: dayIn(60) })));
    expect(pauses.filter((p) => p.statusCode === 200)).toHaveLength(1);
    expect(pauses.every((p) => p.statusCode === 200 || p.statusCode === 409)).toBe(true);
    expect(await mails(s.email, 'subscription-paused')).toHaveLength(1);
    const resumed = await me.post(`${url}/resume`, { nextDeliveryOn: dayIn(3) });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json().subscription).toMatchObject({ status: 'active', nextRenewalAt: `${dayIn(3)}T${next.slice(11)}` });
    // Bad input is refused before anything changes; then a pause that is right goes through.
    for (const body of [{}, { nextDeliveryOn: dayIn(5) }, { until: dayIn(0) }, { until: 'soon' }])
      expect((await me.post(`${url}/pause`, body)).statusCode, JSON.stringify(body)).toBe(400);
    expect((await row(s.id)).status).toBe('active');
    expect((await me.post(`${url}/pause`, { until: dayIn(5) })).statusCode).toBe(200);
  });
});

describe(`deliver now on ${testDialect()}`, () => {
  it('renews at once through the schedule’s path: one paid order, the rhythm from today, a second click orders nothing more', async () => {
    const next = inDays(20).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next, priceCents: 2000, quantity: 2, inventory: 10 });
    const me = await signedIn(s.email);
    const url = `/api/account/subscriptions/${s.id}/deliver-now`;
    const done = await me.post(url, { renewalAt: next });
    expect(done.statusCode, done.body).toBe(200);
    const { delivery, subscription } = done.json();
    expect(delivery).toMatchObject({ status: 'paid' });
    const [order] = await renewalOrders(s.userId);
    expect(order).toMatchObject({ id: delivery.orderId, order_number: delivery.orderNumber, payment_status: 'paid' });
    // Two at $20.00 less 10%.
    expect(Number(order!.subtotal_cents)).toBe(3600);
    expect(Date.parse(subscription.nextRenewalAt) - Date.now()).toBeGreaterThan(27.9 * DAY);
    expect(Date.parse(subscription.nextRenewalAt) - Date.now()).toBeLessThan(28.1 * DAY);
    const onHand = await t.db.selectFrom('stock_items').select('on_hand').where('variant_id', '=', s.variantId).executeTakeFirstOrThrow();
    expect(Number(onHand.on_hand)).toBe(8);
    // The same click again: the page's date is gone, nothing more is ordered.
    const again = await me.post(url, { renewalAt: next });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(SUBSCRIPTION_MESSAGES.staleDeliverNow);
    // The old day passes: nothing renews.
    await runRenewals(deps, inDays(20.1));
    expect(await renewalOrders(s.userId)).toHaveLength(1);
  });

  it('after the reminder, the written cycle is the one delivered; ten clicks at once order once; a declined card waits for the customer; paused is 409', async () => {
    const next = inDays(2).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next });
    await runRenewals(deps, new Date(NOW + 60_000));
    const link = await linkOf(s.id);
    const guest = new TestClient(t.app, '10.62.4.1');
    const answers = await Promise.all(Array.from({ length: 10 }, () => guest.post(`${link}/deliver-now`, { renewalAt: next })));
    const codes = answers.map((a) => a.statusCode);
    expect(
      codes.filter((c) => c === 200),
      codes.join(),
    ).toHaveLength(1);
    expect(codes.every((c) => c === 200 || c === 409)).toBe(true);
    expect(await cycles(s.id)).toMatchObject([{ cycle: 2, status: 'paid' }]);
    expect((await renewalOrders(s.userId)).filter((o) => o.payment_status === 'paid')).toHaveLength(1);
    const charges = await t.db
      .selectFrom('test_off_session_charges')
      .select('idempotency_key')
      .where('idempotency_key', 'like', `renewal_${s.id}_%`)
      .execute();
    expect(charges).toHaveLength(1);

    const declined = await makeSubscription(t.db, { nextRenewalAt: inDays(9).toISOString(), behaviour: 'decline' });
    const me = await signedIn(declined.email);
    const failed = await me.post(`/api/account/subscriptions/${declined.id}/deliver-now`, { renewalAt: inDays(9).toISOString() });
    expect(failed.statusCode, failed.body).toBe(200);
    expect(failed.json().delivery).toMatchObject({ status: 'retrying' });
    expect((await renewalOrders(declined.userId))[0]).toMatchObject({ payment_status: 'unpaid' });

    const paused = await makeSubscription(t.db, { nextRenewalAt: inDays(9).toISOString() });
    const owner = await signedIn(paused.email);
    expect((await owner.post(`/api/account/subscriptions/${paused.id}/pause`, { until: dayIn(30) })).statusCode).toBe(200);
    const refused = await owner.post(`/api/account/subscriptions/${paused.id}/deliver-now`, {
      renewalAt: (await row(paused.id)).next_renewal_at,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(SUBSCRIPTION_MESSAGES.pausedNoDeliver);
  });
});

describe(`an admin acting as the customer on ${testDialect()}`, () => {
  it('may look and skip for them, but not cancel (403, nothing changes): the back office cancels, on record', async () => {
    const next = inDays(14).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next });
    const acting = new TestClient(t.app, '10.62.5.1');
    expect((await acting.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
    expect((await acting.post('/api/impersonation', { userId: s.userId })).statusCode).toBe(200);
    expect((await acting.get('/api/account/subscriptions')).json().subscriptions).toMatchObject([{ id: s.id }]);
    const cancel = await acting.post(`/api/account/subscriptions/${s.id}/cancel`, {});
    expect(cancel.statusCode).toBe(403);
    expect(cancel.json().error).toBe(SUBSCRIPTION_MESSAGES.cancelWhileImpersonating);
    expect((await row(s.id)).status).toBe('active');
    expect((await acting.post(`/api/account/subscriptions/${s.id}/skip`, { renewalAt: next })).statusCode).toBe(200);
  });
});

describe(`swapping an item's version on ${testDialect()}`, () => {
  it('offers the product’s other versions on its plan; the next renewal brings the one chosen at its own price; refuses strangers', async () => {
    const next = inDays(2).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next, priceCents: 2000, inventory: 20 });
    await offerPlan(s, { intervals: [4] });
    const lemon = await createVariant(t.db, s.productId, { options: ['Lemon'], priceCents: 3000, inventory: 20, position: 2 });
    const off = await createVariant(t.db, s.productId, { options: ['Retired'], enabled: false, position: 3 });
    const other = await makeSubscription(t.db, { nextRenewalAt: next });
    const me = await signedIn(s.email);
    const [view] = (await me.get('/api/account/subscriptions')).json().subscriptions;
    expect(view.items[0].versions.map((v: { variantId: string }) => v.variantId)).toEqual([s.variantId, lemon]);
    expect(view.items[0].versions[1].label).toBe('Lemon');

    const url = `/api/account/subscriptions/${s.id}`;
    for (const [swapTo, code, message] of [
      [off, 400, SUBSCRIPTION_MESSAGES.swapUnknown],
      [other.variantId, 400, SUBSCRIPTION_MESSAGES.swapUnknown],
      ['var_nowhere', 400, SUBSCRIPTION_MESSAGES.swapUnknown],
    ] as const) {
      const res = await me.request('PATCH', url, { items: [{ variantId: s.variantId, quantity: 1, swapTo }] });
      expect(res.statusCode, swapTo).toBe(code);
      expect(res.json().error).toBe(message);
    }
    // Lemon's own plan does not offer every 4 weeks: refused.
    await t.db
      .insertInto('subscription_plans')
      .values({
        product_id: s.productId,
        variant_id: lemon,
        enabled: 1,
        intervals: JSON.stringify([6]),
        discount_percent: 10,
        later_discount_percent: null,
        later_from_delivery: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    const notOffered = await me.request('PATCH', url, { items: [{ variantId: s.variantId, quantity: 1, swapTo: lemon }] });
    expect(notOffered.statusCode).toBe(400);
    expect(notOffered.json().error).toBe(SUBSCRIPTION_MESSAGES.intervalNotOffered);
    await t.db.deleteFrom('subscription_plans').where('variant_id', '=', lemon).execute();

    const done = await me.request('PATCH', url, { items: [{ variantId: s.variantId, quantity: 2, swapTo: lemon }] });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().subscription.items).toMatchObject([{ variantId: lemon, quantity: 2 }]);
    await runRenewals(deps, new Date(NOW + 60_000));
    await runRenewals(deps, inDays(2.01));
    const [order] = await renewalOrders(s.userId);
    const lines = await t.db
      .selectFrom('order_items')
      .select(['variant_id', 'quantity', 'price_cents'])
      .where('order_id', '=', order!.id)
      .execute();
    // Two Lemon at $30.00 less 10%.
    expect(lines).toEqual([{ variant_id: lemon, quantity: 2, price_cents: 2700 }]);
  });
});

describe(`the address a subscription ships to on ${testDialect()}`, () => {
  const HOME = { name: 'Robin Refill', address: '9 New Street', city: 'Salem', state: 'OR', zip: '97301' };
  it('changes one subscription, or every one of the customer’s and the account’s; the next renewal ships there; bad input is refused', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: inDays(2).toISOString() });
    // A second subscription of the same customer.
    const second = `sub_second_${Date.now().toString(36)}`;
    const base = await row(s.id);
    await t.db
      .insertInto('subscriptions')
      .values({ ...base, id: second, created_at: new Date(NOW - 1000).toISOString() })
      .execute();
    await t.db
      .insertInto('subscription_items')
      .values({ subscription_id: second, product_id: s.productId, variant_id: s.variantId, quantity: 1 })
      .execute();
    const me = await signedIn(s.email);
    const url = `/api/account/subscriptions/${s.id}/address`;
    for (const body of [
      {},
      { address: { ...HOME, zip: '9730' } },
      { address: { ...HOME, state: 'ZZ' } },
      { address: HOME, everywhere: 'yes' },
    ]) {
      const bad = await me.request('PUT', url, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json().error).toBeTruthy();
    }
    const one = await me.request('PUT', url, { address: HOME });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().subscription.address).toMatchObject(HOME);
    expect(JSON.parse((await row(second)).shipping_address!).address).not.toBe(HOME.address);
    // The checkout's other fields stay.
    expect(JSON.parse((await row(s.id)).shipping_address!)).toMatchObject({ ...HOME, country: 'US' });

    const all = await me.request('PUT', url, { address: { ...HOME, address: '10 Other Road' }, everywhere: true });
    expect(all.statusCode, all.body).toBe(200);
    expect(JSON.parse((await row(second)).shipping_address!).address).toBe('10 Other Road');
    const user = await t.db.selectFrom('users').select('shipping_address').where('id', '=', s.userId).executeTakeFirstOrThrow();
    expect(JSON.parse(user.shipping_address!).address).toBe('10 Other Road');

    await runRenewals(deps, new Date(NOW + 60_000));
    await runRenewals(deps, inDays(2.01));
    const [order] = await renewalOrders(s.userId);
    expect(JSON.parse(order!.shipping_address!)).toMatchObject({ address: '10 Other Road', city: 'Salem' });
  });
});
