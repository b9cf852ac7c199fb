import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { openDatabase } from '../db/database.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { spellings } from './path-spellings.js';

/**
 * Two server processes on one database. What one process changes about a person (a demotion, a
 * sign-out) counts at once on the other for the back office and the account: those requests read
 * the session from the database every time, never the copy a process keeps for a second. The
 * change is written straight to the database here, as the other process would: a write through
 * this process's own routes would also clear this process's copies, and hide the difference.
 */
let t: TestApp;
let other: { app: FastifyInstance; close: () => Promise<void> };
beforeAll(async () => {
  t = await createTestApp();
  const second = openDatabase(t.config.databaseUrl);
  const app = await buildApp({ config: t.config, db: second.db, dialect: second.dialect });
  await app.ready();
  other = { app, close: async () => (await app.close(), await second.close()) };
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

describe('sessions on another process', () => {
  it('a demoted admin is refused the back office, the customer export and other people’s orders at once', async () => {
    const owner = await createUser(t.db, { email: 'fresh.admin@example.com', role: 'admin' });
    const customer = await createUser(t.db, { email: 'fresh.customer@example.com' });
    const shopper = new TestClient(t.app, '10.70.0.1');
    await shopper.signIn(customer.email, customer.password);
    const p = await createProduct(t.db, { priceCents: 900, inventory: 5 });
    const order = (
      await shopper.post('/api/create-checkout-session', {
        items: [{ productId: p.id, quantity: 1 }],
        customerEmail: customer.email,
        shippingAddress: { name: 'Fresh Customer', address: '1 Now St', city: 'Austin', state: 'TX', zip: '78701', country: 'US' },
      })
    ).json() as { orderId: string };
    expect(order.orderId).toBeTruthy();

    const admin = new TestClient(other.app, '10.70.0.2');
    await admin.signIn(owner.email, owner.password);
    const reads = [
      '/api/admin/exports/customers.csv',
      '/api/admin/users',
      '/api/admin/payment-mode',
      ...spellings('/api/admin/exports/customers.csv').filter((u) => !u.includes('#')),
    ];
    // Read once as an admin: this process now holds the session.
    expect((await admin.get('/api/admin/exports/customers.csv')).statusCode).toBe(200);
    expect((await admin.get(`/api/orders/${order.orderId}`)).statusCode).toBe(200);

    // The other process demotes them.
    await t.db.updateTable('users').set({ role: 'client' }).where('id', '=', owner.id).execute();

    const let_through: string[] = [];
    for (const url of reads) {
      const res = await admin.get(url);
      if (res.statusCode < 300 || res.statusCode >= 500) let_through.push(`${url} → ${res.statusCode}`);
    }
    expect(let_through).toEqual([]);
    expect((await admin.get('/api/admin/exports/customers.csv')).statusCode).toBe(403);
    // An admin reads any order; a customer only their own.
    expect((await admin.get(`/api/orders/${order.orderId}`)).statusCode).toBe(404);
    expect((await admin.get('/api/shipstation/carriers')).statusCode).toBe(403);
  });

  it('the admin order list reads its session afresh: demoted 403, account deleted or session expired 401, on the next request', async () => {
    const list = '/api/admin/orders?page=1&pageSize=20';
    const signedIn = async (tag: string, ip: string) => {
      const owner = await createUser(t.db, { email: `fresh.list.${tag}@example.com`, role: 'admin' });
      const c = new TestClient(other.app, ip);
      await c.signIn(owner.email, owner.password);
      // Twice: a session read once must not be kept for the next request.
      expect((await c.get(list)).statusCode).toBe(200);
      expect((await c.get(list)).statusCode).toBe(200);
      return { owner, c };
    };

    const demoted = await signedIn('demoted', '10.70.0.5');
    await t.db.updateTable('users').set({ role: 'client' }).where('id', '=', demoted.owner.id).execute();
    expect((await demoted.c.get(list)).statusCode).toBe(403);

    const deleted = await signedIn('deleted', '10.70.0.6');
    await t.db.deleteFrom('users').where('id', '=', deleted.owner.id).execute();
    expect((await deleted.c.get(list)).statusCode).toBe(401);

    const expired = await signedIn('expired', '10.70.0.7');
    await t.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', expired.owner.id)
      .execute();
    expect((await expired.c.get(list)).statusCode).toBe(401);
    // An expired session is removed when it is refused.
    expect(await t.db.selectFrom('sessions').select('token_hash').where('user_id', '=', expired.owner.id).execute()).toEqual([]);
  });

  it('a session ended on the other process ends the account’s reads at once', async () => {
    const u = await createUser(t.db, { email: 'fresh.signout@example.com' });
    const c = new TestClient(other.app, '10.70.0.3');
    await c.signIn(u.email, u.password);
    expect((await c.get('/api/account/summary')).statusCode).toBe(200);
    await t.db.deleteFrom('sessions').where('user_id', '=', u.id).execute();
    expect((await c.get('/api/account/summary')).statusCode).toBe(401);
  });

  it('an admin who starts an impersonation on one process is seen acting as the customer on the other', async () => {
    const owner = await createUser(t.db, { email: 'fresh.imp@example.com', role: 'admin' });
    const c = new TestClient(other.app, '10.70.0.4');
    await c.signIn(owner.email, owner.password);
    expect((await c.get('/api/admin/users')).statusCode).toBe(200);
    const customer = await createUser(t.db, { email: 'fresh.imp.customer@example.com' });
    await t.db.updateTable('sessions').set({ acting_as_user_id: customer.id }).where('user_id', '=', owner.id).execute();
    expect((await c.get('/api/admin/users')).statusCode).toBe(403);
  });
});
