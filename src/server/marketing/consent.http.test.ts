import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { guestCheckoutBody } from '../test/checkout-orders.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { hasOptedOut } from '../reviews/opt-out.js';
import { mayMarketTo, withdrawMarketingConsent } from './consent.js';
import { EMAIL_PREFERENCES_MESSAGES, type EmailPreferences } from '../../shared/schemas/email-preferences.js';

/**
 * Issue [7/8], part 1: marketing consent, given by an unticked box at sign-up and at checkout,
 * stored with its time and source; the account's e-mail preferences; an unsubscribed address stays
 * so whatever a guest ticks; only the customer (not an admin acting as them) changes them.
 */
let t: TestApp;
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' };
beforeAll(async () => {
  t = await createTestApp({ env: LIMITS });
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
const ip = () => `10.70.${Math.floor(++n / 250)}.${n % 250}`;
const address = (label: string) => `${label}-${Date.now().toString(36)}-${++n}@example.com`;
const consentRow = (email: string) => t.db.selectFrom('marketing_consents').selectAll().where('email', '=', email).executeTakeFirst();

async function signUp(email: string, marketing?: unknown) {
  const client = new TestClient(t.app, ip());
  const res = await client.post('/api/auth/sign-up', {
    fullName: 'Robin Refill',
    email,
    password: 'Refill-Every-6-Weeks',
    elapsedMs: 5000,
    ...(marketing === undefined ? {} : { marketing }),
  });
  return { client, res };
}

const preferences = async (client: TestClient) => {
  const res = await client.get('/api/account/email-preferences');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<EmailPreferences>();
};
const save = (client: TestClient, body: unknown) => client.request('PUT', '/api/account/email-preferences', body);

let product: { id: string };
beforeAll(async () => {
  product = await createProduct(t.db, { name: 'Laundry Powder Refill', priceCents: 1800, inventory: 10_000 });
});
const checkout = (client: TestClient, email: string, marketing?: boolean) =>
  client.post('/api/create-checkout-session', {
    ...guestCheckoutBody([{ productId: product.id, quantity: 1 }]),
    customerEmail: email,
    ...(marketing === undefined ? {} : { marketing }),
  });

describe('consent at sign-up', () => {
  it('the box left unticked: no consent, review requests on; ticked: consent with its time and source', async () => {
    const quiet = address('quiet');
    const a = await signUp(quiet);
    expect(a.res.statusCode).toBe(201);
    expect(await preferences(a.client)).toEqual({
      email: quiet,
      marketing: false,
      marketingSince: null,
      marketingSource: null,
      unsubscribed: false,
      reviewRequests: true,
    });
    expect(await consentRow(quiet)).toBeUndefined();

    const keen = address('Keen');
    const before = Date.now();
    const b = await signUp(keen, true);
    expect(b.res.statusCode).toBe(201);
    const prefs = await preferences(b.client);
    expect(prefs).toMatchObject({ email: keen.toLowerCase(), marketing: true, marketingSource: 'sign-up', unsubscribed: false });
    expect(Date.parse(prefs.marketingSince!)).toBeGreaterThanOrEqual(before - 1000);
    const row = await consentRow(keen.toLowerCase());
    expect(row).toMatchObject({ status: 'granted', source: 'sign-up', withdrawn_at: null });
    expect(row!.user_id).toBeTruthy();
    expect(await mayMarketTo(t.db, keen)).toBe(true);
  });

  it('anything but true or false is refused with a sentence, and no account is made', async () => {
    const email = address('odd');
    const { res } = await signUp(email, 'yes');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'marketing must be true or false' });
    expect(await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
  });
});

describe('consent at checkout', () => {
  it('a guest who ticks the box consents, source checkout; one who does not, does not; an unsubscribed address stays so', async () => {
    const guest = new TestClient(t.app, ip());
    const yes = address('guest-yes');
    expect((await checkout(guest, yes, true)).statusCode).toBe(200);
    expect(await consentRow(yes)).toMatchObject({ status: 'granted', source: 'checkout', user_id: null });
    const no = address('guest-no');
    expect((await checkout(guest, no)).statusCode).toBe(200);
    expect((await checkout(guest, no, false)).statusCode).toBe(200);
    expect(await consentRow(no)).toBeUndefined();
    expect(await mayMarketTo(t.db, no)).toBe(false);

    // Unsubscribed (a link in an e-mail): ticking the box again as a guest lifts nothing.
    await withdrawMarketingConsent(t.db, { email: yes, via: 'unsubscribe', now: new Date() });
    expect(await mayMarketTo(t.db, yes)).toBe(false);
    expect((await checkout(guest, yes.toUpperCase(), true)).statusCode).toBe(200);
    expect(await mayMarketTo(t.db, yes)).toBe(false);
    expect(await consentRow(yes)).toMatchObject({ status: 'withdrawn', withdrawn_via: 'unsubscribe' });
  });

  it('a second yes keeps the first one’s time and source', async () => {
    const email = address('twice');
    const { client } = await signUp(email, true);
    const first = await consentRow(email);
    await new Promise((r) => setTimeout(r, 5));
    expect((await checkout(client, email, true)).statusCode).toBe(200);
    expect(await consentRow(email)).toEqual(first);
  });
});

describe('the account’s e-mail preferences', () => {
  it('turned off: withdrawn and kept as the record; on again needs a confirmed address; review requests switch on their own', async () => {
    const email = address('switch');
    const { client } = await signUp(email, true);
    const off = await save(client, { marketing: false, reviewRequests: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json<EmailPreferences>()).toMatchObject({ marketing: false, unsubscribed: true, reviewRequests: false });
    expect(await consentRow(email)).toMatchObject({ status: 'withdrawn', withdrawn_via: 'account', source: 'sign-up' });
    expect(await hasOptedOut(t.db, email)).toBe(true);
    expect(await mayMarketTo(t.db, email)).toBe(false);

    // Not confirmed yet: the opt-out is not lifted, and the answer says what to do.
    const refused = await save(client, { marketing: true, reviewRequests: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: EMAIL_PREFERENCES_MESSAGES.verifyFirst });
    expect(await preferences(client)).toMatchObject({ marketing: false, unsubscribed: true, reviewRequests: false });

    await t.db.updateTable('users').set({ email_verified: 1 }).where('email', '=', email).execute();
    const on = await save(client, { marketing: true, reviewRequests: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json<EmailPreferences>()).toMatchObject({
      marketing: true,
      marketingSource: 'account',
      unsubscribed: false,
      reviewRequests: true,
    });
    expect(await hasOptedOut(t.db, email)).toBe(false);
    expect(await mayMarketTo(t.db, email)).toBe(true);
  });

  it('a customer who never said yes and saves "off" is not marked unsubscribed (a later tick still counts)', async () => {
    const email = address('never');
    const { client } = await signUp(email);
    expect((await save(client, { marketing: false, reviewRequests: true })).json<EmailPreferences>()).toMatchObject({
      marketing: false,
      unsubscribed: false,
    });
    expect((await checkout(client, email, true)).statusCode).toBe(200);
    expect(await mayMarketTo(t.db, email)).toBe(true);
  });

  it('bad bodies answer 400 with their sentence and change nothing', async () => {
    const email = address('bad');
    const { client } = await signUp(email, true);
    for (const [body, error] of [
      [{ reviewRequests: true }, `marketing: ${EMAIL_PREFERENCES_MESSAGES.marketingRequired}`],
      [{ marketing: 'no', reviewRequests: true }, `marketing: ${EMAIL_PREFERENCES_MESSAGES.marketingRequired}`],
      [{ marketing: false }, `reviewRequests: ${EMAIL_PREFERENCES_MESSAGES.reviewRequestsRequired}`],
    ] as const) {
      const res = await save(client, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error });
    }
    expect((await save(client, { marketing: false, reviewRequests: true, userId: 'someone' })).statusCode).toBe(400);
    expect(await preferences(client)).toMatchObject({ marketing: true });
  });

  it('two tabs saving at once: the answer each gets is a state the two could make, and the record agrees with the opt-out', async () => {
    const email = address('tabs');
    const { client } = await signUp(email, true);
    await t.db.updateTable('users').set({ email_verified: 1 }).where('email', '=', email).execute();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => save(client, { marketing: i % 2 === 0, reviewRequests: i % 3 === 0 })),
    );
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const final = await preferences(client);
    const row = await consentRow(email);
    expect(row!.status === 'granted' && !final.unsubscribed).toBe(final.marketing);
    expect(await mayMarketTo(t.db, email)).toBe(final.marketing);
  });

  it('an admin acting as the customer reads them but cannot change them', async () => {
    const customer = await createUser(t.db, { email: address('acted') });
    const admin = new TestClient(t.app, ip());
    expect((await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
    expect((await admin.post('/api/impersonation', { userId: customer.id })).statusCode).toBe(200);
    expect((await preferences(admin)).email).toBe(customer.email.toLowerCase());
    const res = await save(admin, { marketing: true, reviewRequests: false });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: EMAIL_PREFERENCES_MESSAGES.notWhileImpersonating });
    expect(await consentRow(customer.email.toLowerCase())).toBeUndefined();
    expect(await hasOptedOut(t.db, customer.email)).toBe(false);
    // Nor does a checkout placed while acting as them give consent in their name.
    expect((await checkout(admin, customer.email, true)).statusCode).toBe(200);
    expect(await consentRow(customer.email.toLowerCase())).toBeUndefined();
  });

  it('nobody signed in gets 401, however the path is spelled', async () => {
    const guest = new TestClient(t.app, ip());
    for (const url of [
      '/api/account/email-preferences',
      '/api/account/email-preferences/',
      '/api//account/email-preferences',
      '/api/./account/email-preferences',
      '/api/account/%65mail-preferences',
      '/api/%61ccount/email-preferences',
    ]) {
      for (const method of ['GET', 'PUT'])
        expect([401, 404], `${method} ${url}`).toContain(
          (await guest.request(method, url, method === 'PUT' ? { marketing: true, reviewRequests: true } : undefined)).statusCode,
        );
    }
    expect((await guest.get('/api/account/email-preferences')).statusCode).toBe(401);
  });
});

