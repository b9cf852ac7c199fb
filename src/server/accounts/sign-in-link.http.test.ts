import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createUser } from '../db/seed/factories.js';
import { AUTH_MESSAGES, SIGN_IN_LINK_MESSAGES, SIGN_IN_LINK_TTL_MINUTES } from '../../shared/schemas/auth.js';
import { SIGN_IN_DEVICE_COOKIE } from '../http/sign-in-device-cookie.js';
import { SIGN_IN_LIMITS } from './sign-in-limits.js';
import { redeemSignInLink, SIGN_IN_LINK_LIMITS } from './sign-in-devices.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const retryAfter = (r: LightMyRequestResponse) => Number(r.headers['retry-after']);
let n = 0;
const ownerEmail = () => `owner${++n}-${Date.now()}@example.com`;

/** The sign-in links e-mailed to `email`, newest last: their tokens. */
async function linksTo(email: string): Promise<string[]> {
  const rows = await t.db
    .selectFrom('email_outbox')
    .select(['text', 'html'])
    .where('to_address', '=', email)
    .where('template_id', '=', 'sign-in-link')
    .orderBy('created_at')
    .execute();
  return rows.map((r) => {
    const match = /deviceToken=([A-Za-z0-9_.-]+)/.exec(r.text ?? '');
    expect(match, 'the link is in the e-mail').not.toBeNull();
    expect(r.html).toContain(match![1]);
    return match![1]!;
  });
}

/** A wave of wrong guesses at `email`, each from its own address. */
const guesses = (email: string, count: number, net: string) =>
  Array.from({ length: count }, (_, i) => new TestClient(t.app, `${net}.${Math.floor(i / 250)}.${i % 250}`).signIn(email, `guess-${i}`));

