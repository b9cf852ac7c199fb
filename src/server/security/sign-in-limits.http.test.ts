import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createUser } from '../db/seed/factories.js';
import { AUTH_MESSAGES } from '../../shared/schemas/auth.js';
import { delaySlot, SIGN_IN_LIMITS } from '../accounts/sign-in-limits.js';
import { LIMITS } from '../accounts/service.js';
import { CONTACT_LIMIT_PER_IP } from '../content/contact.js';
import { SIGN_IN_DEVICE_COOKIE } from '../http/sign-in-device-cookie.js';
import { hitRateLimit } from '../http/rate-limit.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** What a caller sees of a burst: checked = the password was looked at (401 or 200); refused = 429. */
function tally(answers: LightMyRequestResponse[]) {
  const count = (f: (s: number) => boolean) => answers.filter((r) => f(r.statusCode)).length;
  return {
    checked: count((s) => s === 401 || s === 200),
    signedIn: count((s) => s === 200),
    refused: count((s) => s === 429),
    serverErrors: count((s) => s >= 500),
    other: count((s) => ![200, 401, 429].includes(s)),
  };
}

const retryAfter = (r: LightMyRequestResponse) => Number(r.headers['retry-after']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let n = 0;
const victimEmail = () => `victim${++n}-${Date.now()}@example.com`;

describe(`sign-in limits under concurrency (${testDialect()})`, () => {
  it('200 simultaneous guesses at one account from one address check at most 5; the right one among them does not get in', async () => {
    const victim = await createUser(t.db, { email: victimEmail(), password: 'Right-Password-1' });
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        new TestClient(t.app, '10.60.0.1').signIn(victim.email, i === 199 ? 'Right-Password-1' : `guess-${i}`),
      ),
    );
    const seen = tally(answers);
    expect(seen.serverErrors).toBe(0);
    expect(seen.other).toBe(0);
    expect(seen.checked).toBeLessThanOrEqual(SIGN_IN_LIMITS.perAccountAndIp.max);
    expect(seen.checked).toBeGreaterThan(0);
    expect(seen.signedIn).toBe(0);
    expect(seen.refused).toBe(200 - seen.checked);
    const right = answers[199]!;
    expect(right.statusCode).toBe(429);
    expect(right.json().error).toBe(AUTH_MESSAGES.tooManyAttempts(retryAfter(right)));
    expect(right.headers['set-cookie']).toBeUndefined();
    expect(retryAfter(right)).toBeGreaterThan(0);
    expect(retryAfter(right)).toBeLessThanOrEqual(15 * 60);
    // No session was created for the victim.
    expect(await t.db.selectFrom('sessions').select('token_hash').where('user_id', '=', victim.id).execute()).toHaveLength(0);
  });

  it('guesses spread over 200 addresses are slowed, not blocked: after the delay the owner, in a fresh browser, signs in', async () => {
    const victim = await createUser(t.db, { email: victimEmail(), password: 'Right-Password-1' });
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        new TestClient(t.app, `10.61.${Math.floor(i / 250)}.${i % 250}`).signIn(victim.email, `guess-${i}`),
      ),
    );
    const elapsed = Date.now() - started;
    const seen = tally(answers);
    expect(seen.serverErrors).toBe(0);
    expect(seen.signedIn).toBe(0);
    // The free attempts, then one per delay slot that began while the burst ran.
    const slow = SIGN_IN_LIMITS.perAccount;
    const slots = delaySlot(elapsed, slow.firstDelayMs, slow.maxDelayMs).index + 1;
    expect(seen.checked).toBeGreaterThanOrEqual(slow.free);
    expect(seen.checked).toBeLessThanOrEqual(slow.free + slots);
    expect(seen.refused).toBe(200 - seen.checked);
    // A delay of seconds, never the whole window.
    for (const r of answers.filter((a) => a.statusCode === 429)) {
      expect(r.json().error).toBe(AUTH_MESSAGES.tooManyAttempts(retryAfter(r)));
      expect(retryAfter(r)).toBeGreaterThan(0);
      expect(retryAfter(r)).toBeLessThanOrEqual(slow.maxDelayMs / 1000);
    }

    // A fresh browser (the owner's, say) is told to wait a little, not 15 minutes, and then gets in.
    const fresh = new TestClient(t.app, '10.61.9.1');
    let waited = 0;
    let answer = await fresh.signIn(victim.email, 'Right-Password-1');
    for (let i = 0; i < 4 && answer.statusCode === 429; i++) {
      expect(retryAfter(answer)).toBeLessThanOrEqual(8);
      waited += retryAfter(answer);
      await sleep(retryAfter(answer) * 1000 + 100);
      answer = await fresh.signIn(victim.email, 'Right-Password-1');
    }
    expect(answer.statusCode).toBe(200);
    expect(answer.json().user.email).toBe(victim.email);
    expect(waited).toBeLessThanOrEqual(10);
  });

  /** Wrong passwords one after another from one browser: their answers. */
  async function sixWrong(c: TestClient, email: string): Promise<number[]> {
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await c.signIn(email, `wrong-${i}`)).statusCode);
    return codes;
  }
  const accountIpHits = async (email: string, ip: string) =>
    (await t.db.selectFrom('rate_limits').select('hits').where('key', '=', `signin:acct-ip:${email}:${ip}`).executeTakeFirst())?.hits;

  it('the owner with a device cookie signs in while an attack from elsewhere is running and refused', async () => {
    const owner = await createUser(t.db, { email: victimEmail(), password: 'Owner-Password-1' });
    const home = new TestClient(t.app, '10.62.0.1');
    const first = await home.signIn(owner.email, owner.password);
    expect(first.statusCode).toBe(200);
    const device = (
      first.cookies as { name: string; value: string; httpOnly?: boolean; sameSite?: string; maxAge?: number; secure?: boolean }[]
    ).find((c) => c.name === SIGN_IN_DEVICE_COOKIE)!;
    expect(device).toBeDefined();
    expect(device.httpOnly).toBe(true);
    expect(device.sameSite).toBe('Lax');
    expect(device.secure).toBeFalsy(); // PUBLIC_URL is http here
    expect(device.maxAge).toBe(365 * 24 * 3600);
    expect((await home.post('/api/auth/sign-out')).statusCode).toBe(200);
    expect(home.cookies.has(SIGN_IN_DEVICE_COOKIE)).toBe(true); // kept at sign-out

    // The attack: 150 guesses from 50 addresses, and the owner signing in from home in the middle of it.
    const attack = Array.from({ length: 150 }, (_, i) => new TestClient(t.app, `10.63.0.${i % 50}`).signIn(owner.email, `guess-${i}`));
    const [mine, ...theirs] = await Promise.all([home.signIn(owner.email, owner.password), ...attack]);
    expect(mine!.statusCode).toBe(200);
    const seen = tally(theirs);
    expect(seen.serverErrors).toBe(0);
    expect(seen.refused).toBeGreaterThan(120);

    // Another wave right after: still refused (at most one per delay slot gets checked) while the owner signs in again and again.
    const wave = Array.from({ length: 30 }, (_, i) => new TestClient(t.app, `10.63.1.${i}`).signIn(owner.email, `again-${i}`));
    await home.post('/api/auth/sign-out');
    const [again, ...second] = await Promise.all([home.signIn(owner.email, owner.password), ...wave]);
    expect(again!.statusCode).toBe(200);
    expect(tally(second).refused).toBeGreaterThanOrEqual(27);
    for (let i = 0; i < 3; i++) {
      await home.post('/api/auth/sign-out');
      expect((await home.signIn(owner.email, owner.password)).statusCode).toBe(200);
    }

    // The genuine cookie is counted against itself: six wrong passwords are all checked (its limit is 10)...
    const elsewhere = new TestClient(t.app, '10.62.0.9');
    elsewhere.cookies.set(SIGN_IN_DEVICE_COOKIE, home.cookies.get(SIGN_IN_DEVICE_COOKIE)!);
    expect(await sixWrong(elsewhere, owner.email)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(await accountIpHits(owner.email, '10.62.0.9')).toBeUndefined();
    // ... while an altered one, or another account's, is just a fresh browser: the account-and-address limit refuses the sixth.
    const token = home.cookies.get(SIGN_IN_DEVICE_COOKIE)!;
    const forged = new TestClient(t.app, '10.62.0.10');
    forged.cookies.set(SIGN_IN_DEVICE_COOKIE, token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA'));
    expect((await sixWrong(forged, owner.email)).at(-1)).toBe(429);
    expect(await accountIpHits(owner.email, '10.62.0.10')).toBe(6);
    const other = await createUser(t.db, { email: victimEmail(), password: 'Other-Password-1' });
    const otherBrowser = new TestClient(t.app, '10.62.0.11');
    expect((await otherBrowser.signIn(other.email, other.password)).statusCode).toBe(200);
    expect((await sixWrong(otherBrowser, owner.email)).at(-1)).toBe(429);
    expect(await accountIpHits(owner.email, '10.62.0.11')).toBe(6);
  });

  it('a device cookie has its own limit, counted before the password check', async () => {
    const owner = await createUser(t.db, { email: victimEmail(), password: 'Owner-Password-1' });
    const home = new TestClient(t.app, '10.64.0.1');
    expect((await home.signIn(owner.email, owner.password)).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => home.signIn(owner.email, `typo-${i}`)));
    const seen = tally(answers);
    expect(seen.checked).toBe(SIGN_IN_LIMITS.perDevice.max);
    expect(seen.refused).toBe(16 - SIGN_IN_LIMITS.perDevice.max);
    expect(seen.serverErrors).toBe(0);
    expect((await home.signIn(owner.email, owner.password)).statusCode).toBe(429);
    // The account's own counters were not touched: a fresh browser elsewhere signs in at once.
    expect(await accountIpHits(owner.email, '10.64.0.1')).toBeUndefined();
    const account = await t.db.selectFrom('rate_limits').select('hits').where('key', '=', `signin:acct:${owner.email}`).executeTakeFirst();
    expect(account?.hits ?? 0).toBe(0);
    expect((await new TestClient(t.app, '10.64.0.2').signIn(owner.email, owner.password)).statusCode).toBe(200);
  });

  it('a password reset makes every device cookie of the account worthless', async () => {
    const owner = await createUser(t.db, { email: victimEmail(), password: 'Owner-Password-1' });
    const home = new TestClient(t.app, '10.68.0.1');
    expect((await home.signIn(owner.email, owner.password)).statusCode).toBe(200);
    const copy = new TestClient(t.app, '10.68.0.2');
    copy.cookies.set(SIGN_IN_DEVICE_COOKIE, home.cookies.get(SIGN_IN_DEVICE_COOKIE)!);
    expect(await sixWrong(copy, owner.email)).toEqual([401, 401, 401, 401, 401, 401]); // honoured before the reset

    const requester = new TestClient(t.app, '10.68.0.3');
    expect((await requester.post('/api/auth/password-reset', { email: owner.email, elapsedMs: 3000 })).statusCode).toBe(200);
    const mail = await t.db
      .selectFrom('email_outbox')
      .select('text')
      .where('to_address', '=', owner.email)
      .where('template_id', '=', 'password-reset')
      .executeTakeFirstOrThrow();
    const resetToken = /token=([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')![1]!;
    const confirmed = await requester.post('/api/auth/password-reset/confirm', {
      token: resetToken,
      password: 'Fresh-Password-2',
      confirmPassword: 'Fresh-Password-2',
    });
    expect(confirmed.statusCode).toBe(200);

    const thief = new TestClient(t.app, '10.68.0.4');
    thief.cookies.set(SIGN_IN_DEVICE_COOKIE, home.cookies.get(SIGN_IN_DEVICE_COOKIE)!);
    expect((await sixWrong(thief, owner.email)).at(-1)).toBe(429);
    expect(await accountIpHits(owner.email, '10.68.0.4')).toBe(6);
    // The owner signs in with the new password and gets a new cookie that is honoured again.
    expect((await home.signIn(owner.email, 'Fresh-Password-2')).statusCode).toBe(200);
    const renewed = new TestClient(t.app, '10.68.0.5');
    renewed.cookies.set(SIGN_IN_DEVICE_COOKIE, home.cookies.get(SIGN_IN_DEVICE_COOKIE)!);
    expect(await sixWrong(renewed, owner.email)).toEqual([401, 401, 401, 401, 401, 401]);
  });

  it('sets the device cookie Secure when the shop is served over https', async () => {
    const https = await createTestApp({ env: { PUBLIC_URL: 'https://shop.test' } });
    try {
      const user = await createUser(https.db, { email: victimEmail() });
      const res = await new TestClient(https.app, '10.67.0.1').post(
        '/api/auth/sign-in',
        { email: user.email, password: user.password, elapsedMs: 3000 },
        { origin: 'https://shop.test' },
      );
      expect(res.statusCode).toBe(200);
      const cookie = ([res.headers['set-cookie']].flat() as string[]).find((c) => c.startsWith(`${SIGN_IN_DEVICE_COOKIE}=`))!;
      expect(cookie).toContain('Secure');
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Lax');
    } finally {
      await https.close();
    }
  });
});

describe(`other limits hold exactly under concurrency (${testDialect()})`, () => {
  it('hitRateLimit: 100 simultaneous hits each get a different count, 1 to 100; an ended window starts over at 1', async () => {
    const key = `test:burst:${Date.now()}`;
    const now = new Date();
    const counts = await Promise.all(Array.from({ length: 100 }, () => hitRateLimit(t.db, key, 60_000, now)));
    expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    const later = new Date(now.getTime() + 60_001);
    const again = await Promise.all(Array.from({ length: 10 }, () => hitRateLimit(t.db, key, 60_000, later)));
    expect([...again].sort((x, y) => x - y)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });

  it('password reset: 20 simultaneous requests for one account from one address send exactly 5 e-mails', async () => {
    const user = await createUser(t.db, { email: victimEmail() });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        new TestClient(t.app, '10.70.0.1').post('/api/auth/password-reset', { email: user.email, elapsedMs: 3000 }),
      ),
    );
    // The address lets 10 through, the account 5 of those.
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(LIMITS.resetRequestsPerAccount);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(20 - LIMITS.resetRequestsPerAccount);
    expect(refused.every((r) => retryAfter(r) > 0)).toBe(true);
    const mails = await t.db.selectFrom('email_outbox').select('id').where('to_address', '=', user.email).execute();
    expect(mails).toHaveLength(LIMITS.resetRequestsPerAccount);
  });

  it('password reset: 20 simultaneous requests for different accounts from one address pass exactly 10', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        new TestClient(t.app, '10.70.0.2').post('/api/auth/password-reset', { email: `nobody${i}@example.com`, elapsedMs: 3000 }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(LIMITS.resetRequestsPerIp);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(20 - LIMITS.resetRequestsPerIp);
  });

  it('sign-up: 20 simultaneous sign-ups from one address create exactly 10 accounts', async () => {
    const stamp = Date.now();
    const emails = Array.from({ length: 20 }, (_, i) => `burst${i}-${stamp}@example.com`);
    const answers = await Promise.all(
      emails.map((email) =>
        new TestClient(t.app, '10.71.0.1').post('/api/auth/sign-up', {
          fullName: 'Burst',
          email,
          password: 'Burst-Password-1',
          elapsedMs: 3000,
        }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(t.config.signUpLimitPerIp);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(20 - t.config.signUpLimitPerIp);
    const created = await t.db.selectFrom('users').select('id').where('email', 'in', emails).execute();
    expect(created).toHaveLength(t.config.signUpLimitPerIp);
  });

  it('contact: 12 simultaneous messages from one address store exactly 5', async () => {
    const subject = `Burst ${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        new TestClient(t.app, '10.72.0.1').post('/api/contact', {
          name: 'Burst',
          email: 'burst@example.com',
          subject,
          message: `Hello ${i}`,
          elapsedMs: 5000,
        }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(CONTACT_LIMIT_PER_IP);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(12 - CONTACT_LIMIT_PER_IP);
    expect(refused.every((r) => retryAfter(r) > 0)).toBe(true);
    const stored = await t.db.selectFrom('contact_messages').select('id').where('subject', '=', subject).execute();
    expect(stored).toHaveLength(CONTACT_LIMIT_PER_IP);
  });

  it('contact: a message that does not say how long it took is treated as a bot (same answer, nothing stored)', async () => {
    const subject = `No timer ${Date.now()}`;
    const res = await new TestClient(t.app, '10.72.0.2').post('/api/contact', {
      name: 'Bot',
      email: 'bot@example.com',
      subject,
      message: 'Hi',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await t.db.selectFrom('contact_messages').select('id').where('subject', '=', subject).execute()).toHaveLength(0);
  });
});
