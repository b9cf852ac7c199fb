import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { CONTENT_SECURITY_POLICY } from '../http/security-headers.js';
import { fulfilPaymentSession } from '../checkout/service.js';
import { CROSS_SITE_MESSAGES, type Access } from '../http/access.js';
import { spellings } from './path-spellings.js';

/**
 * Who may call what, generated from the server's own route table: every route declares its policy
 * in its options (the server refuses to start otherwise), and every route is called as each of
 * five people, at its own path and at the same path spelled a dozen other ways. Then the objects:
 * orders, payment sessions, sessions and addresses belong to someone.
 */
type Role = 'anonymous' | 'customer' | 'other customer' | 'admin' | 'impersonating admin';
const ROLES: Role[] = ['anonymous', 'customer', 'other customer', 'admin', 'impersonating admin'];

/** What each person must get: 401 and 403 are the only answers that mean "not allowed". */
function allowed(policy: Access, role: Role): 'yes' | 401 | 403 {
  if (policy === 'public' || policy === 'owner') return 'yes';
  if (role === 'anonymous') return 401;
  if (policy === 'signed-in') return 'yes';
  return role === 'admin' ? 'yes' : 403;
}

let t: TestApp;
const clients = {} as Record<Role, TestClient>;
let customerId: string;
let otherId: string;
beforeAll(async () => {
  t = await createTestApp();
  const customer = await createUser(t.db, { email: 'matrix.customer@example.com', fullName: 'Matrix Customer' });
  const other = await createUser(t.db, { email: 'matrix.other@example.com', fullName: 'Matrix Other' });
  customerId = customer.id;
  otherId = other.id;
  clients.anonymous = new TestClient(t.app, '10.50.0.1');
  clients.customer = new TestClient(t.app, '10.50.0.2');
  clients['other customer'] = new TestClient(t.app, '10.50.0.3');
  clients.admin = new TestClient(t.app, '10.50.0.4');
  clients['impersonating admin'] = new TestClient(t.app, '10.50.0.5');
  await clients.customer.signIn(customer.email, customer.password);
  await clients['other customer'].signIn(other.email, other.password);
  await clients.admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  await clients['impersonating admin'].signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  expect((await clients['impersonating admin'].post('/api/impersonation', { userId: customer.id })).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

function everyRoute() {
  return t.app.routeTable.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');
}

/** A route's path with its parameters filled in. */
function concrete(url: string): string {
  return url.replace(/:[A-Za-z]+/g, 'matrix-missing-id').replace('*', 'matrix-missing.png');
}

describe('authorisation matrix over the route table', () => {
  it('every route declares a policy its surface allows, and the back office is admin-only', () => {
    const routes = everyRoute();
    expect(routes.length).toBeGreaterThan(70);
    expect(routes.filter((r) => !r.access || !r.surface).map((r) => `${r.method} ${r.url}`)).toEqual([]);
    const adminPaths = routes.filter((r) => /^\/api\/(admin|shipstation)\//.test(r.url) || r.url === '/api/email/test-connection');
    expect(adminPaths.length).toBeGreaterThan(50);
    expect(adminPaths.filter((r) => r.access !== 'admin').map((r) => `${r.method} ${r.url}`)).toEqual([]);
    expect(new Set(routes.map((r) => r.surface))).toEqual(new Set(['store', 'account', 'admin', 'integrations', 'webhooks', 'pages']));
  });

  // One test per person (each some hundred calls), so that each keeps a wide margin under the time limit on a busy machine.
  it.each(ROLES)('answers every route as its declared policy says, for %s', async (role) => {
    const wrong: string[] = [];
    let calls = 0;
    for (const r of everyRoute()) {
      const policy = r.access!;
      // Signing out or ending an impersonation would change who the next call is; they are checked below.
      if (r.url === '/api/auth/sign-out' || (r.method === 'DELETE' && r.url === '/api/impersonation')) continue;
      const url = concrete(r.url);
      const res = await clients[role].request(r.method, url, r.method === 'GET' ? undefined : {});
      calls++;
      const expected = allowed(policy, role);
      const denied = res.statusCode === 401 || res.statusCode === 403;
      // ShipStation answers 503 'temporarily disabled' to an admin until it is set up.
      if (res.statusCode === 503 && role === 'admin' && /shipstation|tracking|label\/void/.test(r.url)) continue;
      if (expected === 'yes' ? denied : res.statusCode !== expected) {
        wrong.push(`${role} ${r.method} ${r.url}: expected ${expected === 'yes' ? 'access' : expected}, got ${res.statusCode}`);
      }
      if (res.statusCode >= 500) wrong.push(`${role} ${r.method} ${r.url}: ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
    // Every route but the two above, for this person (120 of them when this was written).
    expect(calls).toBeGreaterThan(100);
  });

  // Anonymous is refused every guarded route, a customer and an impersonating admin every admin-only one.
  it.each<Role>(['anonymous', 'customer', 'impersonating admin'])(
    'guards whatever the router matched: a guarded path spelled any other way never gives %s a 2xx or a 5xx',
    async (role) => {
      const guarded = everyRoute().filter((r) => r.access === 'admin' || (r.access === 'signed-in' && role === 'anonymous'));
      const wrong: string[] = [];
      let calls = 0;
      for (const r of guarded) {
        for (const url of spellings(concrete(r.url))) {
          const res = await clients[role].request(r.method, url, r.method === 'GET' ? undefined : {});
          calls++;
          if (res.statusCode < 300 || res.statusCode >= 500) wrong.push(`${role} ${r.method} ${url}: ${res.statusCode}`);
        }
      }
      expect(wrong).toEqual([]);
      // Some 2,700 to 3,000 calls for each (when this was written).
      expect(calls).toBeGreaterThan(2000);
    },
    // Every guarded route at every spelling, one after another: about 4 s alone, many times that on a loaded machine.
    120_000,
  );

  it('the router does decode spelled paths (so it is the guard that refuses them), and the admin is let through', async () => {
    for (const url of [
      '/api/%61dmin/users',
      '/api/adm%69n/users',
      '/%61pi/admin/users',
      '/api/admin/%75sers',
      '/api/%41dmin/users'.replace('%41', '%61'),
    ]) {
      expect((await clients.anonymous.get(url)).statusCode, url).toBe(401);
      expect((await clients.customer.get(url)).statusCode, url).toBe(403);
      expect((await clients.admin.get(url)).statusCode, url).toBe(200);
    }
    expect((await clients.anonymous.get('/api/%73hipstation/carriers')).statusCode).toBe(401);
    expect(
      (await clients.anonymous.request('POST', '/api/%61dmin/coupons', { code: 'FREE100', discountType: 'percentage', discountValue: 100 }))
        .statusCode,
    ).toBe(401);
    expect(await t.db.selectFrom('coupons').select('id').where('code', '=', 'FREE100').executeTakeFirst()).toBeUndefined();
  });

  it('answers of the back office and the account are never stored by a browser or a proxy', async () => {
    const missing: string[] = [];
    for (const r of everyRoute().filter(
      (x) => x.method === 'GET' && (x.surface === 'admin' || x.surface === 'account' || x.surface === 'integrations'),
    )) {
      const res = await clients.admin.get(concrete(r.url));
      if (res.headers['cache-control'] !== 'no-store')
        missing.push(`${r.url} (${res.statusCode}): ${String(res.headers['cache-control'])}`);
    }
    // Refusals too: a 401 for one person must not be replayed to another.
    const refused = await clients.anonymous.get('/api/admin/users');
    if (refused.headers['cache-control'] !== 'no-store')
      missing.push(`refused /api/admin/users: ${String(refused.headers['cache-control'])}`);
    expect(missing).toEqual([]);
  });

  it('an impersonating admin acts as the customer: their data, not the admin area', async () => {
    const as = clients['impersonating admin'];
    expect((await as.get('/api/session')).json().user.id).toBe(customerId);
    expect((await as.get('/api/admin/users')).statusCode).toBe(403);
    expect((await as.post('/api/impersonation', { userId: otherId })).statusCode).toBe(403);
    expect((await as.get('/api/account/summary')).statusCode).toBe(200);
  });

  it('customers cannot grant themselves a role, points or verification', async () => {
    const me = clients.customer;
    for (const body of [{ role: 'admin' }, { loyaltyPoints: 99999 }, { emailVerified: true }]) {
      expect((await me.request('PATCH', `/api/admin/users/${customerId}`, body)).statusCode).toBe(403);
    }
    // The profile route takes only contact fields; a role in the body is refused, not applied.
    const sneaky = await me.request('PUT', '/api/account/contact', {
      fullName: 'Matrix Customer',
      email: 'matrix.customer@example.com',
      role: 'admin',
    });
    expect(sneaky.statusCode).toBe(400);
    const row = await t.db.selectFrom('users').select(['role', 'loyalty_points']).where('id', '=', customerId).executeTakeFirstOrThrow();
    expect(row).toEqual({ role: 'client', loyalty_points: 0 });
  });
});

describe('objects belong to someone', () => {
  it("orders and payment sessions: the owner and admins see them; another customer, a stranger's browser and an impersonator of someone else get 404", async () => {
    const p = await createProduct(t.db, { priceCents: 700, inventory: 20 });
    const order = (
      await clients.customer.post('/api/create-checkout-session', {
        items: [{ productId: p.id, quantity: 1 }],
        customerEmail: 'matrix.customer@example.com',
        shippingAddress: { name: 'Matrix Customer', address: '1 Grid St', city: 'Austin', state: 'TX', zip: '78701', country: 'US' },
      })
    ).json() as { orderId: string; sessionId: string };
    const guestBrowser = new TestClient(t.app, '10.50.0.9');
    const guestOrder = (
      await guestBrowser.post('/api/create-checkout-session', {
        items: [{ productId: p.id, quantity: 1 }],
        customerEmail: 'guest@example.com',
        shippingAddress: { name: 'Guest', address: '2 Grid St', city: 'Austin', state: 'TX', zip: '78701', country: 'US' },
      })
    ).json() as { orderId: string; sessionId: string };

    const status = async (c: TestClient, url: string) => (await c.get(url)).statusCode;
    for (const [o, owner] of [
      [order, clients.customer],
      [guestOrder, guestBrowser],
    ] as const) {
      for (const url of [`/api/orders/${o.orderId}`, `/api/checkout-session/${o.sessionId}`]) {
        expect(await status(owner, url)).toBe(200);
        expect(await status(clients.admin, url)).toBe(200);
        expect(await status(clients['other customer'], url)).toBe(404);
        expect(await status(clients.anonymous, url)).toBe(404);
      }
    }
    // Impersonating the customer shows the customer's order, not the guest's.
    expect(await status(clients['impersonating admin'], `/api/orders/${order.orderId}`)).toBe(200);
    expect(await status(clients['impersonating admin'], `/api/orders/${guestOrder.orderId}`)).toBe(404);
    // The card page, like Stripe's hosted one, is reached by its unguessable session URL alone.
    expect(order.sessionId).toMatch(/^cs_test_.{24,}$/);
    expect(await status(clients['other customer'], '/pay/cs_test_guessedguessedguessed1234')).toBe(404);
    // Lists hold only one's own (placed) orders.
    await fulfilPaymentSession(t.db, t.dialect, order.sessionId, { publicUrl: 'http://shop.test' });
    const mine = (await clients.customer.get('/api/orders')).json() as { items: { id: string }[] };
    expect(mine.items.map((o) => o.id)).toEqual([order.orderId]);
    expect(((await clients['other customer'].get('/api/orders')).json() as { items: unknown[] }).items).toEqual([]);
  });

  it('addresses and contact details are always the signed-in person’s own', async () => {
    const address = { name: 'Other Person', address: '9 Elm St', city: 'Reno', state: 'NV', zip: '89501' };
    expect((await clients['other customer'].request('PUT', '/api/account/addresses/shipping', address)).statusCode).toBe(200);
    const [mine, theirs] = await Promise.all(
      [customerId, otherId].map((id) => t.db.selectFrom('users').select('shipping_address').where('id', '=', id).executeTakeFirstOrThrow()),
    );
    expect(mine!.shipping_address).toBeNull();
    expect(JSON.parse(theirs!.shipping_address!)).toMatchObject({ name: 'Other Person' });
    // A user id in the body or the query is ignored or refused, never obeyed.
    const res = await clients['other customer'].request('PUT', `/api/account/addresses/shipping?userId=${customerId}`, {
      ...address,
      userId: customerId,
    });
    expect(res.statusCode).toBe(400);
    expect(
      (await t.db.selectFrom('users').select('shipping_address').where('id', '=', customerId).executeTakeFirstOrThrow()).shipping_address,
    ).toBeNull();
  });

  it('sessions: signing out ends only that session; a stolen-looking or expired cookie is nobody', async () => {
    const a = new TestClient(t.app, '10.50.1.1');
    const b = new TestClient(t.app, '10.50.1.2');
    const u = await createUser(t.db, { email: 'matrix.sessions@example.com' });
    await a.signIn(u.email, u.password);
    await b.signIn(u.email, u.password);
    expect(a.cookies.get('sid')).not.toBe(b.cookies.get('sid'));
    await a.post('/api/auth/sign-out');
    expect((await a.get('/api/account/summary')).statusCode).toBe(401);
    expect((await b.get('/api/account/summary')).statusCode).toBe(200);
    const forged = new TestClient(t.app, '10.50.1.3');
    forged.cookies.set('sid', 'A'.repeat(43));
    expect((await forged.get('/api/account/summary')).statusCode).toBe(401);
    // Ended behind this process's back (another process, or the clock): a write reads the session
    // afresh and is refused at once; reads follow (they reuse a session for at most a second).
    await t.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', u.id)
      .execute();
    expect((await b.request('PUT', '/api/account/contact', { fullName: 'Still Me', email: u.email, phone: '' })).statusCode).toBe(401);
    expect((await b.get('/api/account/summary')).statusCode).toBe(401);
  });
});

describe('headers, cookies and cross-site requests', () => {
  it('sends the security headers on pages and on the API', async () => {
    for (const url of ['/', '/api/products', '/api/nope', '/robots.txt']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toBe(CONTENT_SECURITY_POLICY);
      const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'))!;
      expect(scriptSrc).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
      expect(csp).toContain("frame-ancestors 'none'");
      // Plain http: no HSTS (surfaces.http.test.ts checks it is sent over https).
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('the session cookie is HttpOnly, SameSite=Lax, path /, and Secure behind https', async () => {
    const plain = await new TestClient(t.app, '10.50.2.1').signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    const cookie = String(([] as string[]).concat(plain.headers['set-cookie'] ?? []).find((c) => c.startsWith('sid=')));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    const https = await createTestApp({ env: { PUBLIC_URL: 'https://shop.example' } });
    try {
      const res = await new TestClient(https.app, '10.50.2.2').signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
      const secure = String(([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('sid=')));
      expect(secure).toMatch(/;\s*Secure/i);
    } finally {
      await https.close();
    }
  });

  it('refuses every cross-site write, by Origin or by Fetch Metadata', async () => {
    const writes = everyRoute().filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) && !r.url.startsWith('/api/webhooks/'));
    expect(writes.length).toBeGreaterThan(40);
    const let_through: string[] = [];
    for (const r of writes) {
      const url = r.url.replace(/:[A-Za-z]+/g, 'x');
      for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
        const res = await clients.admin.request(r.method, url, {}, headers);
        if (res.statusCode !== 403) let_through.push(`${r.method} ${r.url} with ${Object.keys(headers)[0]} → ${res.statusCode}`);
      }
    }
    expect(let_through).toEqual([]);
    // The same requests from the shop itself go through.
    expect((await clients.anonymous.request('POST', '/api/cart/quote', { lines: [] }, { origin: 'http://shop.test' })).statusCode).toBe(
      200,
    );
  });

  it('refuses every write that carries cookies but names no site (no Origin, no Sec-Fetch-Site), at every spelling', async () => {
    const writes = everyRoute().filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) && r.surface !== 'webhooks');
    const cookie = [...clients.admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const bare = (method: string, url: string, headers: Record<string, string> = {}, payload = '{}') =>
      t.app.inject({ method: method as 'POST', url, headers: { cookie, 'content-type': 'application/json', ...headers }, payload });
    const let_through: string[] = [];
    for (const r of writes) {
      const url = concrete(r.url);
      const exact = await bare(r.method, url);
      if (exact.statusCode !== 403 || exact.json().error !== CROSS_SITE_MESSAGES.unknownSite)
        let_through.push(`${r.method} ${url} → ${exact.statusCode}`);
      // Spelled otherwise, the router matches the route (and the guard refuses it) or nothing (404).
      for (const spelled of spellings(url)) {
        const res = await bare(r.method, spelled);
        if (res.statusCode !== 403 && res.statusCode !== 404) let_through.push(`${r.method} ${spelled} → ${res.statusCode}`);
      }
      // A sibling site (Sec-Fetch-Site: same-site) is another site too.
      const sibling = await bare(r.method, url, { 'sec-fetch-site': 'same-site' });
      if (sibling.statusCode !== 403) let_through.push(`${r.method} ${url} from a sibling site → ${sibling.statusCode}`);
    }
    expect(let_through).toEqual([]);
    // The case: a script holding the admin's cookie cannot sign them out.
    expect((await bare('POST', '/api/auth/sign-out')).statusCode).toBe(403);
    expect((await clients.admin.get('/api/admin/users')).statusCode).toBe(200);
    // A browser that sends only Fetch Metadata (same-origin) is let through; so is a write without cookies.
    expect((await bare('POST', '/api/cart/quote', { 'sec-fetch-site': 'same-origin' }, '{"lines":[]}')).statusCode).toBe(200);
    const noCookie = await t.app.inject({
      method: 'POST',
      url: '/api/cart/quote',
      headers: { 'content-type': 'application/json' },
      payload: '{"lines":[]}',
    });
    expect(noCookie.statusCode).toBe(200);
    // The signed webhook takes no cookies' word for anything and is not held up by them.
    expect((await bare('POST', '/api/webhooks/stripe')).statusCode).not.toBe(403);
  });
});
