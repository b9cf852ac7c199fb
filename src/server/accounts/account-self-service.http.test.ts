import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createCoupon, createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { AUTH_MESSAGES } from '../../shared/schemas/auth.js';
import { AccountDataExport, SELF_SERVICE_MESSAGES } from '../../shared/schemas/account-self-service.js';
import { expirePaymentSession, fulfilPaymentSession } from '../checkout/service.js';
import { CURRENT_PASSWORD_LIMIT } from './profile.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createProduct(t.db, { id: 'self-p', name: 'Self Service Cloth', priceCents: 6000, inventory: 100 });
});
afterAll(async () => {
  await t?.close();
});

const NEW_PASSWORD = 'Brand-New-Pass-7';
const address = { name: 'Dana Buyer', address: '1 Main St', city: 'Springfield', state: 'CA', zip: '90210', country: 'US' };

async function signedIn(user: { email: string; password: string }, ip = '10.60.0.1'): Promise<TestClient> {
  const c = new TestClient(t.app, ip);
  expect((await c.signIn(user.email, user.password)).statusCode).toBe(200);
  return c;
}

/** A checkout by `c`; paid unless `pay` is false (then its payment session stays open). */
async function checkout(c: TestClient, email: string, pay = true): Promise<{ orderId: string; sessionId: string }> {
  const res = await c.post('/api/create-checkout-session', {
    items: [{ productId: 'self-p', quantity: 1 }],
    customerEmail: email,
    shippingAddress: address,
  });
  expect(res.statusCode).toBe(200);
  const { sessionId, orderId } = res.json();
  if (pay) await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
  return { orderId, sessionId };
}

const changePassword = (c: TestClient, body: unknown) => c.request('PUT', '/api/account/password', body);
const deleteAccount = (c: TestClient, body: unknown) => c.post('/api/account/delete', body);
const passwordHash = async (id: string) =>
  (await t.db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow()).password_hash;