describe('the account’s data and its deletion', () => {
  it('Download My Data names the consent; deleting the account withdraws it and keeps its record without the account', async () => {
    const email = address('leaving');
    const { client } = await signUp(email, true);
    const data = await client.get('/api/account/data');
    expect(data.statusCode).toBe(200);
    expect(data.json().emailPreferences).toMatchObject({
      marketing: { status: 'granted', source: 'sign-up', withdrawnAt: null, withdrawnVia: null },
      unsubscribed: false,
      reviewRequests: true,
    });
    const gone = await client.post('/api/account/delete', { password: 'Refill-Every-6-Weeks' });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await consentRow(email)).toMatchObject({ status: 'withdrawn', withdrawn_via: 'account', user_id: null, source: 'sign-up' });
    expect(await mayMarketTo(t.db, email)).toBe(false);

    // An account that never said yes leaves no opt-out behind: a later tick at checkout still counts.
    const quiet = address('quiet-leaver');
    const other = await signUp(quiet);
    expect((await other.client.post('/api/account/delete', { password: 'Refill-Every-6-Weeks' })).statusCode).toBe(200);
    expect(await consentRow(quiet)).toBeUndefined();
    expect((await checkout(new TestClient(t.app, ip()), quiet, true)).statusCode).toBe(200);
    expect(await mayMarketTo(t.db, quiet)).toBe(true);
  });
});
