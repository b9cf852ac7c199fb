import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { fulfilPaymentSession } from '../checkout/service.js';
import { VERIFY_MESSAGES } from '../../shared/schemas/email-verification.js';
import { RESENDS_PER_WINDOW } from './email-verification.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createProduct(t.db, { id: 'verify-p', priceCents: 2500, inventory: 500 });
});
afterAll(async () => {
  await t?.close();
});

const address = { name: 'A Guest', address: '1 Main St', city: 'Springfield', state: 'CA', zip: '90210', country: 'US' };
let ipCounter = 0;
const client = () => new TestClient(t.app, `10.77.0.${++ipCounter}`);

/** A guest checkout for `email`, paid unless told otherwise. */
async function guestOrder(email: string, { pay = true } = {}): Promise<string> {
  const res = await client().post('/api/create-checkout-session', {
    items: [{ productId: 'verify-p', quantity: 1 }],
    customerEmail: email,
    shippingAddress: address,
  });
  expect(res.statusCode).toBe(200);
  const { sessionId, orderId } = res.json();
  if (pay) await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
  return orderId;
}

async function signUp(email: string): Promise<TestClient> {
  const c = client();
  const res = await c.post('/api/auth/sign-up', { fullName: 'Former Guest', email, password: 'Guest-Pass-2026', elapsedMs: 5000 });
  expect(res.statusCode).toBe(201);
  return c;
}

/** The token of the newest verification link e-mailed to `email`, read from the outbox. */
async function tokenFromOutbox(email: string): Promise<string> {
  const mail = await t.db
    .selectFrom('email_outbox')
    .select(['text'])
    .where('to_address', '=', email)
    .where('template_id', '=', 'verify-email')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const match = /\/verify-email\?token=([A-Za-z0-9_-]{43})/.exec(mail.text ?? '');
  expect(match).not.toBeNull();
  return match![1]!;
}

const ownerOf = async (orderId: string) =>
  (await t.db.selectFrom('orders').select('user_id').where('id', '=', orderId).executeTakeFirstOrThrow()).user_id;
const orderIds = async (c: TestClient) =>
  ((await c.get('/api/orders?pageSize=50')).json().items as { id: string }[]).map((o) => o.id).sort();

