import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { guestCheckoutBody } from '../test/checkout-orders.js';
import { createProduct } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { fulfilPaymentSession } from '../checkout/service.js';
import { runCheckoutRecovery, type RecoveryDeps } from './recovery.js';
import { settleRecoveriesWrites } from './close-recoveries.js';
import { RECOVERY_MESSAGES, type AdminRecoveryList, type RestorePreview } from '../../shared/schemas/recovery.js';

/**
 * Issue [7/8] item 3: checkout recovery, with the clock moved. Only an address that said yes is
 * e-mailed, at the owner's times, with the unsubscribe link, the one-click headers and the postal
 * address; nothing after a payment (one between the scheduling and the sending included), an
 * unsubscribe, an emptied cart, or when everything sold out; two passes at once send one e-mail;
 * the restore link reads without changing anything, works once, expires and names one checkout;
 * the coupon is single-use and once per address per 30 days; the owner's list and figures.
 */
let t: TestApp;
let admin: TestClient;
let deps: RecoveryDeps;
const HOUR = 3_600_000;
beforeAll(async () => {
  t = await createTestApp({ env: { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' } });
  admin = new TestClient(t.app, '10.99.0.1');
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  deps = { db: t.db, dialect: t.dialect, publicUrl: 'http://shop.test', log: { error: () => undefined } };
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
const ip = () => `10.71.${Math.floor(++n / 250)}.${n % 250}`;
const address = (label: string) => `${label}-${Date.now().toString(36)}-${++n}@example.com`;
const later = (hours: number, from = Date.now()) => new Date(from + hours * HOUR);

const settings = (body: Record<string, unknown>) =>
  admin.request('PUT', '/api/admin/recovery/settings', {
    enabled: true,
    firstAfterHours: 1,
    secondAfterHours: 24,
    couponPercent: 0,
    couponDays: 7,
    ...body,
  });

let product: { id: string };
beforeAll(async () => {
  product = await createProduct(t.db, { name: 'Laundry Powder Refill', priceCents: 1800, inventory: 10_000 });
  expect((await settings({})).statusCode).toBe(200);
});

/** A checkout left on the payment page, as a shopper's browser makes it. */
async function leave(
  email: string,
  o: { marketing?: boolean; client?: TestClient; productId?: string; quantity?: number; couponCode?: string } = {},
) {
  const client = o.client ?? new TestClient(t.app, ip());
  const res = await client.post('/api/create-checkout-session', {
    ...guestCheckoutBody([{ productId: o.productId ?? product.id, quantity: o.quantity ?? 2 }]),
    customerEmail: email,
    ...(o.couponCode ? { appliedCouponCode: o.couponCode } : {}),
    ...(o.marketing === undefined ? {} : { marketing: o.marketing }),
  });
  expect(res.statusCode, res.body).toBe(200);
  const { orderId, sessionId } = res.json<{ orderId: string; sessionId: string }>();
  return { client, orderId, sessionId, at: Date.now() };
}

const recoveryOf = (orderId: string) =>
  t.db.selectFrom('checkout_recoveries').selectAll().where('order_id', '=', orderId).executeTakeFirst();
const mailsTo = (email: string) =>
  t.db
    .selectFrom('email_outbox')
    .selectAll()
    .where('to_address', '=', email)
    .where('template_id', 'like', 'checkout-recovery%')
    .orderBy('created_at')
    .execute();
const tokenIn = (html: string) => /\/cart\/restore\?token=([^"&\s]+)/.exec(html)?.[1] ?? '';
const pay = (sessionId: string) => fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
const deliver = (id: string) =>
  t.db.updateTable('email_outbox').set({ status: 'sent', sent_at: new Date().toISOString() }).where('id', '=', id).execute();

describe('the e-mails, their times and what they carry', () => {
  it('only a yes is e-mailed, an hour on, with the unsubscribe link, the one-click headers and the postal address; the second a day on', async () => {
    const yes = address('yes');
    const no = address('no');
    const a = await leave(yes, { marketing: true });
    const b = await leave(no);
    await runCheckoutRecovery(deps, later(0.98, a.at));
    expect(await recoveryOf(a.orderId)).toBeUndefined();
    expect(await mailsTo(yes)).toHaveLength(0);

    await runCheckoutRecovery(deps, later(1.02, a.at));
    const total = (o: string) => t.db.selectFrom('orders').select('total_cents').where('id', '=', o).executeTakeFirstOrThrow();
    expect(await recoveryOf(a.orderId)).toMatchObject({
      state: 'emailed',
      emails_sent: 1,
      email: yes,
      value_cents: (await total(a.orderId)).total_cents,
    });
    expect(await recoveryOf(b.orderId)).toMatchObject({ state: 'abandoned', reason: 'no-consent', emails_sent: 0 });
    expect(await mailsTo(no)).toHaveLength(0);
    const [first] = await mailsTo(yes);
    expect(first).toMatchObject({ template_id: 'checkout-recovery', subject: 'Your cart is saved for you', status: 'queued' });
    expect(first!.list_unsubscribe).toMatch(/^http:\/\/shop\.test\/api\/unsubscribe\/mkt_[a-z0-9]+\.[A-Za-z0-9_-]{43}$/);
    expect(first!.html).toContain('http://shop.test/unsubscribe?token&#x3D;mkt_');
    expect(first!.text).toContain('http://shop.test/unsubscribe?token=mkt_');
    expect(first!.html).toContain('<br>EcoClean, 12 Green Lane, Portland, OR 97201</td>');
    expect(first!.text).toContain('\nEcoClean, 12 Green Lane, Portland, OR 97201\n');
    expect(first!.html).toContain('Laundry Powder Refill');
    expect(first!.html).toContain('$36.00');
    expect(first!.html).toContain('/cart/restore?token&#x3D;rcv_');
    expect(tokenIn(first!.text!)).toMatch(/^rcv_/);

    // The same pass again, and at 23 hours: nothing more.
    await runCheckoutRecovery(deps, later(1.02, a.at));
    await runCheckoutRecovery(deps, later(23.9, a.at));
    expect(await mailsTo(yes)).toHaveLength(1);
    await runCheckoutRecovery(deps, later(24.02, a.at));
    const mails = await mailsTo(yes);
    expect(mails.map((m) => m.template_id)).toEqual(['checkout-recovery', 'checkout-recovery-reminder']);
    expect(mails[1]!.subject).toBe('Still thinking it over?');
    expect(mails[1]!.list_unsubscribe).toBe(first!.list_unsubscribe);
    expect(await recoveryOf(a.orderId)).toMatchObject({ state: 'emailed', emails_sent: 2, next_email_at: null });
    await runCheckoutRecovery(deps, later(30, a.at));
    expect(await mailsTo(yes)).toHaveLength(2);
    // A week after the last e-mail without an order: expired.
    await runCheckoutRecovery(deps, later(24 + 7 * 24 + 1, a.at));
    expect(await recoveryOf(a.orderId)).toMatchObject({ state: 'expired' });
  });

  it('recovery off, or no postal address: nothing sent, and the reason kept', async () => {
    expect((await settings({ enabled: false })).statusCode).toBe(200);
    const off = address('off');
    const a = await leave(off, { marketing: true });
    await runCheckoutRecovery(deps, later(1.05, a.at));
    expect(await recoveryOf(a.orderId)).toMatchObject({ state: 'abandoned', reason: 'off' });
    expect(await mailsTo(off)).toHaveLength(0);
    expect((await settings({})).statusCode).toBe(200);
  });

  it('two passes at once (two processes) decide each checkout once and send one e-mail', async () => {
    const email = address('race');
    const a = await leave(email, { marketing: true });
    const when = later(1.05, a.at);
    await Promise.all([runCheckoutRecovery(deps, when), runCheckoutRecovery(deps, when), runCheckoutRecovery(deps, when)]);
    expect(await mailsTo(email)).toHaveLength(1);
    const rows = await t.db.selectFrom('checkout_recoveries').select('id').where('order_id', '=', a.orderId).execute();
    expect(rows).toHaveLength(1);
    const second = later(24.05, a.at);
    await Promise.all([runCheckoutRecovery(deps, second), runCheckoutRecovery(deps, second)]);
    expect(await mailsTo(email)).toHaveLength(2);
  });
});

describe('nothing after a payment, an unsubscribe, an emptied cart or a sell-out', () => {
  it('paid within the hour: never abandoned', async () => {
    const email = address('paid');
    const a = await leave(email, { marketing: true });
    await pay(a.sessionId);
    await runCheckoutRecovery(deps, later(1.05, a.at));
    expect(await recoveryOf(a.orderId)).toBeUndefined();
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it('a payment between the scheduling and the sending deletes the queued e-mail: not sent, not counted as recovered', async () => {
    const email = address('between');
    const a = await leave(email, { marketing: true });
    await runCheckoutRecovery(deps, later(1.05, a.at));
    expect(await mailsTo(email)).toHaveLength(1);
    // The shopper comes back by themselves and pays a new checkout before the delivery sent the e-mail.
    const b = await leave(email, { marketing: true });
    await pay(b.sessionId);
    expect(await mailsTo(email)).toHaveLength(0);
    expect(await recoveryOf(a.orderId)).toMatchObject({ state: 'closed', reason: 'ordered', emails_sent: 0, recovered_order_id: null });
    await runCheckoutRecovery(deps, later(24.05, a.at));
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it('a payment settles recoveries when its address has some, or when its checkout is old enough to have been decided meanwhile', async () => {
    const order = (createdAgoMs: number) => ({
      id: 'ord_x',
      email: 'who@example.com',
      total_cents: 1000,
      created_at: new Date(Date.now() - createdAgoMs).toISOString(),
    });
    const now = new Date();
    // An address without recoveries when the payment read its rows, paid minutes after the checkout: nothing to settle.
    expect(settleRecoveriesWrites(t.db, order(5 * 60_000), now, false)).toHaveLength(0);
    // With some, or not known (a path that did not read it): the update and the delete.
    expect(settleRecoveriesWrites(t.db, order(5 * 60_000), now, true)).toHaveLength(2);
    expect(settleRecoveriesWrites(t.db, order(5 * 60_000), now)).toHaveLength(2);
    // Fifty minutes on, the pass may be deciding this very checkout (it locks the order): settled all the same.
    expect(settleRecoveriesWrites(t.db, order(51 * 60_000), now, false)).toHaveLength(2);
  });

  it('the pass deciding a checkout while it is paid: whichever is first, no e-mail after the payment', async () => {
    const email = address('same-moment');
    const a = await leave(email, { marketing: true });
    // Made an hour and five minutes ago, as the pass meets a due checkout: the pass and the payment on one clock.
    await t.db
      .updateTable('orders')
      .set({ created_at: new Date(Date.now() - 65 * 60_000).toISOString() })
      .where('id', '=', a.orderId)
      .execute();
    await Promise.all([runCheckoutRecovery(deps, new Date()), pay(a.sessionId)]);
    const row = await recoveryOf(a.orderId);
    const queued = (await mailsTo(email)).filter((m) => m.status === 'queued');
    // Paid first: never abandoned. Decided first: its e-mail deleted by the payment and the checkout closed as ordered.
    if (row) expect(row).toMatchObject({ state: 'closed', reason: 'ordered', emails_sent: 0 });
    expect(queued).toHaveLength(0);
  });

  it('an order after a sent e-mail is recovered, with its amount; no second e-mail; the figures count its money', async () => {
    const email = address('back');
    const a = await leave(email, { marketing: true });
    await runCheckoutRecovery(deps, later(1.05, a.at));
    const [mail] = await mailsTo(email);
    await deliver(mail!.id);
    const b = await leave(email, { quantity: 3 });
    await pay(b.sessionId);
    const row = await recoveryOf(a.orderId);
    const paid = await t.db.selectFrom('orders').select('total_cents').where('id', '=', b.orderId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'recovered', emails_sent: 1, recovered_order_id: b.orderId, recovered_cents: paid.total_cents });
    await runCheckoutRecovery(deps, later(24.05, a.at));
    expect(await mailsTo(email)).toHaveLength(1);

    const list = (await admin.get('/api/admin/recovery?state=recovered')).json<AdminRecoveryList>();
    const shown = list.rows.find((r) => r.orderId === a.orderId);
    expect(shown).toMatchObject({
      state: 'recovered',
      itemCount: 2,
      emailsSent: 1,
      recoveredCents: paid.total_cents,
      recoveredOrderNumber: expect.any(String),
    });
    expect(list.figures.recovered).toBeGreaterThanOrEqual(1);
    expect(list.figures.recoveredRevenueCents).toBeGreaterThanOrEqual(paid.total_cents);
  });

  it('unsubscribed by the one-click POST, without a cookie: opted out, no second e-mail; an address that had unsubscribed gets none', async () => {
    const email = address('unsub');
    const a = await leave(email, { marketing: true });
    await runCheckoutRecovery(deps, later(1.05, a.at));
    const [mail] = await mailsTo(email);
    await deliver(mail!.id);
    const oneClick = await t.app.inject({
      method: 'POST',
      url: mail!.list_unsubscribe!.replace('http://shop.test', ''),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    expect(await recoveryOf(a.orderId)).toMatchObject({ state: 'opted-out', emails_sent: 1 });
    await runCheckoutRecovery(deps, later(24.05, a.at));
    expect(await mailsTo(email)).toHaveLength(1);

    // Unsubscribed, then leaves another checkout ticking the box again as a guest: nothing.
    const b = await leave(email, { marketing: true });
    await runCheckoutRecovery(deps, later(1.05, b.at));
    expect(await recoveryOf(b.orderId)).toMatchObject({ state: 'opted-out', emails_sent: 0 });
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('an unsubscribe while the first e-mail is queued deletes it', async () => {
    const email = address('unsub-queued');
    const a = await leave(email, { marketing: true });
    await runCheckoutRecovery(deps, later(1.05, a.at));
    const [mail] = await mailsTo(email);
    const res = await t.app.inject({ method: 'POST', url: mail!.list_unsubscribe!.replace('http://shop.test', '') });
    expect(res.statusCode).toBe(200);
    expect(await mailsTo(email)).toHaveLength(0);
    expect(await recoveryOf(a.orderId)).toMatchObject({ state: 'opted-out', emails_sent: 0 });
  });

  it('the cart emptied by hand, before the hour or after the first e-mail: nothing (more) sent', async () => {
    const early = address('emptied-early');
    const a = await leave(early, { marketing: true });
    expect((await a.client.post('/api/cart/emptied')).statusCode).toBe(200);
    await runCheckoutRecovery(deps, later(1.05, a.at));
    expect(await recoveryOf(a.orderId)).toMatchObject({ state: 'closed', reason: 'emptied' });
    expect(await mailsTo(early)).toHaveLength(0);

    const late = address('emptied-late');
    const b = await leave(late, { marketing: true });
    await runCheckoutRecovery(deps, later(1.05, b.at));
    const [mail] = await mailsTo(late);
    await deliver(mail!.id);
    expect((await b.client.post('/api/cart/emptied')).statusCode).toBe(200);
    expect(await recoveryOf(b.orderId)).toMatchObject({ state: 'closed', reason: 'emptied' });
    await runCheckoutRecovery(deps, later(24.05, b.at));
    expect(await mailsTo(late)).toHaveLength(1);
    // Another browser emptying its cart changes nothing of this one; a made-up browser cookie writes nothing.
    expect((await new TestClient(t.app, ip()).post('/api/cart/emptied')).statusCode).toBe(200);
    const before = await t.db.selectFrom('emptied_carts').select('holder').execute();
    const stranger = new TestClient(t.app, ip());
    stranger.cookies.set('did', `made-up-${n}`);
    expect((await stranger.post('/api/cart/emptied')).statusCode).toBe(200);
    expect(await t.db.selectFrom('emptied_carts').select('holder').execute()).toHaveLength(before.length);
    expect((await b.client.post('/api/cart/emptied', { anything: 1 })).statusCode).toBe(400);
  });

  it('everything sold out since: not e-mailed; part sold out: e-mailed, the line marked', async () => {
    const scarce = await createProduct(t.db, { name: 'Bamboo Scrub Brush', priceCents: 900, inventory: 10 });
    const email = address('soldout');
    const a = await leave(email, { marketing: true, productId: scarce.id, quantity: 1 });
    const counted = await admin.post(`/api/admin/products/${scarce.id}/stock`, { reason: 'counted', quantity: 0 });
    expect(counted.statusCode, counted.body).toBe(200);
    await runCheckoutRecovery(deps, later(1.05, a.at));
    expect(await recoveryOf(a.orderId)).toMatchObject({ state: 'closed', reason: 'sold-out' });
    expect(await mailsTo(email)).toHaveLength(0);

    // One line of two sold out: e-mailed, that line marked and left out of the total.
    const part = address('partsold');
    expect((await admin.post(`/api/admin/products/${scarce.id}/stock`, { reason: 'counted', quantity: 5 })).statusCode).toBe(200);
    const client = new TestClient(t.app, ip());
    const res = await client.post('/api/create-checkout-session', {
      ...guestCheckoutBody([
        { productId: product.id, quantity: 1 },
        { productId: scarce.id, quantity: 1 },
      ]),
      customerEmail: part,
      marketing: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const b = { orderId: res.json<{ orderId: string }>().orderId, at: Date.now() };
    expect((await admin.post(`/api/admin/products/${scarce.id}/stock`, { reason: 'counted', quantity: 0 })).statusCode).toBe(200);
    await runCheckoutRecovery(deps, later(1.05, b.at));
    const [mail] = await mailsTo(part);
    expect(mail!.html).toContain('Sold out since: not put back');
    expect(mail!.text).toContain('Bamboo Scrub Brush × 1: $9.00 (sold out since: not put back)');
    expect(mail!.text).toContain('Total today: $18.00');
  });
});

describe('an account deleted', () => {
  it('takes its checkout attempts’ recoveries with it and leaves its other rows without the person', async () => {
    const email = address('gone');
    const client = new TestClient(t.app, ip());
    const signUp = await client.post('/api/auth/sign-up', {
      fullName: 'Gone Soon',
      email,
      password: 'Refill-Every-6-Weeks',
      elapsedMs: 5000,
      marketing: true,
    });
    expect(signUp.statusCode, signUp.body).toBe(201);
    const left = await leave(email, { client });
    await runCheckoutRecovery(deps, later(1.05, left.at));
    expect(await recoveryOf(left.orderId)).toMatchObject({ state: 'emailed' });
    // Download My Data lists it.
    const data = await client.get('/api/account/data');
    expect(data.statusCode).toBe(200);
    expect(data.json().emailPreferences.checkoutReminders).toEqual([
      expect.objectContaining({ state: 'emailed', emailsSent: 1, orderNumber: expect.any(String) }),
    ]);
    // An hour on its card page has long closed (the clock moved only for the pass).
    await t.db.updateTable('payment_sessions').set({ status: 'expired' }).where('order_id', '=', left.orderId).execute();
    const res = await client.post('/api/account/delete', { password: 'Refill-Every-6-Weeks' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await recoveryOf(left.orderId)).toBeUndefined();
    expect(await t.db.selectFrom('checkout_recoveries').select('id').where('email', '=', email).execute()).toEqual([]);
  });
});

describe('the restore link', () => {
  it('reads without changing anything, restores its own cart once, and says why not after', async () => {
    const email = address('restore');
    const a = await leave(email, { marketing: true, quantity: 3 });
    await runCheckoutRecovery(deps, later(1.05, a.at));
    const [mail] = await mailsTo(email);
    const token = decodeURIComponent(tokenIn(mail!.text!));
    const stranger = new TestClient(t.app, ip());

    const read = await stranger.get(`/api/cart-restore/${encodeURIComponent(token)}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<RestorePreview>()).toMatchObject({
      lines: [{ productId: product.id, name: 'Laundry Powder Refill', quantity: 3, unitPriceCents: 1800, available: true }],
      couponCode: null,
    });
    expect((await recoveryOf(a.orderId))!.restored_at).toBeNull();
    expect(read.cookies.find((c) => c.name === 'session')).toBeUndefined();

    const [one, two] = await Promise.all([
      stranger.post(`/api/cart-restore/${encodeURIComponent(token)}`),
      stranger.post(`/api/cart-restore/${encodeURIComponent(token)}`),
    ]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([200, 409]);
    expect([one, two].find((r) => r.statusCode === 409)!.json()).toEqual({ error: RECOVERY_MESSAGES.linkUsed });
    expect((await recoveryOf(a.orderId))!.restored_at).not.toBeNull();
    expect((await stranger.get(`/api/cart-restore/${encodeURIComponent(token)}`)).statusCode).toBe(409);
  });

  it('a changed token, another id with this mac, or none: 404 with a sentence; an expired one: 410', async () => {
    const email = address('restore-bad');
    const a = await leave(email, { marketing: true });
    const b = await leave(address('restore-other'), { marketing: true });
    await runCheckoutRecovery(deps, later(1.05, a.at));
    const token = decodeURIComponent(tokenIn((await mailsTo(email))[0]!.text!));
    const [id, mac] = token.split('.') as [string, string];
    const other = (await recoveryOf(b.orderId))!.id;
    const c = new TestClient(t.app, ip());
    // The mac changed in its first character, to one it does not have (a fixed ending can be its own).
    const changed = `${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
    for (const bad of [`${other}.${mac}`, `${id}.${changed}`, 'rcv_nothing', `${id}`, '%2e%2e']) {
      const res = await c.get(`/api/cart-restore/${encodeURIComponent(bad)}`);
      expect(res.statusCode, bad).toBe(404);
      expect(res.json()).toEqual({ error: RECOVERY_MESSAGES.linkUnknown });
    }
    await t.db
      .updateTable('checkout_recoveries')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    const expired = await c.post(`/api/cart-restore/${encodeURIComponent(token)}`);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toEqual({ error: RECOVERY_MESSAGES.linkExpired });
  });
});

describe('the coupon', () => {
  it('the second e-mail carries a one-use coupon, once per address in 30 days; it is refused a second time', async () => {
    expect((await settings({ couponPercent: 15, couponDays: 7 })).statusCode).toBe(200);
    const email = address('coupon');
    const a = await leave(email, { marketing: true });
    await runCheckoutRecovery(deps, later(1.05, a.at));
    await runCheckoutRecovery(deps, later(24.05, a.at));
    const [, reminder] = await mailsTo(email);
    expect(reminder!.subject).toBe('15% off the cart you left');
    const code = (await recoveryOf(a.orderId))!.coupon_code!;
    expect(code).toMatch(/^BACK-[A-Z0-9]{8}$/);
    expect(reminder!.html).toContain(code);
    const coupon = await t.db.selectFrom('coupons').selectAll().where('code', '=', code).executeTakeFirstOrThrow();
    expect(coupon).toMatchObject({ discount_type: 'percentage', discount_value: 15, max_uses: 1, current_uses: 0 });
    const preview = await new TestClient(t.app, ip()).get(`/api/cart-restore/${tokenIn(reminder!.text!)}`);
    expect(preview.json<RestorePreview>().couponCode).toBe(code);

    // Used once (paid), then refused. (The pass ran on a clock a day ahead: the coupon starts now.)
    await t.db
      .updateTable('coupons')
      .set({ valid_from: new Date(Date.now() - 60_000).toISOString() })
      .where('code', '=', code)
      .execute();
    const used = await leave(email, { couponCode: code });
    await pay(used.sessionId);
    expect((await t.db.selectFrom('coupons').select('current_uses').where('code', '=', code).executeTakeFirstOrThrow()).current_uses).toBe(
      1,
    );
    const again = await new TestClient(t.app, ip()).post('/api/create-checkout-session', {
      ...guestCheckoutBody([{ productId: product.id, quantity: 1 }]),
      customerEmail: address('other'),
      appliedCouponCode: code,
    });
    expect(again.statusCode).toBe(400);

    // Another abandoned checkout of the same address within 30 days: the reminder comes without a coupon.
    const b = await leave(email, { marketing: true });
    await runCheckoutRecovery(deps, later(1.05, b.at));
    await runCheckoutRecovery(deps, later(24.05, b.at));
    expect((await recoveryOf(b.orderId))!.coupon_code).toBeNull();
    const last = (await mailsTo(email)).at(-1)!;
    expect(last.subject).toBe('Still thinking it over?');
    expect((await settings({})).statusCode).toBe(200);
  });
});

describe("the owner's settings and list", () => {
  it('bad settings answer 400 with a sentence; recovery cannot be turned on without a postal address', async () => {
    const bad = await settings({ firstAfterHours: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('between 1 and 48 hours');
    const order = await settings({ firstAfterHours: 30, secondAfterHours: 24 });
    expect(order.statusCode).toBe(400);
    expect(order.json().error).toContain('must go later than the first');
    expect((await settings({ couponPercent: 80 })).statusCode).toBe(400);
    expect((await settings({ extra: true })).statusCode).toBe(400);

    const general = (await admin.get('/api/admin/settings')).json<Record<string, string>>();
    const put = (over: Record<string, string>) =>
      admin.request('PUT', '/api/admin/settings/general', {
        contact_email: general.contact_email ?? '',
        contact_phone: general.contact_phone ?? '',
        contact_hours: general.contact_hours ?? '',
        ...over,
      });
    expect((await put({ shop_postal_address: '', shop_return_address: '' })).statusCode).toBe(200);
    const refused = await settings({});
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: RECOVERY_MESSAGES.noPostalAddress });
    expect((await put({ shop_postal_address: 'EcoClean\n12 Green Lane\nPortland, OR 97201' })).statusCode).toBe(200);
    expect((await settings({})).statusCode).toBe(200);
  });

  it('both e-mails are built-in templates the owner previews, with the sample cart, link, unsubscribe and address', async () => {
    for (const [id, words] of [
      ['checkout-recovery', 'Back to my cart'],
      ['checkout-recovery-reminder', 'Your cart is still here'],
    ] as const) {
      const res = await admin.get(`/api/admin/email-templates/${id}/preview`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toContain(words);
      expect(res.body).toContain('Laundry Powder');
      expect(res.body).toContain('unsubscribe?token');
      expect(res.body).toContain('12 Green Lane');
    }
  });

  it('the list pages, filters by state, refuses bad queries with a sentence, and is the owner’s alone', async () => {
    const all = await admin.get('/api/admin/recovery');
    expect(all.statusCode).toBe(200);
    const list = all.json<AdminRecoveryList>();
    expect(list.total).toBeGreaterThan(5);
    expect(list.rows.length).toBeLessThanOrEqual(25);
    expect(new Set(list.rows.map((r) => r.state)).size).toBeGreaterThan(2);
    const emailed = (await admin.get('/api/admin/recovery?state=emailed')).json<AdminRecoveryList>();
    expect(emailed.rows.every((r) => r.state === 'emailed')).toBe(true);
    expect((await admin.get('/api/admin/recovery?state=lost')).statusCode).toBe(400);
    expect((await admin.get('/api/admin/recovery?page=0')).json().error).toContain('page must be at least 1');
    const shopper = new TestClient(t.app, ip());
    for (const path of ['/api/admin/recovery', '/api/admin//recovery', '/api/admin/%72ecovery', '/api/admin/./recovery/settings']) {
      expect([401, 403, 404]).toContain((await shopper.get(path)).statusCode);
    }
  });
});
