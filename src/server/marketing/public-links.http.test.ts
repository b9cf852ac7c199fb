import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { guestCheckoutBody } from '../test/checkout-orders.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { expireStaleSessions, fulfilPaymentSession } from '../checkout/service.js';
import { hashToken } from '../lib/tokens.js';
import { LONG_URL_PART_MESSAGE } from '../http/bad-url.js';
import { runCheckoutRecovery, type RecoveryDeps } from './recovery.js';
import { runReorderReminders } from './reorder-reminders.js';
import { RECOVERY_MESSAGES, type RestorePreview } from '../../shared/schemas/recovery.js';
import { REORDER_MESSAGES, type ReorderPreview } from '../../shared/schemas/reorder-reminders.js';

/**
 * Issue [7/8]'s three public, unauthenticated routes, as an attacker and a busy day meet them: the
 * restore link (`/api/cart-restore/:token`, taken once), the reorder link (`/api/reorder/:token`,
 * reusable for 30 days, only noted the first time) and the cart page's last Remove
 * (`/api/cart/emptied`, noted only for a browser that checked out lately). 50 requests at once, from
 * one browser and from 50; the token routes at their paths spelled a dozen ways and with tokens
 * forged, cut, of the other kind, 10 KB long or with a NUL. None of them is rate limited: a burst is
 * answered, never with a 500, and every refusal carries a sentence. Neither link writes a cart on
 * the server (the browser keeps its own): the lines come back in the answer, once for a restore.
 */
