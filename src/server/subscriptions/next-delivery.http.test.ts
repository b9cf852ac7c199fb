import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { makeSubscription, renewalDeps, type TestSubscription } from '../test/subscriptions.js';
import { newManageLink } from './manage-links.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { createProduct } from '../db/seed/factories.js';
import { runRenewals, type RenewalDeps } from './renewals.js';
import { SUBSCRIPTION_MESSAGES, SubscriptionView } from '../../shared/subscriptions.js';

/**
 * Issue [5/8]: what a customer changes for the next delivery only (one item left out, a one-time
 * item added), reactivating a cancelled subscription with fresh consent, and the timeline each
 * action writes, from the account and from an e-mail's link, with races.
 */
let t: TestApp;
let deps: RenewalDeps;
const DAY = 86_400_000;
const NOW = Date.now();
const inDays = (d: number) => new Date(NOW + d * DAY);
const dayIn = (d: number) => inDays(d).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp();
  deps = renewalDeps(t);
});
afterAll(async () => {
  await t?.close();
});

const View = z.object({ subscription: SubscriptionView });
const row = (id: string) => t.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const mails = (to: string, templateId: string) =>
  t.db.selectFrom('email_outbox').selectAll().where('to_address', '=', to).where('template_id', '=', templateId).execute();
const renewalLines = async (userId: string) =>
  t.db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select(['o.id as order_id', 'o.payment_status', 'i.variant_id', 'i.quantity', 'i.price_cents', 'i.every_weeks'])
    .where('o.user_id', '=', userId)
    .where('o.origin', '=', 'renewal')
    .orderBy('o.created_at')
    .orderBy('i.variant_id')
    .execute();
const events = (id: string) => t.db.selectFrom('subscription_events').selectAll().where('subscription_id', '=', id).orderBy('id').execute();

async function offerPlan(s: Pick<TestSubscription, 'productId'>, o: { enabled?: boolean } = {}) {
  const at = new Date().toISOString();
  await t.db
    .insertInto('subscription_plans')
    .values({
      product_id: s.productId,
      variant_id: '',
      enabled: o.enabled === false ? 0 : 1,
      intervals: JSON.stringify([2, 4, 8]),
      discount_percent: 10,
      later_discount_percent: null,
      later_from_delivery: null,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.columns(['product_id', 'variant_id']).doUpdateSet({ enabled: o.enabled === false ? 0 : 1 }))
    .execute();
}

/** A subscription of two items: the test's own product (2000 ¢) and a second (1000 ¢). */
async function twoItems(o: { nextRenewalAt: string }) {
  const s = await makeSubscription(t.db, { nextRenewalAt: o.nextRenewalAt, priceCents: 2000 });
  const second = await createProduct(t.db, { name: 'Mop Head', priceCents: 1000, inventory: 30 });
  await t.db
    .insertInto('subscription_items')
    .values({ subscription_id: s.id, product_id: second.id, variant_id: `var_${second.id}`, quantity: 1 })
    .execute();
  await offerPlan(s);
  await offerPlan({ productId: second.id });
  return { s, second: { productId: second.id, variantId: `var_${second.id}` } };
}

let ips = 0;
async function signedIn(email: string) {
  const c = new TestClient(t.app, `10.63.0.${++ips}`);
  expect((await c.signIn(email, 'Test-Password-1')).statusCode).toBe(200);
  return c;
}

describe(`one item left out of the next delivery on ${testDialect()}`, () => {
  it('the renewal brings the others only, at their price; the item comes back after it; the last item cannot be left out', async () => {
    const next = inDays(2).toISOString();
    const { s, second } = await twoItems({ nextRenewalAt: next });
    const me = await signedIn(s.email);
    const done = await me.post(`/api/account/subscriptions/${s.id}/items/skip`, { variantId: second.variantId, skip: true });
    expect(done.statusCode, done.body).toBe(200);
    const view = View.parse(done.json()).subscription;
    expect(view.items.find((i) => i.variantId === second.variantId)).toMatchObject({ skipNext: true, unitPriceCents: 900 });
    // 2000 less 10%, shipping and tax as any order: the total the page shows is the renewal's.
    expect(view.nextDeliveryTotalCents).toBeGreaterThan(1800);
    const told = await mails(s.email, 'subscription-next-delivery');
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain('Mop Head is left out of your next delivery only.');

    // The same click from another tab: nothing more (still one event, one e-mail).
    expect((await me.post(`/api/account/subscriptions/${s.id}/items/skip`, { variantId: second.variantId, skip: true })).statusCode).toBe(
      200,
    );
    expect((await events(s.id)).filter((e) => e.type === 'item.skipped')).toHaveLength(1);

    const last = await me.post(`/api/account/subscriptions/${s.id}/items/skip`, { variantId: s.variantId, skip: true });
    expect(last.statusCode).toBe(409);
    expect(last.json().error).toBe(SUBSCRIPTION_MESSAGES.lastItem);
    const unknown = await me.post(`/api/account/subscriptions/${s.id}/items/skip`, { variantId: 'var_nope', skip: true });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe(SUBSCRIPTION_MESSAGES.itemUnknown);

    await runRenewals(deps, inDays(2.01));
    const lines = await renewalLines(s.userId);
    expect(lines).toMatchObject([{ variant_id: s.variantId, quantity: 1, price_cents: 1800, payment_status: 'paid' }]);
    const after = View.parse({ subscription: (await me.get('/api/account/subscriptions')).json().subscriptions[0] }).subscription;
    expect(after.items.every((i) => !i.skipNext)).toBe(true);
    expect((await events(s.id)).map((e) => e.type)).toEqual(['item.skipped', 'renewed']);
  });

  it('once the next delivery is ordered (a declined charge waits for payment), its items are fixed: 409', async () => {
    const next = inDays(1).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next, behaviour: 'decline' });
    await offerPlan(s);
    const extra = await createProduct(t.db, { name: 'Glass Cleaner', priceCents: 700, inventory: 10 });
    await runRenewals(deps, inDays(1.01));
    const me = await signedIn(s.email);
    const add = await me.post(`/api/account/subscriptions/${s.id}/extras`, { variantId: `var_${extra.id}`, quantity: 1 });
    expect(add.statusCode).toBe(409);
    expect(add.json().error).toBe(SUBSCRIPTION_MESSAGES.deliveryFixed);
    expect(await t.db.selectFrom('subscription_extras').selectAll().where('subscription_id', '=', s.id).execute()).toEqual([]);
  });
});

