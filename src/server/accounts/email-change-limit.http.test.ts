import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createUser } from '../db/seed/factories.js';
import { ACCOUNT_MESSAGES } from '../../shared/schemas/account.js';
import { EMAIL_CHANGE_LIMIT } from './profile.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const retryAfter = (r: LightMyRequestResponse) => Number(r.headers['retry-after']);
const changedMails = (addresses: string[]) =>
  t.db
    .selectFrom('email_outbox')
    .select('to_address')
    .where('template_id', '=', 'email-changed')
    .where('to_address', 'in', addresses)
    .execute();

describe(`e-mail changes are limited per account (${testDialect()})`, () => {
  it(`allows ${EMAIL_CHANGE_LIMIT.max} a day, then answers 429 with a sentence whose wait is the Retry-After`, async () => {
    const stamp = Date.now();
    const user = await createUser(t.db, { email: `ivy-${stamp}@example.com`, fullName: 'Ivy' });
    const c = new TestClient(t.app, '10.90.0.1');
    expect((await c.signIn(user.email, user.password)).statusCode).toBe(200);
    const addresses = [user.email];
    for (let i = 1; i <= EMAIL_CHANGE_LIMIT.max; i++) {
      const email = `ivy-${stamp}-${i}@example.com`;
      const res = await c.request('PUT', '/api/account/contact', { fullName: 'Chosen Name', email, currentPassword: user.password });
      expect(res.statusCode).toBe(200);
      addresses.push(email);
    }
    const refused = await c.request('PUT', '/api/account/contact', {
      fullName: 'Chosen Name',
      email: `ivy-${stamp}-late@example.com`,
      currentPassword: user.password,
    });
    expect(refused.statusCode).toBe(429);
    expect(retryAfter(refused)).toBeGreaterThan(EMAIL_CHANGE_LIMIT.windowMs / 1000 - 120);
    expect(retryAfter(refused)).toBeLessThanOrEqual(EMAIL_CHANGE_LIMIT.windowMs / 1000);
    expect(refused.json().error).toBe(ACCOUNT_MESSAGES.tooManyEmailChanges(retryAfter(refused)));
    expect(refused.json().error).toBe('You have changed your email address several times already. Please wait 24 hours and try again.');
    // Nothing changed and nobody was mailed by the refused one; a name or phone change still goes through.
    const row = await t.db.selectFrom('users').select('email').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.email).toBe(addresses.at(-1));
    expect(await changedMails([...addresses, `ivy-${stamp}-late@example.com`])).toHaveLength(EMAIL_CHANGE_LIMIT.max);
    const rename = await c.request('PUT', '/api/account/contact', { fullName: 'Ivy Again', email: row.email, phone: '' });
    expect(rename.statusCode).toBe(200);
  });

  it('holds exactly when the changes come at once', async () => {
    const stamp = Date.now();
    const user = await createUser(t.db, { email: `jay-${stamp}@example.com`, fullName: 'Jay' });
    const c = new TestClient(t.app, '10.90.0.2');
    expect((await c.signIn(user.email, user.password)).statusCode).toBe(200);
    // Five at once: no more than the current-password limit lets through, so only the e-mail change limit refuses.
    const targets = Array.from({ length: 5 }, (_, i) => `jay-${stamp}-${i}@example.com`);
    const answers = await Promise.all(
      targets.map((email) => c.request('PUT', '/api/account/contact', { fullName: 'Chosen Name', email, currentPassword: user.password })),
    );
    expect(answers.filter((r) => r.statusCode >= 500)).toHaveLength(0);
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(EMAIL_CHANGE_LIMIT.max);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(5 - EMAIL_CHANGE_LIMIT.max);
    for (const r of refused) expect(r.json().error).toBe(ACCOUNT_MESSAGES.tooManyEmailChanges(retryAfter(r)));
    expect(await changedMails([user.email, ...targets])).toHaveLength(EMAIL_CHANGE_LIMIT.max);
  });
});
