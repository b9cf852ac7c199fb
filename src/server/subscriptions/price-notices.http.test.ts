import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { bulkSubscriptions, makeSubscription, renewalDeps, type TestSubscription } from '../test/subscriptions.js';
import { createProduct, createVariant } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { transactionWithRetry } from '../db/locks.js';
import { runRenewals, type RenewalDeps } from './renewals.js';
import { PRICE_REVIEW_BATCH, priceBehindLine, reviewSubscriptionPrices, runPriceNotices } from './price-notices.js';
import { addWeeks, discountedCents, renewalDateText, SubscriptionView } from '../../shared/subscriptions.js';

/**
 * Price changes told before they are charged (issue [5/8], decision 0058 "Price changes"), with the
 * clock moved: the owner's save only marks the product; the schedule's pass tells each subscriber
 * (one notice per item, one e-mail) and a rise is charged from the first delivery due at least 7
 * days after, a fall at once. The renewal never charges more than the customer was told, whatever
 * came between the reminder and the charge; two passes at once tell once.
 */
let t: TestApp;
let deps: RenewalDeps;
let admin: TestClient;
const DAY = 86_400_000;
// Whole minutes, so the e-mails' dates read the same wherever the test runs in the day.
const NOW = Math.floor(Date.now() / 60_000) * 60_000;
const inDays = (d: number) => new Date(NOW + d * DAY);

