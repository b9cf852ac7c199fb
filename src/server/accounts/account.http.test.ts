import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN, DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { ACCOUNT_MESSAGES, AccountSummary } from '../../shared/schemas/account.js';
import { fulfilPaymentSession } from '../checkout/service.js';
import { CURRENT_PASSWORD_LIMIT } from './profile.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createProduct(t.db, { id: 'acct-p', priceCents: 6000, inventory: 100 });
});
afterAll(async () => {
  await t?.close();
});

const address = { name: 'A Buyer', address: '1 Main St', city: 'Springfield', state: 'CA', zip: '90210', country: 'US' };

async function buy(c: TestClient, quantity = 1): Promise<string> {
  const res = await c.post('/api/create-checkout-session', {
    items: [{ productId: 'acct-p', quantity }],
    customerEmail: 'buyer@example.com',
    shippingAddress: address,
  });
  const { sessionId, orderId } = res.json();
  await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
  return orderId;
}

describe('orders of an account', () => {
  it('lists only the caller’s placed orders, newest first, paginated; admins see all', async () => {
    const alice = await createUser(t.db, { email: 'alice@example.com' });
    const bob = await createUser(t.db, { email: 'bob@example.com' });
    const a = new TestClient(t.app);
    await a.signIn(alice.email, alice.password);
    const b = new TestClient(t.app);
    await b.signIn(bob.email, bob.password);
    const first = await buy(a);
    const second = await buy(a);
    const bobs = await buy(b);
    // An abandoned checkout is not an order to the customer.
    await a.post('/api/create-checkout-session', {
      items: [{ productId: 'acct-p', quantity: 1 }],
      customerEmail: 'alice@example.com',
      shippingAddress: address,
    });

    const mine = (await a.get('/api/orders?pageSize=1')).json();
    expect(mine.total).toBe(2);
    expect(mine.items.map((o: { id: string }) => o.id)).toEqual([second]);
    const page2 = (await a.get('/api/orders?pageSize=1&page=2')).json();
    expect(page2.items.map((o: { id: string }) => o.id)).toEqual([first]);
    expect(page2.items[0].items[0]).toMatchObject({ productId: 'acct-p', quantity: 1, priceCents: 6000 });

    // One customer cannot read another's order by id.
    expect((await a.get(`/api/orders/${bobs}`)).statusCode).toBe(404);
    expect((await b.get(`/api/orders/${first}`)).statusCode).toBe(404);
    expect((await a.get(`/api/orders/${first}`)).statusCode).toBe(200);

    const admin = new TestClient(t.app);
    await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    const all = (await admin.get('/api/orders?pageSize=100')).json();
    expect(all.items.map((o: { id: string }) => o.id)).toEqual(expect.arrayContaining([first, second, bobs]));

    expect((await new TestClient(t.app).get('/api/orders')).statusCode).toBe(401);
    expect((await a.get('/api/orders?pageSize=500')).statusCode).toBe(400);
  });

  it('summarises orders and loyalty from the database', async () => {
    const carol = await createUser(t.db, { email: 'carol@example.com', loyaltyPoints: 250, totalPointsEarned: 850 });
    const c = new TestClient(t.app);
    await c.signIn(carol.email, carol.password);
    const empty = AccountSummary.parse((await c.get('/api/account/summary')).json());
    expect(empty.loyalty).toMatchObject({ points: 250, totalEarned: 850, nextRewardAt: 50 });
    expect(empty.loyalty.progress).toBeCloseTo(250 / 300);
    expect(empty.stats.totalOrders).toBe(0);
    await buy(c, 2);
    const after = AccountSummary.parse((await c.get('/api/account/summary')).json());
    expect(after.stats).toMatchObject({ totalOrders: 1, pendingOrders: 0, deliveredOrders: 0, itemsPurchased: 2 });
    expect(after.stats.latestOrderAt).toBeTruthy();
    expect(after.loyalty.points).toBe(260);
  });
});