describe('change password', () => {
  it('refuses a wrong or missing current password, a weak or mismatched new one, and changes nothing', async () => {
    const u = await createUser(t.db, { email: 'pw.refused@example.com' });
    const c = await signedIn(u);
    const before = await passwordHash(u.id);

    const wrong = await changePassword(c, {
      currentPassword: 'Not-My-Password-1',
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe(SELF_SERVICE_MESSAGES.currentPasswordWrong);

    const missing = await changePassword(c, { currentPassword: '', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe(SELF_SERVICE_MESSAGES.currentPasswordMissing);

    const weak: [string, string, string][] = [
      ['Ab1', 'Ab1', AUTH_MESSAGES.passwordMin],
      ['ALLUPPER123', 'ALLUPPER123', AUTH_MESSAGES.passwordLower],
      ['alllower123', 'alllower123', AUTH_MESSAGES.passwordUpper],
      ['NoNumbersHere', 'NoNumbersHere', AUTH_MESSAGES.passwordNumber],
      [NEW_PASSWORD, `${NEW_PASSWORD}x`, AUTH_MESSAGES.passwordsMismatch],
      ['', '', AUTH_MESSAGES.fillAllFields],
    ];
    for (const [newPassword, confirmPassword, message] of weak) {
      const res = await changePassword(c, { currentPassword: u.password, newPassword, confirmPassword });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error).toBe(message);
    }
    const same = await changePassword(c, { currentPassword: u.password, newPassword: u.password, confirmPassword: u.password });
    expect(same.statusCode).toBe(400);
    expect(same.json().error).toBe(SELF_SERVICE_MESSAGES.samePassword);
    expect(
      (await changePassword(c, { currentPassword: u.password, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, role: 'admin' }))
        .statusCode,
    ).toBe(400);

    expect(await passwordHash(u.id)).toBe(before);
    expect((await new TestClient(t.app, '10.60.0.9').signIn(u.email, u.password)).statusCode).toBe(200);
  });

  it('signs out the person’s other sessions, keeps this one, ends reset links, and the new password is the one that works', async () => {
    const u = await createUser(t.db, { email: 'pw.change@example.com' });
    const here = await signedIn(u, '10.60.1.1');
    const elsewhere = await signedIn(u, '10.60.1.2');
    const someoneElse = await signedIn(await createUser(t.db, { email: 'pw.bystander@example.com' }), '10.60.1.3');
    expect(
      (await new TestClient(t.app, '10.60.1.4').post('/api/auth/password-reset', { email: u.email, elapsedMs: 5000 })).statusCode,
    ).toBe(200);
    expect(await t.db.selectFrom('password_reset_tokens').select('token_hash').where('user_id', '=', u.id).execute()).toHaveLength(1);

    const res = await changePassword(here, { currentPassword: u.password, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe(u.email);
    expect((await passwordHash(u.id)).startsWith('$argon2id$')).toBe(true);

    expect((await here.get('/api/account/summary')).statusCode).toBe(200);
    expect((await elsewhere.get('/api/account/summary')).statusCode).toBe(401);
    expect((await someoneElse.get('/api/account/summary')).statusCode).toBe(200);
    expect(await t.db.selectFrom('sessions').select('token_hash').where('user_id', '=', u.id).execute()).toHaveLength(1);
    expect(await t.db.selectFrom('password_reset_tokens').select('token_hash').where('user_id', '=', u.id).execute()).toHaveLength(0);

    expect((await new TestClient(t.app, '10.60.1.5').signIn(u.email, u.password)).statusCode).toBe(401);
    expect((await new TestClient(t.app, '10.60.1.6').signIn(u.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('counts wrong current passwords before checking them: past the limit even the right one waits', async () => {
    const u = await createUser(t.db, { email: 'pw.guesses@example.com' });
    const c = await signedIn(u, '10.60.2.1');
    const body = (currentPassword: string) => ({ currentPassword, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    const answers = await Promise.all(
      Array.from({ length: CURRENT_PASSWORD_LIMIT.max + 2 }, (_, i) => changePassword(c, body(`Wrong-Guess-${i}`))),
    );
    expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(CURRENT_PASSWORD_LIMIT.max);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(2);
    const right = await changePassword(c, body(u.password));
    expect(right.statusCode).toBe(429);
    expect(right.json().error).toBe(AUTH_MESSAGES.tooManyAttempts(Number(right.headers['retry-after'])));
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect((await new TestClient(t.app, '10.60.2.2').signIn(u.email, u.password)).statusCode).toBe(200);
  });

  it('is refused to a signed-out caller, another site, and an admin acting as the customer', async () => {
    const u = await createUser(t.db, { email: 'pw.guarded@example.com' });
    const body = { currentPassword: u.password, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD };
    expect((await changePassword(new TestClient(t.app), body)).statusCode).toBe(401);
    const c = await signedIn(u, '10.60.3.1');
    expect((await c.request('PUT', '/api/account/password', body, { origin: 'https://evil.example' })).statusCode).toBe(403);
    const admin = await signedIn(DEMO_ADMIN, '10.60.3.2');
    expect((await admin.post('/api/impersonation', { userId: u.id })).statusCode).toBe(200);
    const asCustomer = await changePassword(admin, {
      currentPassword: DEMO_ADMIN.password,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(asCustomer.statusCode).toBe(403);
    expect(asCustomer.json().error).toBe(SELF_SERVICE_MESSAGES.notWhileImpersonating);
    expect((await deleteAccount(admin, { password: DEMO_ADMIN.password })).statusCode).toBe(403);
    expect((await new TestClient(t.app, '10.60.3.3').signIn(u.email, u.password)).statusCode).toBe(200);
  });
});

describe('delete my account', () => {
  it('needs the password, waits for an open payment, then keeps paid orders for the books and removes the person', async () => {
    const u = await createUser(t.db, {
      email: 'leaving@example.com',
      fullName: 'Leaving Person',
      loyaltyPoints: 120,
      totalPointsEarned: 300,
    });
    const c = await signedIn(u, '10.61.0.1');
    const elsewhere = await signedIn(u, '10.61.0.2');
    expect((await c.request('PUT', '/api/account/addresses/shipping', { ...address, name: 'Leaving Person' })).statusCode).toBe(200);
    const paid = await checkout(c, u.email);
    const attempt = await checkout(c, u.email, false);
    const reward = await createCoupon(t.db, { code: 'LEAVINGREWARD', discountValue: 15 });
    await t.db.updateTable('coupons').set({ owner_user_id: u.id }).where('id', '=', reward.id).execute();
    await new TestClient(t.app, '10.61.0.3').post('/api/auth/password-reset', { email: u.email, elapsedMs: 5000 });
    const paidBefore = await t.db.selectFrom('orders').selectAll().where('id', '=', paid.orderId).executeTakeFirstOrThrow();
    const itemsBefore = await t.db.selectFrom('order_items').selectAll().where('order_id', '=', paid.orderId).execute();

    const missing = await deleteAccount(c, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe(SELF_SERVICE_MESSAGES.deletePasswordMissing);
    const wrong = await deleteAccount(c, { password: 'Not-My-Password-1' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe(SELF_SERVICE_MESSAGES.currentPasswordWrong);
    expect((await c.post('/api/account/delete', { password: u.password }, { origin: 'https://evil.example' })).statusCode).toBe(403);

    const inProgress = await deleteAccount(c, { password: u.password });
    expect(inProgress.statusCode).toBe(409);
    expect(inProgress.json().error).toBe(SELF_SERVICE_MESSAGES.paymentInProgress);
    expect(await t.db.selectFrom('users').select('id').where('id', '=', u.id).executeTakeFirst()).toBeDefined();
    await expirePaymentSession(t.db, attempt.sessionId, 'cancelled');

    const res = await deleteAccount(c, { password: u.password });
    expect(res.statusCode).toBe(200);
    const cleared = (res.cookies as { name: string; value: string }[]).filter((k) => k.value === '').map((k) => k.name);
    expect(cleared).toEqual(expect.arrayContaining(['sid', 'cart', 'signin_device']));

    // The person is gone: the row (loyalty points and saved addresses with it), sessions, reset links, reward coupons.
    expect(await t.db.selectFrom('users').select('id').where('id', '=', u.id).executeTakeFirst()).toBeUndefined();
    expect(await t.db.selectFrom('users').select('id').where('email', '=', u.email).executeTakeFirst()).toBeUndefined();
    expect(await t.db.selectFrom('sessions').select('token_hash').where('user_id', '=', u.id).execute()).toHaveLength(0);
    expect(await t.db.selectFrom('password_reset_tokens').select('token_hash').where('user_id', '=', u.id).execute()).toHaveLength(0);
    expect(await t.db.selectFrom('coupons').select('id').where('id', '=', reward.id).executeTakeFirst()).toBeUndefined();
    expect(
      await t.db.selectFrom('email_outbox').select('id').where('to_address', '=', u.email).where('order_id', 'is', null).execute(),
    ).toHaveLength(0);
    expect((await c.get('/api/session')).json().user).toBeNull();
    expect((await elsewhere.get('/api/account/summary')).statusCode).toBe(401);
    expect((await new TestClient(t.app, '10.61.0.4').signIn(u.email, u.password)).statusCode).toBe(401);

    // The checkout that never took money is gone; the paid order keeps every figure, line and address, detached.
    expect(await t.db.selectFrom('orders').select('id').where('id', '=', attempt.orderId).executeTakeFirst()).toBeUndefined();
    const paidAfter = await t.db.selectFrom('orders').selectAll().where('id', '=', paid.orderId).executeTakeFirstOrThrow();
    expect(paidAfter).toEqual({ ...paidBefore, user_id: null });
    expect(paidAfter.total_cents).toBeGreaterThan(0);
    expect(await t.db.selectFrom('order_items').selectAll().where('order_id', '=', paid.orderId).execute()).toEqual(itemsBefore);

    // The back office copes: no such user, the order listed under what it says itself, not the account's name.
    const admin = await signedIn(DEMO_ADMIN, '10.61.0.5');
    expect((await admin.get(`/api/admin/users?search=${encodeURIComponent(u.email)}`)).json().items).toEqual([]);
    expect((await admin.request('PATCH', `/api/admin/users/${u.id}`, { emailVerified: true })).statusCode).toBe(404);
    const listed = (await admin.get(`/api/admin/orders?search=${paidBefore.order_number}`)).json().items;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      id: paid.orderId,
      userId: 'guest',
      customerName: 'Dana Buyer',
      totalCents: paidBefore.total_cents,
      paymentStatus: 'paid',
    });
    expect((await admin.get('/api/admin/orders?search=leaving%20person')).json().items).toEqual([]);
    expect((await admin.get(`/api/admin/orders/${paid.orderId}`)).statusCode).toBe(200);
    expect((await admin.get('/api/admin/stats')).statusCode).toBe(200);
  });

  it('refuses the last admin, and lets an admin go while another remains', async () => {
    const demo = await signedIn(DEMO_ADMIN, '10.62.0.1');
    const others = await t.db.selectFrom('users').select('id').where('role', '=', 'admin').where('email', '!=', DEMO_ADMIN.email).execute();
    expect(others).toEqual([]);
    const last = await deleteAccount(demo, { password: DEMO_ADMIN.password });
    expect(last.statusCode).toBe(409);
    expect(last.json().error).toBe(SELF_SERVICE_MESSAGES.lastAdmin);
    expect((await demo.get('/api/admin/stats')).statusCode).toBe(200);

    const second = await createUser(t.db, { email: 'second.admin@example.com', role: 'admin' });
    const c = await signedIn(second, '10.62.0.2');
    expect((await deleteAccount(c, { password: second.password })).statusCode).toBe(200);
    expect(await t.db.selectFrom('users').select('id').where('id', '=', second.id).executeTakeFirst()).toBeUndefined();
    // Ids only in the audit log: who deleted which account.
    expect(
      await t.db.selectFrom('audit_log').select(['action', 'actor_user_id']).where('target_user_id', '=', second.id).execute(),
    ).toEqual([{ action: 'account.deleted', actor_user_id: second.id }]);
    expect((await deleteAccount(demo, { password: DEMO_ADMIN.password })).statusCode).toBe(409);
  });
});

describe('download my data', () => {
  it('is a JSON attachment of the signed-in person’s profile, addresses, orders and loyalty, and nobody else’s', async () => {
    const me = await createUser(t.db, { email: 'export.me@example.com', fullName: 'Export Me', loyaltyPoints: 40, totalPointsEarned: 90 });
    const other = await createUser(t.db, { email: 'export.other@example.com' });
    const c = await signedIn(me, '10.63.0.1');
    const o = await signedIn(other, '10.63.0.2');
    expect((await c.request('PUT', '/api/account/addresses/billing', { ...address, name: 'Export Me' })).statusCode).toBe(200);
    const mine = await checkout(c, me.email);
    const theirs = await checkout(o, other.email);

    const res = await c.get('/api/account/data');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="ecoclean-my-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = AccountDataExport.parse(res.json());
    expect(data.profile).toMatchObject({ id: me.id, email: me.email, fullName: 'Export Me', role: 'client' });
    expect(data.addresses.billing).toMatchObject({ name: 'Export Me', city: 'Springfield', zip: '90210' });
    expect(data.addresses.shipping).toBeNull();
    // Points after the paid order (10 for an order of $50 or more).
    expect(data.loyalty).toMatchObject({ points: 50, totalEarned: 100 });
    expect(data.orders.map((x) => x.id)).toEqual([mine.orderId]);
    const order = data.orders[0]!;
    expect(order).toMatchObject({ paymentStatus: 'paid', subtotalCents: 6000 });
    expect(order.items).toEqual([
      expect.objectContaining({ productId: 'self-p', name: 'Self Service Cloth', quantity: 1, priceCents: 6000, lineTotalCents: 6000 }),
    ]);
    expect(order.totalCents).toBe(order.subtotalCents - order.discountCents + order.shippingCents + order.taxCents);
    expect(res.body).not.toContain(other.email);
    expect(res.body).not.toContain(theirs.orderId);
    expect(res.body).not.toContain('password');

    expect((await new TestClient(t.app).get('/api/account/data')).statusCode).toBe(401);
    expect((await c.get(`/api/account/data?userId=${other.id}`)).json().profile.id).toBe(me.id);
  });
});