beforeAll(async () => {
  t = await createTestApp({ env: { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' } });
  deps = renewalDeps(t);
  admin = new TestClient(t.app, '10.91.0.1');
  expect((await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

const notices = (subscriptionId: string) =>
  t.db.selectFrom('subscription_price_notices').selectAll().where('subscription_id', '=', subscriptionId).orderBy('id').execute();
const mails = (to: string, templateId = 'subscription-price-change') =>
  t.db
    .selectFrom('email_outbox')
    .selectAll()
    .where('to_address', '=', to)
    .where('template_id', '=', templateId)
    .orderBy('created_at')
    .execute();
const item = (s: Pick<TestSubscription, 'id' | 'variantId'>) =>
  t.db
    .selectFrom('subscription_items')
    .selectAll()
    .where('subscription_id', '=', s.id)
    .where('variant_id', '=', s.variantId)
    .executeTakeFirstOrThrow();
const subRow = (id: string) => t.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const renewalLines = (userId: string) =>
  t.db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select([
      'o.id as order_id',
      'o.total_cents',
      'o.payment_status',
      'i.variant_id',
      'i.quantity',
      'i.price_cents',
      'i.plan_discount_percent',
    ])
    .where('o.user_id', '=', userId)
    .where('o.origin', '=', 'renewal')
    .orderBy('o.created_at')
    .execute();
const marks = () => t.db.selectFrom('subscription_price_reviews').selectAll().orderBy('product_id').execute();
const events = (id: string) =>
  t.db.selectFrom('subscription_events').selectAll().where('subscription_id', '=', id).where('type', '=', 'price.notice').execute();

async function offerPlan(productId: string, discountPercent = 10) {
  const at = new Date().toISOString();
  await t.db
    .insertInto('subscription_plans')
    .values({
      product_id: productId,
      variant_id: '',
      enabled: 1,
      intervals: JSON.stringify([2, 4, 8]),
      discount_percent: discountPercent,
      later_discount_percent: null,
      later_from_delivery: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

/** A subscription as a checkout leaves it: its item agreed at the price it was sold at (start.ts), its product's plan on at 10%. */
async function subscribe(o: { nextRenewalAt: Date; priceCents?: number; quantity?: number; product?: { id: string; variantId: string } }) {
  const s = await makeSubscription(t.db, {
    nextRenewalAt: o.nextRenewalAt.toISOString(),
    priceCents: o.priceCents ?? 2000,
    quantity: o.quantity ?? 2,
    discountPercent: 10,
    ...(o.product ? { product: o.product } : {}),
  });
  const price = await t.db.selectFrom('product_variants').select('price_cents').where('id', '=', s.variantId).executeTakeFirstOrThrow();
  await t.db
    .updateTable('subscription_items')
    .set({ agreed_price_cents: Number(price.price_cents) })
    .where('subscription_id', '=', s.id)
    .execute();
  if (!o.product) await offerPlan(s.productId);
  return s;
}

/** The owner's product form, as the back office sends it: a new price for a product without options. */
async function setPrice(productId: string, priceCents: number) {
  const p = await t.db.selectFrom('products').select(['name', 'description']).where('id', '=', productId).executeTakeFirstOrThrow();
  const res = await admin.request('PUT', `/api/admin/products/${productId}`, {
    name: p.name,
    description: p.description || 'A refill.',
    category: null,
    priceCents,
    sku: null,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

let ips = 0;
async function signedIn(email: string) {
  const c = new TestClient(t.app, `10.91.1.${++ips}`);
  expect((await c.signIn(email, 'Test-Password-1')).statusCode).toBe(200);
  return c;
}
const View = z.object({ subscriptions: z.array(SubscriptionView) });

describe(`price changes told before they are charged on ${testDialect()}`, () => {
  it('a rise 3 days before a renewal: that renewal at the old price; the notice names the one after, charged from it', async () => {
    const next = inDays(3);
    const s = await subscribe({ nextRenewalAt: next });
    // The owner's save marks the product, no more: nothing is told or changed in the request.
    await setPrice(s.productId, 2400);
    expect((await marks()).map((m) => m.product_id)).toContain(s.productId);
    expect(await notices(s.id)).toEqual([]);
    expect(await mails(s.email)).toEqual([]);

    const turn = await runPriceNotices(deps, new Date(NOW));
    expect(turn).toMatchObject({ told: 1, more: false });
    expect((await marks()).map((m) => m.product_id)).not.toContain(s.productId);
    const after = addWeeks(next.toISOString(), 4);
    expect(await notices(s.id)).toMatchObject([
      {
        variant_id: s.variantId,
        from_cents: 1800,
        to_cents: 2160,
        price_cents: 2400,
        discount_percent: 10,
        status: 'pending',
        told_at: new Date(NOW).toISOString(),
        effective_from: after,
      },
    ]);
    const [mail] = await mails(s.email);
    expect(mail!.subject).toBe(`Your subscription’s price changes from your delivery of ${renewalDateText(after)}`);
    expect(mail!.text).toContain(
      `We are writing on ${renewalDateText(new Date(NOW).toISOString())}, before it applies: from your delivery of ${renewalDateText(after)} on, your subscription is charged per delivery (before shipping and tax):`,
    );
    expect(mail!.text).toMatch(/\nRefill [^\n]+ x 2: \$43\.20 \(was \$36\.00\)\n/);
    expect(mail!.text).toContain('Until then, every delivery is charged at the price you pay now.');
    expect(mail!.text).toMatch(/Skip a delivery: http:\/\/shop\.test\/subscriptions\/manage\/[A-Za-z0-9_-]{43}#skip\n/);
    expect(mail!.html).toMatch(/href="http:\/\/shop\.test\/subscriptions\/manage\/[A-Za-z0-9_-]{43}#cancel"/);
    expect(await events(s.id)).toMatchObject([{ type: 'price.notice', actor_label: 'system' }]);
    expect(JSON.parse((await events(s.id))[0]!.data)).toEqual({
      variantId: s.variantId,
      name: expect.stringMatching(/^Refill /),
      fromCents: 1800,
      toCents: 2160,
      effectiveFrom: after,
    });

    // The customer's page: the next delivery at the price told, and the change to come.
    const me = await signedIn(s.email);
    const view = View.parse((await me.get('/api/account/subscriptions')).json()).subscriptions.find((v) => v.id === s.id)!;
    expect(view.items[0]!.unitPriceCents).toBe(1800);
    expect(view.priceNotices).toEqual([{ variantId: s.variantId, fromCents: 1800, toCents: 2160, effectiveFrom: after }]);

    // The renewal 3 days on: the old price.
    await runRenewals(deps, inDays(0.01));
    await runRenewals(deps, inDays(3.01));
    let lines = await renewalLines(s.userId);
    expect(lines).toMatchObject([{ payment_status: 'paid', quantity: 2, price_cents: 1800 }]);
    expect(Number(lines[0]!.total_cents)).toBe(view.nextDeliveryTotalCents);
    // Its date is not here yet: still pending, and the page now shows the new price for the next delivery.
    await runPriceNotices(deps, inDays(3.02));
    expect((await notices(s.id))[0]!.status).toBe('pending');
    const later = View.parse((await me.get('/api/account/subscriptions')).json()).subscriptions.find((v) => v.id === s.id)!;
    expect(later.items[0]!.unitPriceCents).toBe(2160);

    // The reminder of the delivery after states the new price; the renewal charges it; then it is the agreed price.
    const dueAfter = (Date.parse(after) - NOW) / DAY;
    await runRenewals(deps, inDays(dueAfter - 2.9));
    const reminders = await mails(s.email, 'subscription-renewal-reminder');
    expect(reminders.at(-1)!.text).toContain('$43.20');
    await runRenewals(deps, inDays(dueAfter + 0.01));
    lines = await renewalLines(s.userId);
    expect(lines.map((l) => l.price_cents)).toEqual([1800, 2160]);
    await runPriceNotices(deps, inDays(dueAfter + 0.02));
    expect((await notices(s.id))[0]!.status).toBe('applied');
    expect((await item(s)).agreed_price_cents).toBe(2400);
  });

  it('a rise 10 days before a renewal: charged from that renewal', async () => {
    const s = await subscribe({ nextRenewalAt: inDays(10) });
    await setPrice(s.productId, 2400);
    await runPriceNotices(deps, new Date(NOW));
    expect(await notices(s.id)).toMatchObject([{ status: 'pending', effective_from: inDays(10).toISOString(), to_cents: 2160 }]);
    expect((await mails(s.email))[0]!.subject).toContain(renewalDateText(inDays(10).toISOString()));
    await runRenewals(deps, inDays(7.01));
    await runRenewals(deps, inDays(10.01));
    expect(await renewalLines(s.userId)).toMatchObject([{ payment_status: 'paid', price_cents: 2160 }]);
  });

  it('a fall: charged at once (before the pass, too), told, and agreed at once', async () => {
    const s = await subscribe({ nextRenewalAt: inDays(2) });
    // Through the variants editor this time.
    const res = await admin.request('PUT', `/api/admin/products/${s.productId}/variants`, {
      options: [],
      variants: [{ id: s.variantId, options: [], sku: null, priceCents: 1500, enabled: true }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const me = await signedIn(s.email);
    const before = View.parse((await me.get('/api/account/subscriptions')).json()).subscriptions[0]!;
    expect(before.items[0]!.unitPriceCents).toBe(1350);
    await runPriceNotices(deps, new Date(NOW));
    expect(await notices(s.id)).toMatchObject([
      { from_cents: 1800, to_cents: 1350, status: 'applied', effective_from: inDays(2).toISOString() },
    ]);
    expect((await item(s)).agreed_price_cents).toBe(1500);
    const [mail] = await mails(s.email);
    expect(mail!.text).toMatch(/x 2: \$27\.00 \(was \$36\.00\)/);
    expect(mail!.text).toContain('The new price applies from your next delivery: there is nothing you need to do.');
    await runRenewals(deps, inDays(0.01));
    await runRenewals(deps, inDays(2.01));
    expect(await renewalLines(s.userId)).toMatchObject([{ price_cents: 1350 }]);
    // A second pass finds nothing new to tell.
    await setPrice(s.productId, 1500);
    await runPriceNotices(deps, inDays(2.02));
    expect(await notices(s.id)).toHaveLength(1);
    expect(await mails(s.email)).toHaveLength(1);
  });

  it("a plan's discount: less is told and charged from 7 days on; more is charged at once", async () => {
    const s = await subscribe({ nextRenewalAt: inDays(3) });
    const plan = (discountPercent: number) =>
      admin.request('PUT', `/api/admin/products/${s.productId}/subscription-plan`, {
        enabled: true,
        intervals: [2, 4, 8],
        discountPercent,
      });
    expect((await plan(5)).statusCode).toBe(200);
    await runPriceNotices(deps, new Date(NOW));
    const after = addWeeks(inDays(3).toISOString(), 4);
    expect(await notices(s.id)).toMatchObject([
      { from_cents: 1800, to_cents: 1900, price_cents: 2000, discount_percent: 5, status: 'pending', effective_from: after },
    ]);
    // The subscription's terms change only when the notice takes effect.
    expect((await subRow(s.id)).discount_percent).toBe(10);
    await runRenewals(deps, inDays(0.01));
    await runRenewals(deps, inDays(3.01));
    expect(await renewalLines(s.userId)).toMatchObject([{ price_cents: 1800, plan_discount_percent: 10 }]);
    const dueAfter = (Date.parse(after) - NOW) / DAY;
    await runRenewals(deps, inDays(dueAfter - 2.9));
    await runRenewals(deps, inDays(dueAfter + 0.01));
    expect((await renewalLines(s.userId)).at(-1)).toMatchObject({ price_cents: 1900, plan_discount_percent: 5 });
    await runPriceNotices(deps, inDays(dueAfter + 0.02));
    expect((await subRow(s.id)).discount_percent).toBe(5);

    // A bigger discount: told and in the terms at once.
    expect((await plan(20)).statusCode).toBe(200);
    await runPriceNotices(deps, inDays(dueAfter + 0.03));
    expect((await notices(s.id)).at(-1)).toMatchObject({ from_cents: 1900, to_cents: 1600, status: 'applied', discount_percent: 20 });
    expect((await subRow(s.id)).discount_percent).toBe(20);
    expect(await mails(s.email)).toHaveLength(2);
  });

  it('the race: reminder sent, then the price rises, then the renewal: the old price, as the reminder said', async () => {
    const s = await subscribe({ nextRenewalAt: inDays(5) });
    await runRenewals(deps, inDays(2.1));
    const [reminder] = await mails(s.email, 'subscription-renewal-reminder');
    expect(reminder!.text).toContain('$36.00');
    await setPrice(s.productId, 3000);
    // Raised after the reminder, and the pass even told it in time for no renewal before the next.
    await runPriceNotices(deps, inDays(2.2));
    expect((await notices(s.id))[0]).toMatchObject({ status: 'pending', effective_from: addWeeks(inDays(5).toISOString(), 4) });
    await runRenewals(deps, inDays(5.01));
    const [line] = await renewalLines(s.userId);
    expect(line).toMatchObject({ payment_status: 'paid', price_cents: 1800 });
    // The same raise with the pass not run yet (a backlog): still the old price.
    const other = await subscribe({ nextRenewalAt: inDays(5) });
    await runRenewals(deps, inDays(2.1));
    await setPrice(other.productId, 3000);
    await runRenewals(deps, inDays(5.01));
    expect(await renewalLines(other.userId)).toMatchObject([{ price_cents: 1800 }]);
  });

  it('two processes at once: one notice and one e-mail per subscription item', async () => {
    const p = await createProduct(t.db, { name: 'Shared Refill', priceCents: 1000, inventory: 500 });
    await offerPlan(p.id);
    const product = { id: p.id, variantId: `var_${p.id}` };
    const subs = await Promise.all(Array.from({ length: 6 }, () => subscribe({ nextRenewalAt: inDays(20), product, quantity: 1 })));
    await setPrice(p.id, 1200);
    await Promise.all([runPriceNotices(deps, new Date(NOW)), runPriceNotices(deps, new Date(NOW)), runPriceNotices(deps, new Date(NOW))]);
    // And the review of one subscription twice at the very same time (its lock).
    await Promise.all(
      [0, 1].map(() => transactionWithRetry(t.db, (trx) => reviewSubscriptionPrices(trx, deps, subs[0]!.id, new Date(NOW)))),
    );
    for (const s of subs) {
      expect(await notices(s.id)).toMatchObject([{ status: 'pending', from_cents: 900, to_cents: 1080 }]);
      expect(await mails(s.email)).toHaveLength(1);
      expect(await events(s.id)).toHaveLength(1);
    }
    expect((await marks()).map((m) => m.product_id)).not.toContain(p.id);
  });

  it('the owner saves a price for a product with 2,000 subscribers as fast as for one with none; the pass tells them a batch at a time', async () => {
    const busy = await createProduct(t.db, { name: 'Busy Refill', priceCents: 2000, inventory: 50_000 });
    const quiet = await createProduct(t.db, { name: 'Quiet Refill', priceCents: 2000, inventory: 10 });
    const methodId = (await makeSubscription(t.db, { nextRenewalAt: inDays(30).toISOString() })).methodId;
    await bulkSubscriptions(t.db, {
      prefix: `busy${testDialect()}`,
      count: 2000,
      methodId,
      now: NOW,
      status: () => 'active',
      nextRenewalAt: (i) => inDays(10 + (i % 20)).toISOString(),
      everyWeeks: () => 4,
      items: () => [{ productId: busy.id, quantity: 1 }],
    });
    await t.db.updateTable('subscription_items').set({ agreed_price_cents: 2000 }).where('product_id', '=', busy.id).execute();
    const timed = async (productId: string, priceCents: number) => {
      const started = performance.now();
      await setPrice(productId, priceCents);
      return performance.now() - started;
    };
    // Warm, then alternate: the median of each.
    await timed(quiet.id, 2001);
    const quietTimes: number[] = [];
    const busyTimes: number[] = [];
    for (let k = 0; k < 5; k++) {
      quietTimes.push(await timed(quiet.id, 2100 + k));
      busyTimes.push(await timed(busy.id, 2100 + k));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    expect(median(busyTimes)).toBeLessThan(median(quietTimes) * 2 + 25);
    // Nothing told in the requests: one mark.
    const told = await t.db.selectFrom('subscription_price_notices').select('id').where('product_id', '=', busy.id).execute();
    expect(told).toHaveLength(0);
    expect((await marks()).filter((m) => m.product_id === busy.id)).toHaveLength(1);

    // The pass: one batch a turn, the cursor kept between turns, the mark gone at the end.
    const first = await runPriceNotices(deps, new Date(NOW));
    expect(first).toMatchObject({ reviewed: PRICE_REVIEW_BATCH, told: PRICE_REVIEW_BATCH, more: true });
    const [mark] = (await marks()).filter((m) => m.product_id === busy.id);
    expect(mark!.cursor).not.toBe('');
    expect(mark!.lease_until).toBeNull();
    let turns = 1;
    while ((await runPriceNotices(deps, new Date(NOW))).more) turns++;
    expect(turns).toBeGreaterThanOrEqual(2000 / PRICE_REVIEW_BATCH - 1);
    const all = await t.db
      .selectFrom('subscription_price_notices')
      .select(['subscription_id', 'to_cents'])
      .where('product_id', '=', busy.id)
      .execute();
    expect(all).toHaveLength(2000);
    expect(new Set(all.map((n) => n.subscription_id)).size).toBe(2000);
    expect(all.every((n) => n.to_cents === discountedCents(2104, 10))).toBe(true);
    expect((await marks()).filter((m) => m.product_id === busy.id)).toHaveLength(0);
  }, 180_000);

  it('a save that moves no price marks nothing', async () => {
    const s = await subscribe({ nextRenewalAt: inDays(12) });
    await setPrice(s.productId, 2000);
    expect((await marks()).map((m) => m.product_id)).not.toContain(s.productId);
  });

  it('a checkout agrees to the price it was sold at, even when the owner raised it before the payment; a swapped-in version to its own', async () => {
    const p = await createProduct(t.db, { name: 'Checkout Refill', priceCents: 2000, inventory: 40 });
    await offerPlan(p.id);
    const large = await createVariant(t.db, p.id, { options: ['Large'], priceCents: 3000, position: 1 });
    const buyer = await makeSubscription(t.db, { nextRenewalAt: inDays(40).toISOString() });
    const c = await signedIn(buyer.email);
    const started = await c.post('/api/create-checkout-session', {
      items: [{ productId: p.id, variantId: `var_${p.id}`, quantity: 1, everyWeeks: 4 }],
      customerEmail: buyer.email,
      shippingAddress: { name: 'Robin Renew', address: '9 Schedule St', city: 'Bend', state: 'OR', zip: '97701', country: 'US' },
      acceptSubscriptionTerms: true,
    });
    expect(started.statusCode, started.body).toBe(200);
    const { orderId, sessionId } = started.json() as { orderId: string; sessionId: string };
    await t.db.updateTable('product_variants').set({ price_cents: 2500 }).where('id', '=', `var_${p.id}`).execute();
    const paid = await c.request(
      'POST',
      `/pay/${sessionId}`,
      new URLSearchParams({ cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Robin Renew' }),
    );
    expect(paid.statusCode).toBe(303);
    const sub = await t.db.selectFrom('subscriptions').selectAll().where('first_order_id', '=', orderId).executeTakeFirstOrThrow();
    expect(await item({ id: sub.id, variantId: `var_${p.id}` })).toMatchObject({ agreed_price_cents: 2000 });

    // The customer swaps to the large one: agreed at its price today, which the "changed" e-mail states.
    const swapped = await c.request('PATCH', `/api/account/subscriptions/${sub.id}`, {
      items: [{ variantId: `var_${p.id}`, quantity: 1, swapTo: large }],
    });
    expect(swapped.statusCode, swapped.body).toBe(200);
    expect(await item({ id: sub.id, variantId: large })).toMatchObject({ agreed_price_cents: 3000 });
    const changed = await mails(buyer.email, 'subscription-changed');
    expect(changed.at(-1)!.text).toContain('$27.00');
  });

  it('the template is editable like the others; its preview reads a notice told at least 7 days ahead', async () => {
    const preview = await admin.get('/api/admin/email-templates/subscription-price-change/preview');
    expect(preview.statusCode, preview.body).toBe(200);
    const { subject, html, text } = preview.json() as { subject: string; html: string; text: string };
    expect(subject).toBe('Your subscription’s price changes from your delivery of March 28, 2026');
    expect(text).toContain('We are writing on March 14, 2026, before it applies: from your delivery of March 28, 2026 on');
    expect(text).toContain('Laundry Powder, 2 lb x 2: $39.60 (was $36.00)');
    expect(html).toContain('Laundry Powder, 2 lb &times; 2');
    expect(html).toContain('<strong>$39.60</strong>');
    expect(text).toContain('Cancel it (a click, no password needed): https://shop.example/subscriptions/manage/sample#cancel');

    const list = (await admin.get('/api/admin/email-templates')).json() as {
      items: { id: string; builtIn: boolean; variables: string[] }[];
    };
    expect(list.items.find((i) => i.id === 'subscription-price-change')).toMatchObject({
      builtIn: true,
      variables: ['customerName', 'noticeDate', 'effectiveDate', 'priceChanges', 'priceNote', 'manageUrl'],
    });
    const saved = await admin.post('/api/admin/email-templates', {
      id: 'subscription-price-change',
      name: 'Subscription Price Change',
      subject: 'New prices from {{effectiveDate}}',
      html: '<p>{{#each priceChanges}}{{name}}: {{newPrice}}{{/each}} from {{effectiveDate}}. <a href="{{manageUrl}}">Manage</a></p>',
      text: '{{#each priceChanges}}{{name}}: {{newPrice}} (was {{oldPrice}}){{/each}} from {{effectiveDate}}: {{manageUrl}}',
      variables: [],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await admin.get('/api/admin/email-templates/subscription-price-change/preview')).json()).toMatchObject({
      subject: 'New prices from March 28, 2026',
    });
    const unknown = await admin.post('/api/admin/email-templates', {
      id: 'subscription-price-change',
      name: 'Subscription Price Change',
      subject: 'New prices from {{effectivDate}}',
      html: '<p>x</p>',
      variables: [],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toContain('{{effectivDate}}');
    expect((await admin.post('/api/admin/email-templates/subscription-price-change/restore-default')).statusCode).toBe(200);
  });

  it('finds the shop price behind a checkout line at any discount', () => {
    expect(priceBehindLine(1800, 10, 2000)).toBe(2000);
    expect(priceBehindLine(1800, 10, 2500)).toBe(2000);
    expect(priceBehindLine(1799, 15, 2500)).toBe(2117);
    expect(discountedCents(2117, 15)).toBeLessThanOrEqual(1799);
    expect(discountedCents(2118, 15)).toBeGreaterThan(1799);
    expect(priceBehindLine(0, 100, 2500)).toBe(2500);
    expect(priceBehindLine(1500, 0, 1400)).toBe(1400);
  });
});