describe('guest orders join the account once its e-mail is verified', () => {
  it('links paid and refunded guest orders of the address (any case) on verification, and nothing else; a second verification is a no-op', async () => {
    const email = 'former.guest@example.com';
    const paid = await guestOrder(email);
    const refunded = await guestOrder(email);
    await t.db.updateTable('orders').set({ payment_status: 'refunded' }).where('id', '=', refunded).execute();
    // The same person typed the address in capitals once.
    const shouted = await guestOrder(email);
    await t.db.updateTable('orders').set({ email: 'Former.Guest@EXAMPLE.com' }).where('id', '=', shouted).execute();
    const unpaid = await guestOrder(email, { pay: false });
    const someoneElse = await guestOrder('someone.else@example.com');
    // An order of another account with this address on it stays that account's.
    const other = await createUser(t.db, { email: 'other.account@example.com' });
    const othersOrder = await guestOrder(email);
    await t.db.updateTable('orders').set({ user_id: other.id }).where('id', '=', othersOrder).execute();

    const c = await signUp(email);
    // Not before verification: anyone can sign up with anyone's address.
    expect(await orderIds(c)).toEqual([]);
    for (const id of [paid, refunded, shouted]) expect(await ownerOf(id)).toBeNull();
    expect((await c.get('/api/session')).json().user.emailVerified).toBe(false);

    const token = await tokenFromOutbox(email);
    const res = await client().post('/api/auth/verify-email', { token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'verified',
      linkedOrders: 3,
      message: `${VERIFY_MESSAGES.verified} ${VERIFY_MESSAGES.linkedOrders(3)}`,
    });
    expect(await orderIds(c)).toEqual([paid, refunded, shouted].sort());
    expect((await c.get('/api/session')).json().user.emailVerified).toBe(true);
    expect(await ownerOf(unpaid)).toBeNull();
    expect(await ownerOf(someoneElse)).toBeNull();
    expect(await ownerOf(othersOrder)).toBe(other.id);

    // The link again (a second click, a mail scanner): nothing changes, even for a guest order paid since.
    const later = await guestOrder(email);
    const again = await client().post('/api/auth/verify-email', { token });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ status: 'already-verified', linkedOrders: 0, message: VERIFY_MESSAGES.alreadyVerified });
    expect(await ownerOf(later)).toBeNull();
    expect(await orderIds(c)).toEqual([paid, refunded, shouted].sort());
  });

  it('answers unknown, malformed, missing, expired and used links in words, and stores only the hash', async () => {
    const email = 'links@example.com';
    const c = await signUp(email);
    const token = await tokenFromOutbox(email);
    const stored = await t.db.selectFrom('email_verification_tokens').selectAll().where('email', '=', email).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toContain(token);

    const post = (body: unknown) => client().post('/api/auth/verify-email', body);
    expect((await post({ token: 'x'.repeat(43) })).json()).toEqual({ error: VERIFY_MESSAGES.unknownToken });
    expect((await post({ token: 'short' })).json()).toEqual({ error: VERIFY_MESSAGES.unknownToken });
    const missing = await post({ token: '' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: VERIFY_MESSAGES.missingToken });

    await t.db
      .updateTable('email_verification_tokens')
      .set({ expires_at: '2020-01-01T00:00:00.000Z' })
      .where('email', '=', email)
      .execute();
    const expired = await post({ token });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ error: VERIFY_MESSAGES.expiredToken });
    expect((await c.get('/api/session')).json().user.emailVerified).toBe(false);

    // A fresh link from the account page works; the old one no longer does.
    const resent = await c.post('/api/account/verify-email/resend');
    expect(resent.statusCode).toBe(200);
    expect(resent.json().message).toBe(VERIFY_MESSAGES.sent(email));
    const fresh = await tokenFromOutbox(email);
    expect(fresh).not.toBe(token);
    expect((await post({ token })).json()).toEqual({ error: VERIFY_MESSAGES.unknownToken });
    expect((await post({ token: fresh })).json().status).toBe('verified');
    // Once verified, there is nothing to resend.
    const after = await c.post('/api/account/verify-email/resend');
    expect(after.statusCode).toBe(400);
    expect(after.json()).toEqual({ error: VERIFY_MESSAGES.alreadyVerified });
  });

  it('a link sent to an earlier address does not verify the new one', async () => {
    const email = 'moving@example.com';
    const c = await signUp(email);
    const token = await tokenFromOutbox(email);
    await t.db.updateTable('users').set({ email: 'moved@example.com' }).where('email', '=', email).execute();
    const res = await client().post('/api/auth/verify-email', { token });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: VERIFY_MESSAGES.emailChanged });
    expect((await c.get('/api/session')).json().user.emailVerified).toBe(false);
  });

  it('"Resend" is for signed-in accounts and rate-limited', async () => {
    expect((await client().post('/api/account/verify-email/resend')).statusCode).toBe(401);
    const c = await signUp('resend@example.com');
    for (let i = 0; i < RESENDS_PER_WINDOW; i++) expect((await c.post('/api/account/verify-email/resend')).statusCode).toBe(200);
    const refused = await c.post('/api/account/verify-email/resend');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: VERIFY_MESSAGES.tooManyResends });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('the admin marking an account verified links its guest orders too', async () => {
    const email = 'admin-verified@example.com';
    const order = await guestOrder(email);
    const c = await signUp(email);
    const user = await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const admin = client();
    await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    expect((await admin.request('PATCH', `/api/admin/users/${user.id}`, { emailVerified: false })).statusCode).toBe(200);
    expect(await ownerOf(order)).toBeNull();
    expect((await admin.request('PATCH', `/api/admin/users/${user.id}`, { emailVerified: true })).statusCode).toBe(200);
    expect(await ownerOf(order)).toBe(user.id);
    expect(await orderIds(c)).toEqual([order]);
  });

  it('changing the account e-mail makes it unverified again', async () => {
    const email = 'changer@example.com';
    const c = await signUp(email);
    await client().post('/api/auth/verify-email', { token: await tokenFromOutbox(email) });
    expect((await c.get('/api/session')).json().user.emailVerified).toBe(true);
    const res = await c.request('PUT', '/api/account/contact', {
      fullName: 'Former Guest',
      email: 'changed@example.com',
      phone: null,
      currentPassword: 'Guest-Pass-2026',
    });
    expect(res.statusCode).toBe(200);
    expect((await c.get('/api/session')).json().user.emailVerified).toBe(false);
  });
});