let t: TestApp;
let admin: TestClient;
let deps: RecoveryDeps;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
beforeAll(async () => {
  t = await createTestApp({ env: { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' } });
  admin = new TestClient(t.app, '10.97.0.1');
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  deps = { db: t.db, dialect: t.dialect, publicUrl: 'http://shop.test', log: { error: () => undefined } };
  const settings = await admin.request('PUT', '/api/admin/recovery/settings', {
    enabled: true,
    firstAfterHours: 1,
    secondAfterHours: 24,
    couponPercent: 15,
    couponDays: 7,
  });
  expect(settings.statusCode, settings.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
const ip = () => `10.73.${Math.floor(++n / 250)}.${n % 250}`;
const address = (label: string) => `${label}-${Date.now().toString(36)}-${++n}@example.com`;
const later = (ms: number, from = Date.now()) => new Date(from + ms);
const browsers = (count: number) => Array.from({ length: count }, () => new TestClient(t.app, ip()));

type Item = { productId: string; quantity: number };

/** A checkout left on the payment page (marketing said yes), as a shopper's browser makes it. */
async function leave(email: string, items: Item[], client = new TestClient(t.app, ip())) {
  const res = await client.post('/api/create-checkout-session', { ...guestCheckoutBody(items), customerEmail: email, marketing: true });
  expect(res.statusCode, res.body).toBe(200);
  return { client, orderId: res.json<{ orderId: string }>().orderId, at: Date.now() };
}

/** A paid one-time order (marketing said yes). */
async function buy(email: string, items: Item[]) {
  const res = await new TestClient(t.app, ip()).post('/api/create-checkout-session', {
    ...guestCheckoutBody(items),
    customerEmail: email,
    marketing: true,
  });
  expect(res.statusCode, res.body).toBe(200);
  const { orderId, sessionId } = res.json<{ orderId: string; sessionId: string }>();
  await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
  const order = await t.db.selectFrom('orders').select('paid_at').where('id', '=', orderId).executeTakeFirstOrThrow();
  return { orderId, paidAt: Date.parse(order.paid_at!) };
}

const recoveryOf = (orderId: string) =>
  t.db.selectFrom('checkout_recoveries').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
const remindersOf = (orderId: string) => t.db.selectFrom('reorder_reminders').selectAll().where('order_id', '=', orderId).execute();
const mails = (email: string, template: string) =>
  t.db
    .selectFrom('email_outbox')
    .selectAll()
    .where('to_address', '=', email)
    .where('template_id', 'like', template)
    .orderBy('created_at')
    .execute();
const restoreTokenIn = (text: string) => decodeURIComponent(/\/cart\/restore\?token=([^\s"&]+)/.exec(text)?.[1] ?? '');
const reorderTokenIn = (text: string) => decodeURIComponent(/\/reorder\?token=([^\s"&]+)/.exec(text)?.[1] ?? '');
const savedCarts = () => t.db.selectFrom('saved_carts').selectAll().orderBy('user_id').execute();
const emptiedRows = () => t.db.selectFrom('emptied_carts').selectAll().orderBy('holder').execute();

/** Status → how many answered it. */
const tally = (answers: LightMyRequestResponse[]) =>
  answers.reduce<Record<number, number>>((acc, a) => ({ ...acc, [a.statusCode]: (acc[a.statusCode] ?? 0) + 1 }), {});

/** Never a 500; every refusal a JSON `error` sentence (the router's own 414/400 included: http/bad-url.ts). */
function expectAnswered(res: LightMyRequestResponse, what: string) {
  expect(res.statusCode, `${what}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
  if (res.statusCode >= 300) expect(res.json<{ error: unknown }>().error, what).toEqual(expect.stringMatching(/\w{2,}/));
  if (res.statusCode === 414) expect(res.json(), what).toEqual({ error: LONG_URL_PART_MESSAGE });
  // The router's default answers echoed the whole address back.
  expect(res.body, what).not.toContain('is not a valid url component');
}

/** What a line of either link says, for comparing with what the checkout or order held. */
const linesOf = (body: { lines: { productId: string; quantity: number }[] }) =>
  body.lines.map((l) => ({ productId: l.productId, quantity: l.quantity })).sort((a, b) => a.productId.localeCompare(b.productId));
const sorted = (items: Item[]) => [...items].sort((a, b) => a.productId.localeCompare(b.productId));

/** A path spelled the ways a guard or a cache that reads the raw URL might take for another. */
function spellingsOf(route: 'cart-restore' | 'reorder', token: string) {
  const [id, mac] = token.split('.') as [string, string];
  const hex = (c: string) => `%${c.charCodeAt(0).toString(16)}`;
  const escapedRoute = route.replace(/^(\w)/, (c) => hex(c)); // `%63art-restore`, `%72eorder`
  return [
    `/api/${escapedRoute}/${token}`,
    `/api/${route.replace(/r/, '%72')}/${token}`,
    `/api/${route.replace(/r/, '%52')}/${token}`,
    `/api/${route.toUpperCase()}/${token}`,
    `//api/${route}/${token}`,
    `/api//${route}/${token}`,
    `/api/./${route}/${token}`,
    `/api/x/../${route}/${token}`,
    `/api/%2e/${route}/${token}`,
    `/api%2F${route}/${token}`,
    `/api/${route}//${token}`,
    `/api/${route}/${token}/`,
    `/api/${route}/${token}/.`,
    `/api/${route}/${token};x=1`,
    `/api/${route}/${token}?x=1`,
    `/api/${route}/${token}#frag`,
    `/api/${route}/${id}%2E${mac}`,
    `/api/${route}/${id}%2e${mac}`,
    `/api/${route}/${[...token].map(hex).join('')}`,
    `/api/${route}/${encodeURIComponent(token)}`,
  ];
}

/** The same token made wrong: never the link's answer. */
function forgeriesOf(route: 'cart-restore' | 'reorder', token: string, other: string, ofTheOtherKind: string) {
  const [id, mac] = token.split('.') as [string, string];
  const [otherId, otherMac] = other.split('.') as [string, string];
  const [kindId, kindMac] = ofTheOtherKind.split('.') as [string, string];
  const swapCase = (s: string) => s.replace(/[a-z]/gi, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
  const lastChanged = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
  // The same 32 bytes spelled otherwise: the last character's two unused bits flipped (decodes alike).
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const sameBytes = `${mac.slice(0, -1)}${B64[B64.indexOf(mac.at(-1)!) ^ 1]}`;
  const prefix = route === 'cart-restore' ? 'rcv_' : 'rrb_';
  return [
    `/api/${route}/${id}.${mac.slice(0, 42)}`,
    `/api/${route}/${id}.${mac.slice(0, 20)}`,
    `/api/${route}/${id}.`,
    `/api/${route}/${id}`,
    `/api/${route}/${id}.${lastChanged}`,
    `/api/${route}/${id}.${sameBytes}`,
    `/api/${route}/${id}.${swapCase(mac)}`,
    `/api/${route}/${id.toUpperCase()}.${mac}`,
    `/api/${route}/${id}x.${mac}`,
    `/api/${route}/${otherId}.${mac}`,
    `/api/${route}/${id}.${otherMac}`,
    `/api/${route}/${ofTheOtherKind}`,
    `/api/${route}/${prefix}${kindId.slice(4)}.${kindMac}`,
    `/api/${route}/${'A'.repeat(10_240)}`,
    `/api/${route}/${id}.${mac}${'A'.repeat(10_240)}`,
    `/api/${route}/${token}%00`,
    `/api/${route}/${id}%00.${mac}`,
    `/api/${route}/%00`,
    `/api/${route}/..%2F${token}`,
    `/api/${route}/${token}%2F..`,
    `/api/${route}/..%2F..%2Fapi%2F${route}%2F${token}`,
    `/api/${route}/%2e%2e`,
    `/api/${route}/`,
    `/api/${route}/%`,
    `/api/${route}/${token}%`,
    `/api/${route}/${token}%zz`,
    `/api/${route}/${token}%20`,
    `/api/${route}/%20${token}`,
    `/api/${route}/${token}.${mac}`,
  ];
}

// Fixtures: products, checkouts left (each with both e-mails, the second with a coupon), orders reminded.
let powder: { id: string };
let pads: { id: string };
let plain: { id: string };
const left = {} as Record<'burst' | 'spelled' | 'other', { orderId: string; email: string; items: Item[]; token: string }>;
const bought = {} as Record<'burst' | 'spelled' | 'other', { orderId: string; items: Item[]; token: string }>;
let customer: TestClient;
let customerId: string;
beforeAll(async () => {
  powder = await createProduct(t.db, { name: 'Links Powder', priceCents: 1800, inventory: 10_000, reorderAfterDays: 42 });
  pads = await createProduct(t.db, { name: 'Links Pads', priceCents: 900, inventory: 10_000, reorderAfterDays: 42 });
  plain = await createProduct(t.db, { name: 'Links Brush', priceCents: 500, inventory: 10_000 });

  const baskets: Record<keyof typeof left, Item[]> = {
    burst: [
      { productId: powder.id, quantity: 2 },
      { productId: pads.id, quantity: 1 },
    ],
    spelled: [
      { productId: powder.id, quantity: 3 },
      { productId: plain.id, quantity: 1 },
    ],
    other: [{ productId: pads.id, quantity: 4 }],
  };
  const started = Date.now();
  for (const key of ['burst', 'spelled', 'other'] as const) {
    const email = address(`left-${key}`);
    const a = await leave(email, baskets[key]);
    left[key] = { orderId: a.orderId, email, items: baskets[key], token: '' };
  }
  await runCheckoutRecovery(deps, later(1.05 * HOUR, started));
  await runCheckoutRecovery(deps, later(24.05 * HOUR, started));
  for (const key of ['burst', 'spelled', 'other'] as const) {
    const sent = await mails(left[key].email, 'checkout-recovery%');
    expect(sent.map((m) => m.template_id)).toEqual(['checkout-recovery', 'checkout-recovery-reminder']);
    // The same link in both e-mails.
    left[key].token = restoreTokenIn(sent[1]!.text!);
    expect(left[key].token).toMatch(/^rcv_[a-z0-9]+\.[A-Za-z0-9_-]{43}$/);
    expect(restoreTokenIn(sent[0]!.text!)).toBe(left[key].token);
  }

  const orders: Record<keyof typeof bought, Item[]> = {
    burst: [
      { productId: powder.id, quantity: 3 },
      { productId: pads.id, quantity: 1 },
    ],
    spelled: [{ productId: pads.id, quantity: 2 }],
    other: [{ productId: powder.id, quantity: 5 }],
  };
  let lastPaid = 0;
  const emails = {} as Record<keyof typeof bought, string>;
  for (const key of ['burst', 'spelled', 'other'] as const) {
    emails[key] = address(`bought-${key}`);
    const b = await buy(emails[key], orders[key]);
    lastPaid = Math.max(lastPaid, b.paidAt);
    bought[key] = { orderId: b.orderId, items: orders[key], token: '' };
  }
  await runReorderReminders(deps, later(42.01 * DAY, lastPaid));
  for (const key of ['burst', 'spelled', 'other'] as const) {
    const [mail, ...more] = await mails(emails[key], 'reorder-reminder');
    expect(more).toHaveLength(0);
    bought[key].token = reorderTokenIn(mail!.text!);
    expect(bought[key].token).toMatch(/^rrb_[a-z0-9]+\.[A-Za-z0-9_-]{43}$/);
  }

  // A signed-in customer with a saved cart, among the crowd: neither link may touch it.
  const user = await createUser(t.db, { email: address('customer') });
  customerId = user.id;
  customer = new TestClient(t.app, ip());
  expect((await customer.signIn(user.email, user.password)).statusCode).toBe(200);
  const saved = await customer.request('PUT', '/api/account/cart', {
    lines: [{ productId: plain.id, quantity: 1, size: '', color: '' }],
    couponCode: null,
  });
  expect(saved.statusCode, saved.body).toBe(200);
});

describe('50 at once', () => {
  it('50 browsers POST one restore link: one 200 with its own lines and coupon, 49 × 409 with the sentence; no cart written, no coupon used', async () => {
    const { orderId, token, items } = left.burst;
    const url = `/api/cart-restore/${encodeURIComponent(token)}`;
    const recovery = await recoveryOf(orderId);
    expect(recovery).toMatchObject({ restored_at: null, emails_sent: 2 });
    expect(recovery.coupon_code).toMatch(/^BACK-[A-Z0-9]{8}$/);
    const carts = await savedCarts();
    expect(carts.find((c) => c.user_id === customerId)).toBeDefined();

    const crowd = [customer, ...browsers(49)];
    const answers = await Promise.all(crowd.map((c) => c.post(url)));
    answers.forEach((a, i) => expectAnswered(a, `POST #${i}`));
    // Not rate limited: 49 × 409, not 429.
    expect(tally(answers)).toEqual({ 200: 1, 409: 49 });
    const won = answers.find((a) => a.statusCode === 200)!;
    const body = won.json<RestorePreview>();
    expect(linesOf(body)).toEqual(sorted(items));
    expect(body.lines).toHaveLength(2);
    expect(body.couponCode).toBe(recovery.coupon_code);
    for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json()).toEqual({ error: RECOVERY_MESSAGES.linkUsed });
    // Nobody is signed in or given a browser cookie by it.
    expect(answers.flatMap((a) => a.cookies)).toEqual([]);

    // Taken once: restored_at set (with the row's updated_at, one update), and stays.
    const taken = await recoveryOf(orderId);
    expect(taken.restored_at).not.toBeNull();
    expect(taken.updated_at).toBe(taken.restored_at);
    expect(taken).toMatchObject({ state: recovery.state, emails_sent: 2, coupon_code: recovery.coupon_code });
    const again = await Promise.all([new TestClient(t.app, ip()).post(url), new TestClient(t.app, ip()).get(url)]);
    expect(again.map((a) => a.statusCode)).toEqual([409, 409]);
    expect((await recoveryOf(orderId)).restored_at).toBe(taken.restored_at);

    // The lines went to one browser in one answer; the server's carts are as they were (a restore writes none).
    expect(await savedCarts()).toEqual(carts);
    // The coupon is handed over, not attached or used: no hold, no redemption, no use counted.
    const coupon = await t.db.selectFrom('coupons').selectAll().where('code', '=', recovery.coupon_code!).executeTakeFirstOrThrow();
    expect(coupon).toMatchObject({ current_uses: 0, max_uses: 1 });
    expect(await t.db.selectFrom('coupon_holds').select('order_id').where('coupon_code', '=', coupon.code).execute()).toEqual([]);
    expect(await t.db.selectFrom('coupon_redemptions').select('id').where('coupon_id', '=', coupon.id).execute()).toEqual([]);
    // Another checkout's link is untouched.
    expect((await recoveryOf(left.other.orderId)).restored_at).toBeNull();
  });

  it('one browser POSTs one reorder link 50 times at once, then 50 browsers: every answer the same lines as bought, noted once', async () => {
    const { orderId, token, items } = bought.burst;
    const url = `/api/reorder/${encodeURIComponent(token)}`;
    const carts = await savedCarts();
    expect((await remindersOf(orderId)).map((r) => r.clicked_at)).toEqual([null, null]);

    const one = new TestClient(t.app, ip());
    const burst = await Promise.all(Array.from({ length: 50 }, () => one.post(url)));
    burst.forEach((a, i) => expectAnswered(a, `POST #${i}`));
    // Reusable and not rate limited: all 50 from one address answered.
    expect(tally(burst)).toEqual({ 200: 50 });
    const first = burst[0]!.json<ReorderPreview>();
    expect(linesOf(first)).toEqual(sorted(items));
    expect(new Set(first.lines.map((l) => l.productId)).size).toBe(first.lines.length);
    // Each answer is the order's lines, not 50 × them or a share of them.
    for (const a of burst) expect(a.json()).toEqual(first);
    expect(burst.flatMap((a) => a.cookies)).toEqual([]);

    const clicked = (await remindersOf(orderId)).map((r) => r.clicked_at);
    expect(clicked).toHaveLength(2);
    expect(clicked[0]).not.toBeNull();
    expect(clicked[1]).toBe(clicked[0]);

    // 50 other browsers, the signed-in customer among them, and 10 reads: the same, and the first use stays the one noted.
    const crowd = [customer, ...browsers(49)];
    const more = await Promise.all([...crowd.map((c) => c.post(url)), ...browsers(10).map((c) => c.get(url))]);
    more.forEach((a, i) => expectAnswered(a, `request #${i}`));
    expect(tally(more)).toEqual({ 200: 60 });
    for (const a of more) expect(a.json()).toEqual(first);
    expect((await remindersOf(orderId)).map((r) => r.clicked_at)).toEqual(clicked);
    expect(await savedCarts()).toEqual(carts);
    // The other e-mails' links are not noted.
    for (const other of [bought.spelled, bought.other]) {
      expect((await remindersOf(other.orderId)).map((r) => r.clicked_at)).toEqual(other.items.map(() => null));
    }
  });

  it('the cart emptied 50 times at once by the browser that checked out, and by 50 made-up cookies: one row, one recovery closed, one e-mail stopped', async () => {
    const email = address('emptied');
    const x = await leave(email, [{ productId: pads.id, quantity: 1 }]);
    await runCheckoutRecovery(deps, later(1.05 * HOUR, x.at));
    const [queued, ...none] = await mails(email, 'checkout-recovery%');
    expect(none).toHaveLength(0);
    expect(queued!.status).toBe('queued');
    const did = x.client.cookies.get('did')!;
    expect(did).toBeTruthy();
    const device = hashToken(did);
    expect(await recoveryOf(x.orderId)).toMatchObject({ state: 'emailed', emails_sent: 1, device_id: device });
    const before = await emptiedRows();

    // Made-up cookies: random ones, the stored hash itself, one over 100 characters, one empty, odd characters.
    const fakes = browsers(50);
    fakes.forEach((c, i) => {
      const value = [device, hashToken(device), 'x'.repeat(101), '', '..%2F..', `${did}x`][i] ?? `made-up-${i}-${n}`;
      c.cookies.set('did', value);
    });
    const answers = await Promise.all([
      ...Array.from({ length: 50 }, () => x.client.post('/api/cart/emptied')),
      ...fakes.map((c) => c.post('/api/cart/emptied')),
    ]);
    answers.forEach((a, i) => expectAnswered(a, `POST #${i}`));
    expect(tally(answers)).toEqual({ 200: 100 });
    for (const a of answers) expect(a.json()).toEqual({ ok: true });

    // Exactly one row, this browser's; nothing for any made-up cookie.
    const after = await emptiedRows();
    expect(after.map((r) => r.holder)).toEqual([...before.map((r) => r.holder), `device:${device}`].sort());
    // The recovery closed once: the queued e-mail deleted and uncounted once (not 50 times).
    expect(await recoveryOf(x.orderId)).toMatchObject({ state: 'closed', reason: 'emptied', emails_sent: 0, next_email_at: null });
    expect(await mails(email, 'checkout-recovery%')).toEqual([]);
    await runCheckoutRecovery(deps, later(24.05 * HOUR, x.at));
    expect(await mails(email, 'checkout-recovery%')).toEqual([]);
    // Other shoppers' recoveries are untouched.
    for (const other of [left.spelled, left.other]) expect((await recoveryOf(other.orderId)).state).toBe('emailed');

    // Again, 50 at once: still one row, its time moved on.
    const again = await Promise.all(Array.from({ length: 50 }, () => x.client.post('/api/cart/emptied')));
    expect(tally(again)).toEqual({ 200: 50 });
    const last = await emptiedRows();
    expect(last.map((r) => r.holder)).toEqual(after.map((r) => r.holder));
    const mine = (rows: typeof last) => rows.find((r) => r.holder === `device:${device}`)!.emptied_at;
    expect(Date.parse(mine(last))).toBeGreaterThanOrEqual(Date.parse(mine(after)));
    // A body, even with the cookie: 400 with a sentence.
    const body = await x.client.post('/api/cart/emptied', { holder: 'device:x' });
    expect(body.statusCode).toBe(400);
    expectAnswered(body, 'body');
  });

  it('a browser whose checkout is older than 96 hours is not noted', async () => {
    const email = address('emptied-old');
    const y = await leave(email, [{ productId: pads.id, quantity: 1 }]);
    const device = hashToken(y.client.cookies.get('did')!);
    const aged = new Date(Date.now() - 97 * HOUR).toISOString();
    await t.db.updateTable('orders').set({ created_at: aged }).where('id', '=', y.orderId).execute();
    await t.db.updateTable('stock_reservations').set({ created_at: aged }).where('order_id', '=', y.orderId).execute();
    const before = await emptiedRows();
    const answers = await Promise.all(Array.from({ length: 10 }, () => y.client.post('/api/cart/emptied')));
    expect(tally(answers)).toEqual({ 200: 10 });
    expect(await emptiedRows()).toEqual(before);
    expect(before.find((r) => r.holder === `device:${device}`)).toBeUndefined();
  });
});

describe('the token routes spelled otherwise', () => {
  it('the restore link: each spelling answers as the link or 400/404/414 with a sentence, and all at once take it once, for its own checkout', async () => {
    const { orderId, token, items } = left.spelled;
    const canonical = await new TestClient(t.app, ip()).get(`/api/cart-restore/${token}`);
    expect(canonical.statusCode, canonical.body).toBe(200);
    const preview = canonical.json<RestorePreview>();
    expect(linesOf(preview)).toEqual(sorted(items));

    const spelled = spellingsOf('cart-restore', token);
    const forged = forgeriesOf('cart-restore', token, left.other.token, bought.spelled.token);
    const reader = new TestClient(t.app, ip());
    const seen: Record<string, number> = {};
    for (const path of spelled) {
      const res = await reader.get(path);
      expectAnswered(res, `GET ${path}`);
      seen[path] = res.statusCode;
      if (res.statusCode === 200) expect(res.json(), path).toEqual(preview);
      else expect([400, 404], path).toContain(res.statusCode);
    }
    // The router decodes percent-encoded letters and resolves dot segments: those reach the link.
    for (const path of [spelled[0]!, spelled[1]!, spelled[6]!, spelled[7]!, spelled[16]!, spelled[18]!]) expect(seen[path], path).toBe(200);
    for (const path of forged) {
      const res = await reader.get(path);
      expectAnswered(res, `GET ${path.slice(0, 120)}`);
      expect([400, 404, 414], path.slice(0, 120)).toContain(res.statusCode);
      if (res.statusCode === 404 && path.includes(token.split('.')[0]!))
        expect([RECOVERY_MESSAGES.linkUnknown, 'Not found']).toContain(res.json<{ error: string }>().error);
    }
    expect((await recoveryOf(orderId)).restored_at).toBeNull();

    // Every spelling and every forgery POSTed at once, each from its own browser.
    const all = [...spelled, ...forged];
    const answers = await Promise.all(all.map((path) => new TestClient(t.app, ip()).post(path)));
    answers.forEach((a, i) => expectAnswered(a, `POST ${all[i]!.slice(0, 120)}`));
    const ok = answers.flatMap((a, i) => (a.statusCode === 200 ? [all[i]!] : []));
    expect(ok).toHaveLength(1);
    expect(spelled).toContain(ok[0]);
    expect(answers.find((a) => a.statusCode === 200)!.json()).toEqual(preview);
    answers.forEach((a, i) => {
      if (a.statusCode === 409) {
        expect(spelled, all[i]).toContain(all[i]);
        expect(a.json()).toEqual({ error: RECOVERY_MESSAGES.linkUsed });
      } else if (a.statusCode !== 200) expect([400, 404, 414], all[i]!.slice(0, 120)).toContain(a.statusCode);
    });
    expect(tally(answers.filter((_, i) => forged.includes(all[i]!)))[200]).toBeUndefined();
    expect((await recoveryOf(orderId)).restored_at).not.toBeNull();
    // The other checkout's link, whose id and mac were mixed in, is untouched and still works; the reorder link is not noted.
    expect((await recoveryOf(left.other.orderId)).restored_at).toBeNull();
    const other = await new TestClient(t.app, ip()).get(`/api/cart-restore/${left.other.token}`);
    expect(other.statusCode).toBe(200);
    expect(linesOf(other.json<RestorePreview>())).toEqual(sorted(left.other.items));
    expect((await remindersOf(bought.spelled.orderId)).map((r) => r.clicked_at)).toEqual([null]);
  });

  it('the reorder link: each spelling answers as the link or 400/404/414 with a sentence; a forgery never; noted once, for its own e-mail', async () => {
    const { orderId, token, items } = bought.spelled;
    const canonical = await new TestClient(t.app, ip()).get(`/api/reorder/${token}`);
    expect(canonical.statusCode, canonical.body).toBe(200);
    const preview = canonical.json<ReorderPreview>();
    expect(linesOf(preview)).toEqual(sorted(items));

    const spelled = spellingsOf('reorder', token);
    const forged = forgeriesOf('reorder', token, bought.other.token, left.other.token);
    const all = [...spelled, ...forged];
    // Read one after another, then used all at once, each from its own browser.
    const reader = new TestClient(t.app, ip());
    const reads: LightMyRequestResponse[] = [];
    for (const path of all) reads.push(await reader.get(path));
    const uses = await Promise.all(all.map((path) => new TestClient(t.app, ip()).post(path)));
    for (const [kind, answers] of [
      ['GET', reads],
      ['POST', uses],
    ] as const) {
      answers.forEach((a, i) => {
        const path = all[i]!;
        expectAnswered(a, `${kind} ${path.slice(0, 120)}`);
        if (a.statusCode === 200) {
          expect(spelled, `${kind} ${path.slice(0, 120)}`).toContain(path);
          expect(a.json(), path).toEqual(preview);
        } else expect([400, 404, 414], `${kind} ${path.slice(0, 120)}`).toContain(a.statusCode);
        if (a.statusCode === 404 && a.json<{ error: string }>().error !== 'Not found')
          expect(a.json()).toEqual({ error: REORDER_MESSAGES.linkUnknown });
      });
      // Percent-encoded letters, dot segments, an encoded dot, every character encoded: the link.
      for (const i of [0, 1, 6, 7, 16, 18]) expect(answers[i]!.statusCode, `${kind} ${spelled[i]}`).toBe(200);
    }
    expect(tally(uses.filter((_, i) => forged.includes(all[i]!)))[200]).toBeUndefined();
    const clicked = (await remindersOf(orderId)).map((r) => r.clicked_at);
    expect(clicked).toHaveLength(1);
    expect(clicked[0]).not.toBeNull();
    // The other e-mail (whose id and mac were mixed in) not noted; the restore link used as a reorder token not taken.
    expect((await remindersOf(bought.other.orderId)).map((r) => r.clicked_at)).toEqual([null]);
    expect((await recoveryOf(left.other.orderId)).restored_at).toBeNull();
  });
});

describe('the housekeeping between the e-mail and the Remove', () => {
  it('a browser that emptied its cart after its first e-mail gets no second one, after the stock holds were swept', async () => {
    const email = address('emptied-swept');
    const z = await leave(email, [{ productId: powder.id, quantity: 1 }]);
    await runCheckoutRecovery(deps, later(1.05 * HOUR, z.at));
    const device = hashToken(z.client.cookies.get('did')!);
    expect(await recoveryOf(z.orderId)).toMatchObject({ state: 'emailed', device_id: device });
    // The server's minute-by-minute sweep, two hours on: the ended checkout's reservations go (82 minutes after).
    await expireStaleSessions(t.db, later(2 * HOUR, z.at));
    expect(await t.db.selectFrom('stock_reservations').select('order_id').where('order_id', '=', z.orderId).execute()).toEqual([]);
    const res = await z.client.post('/api/cart/emptied');
    expect(res.statusCode).toBe(200);
    expect(await recoveryOf(z.orderId)).toMatchObject({ state: 'closed', reason: 'emptied' });
    expect((await emptiedRows()).map((r) => r.holder)).toContain(`device:${device}`);
    await runCheckoutRecovery(deps, later(24.05 * HOUR, z.at));
    expect((await mails(email, 'checkout-recovery%')).map((m) => m.template_id)).toEqual([]);
  });

  it('with a first e-mail three hours on, a browser that emptied its cart at two hours (the holds swept) gets none', async () => {
    const set = (firstAfterHours: number) =>
      admin.request('PUT', '/api/admin/recovery/settings', {
        enabled: true,
        firstAfterHours,
        secondAfterHours: 24,
        couponPercent: 15,
        couponDays: 7,
      });
    expect((await set(3)).statusCode).toBe(200);
    try {
      const email = address('emptied-before-late-first');
      const z = await leave(email, [{ productId: powder.id, quantity: 1 }]);
      const device = hashToken(z.client.cookies.get('did')!);
      await expireStaleSessions(t.db, later(2 * HOUR, z.at));
      expect(await t.db.selectFrom('stock_reservations').select('order_id').where('order_id', '=', z.orderId).execute()).toEqual([]);
      expect((await z.client.post('/api/cart/emptied')).statusCode).toBe(200);
      expect((await emptiedRows()).map((r) => r.holder)).toContain(`device:${device}`);
      await runCheckoutRecovery(deps, later(3.05 * HOUR, z.at));
      expect(await recoveryOf(z.orderId)).toMatchObject({ state: 'closed', reason: 'emptied', device_id: device });
      expect(await mails(email, 'checkout-recovery%')).toEqual([]);
    } finally {
      expect((await set(1)).statusCode).toBe(200);
    }
  });
});