describe(`a one-time item with the next delivery on ${testDialect()}`, () => {
  it('rides once at the shop’s price, from the reminder’s link too; out of stock is refused; the next renewal is the plan alone', async () => {
    const next = inDays(2).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next, priceCents: 2000, everyWeeks: 4 });
    await offerPlan(s);
    const extra = await createProduct(t.db, { name: 'Glass Cleaner', priceCents: 700, inventory: 3 });
    const url = await newManageLink(t.db, s.id, new Date(), t.config.publicUrl);
    const link = `/api/subscriptions/manage/${url.split('/').pop()!}`;
    const guest = new TestClient(t.app, '10.63.1.1');

    const short = await guest.post(`${link}/extras`, { variantId: `var_${extra.id}`, quantity: 4 });
    expect(short.statusCode).toBe(409);
    expect(short.json().error).toBe(SUBSCRIPTION_MESSAGES.extraShort);
    const bad = await guest.post(`${link}/extras`, { variantId: `var_${extra.id}`, quantity: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(SUBSCRIPTION_MESSAGES.quantityRange);
    const unknown = await guest.post(`${link}/extras`, { variantId: 'var_nope', quantity: 1 });
    expect(unknown.statusCode).toBe(400);

    const done = await guest.post(`${link}/extras`, { variantId: `var_${extra.id}`, quantity: 2 });
    expect(done.statusCode, done.body).toBe(200);
    expect(View.parse(done.json()).subscription.extras).toEqual([
      { variantId: `var_${extra.id}`, name: 'Glass Cleaner', quantity: 2, unitPriceCents: 700 },
    ]);
    expect((await mails(s.email, 'subscription-next-delivery'))[0]!.text).toContain('Glass Cleaner × 2 rides along once.');

    await runRenewals(deps, inDays(2.01));
    expect(await renewalLines(s.userId)).toMatchObject([
      { variant_id: s.variantId, price_cents: 1800, every_weeks: 4, payment_status: 'paid' },
      { variant_id: `var_${extra.id}`, quantity: 2, price_cents: 700, every_weeks: null, payment_status: 'paid' },
    ]);
    expect(await t.db.selectFrom('subscription_extras').selectAll().where('subscription_id', '=', s.id).execute()).toEqual([]);

    // The renewal after: the plan alone.
    const nextAt = (await row(s.id)).next_renewal_at;
    await runRenewals(deps, new Date(Date.parse(nextAt) - 2.5 * DAY));
    await runRenewals(deps, new Date(Date.parse(nextAt) + 60_000));
    const lines = await renewalLines(s.userId);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatchObject({ variant_id: s.variantId, every_weeks: 4 });
    const timeline = (await guest.get(`${link}/timeline`)).json().events as { type: string; actor: string }[];
    expect(timeline.map((e) => e.type)).toEqual(['renewed', 'renewed', 'extra.added']);
    expect(timeline[2]!.actor).toBe('You');
    expect(timeline[0]!.actor).toBe('The shop');
  });

  it('one that sold out before the renewal is left out and waits; the delivery is not held up', async () => {
    const next = inDays(2).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next, priceCents: 2000 });
    await offerPlan(s);
    const extra = await createProduct(t.db, { name: 'Scrub Brush', priceCents: 500, inventory: 1 });
    const me = await signedIn(s.email);
    expect((await me.post(`/api/account/subscriptions/${s.id}/extras`, { variantId: `var_${extra.id}`, quantity: 1 })).statusCode).toBe(
      200,
    );
    await t.db.updateTable('stock_items').set({ on_hand: 0 }).where('variant_id', '=', `var_${extra.id}`).execute();
    await runRenewals(deps, inDays(2.01));
    expect(await renewalLines(s.userId)).toMatchObject([{ variant_id: s.variantId, payment_status: 'paid' }]);
    expect(await t.db.selectFrom('subscription_extras').select('variant_id').where('subscription_id', '=', s.id).execute()).toEqual([
      { variant_id: `var_${extra.id}` },
    ]);
    // Taken off by the customer.
    const off = await me.request('DELETE', `/api/account/subscriptions/${s.id}/extras/var_${extra.id}`);
    expect(off.statusCode, off.body).toBe(200);
    expect(View.parse(off.json()).subscription.extras).toEqual([]);
    expect((await me.request('DELETE', `/api/account/subscriptions/${s.id}/extras/var_${extra.id}`)).statusCode).toBe(404);
  });

  it('twelve adds at once from two tabs: each answered, at most ten extras, one row per version, every event on the timeline', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: inDays(20).toISOString() });
    await offerPlan(s);
    const products = await Promise.all(
      Array.from({ length: 11 }, (_, i) => createProduct(t.db, { name: `Extra ${i}`, priceCents: 100, inventory: 5 })),
    );
    const tabs = [await signedIn(s.email), await signedIn(s.email)];
    const answers = await Promise.all([
      ...products.map((p, i) => tabs[i % 2]!.post(`/api/account/subscriptions/${s.id}/extras`, { variantId: `var_${p.id}`, quantity: 1 })),
      tabs[1]!.post(`/api/account/subscriptions/${s.id}/extras`, { variantId: `var_${products[0]!.id}`, quantity: 2 }),
    ]);
    const codes = answers.map((a) => a.statusCode);
    expect(codes.every((c) => c === 200 || c === 409)).toBe(true);
    const rows = await t.db.selectFrom('subscription_extras').selectAll().where('subscription_id', '=', s.id).execute();
    expect(rows.length).toBe(10);
    // Product 0 is asked for twice (1, then 2 from the other tab). If it got in, only the eleventh
    // product is refused; if the ten others came first, both its requests are.
    const zeroIn = rows.some((r) => r.variant_id === `var_${products[0]!.id}`);
    const refused = answers.flatMap((a, i) => (a.statusCode === 409 ? [i] : []));
    if (zeroIn) expect(refused).toHaveLength(1);
    else expect(refused).toEqual([0, 11]);
    for (const i of refused) expect(answers[i]!.json().error).toBe(SUBSCRIPTION_MESSAGES.extraTooMany);
    expect((await events(s.id)).filter((e) => e.type === 'extra.added')).toHaveLength(codes.filter((c) => c === 200).length);
  });
});

