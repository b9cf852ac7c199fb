import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { createUser } from '../db/seed/factories.js';
import { hashToken } from '../lib/tokens.js';
import { nowIso } from '../lib/ids.js';
import { createSession, SESSION_COOKIE } from './sessions.js';

/*
 * Every request reads its session from the database; on PostgreSQL the requests of one turn of the
 * event loop are looked up in one statement (sessions.ts, SessionLookups). Fired at the same moment,
 * every request must still act as its own session, never a neighbour's, and see what was committed
 * before it arrived (a demotion, an expiry, a sign-out).
 */
const postgres = testDialect() === 'postgres';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ recordWire: postgres });
});
afterAll(async () => {
  await t?.close();
});

type Asked = { label: string; token: string; url: string };

function ask({ token, url }: Asked) {
  return t.app.inject({ method: 'GET', url, headers: { cookie: `${SESSION_COOKIE}=${token}` } });
}

/** Bind messages that reached PostgreSQL carrying this session's token hash (the look-up's value). */
function bindsCarrying(tokens: string[], from: number): number {
  const hashes = tokens.map(hashToken);
  return t.wire!.messages.slice(from).filter((m) => m.from === 'shop' && m.type === 'B' && hashes.some((h) => m.body.includes(h))).length;
}

describe('sessions read by requests at the same moment', () => {
  it('answer each request as its own session: admins, customers, one impersonating, a demoted admin, an expired, a signed-out and an unknown one', async () => {
    const owner = await createUser(t.db, { role: 'admin', email: 'lookup-owner@example.com' });
    const helper = await createUser(t.db, { role: 'admin', email: 'lookup-helper@example.com' });
    const demoted = await createUser(t.db, { role: 'admin', email: 'lookup-demoted@example.com' });
    const ann = await createUser(t.db, { email: 'lookup-ann@example.com' });
    const ben = await createUser(t.db, { email: 'lookup-ben@example.com' });
    const tokenOf = async (userId: string) => (await createSession(t.db, userId)).token;
    // Every session first: a new session of a user deletes that user's expired ones (createSession).
    const sessions = {
      owner: await tokenOf(owner.id),
      helper: await tokenOf(helper.id),
      ann: await tokenOf(ann.id),
      ben: await tokenOf(ben.id),
      impersonating: await tokenOf(helper.id),
      demoted: await tokenOf(demoted.id),
      expired: await tokenOf(ben.id),
      signedOut: await tokenOf(ann.id),
      unknown: 'no-such-session-token',
    };
    const row = (token: string) => t.db.updateTable('sessions').where('token_hash', '=', hashToken(token));
    await row(sessions.impersonating).set({ acting_as_user_id: ann.id }).execute();
    await row(sessions.expired)
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    await t.db.deleteFrom('sessions').where('token_hash', '=', hashToken(sessions.signedOut)).execute();
    await t.db.updateTable('users').set({ role: 'client', updated_at: nowIso() }).where('id', '=', demoted.id).execute();
    const expired = sessions.expired;
    expect(
      await t.db.selectFrom('sessions').select('token_hash').where('token_hash', '=', hashToken(expired)).executeTakeFirst(),
    ).toBeDefined();
    const expected: Record<keyof typeof sessions, { email: string | null; impersonator: string | null; admin: number }> = {
      owner: { email: owner.email, impersonator: null, admin: 200 },
      helper: { email: helper.email, impersonator: null, admin: 200 },
      ann: { email: ann.email, impersonator: null, admin: 403 },
      ben: { email: ben.email, impersonator: null, admin: 403 },
      // Impersonating, the admin acts as the customer, and the back office is closed to them (impersonation.ts).
      impersonating: { email: ann.email, impersonator: helper.email, admin: 403 },
      demoted: { email: demoted.email, impersonator: null, admin: 403 },
      expired: { email: null, impersonator: null, admin: 401 },
      signedOut: { email: null, impersonator: null, admin: 401 },
      unknown: { email: null, impersonator: null, admin: 401 },
    };
    // Each session asks three times for who it is and three times for the back office's order list, all at once, shuffled.
    const asked: Asked[] = [];
    for (const [label, token] of Object.entries(sessions))
      // The back office's path spelled as an attacker would too: the router decodes it, and the guard still decides.
      for (const admin of ['/api/admin/orders', '/api/%61dmin/orders', '/api/adm%69n/%6frders'])
        asked.push({ label, token, url: '/api/session' }, { label, token, url: `${admin}?page=1&pageSize=5` });
    asked.sort(() => Math.random() - 0.5);
    const from = t.wire?.messages.length ?? 0;
    const answers = await Promise.all(asked.map(ask));

    const seen = answers.map((res, i) => {
      const { label, url } = asked[i]!;
      if (url !== '/api/session') return { label, url, status: res.statusCode };
      const body = res.json() as { user: { email: string } | null; impersonatorEmail: string | null };
      return { label, url, status: res.statusCode, email: body.user?.email ?? null, impersonator: body.impersonatorEmail };
    });
    const wanted = asked.map(({ label, url }) => {
      const e = expected[label as keyof typeof sessions];
      return url === '/api/session'
        ? { label, url, status: 200, email: e.email, impersonator: e.impersonator }
        : { label, url, status: e.admin };
    });
    expect(seen).toEqual(wanted);
    // The expired session is gone; the others stay.
    expect(
      await t.db.selectFrom('sessions').select('token_hash').where('token_hash', '=', hashToken(expired)).executeTakeFirst(),
    ).toBeUndefined();

    if (postgres) {
      // 48 requests of 8 sessions: their look-ups reached PostgreSQL in a few statements, not 48.
      // (The expired session's own deletes carry its token too: it is left out of the count.)
      const binds = bindsCarrying(
        Object.values(sessions).filter((token) => token !== expired),
        from,
      );
      expect(binds).toBeGreaterThan(0);
      expect(binds).toBeLessThanOrEqual(6);
    }
  });

  it('answer 250 sessions at once, more than one statement looks up, each as its own', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, (_, i) => createUser(t.db, { email: `lookup-many-${i}@example.com` })));
    const tokens: { token: string; email: string }[] = [];
    for (let i = 0; i < 250; i++) {
      const user = users[i % users.length]!;
      tokens.push({ token: (await createSession(t.db, user.id)).token, email: user.email });
    }
    const from = t.wire?.messages.length ?? 0;
    const answers = await Promise.all(tokens.map(({ token }) => ask({ label: '', token, url: '/api/account/summary' })));
    expect(answers.map((a) => a.statusCode)).toEqual(tokens.map(() => 200));
    const who = await Promise.all(tokens.map(({ token }) => ask({ label: '', token, url: '/api/session' })));
    expect(who.map((a) => (a.json() as { user: { email: string } }).user.email)).toEqual(tokens.map((x) => x.email));
    if (postgres) {
      const binds = bindsCarrying(
        tokens.map((x) => x.token),
        from,
      );
      // At most 100 sessions a statement: at least three for the first 250, and far fewer than 500 for both rounds.
      expect(binds).toBeGreaterThanOrEqual(3);
      expect(binds).toBeLessThan(50);
    }
  });

  it('see a sign-out committed a moment before, while other sessions of the same moment are read', async () => {
    const cleo = await createUser(t.db, { email: 'lookup-cleo@example.com' });
    const dan = await createUser(t.db, { email: 'lookup-dan@example.com' });
    const cleoToken = (await createSession(t.db, cleo.id)).token;
    const danToken = (await createSession(t.db, dan.id)).token;
    const summary = (token: string) => ask({ label: '', token, url: '/api/account/summary' });
    expect((await Promise.all([summary(cleoToken), summary(danToken)])).map((a) => a.statusCode)).toEqual([200, 200]);
    // Cleo signs out; Dan's and Cleo's next requests go out together, right after.
    const signOut = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie: `${SESSION_COOKIE}=${cleoToken}`, origin: t.config.publicUrl },
    });
    expect(signOut.statusCode).toBeLessThan(300);
    const after = await Promise.all([summary(danToken), summary(cleoToken), summary(danToken), summary(cleoToken)]);
    expect(after.map((a) => a.statusCode)).toEqual([200, 401, 200, 401]);
  });
});
