import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { makeSubscription } from '../test/subscriptions.js';
import { newManageLink } from './manage-links.js';
import { SUBSCRIPTION_MESSAGES, SubscriptionView } from '../../shared/subscriptions.js';
import { z } from 'zod';

/**
 * Cancel online, at once (issue [4/8] item 6): from the account, or from an e-mail's link without
 * signing in; nobody else's; once; with an optional reason; the cancellation e-mail.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const NEXT = new Date(Date.now() + 20 * 86_400_000).toISOString();

async function signedIn(email: string, ip: string) {
  const c = new TestClient(t.app, ip);
  expect((await c.signIn(email, 'Test-Password-1')).statusCode).toBe(200);
  return c;
}

describe(`cancelling a subscription on ${testDialect()}`, () => {
  it('from the account: listed, cancelled with a reason, e-mailed; twice is 409; another customer gets 404', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    const other = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    const me = await signedIn(s.email, '10.61.0.1');
    const list = await me.get('/api/account/subscriptions');
    expect(list.statusCode).toBe(200);
    const { subscriptions } = z.object({ subscriptions: z.array(SubscriptionView) }).parse(list.json());
    expect(subscriptions).toMatchObject([{ id: s.id, status: 'active', terms: 'Every 4 weeks · 10% off', nextRenewalAt: NEXT }]);

    // Someone else's subscription: unknown to this account, nothing changes.
    expect((await me.post(`/api/account/subscriptions/${other.id}/cancel`, {})).statusCode).toBe(404);
    expect((await t.db.selectFrom('subscriptions').select('status').where('id', '=', other.id).executeTakeFirstOrThrow()).status).toBe(
      'active',
    );
    // A reason too long is the caller's to fix.
    const long = await me.post(`/api/account/subscriptions/${s.id}/cancel`, { reason: 'x'.repeat(501) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toContain('500 characters');

    const done = await me.post(`/api/account/subscriptions/${s.id}/cancel`, { reason: 'Too much powder' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().subscription).toMatchObject({ status: 'cancelled', nextRenewalAt: null });
    const row = await t.db.selectFrom('subscriptions').selectAll().where('id', '=', s.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'cancelled', cancel_reason: 'Too much powder' });
    const again = await me.post(`/api/account/subscriptions/${s.id}/cancel`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(SUBSCRIPTION_MESSAGES.alreadyCancelled);
    const mail = await t.db
      .selectFrom('email_outbox')
      .selectAll()
      .where('to_address', '=', s.email)
      .where('template_id', '=', 'subscription-cancelled')
      .execute();
    expect(mail).toHaveLength(1);

    // Signed out: the account's routes are closed.
    const guest = new TestClient(t.app, '10.61.0.2');
    expect((await guest.get('/api/account/subscriptions')).statusCode).toBe(401);
    expect((await guest.post(`/api/account/subscriptions/${other.id}/cancel`, {})).statusCode).toBe(401);
  });

  it('from an e-mail’s link, signed out: seen and cancelled by its token only', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    const url = await newManageLink(t.db, s.id, new Date(), t.config.publicUrl);
    const token = url.split('/').pop()!;
    const guest = new TestClient(t.app, '10.61.0.3');
    const seen = await guest.get(`/api/subscriptions/manage/${token}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().subscription).toMatchObject({ id: s.id, status: 'active' });
    // A wrong or malformed token: 404, never a hint.
    // (The last character changed to one it is not: a token may well end in 'A'.)
    for (const bad of ['x'.repeat(43), 'nope', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`])
      expect((await guest.get(`/api/subscriptions/manage/${bad}`)).statusCode).toBe(404);
    const done = await guest.post(`/api/subscriptions/manage/${token}/cancel`, {});
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().subscription.status).toBe('cancelled');
    // The page of the link still shows it, cancelled.
    expect((await guest.get(`/api/subscriptions/manage/${token}`)).json().subscription.status).toBe('cancelled');
  });

  it('50 cancels fired at once, through the link and the account, spelled every way: one cancellation, one e-mail, never a 500', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: NEXT });
    const url = await newManageLink(t.db, s.id, new Date(), t.config.publicUrl);
    const token = url.split('/').pop()!;
    const me = await signedIn(s.email, '10.61.0.9');
    const guest = new TestClient(t.app, '10.61.0.10');
    const paths = [
      `/api/subscriptions/manage/${token}/cancel`,
      `/api/subscriptions//manage/${token}/cancel`,
      `/api/subscriptions/./manage/${token}/cancel`,
      `/api/%73ubscriptions/manage/${token}/cancel`,
    ];
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 5 === 4 ? me.post(`/api/account/subscriptions/${s.id}/cancel`, {}) : guest.post(paths[i % paths.length]!, {}),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.every((c) => c === 200 || c === 409 || c === 404)).toBe(true);
    const mail = await t.db
      .selectFrom('email_outbox')
      .select('id')
      .where('to_address', '=', s.email)
      .where('template_id', '=', 'subscription-cancelled')
      .execute();
    expect(mail).toHaveLength(1);
  });
});