describe(`reactivating a cancelled subscription on ${testDialect()}`, () => {
  it('with the terms agreed again (kept beside the first): it renews from the day chosen; the cancellation stays on record', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: inDays(10).toISOString(), priceCents: 2000 });
    await offerPlan(s);
    const me = await signedIn(s.email);
    expect((await me.post(`/api/account/subscriptions/${s.id}/cancel`, { reason: 'Too much powder' })).statusCode).toBe(200);
    const noConsent = await me.post(`/api/account/subscriptions/${s.id}/reactivate`, { nextDeliveryOn: dayIn(5) });
    expect(noConsent.statusCode).toBe(400);
    expect(noConsent.json().error).toContain(SUBSCRIPTION_MESSAGES.reactivateConsent);
    const tooLate = await me.post(`/api/account/subscriptions/${s.id}/reactivate`, { consent: true, nextDeliveryOn: dayIn(400) });
    expect(tooLate.statusCode).toBe(400);

    const tabs = await Promise.all([
      me.post(`/api/account/subscriptions/${s.id}/reactivate`, { consent: true, nextDeliveryOn: dayIn(5) }),
      me.post(`/api/account/subscriptions/${s.id}/reactivate`, { consent: true, nextDeliveryOn: dayIn(5) }),
    ]);
    expect(tabs.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const view = View.parse(tabs.find((a) => a.statusCode === 200)!.json()).subscription;
    expect(view).toMatchObject({ status: 'active', cancelledAt: null, card: { brand: 'visa', last4: '4242' } });
    expect(view.nextRenewalAt!.slice(0, 10)).toBe(dayIn(5));
    const r = await row(s.id);
    expect(r.cancel_reason).toBe('Too much powder');
    expect(r.consent_text).toBe('Every 4 weeks until cancelled.');
    const back = (await events(s.id)).find((e) => e.type === 'reactivated')!;
    const consent = JSON.parse(back.data).consentText as string;
    expect(consent).toContain('We charge $18.00 for each delivery');
    expect(consent).toContain('the Visa card ending 4242');
    expect((await mails(s.email, 'subscription-reactivated'))[0]!.text).toContain(consent.split('\n')[1]!);

    await runRenewals(deps, new Date(Date.parse(r.next_renewal_at) - 2.5 * DAY));
    await runRenewals(deps, new Date(Date.parse(r.next_renewal_at) + 60_000));
    expect(await renewalLines(s.userId)).toMatchObject([{ variant_id: s.variantId, payment_status: 'paid' }]);
  });

  it('refuses an admin acting as the customer (403), one still renewing (409) and one whose plan is off (409)', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: inDays(10).toISOString() });
    await offerPlan(s);
    const me = await signedIn(s.email);
    const active = await me.post(`/api/account/subscriptions/${s.id}/reactivate`, { consent: true, nextDeliveryOn: dayIn(5) });
    expect(active.statusCode).toBe(409);
    expect(active.json().error).toBe(SUBSCRIPTION_MESSAGES.notCancelled);
    expect((await me.post(`/api/account/subscriptions/${s.id}/cancel`, {})).statusCode).toBe(200);

    const acting = new TestClient(t.app, '10.63.5.1');
    expect((await acting.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
    expect((await acting.post('/api/impersonation', { userId: s.userId })).statusCode).toBe(200);
    const impersonated = await acting.post(`/api/account/subscriptions/${s.id}/reactivate`, { consent: true, nextDeliveryOn: dayIn(5) });
    expect(impersonated.statusCode).toBe(403);
    expect(impersonated.json().error).toBe(SUBSCRIPTION_MESSAGES.reactivateWhileImpersonating);

    await offerPlan(s, { enabled: false });
    const off = await me.post(`/api/account/subscriptions/${s.id}/reactivate`, { consent: true, nextDeliveryOn: dayIn(5) });
    expect(off.statusCode).toBe(409);
    expect(off.json().error).toBe(SUBSCRIPTION_MESSAGES.planOff);
    expect((await row(s.id)).status).toBe('cancelled');
  });
});

