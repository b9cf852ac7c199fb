import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { guestCheckoutBody } from '../test/checkout-orders.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { fulfilPaymentSession } from '../checkout/service.js';
import { runReorderReminders, type ReorderReminderDeps } from './reorder-reminders.js';
import { REORDER_MESSAGES, type AdminReorderReminders, type ReorderPreview } from '../../shared/schemas/reorder-reminders.js';

/**
 * Issue [7/8] item 4: reorder reminders, with the clock moved. A one-time buyer of a product with a
 * reorder period who said yes to offers gets one e-mail when it is due (not before, not for an old
 * order), with the unsubscribe link, the one-click header and the postal address; nothing when they
 * ordered it again or subscribe to it; the order's products due together go in one e-mail; two
 * passes at once send one; the reorder link reads without a cookie, signs nobody in, and a changed
 * token is refused; the product form's reorder days are checked; the owner's figures are the owner's.
 */
let t: TestApp;
let admin: TestClient;
let deps: ReorderReminderDeps;
const DAY = 86_400_000;
beforeAll(async () => {
  t = await createTestApp({ env: { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' } });
  admin = new TestClient(t.app, '10.98.0.1');
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  deps = { db: t.db, dialect: t.dialect, publicUrl: 'http://shop.test', log: { error: () => undefined } };
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
const ip = () => `10.72.${Math.floor(++n / 250)}.${n % 250}`;
const address = (label: string) => `${label}-${Date.now().toString(36)}-${++n}@example.com`;
const later = (days: number, from: number) => new Date(from + days * DAY);

let powder: { id: string };
let pads: { id: string };
let plain: { id: string };
beforeAll(async () => {
  powder = await createProduct(t.db, { name: 'Refill Powder', priceCents: 1800, inventory: 10_000, reorderAfterDays: 42 });
  pads = await createProduct(t.db, { name: 'Refill Pads', priceCents: 900, inventory: 10_000, reorderAfterDays: 42 });
  plain = await createProduct(t.db, { name: 'Plain Brush', priceCents: 500, inventory: 10_000 });
});

/** A paid one-time order, as a shopper's checkout makes it; `paidAt` the order's payment time. */
async function buy(email: string, items: { productId: string; quantity: number }[], o: { marketing?: boolean } = {}) {
  const client = new TestClient(t.app, ip());
  const res = await client.post('/api/create-checkout-session', {
    ...guestCheckoutBody(items),
    customerEmail: email,
    ...(o.marketing === undefined ? {} : { marketing: o.marketing }),
  });
  expect(res.statusCode, res.body).toBe(200);
  const { orderId, sessionId } = res.json<{ orderId: string; sessionId: string }>();
  await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
  const order = await t.db.selectFrom('orders').select(['paid_at', 'total_cents']).where('id', '=', orderId).executeTakeFirstOrThrow();
  expect(order.paid_at).not.toBeNull();
  return { orderId, paidAt: Date.parse(order.paid_at!), totalCents: order.total_cents };
}

const remindersOf = (orderId: string) =>
  t.db.selectFrom('reorder_reminders').selectAll().where('order_id', '=', orderId).orderBy('product_id').execute();
const mailsTo = (email: string) =>
  t.db
    .selectFrom('email_outbox')
    .selectAll()
    .where('to_address', '=', email)
    .where('template_id', '=', 'reorder-reminder')
    .orderBy('created_at')
    .execute();
const tokenIn = (text: string) => decodeURIComponent(/\/reorder\?token=([^\s"&]+)/.exec(text)?.[1] ?? '');

describe('when and to whom', () => {
  it('only a yes is e-mailed, at the set time and not before, with the unsubscribe link, the one-click header and the postal address', async () => {
    const yes = address('yes');
    const no = address('no');
    const a = await buy(yes, [{ productId: powder.id, quantity: 2 }], { marketing: true });
    const b = await buy(no, [{ productId: powder.id, quantity: 1 }]);
    await runReorderReminders(deps, later(41.9, a.paidAt));
    expect(await remindersOf(a.orderId)).toHaveLength(0);
    expect(await mailsTo(yes)).toHaveLength(0);

    await runReorderReminders(deps, later(42.01, b.paidAt));
    expect(await remindersOf(a.orderId)).toMatchObject([{ state: 'sent', reason: null, email: yes, product_id: powder.id }]);
    expect(await remindersOf(b.orderId)).toMatchObject([{ state: 'skipped', reason: 'no-consent' }]);
    expect(await mailsTo(no)).toHaveLength(0);
    const mails = await mailsTo(yes);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail).toMatchObject({ subject: 'Running low? Reorder in one click', status: 'queued' });
    expect(mail!.list_unsubscribe).toMatch(/^http:\/\/shop\.test\/api\/unsubscribe\/mkt_[a-z0-9]+\.[A-Za-z0-9_-]{43}$/);
    expect(mail!.html).toContain('http://shop.test/unsubscribe?token&#x3D;mkt_');
    expect(mail!.text).toContain('http://shop.test/unsubscribe?token=mkt_');
    expect(mail!.html).toContain('12 Green Lane');
    expect(mail!.text).toContain('12 Green Lane');
    expect(mail!.html).toContain('Refill Powder');
    expect(mail!.html).toContain('$36.00');
    expect(mail!.html).toContain('/reorder?token&#x3D;rrb_');
    expect(tokenIn(mail!.text!)).toMatch(/^rrb_/);
    // No plan on this product: no subscribe link.
    expect(mail!.text).not.toContain('Subscribe and save');

    // Again, and later: nothing more.
    await runReorderReminders(deps, later(43, a.paidAt));
    expect(await mailsTo(yes)).toHaveLength(1);
  });

  it('an order paid longer ago than the catch-up window is never reminded; a product without a period never', async () => {
    const email = address('old');
    const a = await buy(
      email,
      [
        { productId: powder.id, quantity: 1 },
        { productId: plain.id, quantity: 1 },
      ],
      { marketing: true },
    );
    await runReorderReminders(deps, later(42 + 15, a.paidAt));
    expect(await remindersOf(a.orderId)).toHaveLength(0);
    expect(await mailsTo(email)).toHaveLength(0);
    await runReorderReminders(deps, later(42.5, a.paidAt));
    expect((await remindersOf(a.orderId)).map((r) => r.product_id)).toEqual([powder.id]);
  });

  it('not when the customer ordered the product again since', async () => {
    const email = address('again');
    const first = await buy(email, [{ productId: powder.id, quantity: 1 }], { marketing: true });
    const second = await buy(email, [{ productId: powder.id, quantity: 3 }], { marketing: true });
    await runReorderReminders(deps, later(42.0001, first.paidAt));
    expect(await remindersOf(first.orderId)).toMatchObject([{ state: 'skipped', reason: 'reordered' }]);
    await runReorderReminders(deps, later(42.01, second.paidAt));
    expect(await remindersOf(second.orderId)).toMatchObject([{ state: 'sent' }]);
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('not when the customer subscribes to the product', async () => {
    const user = await createUser(t.db, { email: address('subscriber') });
    const a = await buy(
      user.email,
      [
        { productId: powder.id, quantity: 1 },
        { productId: pads.id, quantity: 1 },
      ],
      { marketing: true },
    );
    const at = new Date().toISOString();
    await t.db
      .insertInto('subscriptions')
      .values({
        id: `sub_${n}test`,
        user_id: user.id,
        email: user.email,
        status: 'paused',
        every_weeks: 4,
        discount_percent: 10,
        later_discount_percent: null,
        later_from_delivery: null,
        next_renewal_at: at,
        shipping_address: '{}',
        shipping_option_id: null,
        provider: 'test',
        customer_ref: null,
        payment_method_ref: null,
        payment_ref: null,
        first_order_id: a.orderId,
        consent_text: 'I agree',
        consent_at: at,
        manage_token_hash: null,
        failing_since: null,
        cancelled_at: null,
        cancel_reason: null,
        card_brand: null,
        card_last4: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await t.db
      .insertInto('subscription_items')
      .values({ subscription_id: `sub_${n}test`, product_id: powder.id, variant_id: `var_${powder.id}`, quantity: 1 })
      .execute();
    await runReorderReminders(deps, later(42.01, a.paidAt));
    const rows = await remindersOf(a.orderId);
    expect(rows.find((r) => r.product_id === powder.id)).toMatchObject({ state: 'skipped', reason: 'subscribed' });
    expect(rows.find((r) => r.product_id === pads.id)).toMatchObject({ state: 'sent' });
    const mails = await mailsTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.html).toContain('Refill Pads');
    expect(mails[0]!.html).not.toContain('Refill Powder');
  });

  it('not after an unsubscribe', async () => {
    const email = address('unsub');
    const a = await buy(email, [{ productId: powder.id, quantity: 1 }], { marketing: true });
    await t.db.insertInto('email_opt_outs').values({ email, kind: 'marketing', created_at: new Date().toISOString() }).execute();
    await runReorderReminders(deps, later(42.01, a.paidAt));
    expect(await remindersOf(a.orderId)).toMatchObject([{ state: 'skipped', reason: 'opted-out' }]);
    expect(await mailsTo(email)).toHaveLength(0);
  });
});

describe('one e-mail per order, once', () => {
  it('two due products of one order go in one e-mail', async () => {
    const email = address('two');
    const a = await buy(
      email,
      [
        { productId: powder.id, quantity: 1 },
        { productId: pads.id, quantity: 2 },
      ],
      { marketing: true },
    );
    await runReorderReminders(deps, later(42.01, a.paidAt));
    const rows = await remindersOf(a.orderId);
    expect(rows.map((r) => r.state)).toEqual(['sent', 'sent']);
    expect(new Set(rows.map((r) => r.batch_id)).size).toBe(1);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.html).toContain('Refill Powder');
    expect(mails[0]!.html).toContain('Refill Pads');
    expect(rows.every((r) => r.mail_id === mails[0]!.id)).toBe(true);
  });

  it('two passes at once (two processes) decide each order once and send one e-mail', async () => {
    const email = address('race');
    const a = await buy(
      email,
      [
        { productId: powder.id, quantity: 1 },
        { productId: pads.id, quantity: 1 },
      ],
      { marketing: true },
    );
    const when = later(42.01, a.paidAt);
    await Promise.all([runReorderReminders(deps, when), runReorderReminders(deps, when), runReorderReminders(deps, when)]);
    expect(await mailsTo(email)).toHaveLength(1);
    expect(await remindersOf(a.orderId)).toHaveLength(2);
  });

  it('a turn whose batch ends inside an order leaves that order whole to the next: one e-mail per order (a backlog of due lines)', async () => {
    const emails = [address('cut-a'), address('cut-b')] as const;
    const items = [
      { productId: powder.id, quantity: 1 },
      { productId: pads.id, quantity: 1 },
    ];
    const a = await buy(emails[0], items, { marketing: true });
    const b = await buy(emails[1], items, { marketing: true });
    const when = later(42.01, Math.max(a.paidAt, b.paidAt));
    // Three lines a turn: the second order's lines straddle every batch's end at least once.
    for (let turn = 0; turn < 50; turn++) if (!(await runReorderReminders(deps, when, 3)).more) break;
    for (const o of [a, b]) {
      const rows = await remindersOf(o.orderId);
      expect(rows.map((r) => r.state)).toEqual(['sent', 'sent']);
      expect(new Set(rows.map((r) => r.batch_id)).size).toBe(1);
    }
    for (const email of emails) expect(await mailsTo(email)).toHaveLength(1);
  });

  it('a product with subscribe and save gets its link to the product page (the seeded laundry powder: 42 days, 10% off)', async () => {
    const email = address('plan');
    const a = await buy(email, [{ productId: 'laundry-powder', quantity: 1 }], { marketing: true });
    await runReorderReminders(deps, later(42.01, a.paidAt));
    const [mail] = await mailsTo(email);
    expect(mail!.text).toContain('Subscribe and save 10%: http://shop.test/products/laundry-powder?variant=var_laundry-powder');
    expect(mail!.html).toContain('Subscribe and save 10%');
  });
});

describe('the reorder link', () => {
  it('reads without a cookie and signs nobody in; using it fills nothing on the server, may be repeated, and is noted', async () => {
    const email = address('link');
    const a = await buy(email, [{ productId: powder.id, quantity: 3 }], { marketing: true });
    await runReorderReminders(deps, later(42.01, a.paidAt));
    const token = tokenIn((await mailsTo(email))[0]!.text!);
    const stranger = new TestClient(t.app, ip());
    const read = await stranger.get(`/api/reorder/${encodeURIComponent(token)}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<ReorderPreview>()).toMatchObject({
      lines: [{ productId: powder.id, name: 'Refill Powder', quantity: 3, unitPriceCents: 1800, available: true, subscribePercent: null }],
    });
    expect(read.cookies.find((c) => c.name === 'session')).toBeUndefined();
    expect((await remindersOf(a.orderId))[0]!.clicked_at).toBeNull();

    const used = await stranger.post(`/api/reorder/${encodeURIComponent(token)}`);
    expect(used.statusCode, used.body).toBe(200);
    expect(used.cookies.find((c) => c.name === 'session')).toBeUndefined();
    const clicked = (await remindersOf(a.orderId))[0]!.clicked_at;
    expect(clicked).not.toBeNull();
    const again = await new TestClient(t.app, ip()).post(`/api/reorder/${encodeURIComponent(token)}`);
    expect(again.statusCode).toBe(200);
    expect((await remindersOf(a.orderId))[0]!.clicked_at).toBe(clicked);
    const session = await stranger.get('/api/session');
    expect(session.json<{ user: unknown }>().user ?? null).toBeNull();
  });

  it('a changed token, another id with this mac, or none: 404 with a sentence; an expired one: 410', async () => {
    const email = address('link-bad');
    const other = address('link-other');
    const a = await buy(email, [{ productId: powder.id, quantity: 1 }], { marketing: true });
    const b = await buy(other, [{ productId: powder.id, quantity: 1 }], { marketing: true });
    await runReorderReminders(deps, later(42.01, Math.max(a.paidAt, b.paidAt)));
    const token = tokenIn((await mailsTo(email))[0]!.text!);
    const [id, mac] = token.split('.') as [string, string];
    const otherBatch = (await remindersOf(b.orderId))[0]!.batch_id;
    const c = new TestClient(t.app, ip());
    // The mac changed in its first character, to one it does not have (a fixed ending could be its own: one run's was …AA).
    const changed = `${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
    for (const bad of [`${otherBatch}.${mac}`, `${id}.${changed}`, 'rrb_nothing', id, '%2e%2e']) {
      const res = await c.get(`/api/reorder/${encodeURIComponent(bad)}`);
      expect(res.statusCode, bad).toBe(404);
      expect(res.json()).toEqual({ error: REORDER_MESSAGES.linkUnknown });
    }
    await t.db
      .updateTable('reorder_reminders')
      .set({ follow_until: new Date(Date.now() - 1000).toISOString() })
      .where('batch_id', '=', id)
      .execute();
    const expired = await c.post(`/api/reorder/${encodeURIComponent(token)}`);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toEqual({ error: REORDER_MESSAGES.linkExpired });
  });
});

describe("the owner's setting and figures", () => {
  it('the product form takes whole days from 7 to 365 or none, and answers 400 with the sentence otherwise', async () => {
    const put = (reorderAfterDays: unknown) =>
      admin.request('PUT', `/api/admin/products/${plain.id}`, {
        name: 'Plain Brush',
        description: 'A product made by a test.',
        priceCents: 500,
        category: 'cleaning-cloths',
        ...(reorderAfterDays === undefined ? {} : { reorderAfterDays }),
      });
    for (const bad of [6, 366, 2.5, '42', -1]) {
      const res = await put(bad);
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json<{ error: string }>().error).toContain(REORDER_MESSAGES.days);
    }
    const ok = await put(56);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().product).toMatchObject({ reorderAfterDays: 56 });
    // Omitted: kept; null: none.
    expect((await put(undefined)).json().product).toMatchObject({ reorderAfterDays: 56 });
    const read = async () =>
      (await t.db.selectFrom('products').select('reorder_after_days').where('id', '=', plain.id).executeTakeFirstOrThrow())
        .reorder_after_days;
    expect(await read()).toBe(56);
    expect((await put(null)).json().product).toMatchObject({ reorderAfterDays: null });
    expect(await read()).toBeNull();
    const listed = (await admin.get(`/api/admin/products?search=${encodeURIComponent('laundry-powder')}`)).json<{
      items: { id: string; reorderAfterDays: number | null }[];
    }>();
    expect(listed.items.find((p) => p.id === 'laundry-powder')?.reorderAfterDays).toBe(42);
  });

  it('the figures: sent, skipped by reason, the orders that followed and their money, the last reminders; a shopper is refused', async () => {
    const email = address('followed');
    const a = await buy(email, [{ productId: pads.id, quantity: 1 }], { marketing: true });
    await runReorderReminders(deps, later(42.01, a.paidAt));
    const [row] = await remindersOf(a.orderId);
    expect(row).toMatchObject({ state: 'sent' });
    // The reminder as if sent just after the order was paid (the pass ran on a clock 42 days ahead), then the customer
    // orders again, a few milliseconds on: only an order placed after the reminder follows it, and a fast machine made
    // both in one millisecond.
    const sentAt = new Date(a.paidAt + 1);
    await t.db
      .updateTable('reorder_reminders')
      .set({ created_at: sentAt.toISOString(), follow_until: new Date(sentAt.getTime() + 30 * DAY).toISOString() })
      .where('id', '=', row!.id)
      .execute();
    await new Promise((r) => setTimeout(r, 5));
    const next = await buy(email, [{ productId: pads.id, quantity: 2 }]);
    // An order of another product does not count.
    await buy(email, [{ productId: plain.id, quantity: 1 }]);

    const res = await admin.get('/api/admin/reorder-reminders');
    expect(res.statusCode, res.body).toBe(200);
    const f = res.json<AdminReorderReminders>();
    expect(f.followedOrders).toBe(1);
    expect(f.followedRevenueCents).toBe(next.totalCents);
    expect(f.sent).toBeGreaterThanOrEqual(1);
    const shown = f.last.find((r) => r.id === row!.id);
    expect(shown).toMatchObject({
      state: 'sent',
      productName: 'Refill Pads',
      followedOrderId: next.orderId,
      followedCents: next.totalCents,
    });

    // The whole run (the pass's clock was weeks ahead): every reason seen above.
    const from = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 100 * DAY).toISOString().slice(0, 10);
    const all = (await admin.get(`/api/admin/reorder-reminders?from=${from}&to=${to}`)).json<AdminReorderReminders>();
    const reasons = Object.fromEntries(all.skipped.map((s) => [s.reason, s.count]));
    for (const reason of ['no-consent', 'reordered', 'subscribed', 'opted-out']) expect(reasons[reason], reason).toBeGreaterThanOrEqual(1);
    expect(all.sent).toBeGreaterThanOrEqual(8);
    expect(all.emails).toBeLessThan(all.sent);
    expect(all.clicked).toBeGreaterThanOrEqual(1);
    expect(all.last.length).toBeLessThanOrEqual(20);

    expect((await admin.get('/api/admin/reorder-reminders?from=2026-01-01')).statusCode).toBe(400);
    const shopper = new TestClient(t.app, ip());
    for (const path of ['/api/admin/reorder-reminders', '/api/admin//reorder-reminders', '/api/admin/%72eorder-reminders']) {
      expect([401, 403, 404]).toContain((await shopper.get(path)).statusCode);
    }
  });
});