describe('contact information and addresses', () => {
  it('updates contact info with the phone formatted, and refuses missing fields and a taken e-mail', async () => {
    const dana = await createUser(t.db, { email: 'dana@example.com' });
    const c = new TestClient(t.app);
    await c.signIn(dana.email, dana.password);
    const ok = await c.request('PUT', '/api/account/contact', {
      fullName: 'Dana D',
      email: 'Dana2@Example.com',
      phone: '5551234567',
      currentPassword: dana.password,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ fullName: 'Dana D', email: 'dana2@example.com', phone: '(555) 123-4567' });
    const missing = await c.request('PUT', '/api/account/contact', { fullName: '', email: 'x@example.com' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toContain(ACCOUNT_MESSAGES.requiredFields);
    const taken = await c.request('PUT', '/api/account/contact', {
      fullName: 'Dana',
      email: DEMO_CUSTOMER.email,
      currentPassword: dana.password,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe(ACCOUNT_MESSAGES.emailTaken);
  });

  it('changes the e-mail only with the current password, counting wrong ones like sign-in guesses', async () => {
    const gil = await createUser(t.db, { email: 'gil@example.com', fullName: 'Gil' });
    const c = new TestClient(t.app, '10.8.0.1');
    await c.signIn(gil.email, gil.password);
    const email = async () => (await t.db.selectFrom('users').select('email').where('id', '=', gil.id).executeTakeFirstOrThrow()).email;
    // Name and phone alone need no password; the same e-mail spelled differently is no change.
    const rename = await c.request('PUT', '/api/account/contact', { fullName: 'Gil G', email: ' GIL@example.com ', phone: '' });
    expect(rename.statusCode).toBe(200);
    expect(rename.json().user.fullName).toBe('Gil G');

    const missing = await c.request('PUT', '/api/account/contact', { fullName: 'Gil G', email: 'gil.new@example.com' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe(ACCOUNT_MESSAGES.currentPasswordRequired);
    const wrong = await c.request('PUT', '/api/account/contact', {
      fullName: 'Gil G',
      email: 'gil.new@example.com',
      currentPassword: 'not-it-at-all',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe(ACCOUNT_MESSAGES.currentPasswordWrong);
    // An address that has an account is not revealed without the password either.
    expect(
      (await c.request('PUT', '/api/account/contact', { fullName: 'Gil G', email: DEMO_CUSTOMER.email, currentPassword: 'nope-nope' }))
        .statusCode,
    ).toBe(401);
    expect(await email()).toBe('gil@example.com');
    // The session still works after wrong passwords.
    expect((await c.get('/api/session')).json().user.email).toBe('gil@example.com');

    const ok = await c.request('PUT', '/api/account/contact', {
      fullName: 'Gil G',
      email: 'gil.new@example.com',
      currentPassword: gil.password,
    });
    expect(ok.statusCode).toBe(200);
    expect(await email()).toBe('gil.new@example.com');

    // Wrong tries are counted before the check, 5 per 15 minutes at once: the right one is then refused too.
    const tries = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        c.request('PUT', '/api/account/contact', { fullName: 'Gil G', email: `gil${i}@example.com`, currentPassword: 'guess-guess' }),
      ),
    );
    expect(tries.filter((r) => r.statusCode === 401)).toHaveLength(CURRENT_PASSWORD_LIMIT.max);
    expect(tries.filter((r) => r.statusCode === 429)).toHaveLength(12 - CURRENT_PASSWORD_LIMIT.max);
    const refused = await c.request('PUT', '/api/account/contact', {
      fullName: 'Gil G',
      email: 'gil.last@example.com',
      currentPassword: gil.password,
    });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await email()).toBe('gil.new@example.com');
  });

  it('while impersonating, the e-mail cannot be changed, with the admin’s password or the customer’s', async () => {
    const hal = await createUser(t.db, { email: 'hal@example.com', fullName: 'Hal' });
    const admin = new TestClient(t.app, '10.8.0.2');
    await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    expect((await admin.post('/api/impersonation', { userId: hal.id })).statusCode).toBe(200);
    for (const currentPassword of [hal.password, DEMO_ADMIN.password]) {
      const res = await admin.request('PUT', '/api/account/contact', { fullName: 'Hal', email: 'hal2@example.com', currentPassword });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe(ACCOUNT_MESSAGES.emailChangeWhileImpersonating);
    }
    expect((await t.db.selectFrom('users').select('email').where('id', '=', hal.id).executeTakeFirstOrThrow()).email).toBe(hal.email);
  });

  it('saves shipping and billing addresses for the signed-in user only', async () => {
    const eve = await createUser(t.db, { email: 'eve@example.com' });
    const c = new TestClient(t.app);
    await c.signIn(eve.email, eve.password);
    const ship = await c.request('PUT', '/api/account/addresses/shipping', {
      name: 'Eve',
      address: '9 Elm',
      city: 'Reno',
      state: 'NV',
      zip: '89501',
    });
    expect(ship.json().user.shippingAddress).toEqual({
      name: 'Eve',
      address: '9 Elm',
      city: 'Reno',
      state: 'NV',
      zip: '89501',
      country: 'US',
    });
    const bill = await c.request('PUT', '/api/account/addresses/billing', { ...address });
    expect(bill.json().user.billingAddress).toMatchObject({ city: 'Springfield' });
    expect((await c.request('PUT', '/api/account/addresses/office', address)).statusCode).toBe(400);
    expect((await c.request('PUT', '/api/account/addresses/shipping', { ...address, city: '' })).json().error).toContain(
      ACCOUNT_MESSAGES.requiredFields,
    );
    expect((await new TestClient(t.app).request('PUT', '/api/account/addresses/shipping', address)).statusCode).toBe(401);
  });
});

describe('impersonation', () => {
  it('lets an admin act as a customer everywhere, closes the admin area meanwhile, and audits start and end', async () => {
    const frank = await createUser(t.db, { email: 'frank@example.com', fullName: 'Frank' });
    const fc = new TestClient(t.app);
    await fc.signIn(frank.email, frank.password);
    const franksOrder = await buy(fc);

    const admin = new TestClient(t.app);
    await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    expect((await admin.post('/api/impersonation', { userId: frank.id })).statusCode).toBe(200);
    const session = (await admin.get('/api/session')).json();
    expect(session.user.email).toBe('frank@example.com');
    expect(session.impersonatorEmail).toBe(DEMO_ADMIN.email);
    const orders = (await admin.get('/api/orders')).json();
    expect(orders.items.map((o: { id: string }) => o.id)).toEqual([franksOrder]);
    expect((await admin.get('/api/admin/stats')).statusCode).toBe(403);

    // Signing out while impersonating ends the impersonation instead.
    const out = (await admin.post('/api/auth/sign-out')).json();
    expect(out.impersonationEnded).toBe(true);
    const back = (await admin.get('/api/session')).json();
    expect(back.user.email).toBe(DEMO_ADMIN.email);
    expect(back.impersonatorEmail).toBeNull();
    expect((await admin.get('/api/admin/stats')).statusCode).toBe(200);

    const log = await t.db.selectFrom('audit_log').selectAll().where('target_user_id', '=', frank.id).orderBy('created_at').execute();
    // The order list the admin read as Frank is audited too (decision 0020, issue [2/8]).
    expect(log.map((l) => l.action)).toEqual(['impersonation.start', 'impersonation.viewed', 'impersonation.end']);
    expect(log.every((l) => l.actor_user_id !== null)).toBe(true);
  });

  it('refuses non-admins with the spec message', async () => {
    const c = new TestClient(t.app);
    await c.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    const res = await c.post('/api/impersonation', { userId: 'whoever' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe(ACCOUNT_MESSAGES.impersonationAdminsOnly);
    expect((await new TestClient(t.app).post('/api/impersonation', { userId: 'x' })).statusCode).toBe(401);
    const admin = new TestClient(t.app);
    await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    expect((await admin.post('/api/impersonation', { userId: 'nobody' })).statusCode).toBe(404);
    expect((await admin.request('DELETE', '/api/impersonation')).statusCode).toBe(400);
  });
});

describe('admin stats', () => {
  it('counts orders, revenue and users in the database, with the 5 newest users', async () => {
    const admin = new TestClient(t.app);
    await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    const { stats, recentUsers } = (await admin.get('/api/admin/stats')).json();
    const paid = await t.db.selectFrom('orders').select(['total_cents']).where('payment_status', '=', 'paid').execute();
    expect(stats.revenueCents).toBe(paid.reduce((s, o) => s + o.total_cents, 0));
    expect(stats.totalOrders).toBe(paid.length);
    const users = await t.db.selectFrom('users').select('id').execute();
    expect(stats.totalUsers).toBe(users.length);
    expect(recentUsers).toHaveLength(5);
  });
});