describe(`the timeline on ${testDialect()}`, () => {
  it('names who did what: the customer as "You", an admin acting for them and the schedule as "The shop"; the owner sees names', async () => {
    const next = inDays(14).toISOString();
    const s = await makeSubscription(t.db, { nextRenewalAt: next });
    await offerPlan(s);
    const me = await signedIn(s.email);
    expect((await me.request('PATCH', `/api/account/subscriptions/${s.id}`, { everyWeeks: 8 })).statusCode).toBe(200);
    const acting = new TestClient(t.app, '10.63.6.1');
    expect((await acting.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
    expect((await acting.post('/api/impersonation', { userId: s.userId })).statusCode).toBe(200);
    expect((await acting.post(`/api/account/subscriptions/${s.id}/pause`, { until: dayIn(30) })).statusCode).toBe(200);
    const mine = (await me.get(`/api/account/subscriptions/${s.id}/timeline`)).json().events as {
      type: string;
      actor: string;
      data: object;
    }[];
    expect(mine.map((e) => [e.type, e.actor])).toEqual([
      ['paused', 'The shop'],
      ['changed', 'You'],
    ]);
    expect(mine[1]!.data).toMatchObject({ everyWeeks: { from: 4, to: 8 } });
    const rows = await events(s.id);
    expect(rows.map((e) => e.actor_label)).toEqual([s.email, `${DEMO_ADMIN.email} as ${s.email}`]);
    const stranger = await signedIn((await makeSubscription(t.db, { nextRenewalAt: next })).email);
    expect((await stranger.get(`/api/account/subscriptions/${s.id}/timeline`)).statusCode).toBe(404);
  });
});

describe(`card pages are limited on ${testDialect()}`, () => {
  it('twelve "Update card" clicks at once: ten pages, two refused with when to try again', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: inDays(20).toISOString() });
    const me = await signedIn(s.email);
    const answers = await Promise.all(Array.from({ length: 12 }, () => me.post(`/api/account/subscriptions/${s.id}/card`, {})));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(10);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused).toHaveLength(2);
    expect(refused[0]!.json().error).toBe(SUBSCRIPTION_MESSAGES.cardUpdatesTooMany);
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe(`the next delivery's guards on ${testDialect()}`, () => {
  it('fifty "Leave out" clicks at once from two tabs: one change, one event, one e-mail', async () => {
    const { s, second } = await twoItems({ nextRenewalAt: inDays(20).toISOString() });
    const tabs = [await signedIn(s.email), await signedIn(s.email)];
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        tabs[i % 2]!.post(`/api/account/subscriptions/${s.id}/items/skip`, { variantId: second.variantId, skip: true }),
      ),
    );
    expect(answers.map((a) => a.statusCode).every((c) => c === 200)).toBe(true);
    expect((await events(s.id)).filter((e) => e.type === 'item.skipped')).toHaveLength(1);
    expect(await mails(s.email, 'subscription-next-delivery')).toHaveLength(1);
  });

  it('spelled otherwise (percent-encoded letters, //, /./, a trailing slash), still the account’s: a stranger and a guest change nothing', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: inDays(20).toISOString() });
    const extra = await createProduct(t.db, { name: 'Sponge', priceCents: 300, inventory: 10 });
    const body = { variantId: `var_${extra.id}`, quantity: 1 };
    const guest = new TestClient(t.app, '10.63.9.1');
    const stranger = await signedIn((await makeSubscription(t.db, { nextRenewalAt: inDays(20).toISOString() })).email);
    for (const path of [
      `/api/account/subscriptions/${s.id}/extras`,
      `/api/account/subscriptions/${s.id}/%65xtras`,
      `/api/%61ccount/subscriptions/${s.id}/extras`,
      `/api/account//subscriptions/${s.id}/extras`,
      `/api/account/./subscriptions/${s.id}/extras`,
      `/api/account/subscriptions/${s.id}/extras/`,
    ]) {
      expect([401, 404], `guest ${path}`).toContain((await guest.post(path, body)).statusCode);
      expect([401, 403, 404], `stranger ${path}`).toContain((await stranger.post(path, body)).statusCode);
    }
    expect(await t.db.selectFrom('subscription_extras').selectAll().where('subscription_id', '=', s.id).execute()).toEqual([]);
    expect(await events(s.id)).toEqual([]);
  });
});