describe(`guessing from rotating addresses cannot keep the owner out (${testDialect()})`, () => {
  it('the owner on a new device, refused while the attack runs, gets in through a sign-in link; the guesses stay limited', async () => {
    const owner = await createUser(t.db, { email: ownerEmail(), password: 'Owner-Password-1' });
    // The attack: 60 guesses from 60 addresses use up the account's free attempts and its delay slots.
    const first = await Promise.all(guesses(owner.email, 60, '10.80'));
    expect(first.filter((r) => r.statusCode === 200)).toHaveLength(0);
    expect(first.filter((r) => r.statusCode >= 500)).toHaveLength(0);
    expect(first.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(SIGN_IN_LIMITS.perAccount.free + 3);

    // The owner's new phone, right after another guess: the guess took the slot, the owner is refused.
    const phone = new TestClient(t.app, '10.81.0.1');
    let refused: LightMyRequestResponse | undefined;
    for (let round = 0; round < 5 && !refused; round++) {
      await new TestClient(t.app, `10.82.0.${round}`).signIn(owner.email, `again-${round}`);
      const answer = await phone.signIn(owner.email, owner.password);
      if (answer.statusCode === 429) refused = answer;
      else {
        // Let in between two slots: a fresh browser again for the next round.
        await phone.post('/api/auth/sign-out');
        phone.cookies.delete(SIGN_IN_DEVICE_COOKIE);
      }
    }
    expect(refused, 'the owner on a new device is held back by the attack').toBeDefined();
    // The sentence gives the wait of Retry-After.
    expect(refused!.json().error).toBe(AUTH_MESSAGES.tooManyAttempts(retryAfter(refused!)));

    // The way in: a link to the owner's mailbox, opened in the phone's browser.
    const asked = await phone.post('/api/auth/sign-in-link', { email: owner.email });
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({ ok: true });
    const [token] = await linksTo(owner.email);
    const confirmed = await phone.post('/api/auth/sign-in-link/confirm', { token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ ok: true, email: owner.email });
    expect(phone.cookies.has(SIGN_IN_DEVICE_COOKIE)).toBe(true);
    expect(phone.cookies.has('sid')).toBe(false); // the link vouches for the browser; the password still signs in

    // The owner signs in in the middle of a new wave of guesses, which stays limited.
    const [mine, ...theirs] = await Promise.all([phone.signIn(owner.email, owner.password), ...guesses(owner.email, 30, '10.83')]);
    expect(mine!.statusCode).toBe(200);
    expect(mine!.json().user.email).toBe(owner.email);
    expect(theirs.filter((r) => r.statusCode === 200)).toHaveLength(0);
    expect(theirs.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(27);
    // Once more after signing out, again and again: the phone is a device the account knows.
    for (let i = 0; i < 3; i++) {
      await phone.post('/api/auth/sign-out');
      expect((await phone.signIn(owner.email, owner.password)).statusCode).toBe(200);
    }
    // The link worked once.
    const reuse = await new TestClient(t.app, '10.84.0.1').post('/api/auth/sign-in-link/confirm', { token });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error).toBe(SIGN_IN_LINK_MESSAGES.invalid);
  }, 120_000);

  it('asking for a link says the same for an unknown address, and nothing is sent to it', async () => {
    const nobody = `nobody-${Date.now()}@example.com`;
    const res = await new TestClient(t.app, '10.85.0.1').post('/api/auth/sign-in-link', { email: nobody });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await t.db.selectFrom('email_outbox').select('id').where('to_address', '=', nobody).execute()).toHaveLength(0);
    const bad = await new TestClient(t.app, '10.85.0.1').post('/api/auth/sign-in-link', { email: 'not an address' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(AUTH_MESSAGES.invalidEmail);
  });

  it('links per account are limited exactly, counted before sending, and the 429 says how long to wait', async () => {
    const owner = await createUser(t.db, { email: ownerEmail() });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => new TestClient(t.app, `10.86.0.${i}`).post('/api/auth/sign-in-link', { email: owner.email })),
    );
    const { max } = SIGN_IN_LINK_LIMITS.perAccount;
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(max);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(6 - max);
    for (const r of refused) expect(r.json().error).toBe(SIGN_IN_LINK_MESSAGES.tooMany(retryAfter(r)));
    expect(await linksTo(owner.email)).toHaveLength(max);
  });

  it('a link works once even opened twice at once; a forged, expired or pre-password-change one does not', async () => {
    const owner = await createUser(t.db, { email: ownerEmail() });
    await new TestClient(t.app, '10.87.0.1').post('/api/auth/sign-in-link', { email: owner.email });
    const [token] = await linksTo(owner.email);
    const both = await Promise.all(
      [1, 2].map((i) => new TestClient(t.app, `10.87.1.${i}`).post('/api/auth/sign-in-link/confirm', { token })),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);

    await new TestClient(t.app, '10.87.0.2').post('/api/auth/sign-in-link', { email: owner.email });
    const [, second] = await linksTo(owner.email);
    const forged = second!.slice(0, -2) + (second!.endsWith('AA') ? 'BB' : 'AA');
    expect((await new TestClient(t.app, '10.87.2.1').post('/api/auth/sign-in-link/confirm', { token: forged })).statusCode).toBe(400);
    // A device token is no link (another purpose), nor is a link past its time.
    const browser = new TestClient(t.app, '10.87.2.2');
    expect((await browser.signIn(owner.email, owner.password)).statusCode).toBe(200);
    const deviceToken = browser.cookies.get(SIGN_IN_DEVICE_COOKIE)!;
    expect((await new TestClient(t.app, '10.87.2.3').post('/api/auth/sign-in-link/confirm', { token: deviceToken })).statusCode).toBe(400);
    expect(await redeemSignInLink(t.db, second!, new Date(Date.now() + (SIGN_IN_LINK_TTL_MINUTES + 1) * 60_000))).toBeNull();
    // A new password makes every link sent before it worthless.
    await t.db.updateTable('users').set({ password_hash: 'changed-elsewhere' }).where('id', '=', owner.id).execute();
    const stale = await new TestClient(t.app, '10.87.2.4').post('/api/auth/sign-in-link/confirm', { token: second });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error).toBe(SIGN_IN_LINK_MESSAGES.invalid);
    expect(stale.headers['set-cookie']).toBeUndefined();
  });
});
