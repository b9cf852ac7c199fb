import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/server/db/database.js';
import type { Database } from '../src/server/db/schema.js';
import { createTestDatabase, type TestDb } from '../src/server/test/harness.js';
import { createUser } from '../src/server/db/seed/factories.js';
import { delaySlot, SIGN_IN_LIMITS } from '../src/server/accounts/sign-in-limits.js';
import { SIGN_IN_DEVICE_COOKIE } from '../src/server/http/sign-in-device-cookie.js';
import { startServer, type ServerProcess } from './server-process.js';

/**
 * Sign-in limits with two real server processes on one PostgreSQL: every counter lives in the
 * database and is taken in one statement, so a burst split between the processes checks no more
 * passwords than it would on one. The processes trust X-Forwarded-For (as behind a load balancer),
 * so one test machine can speak from many addresses.
 */
const HAS_PG = Boolean(process.env.TEST_DATABASE_URL);

type Answer = { status: number; retryAfter: number; cookies: string[] };

async function signIn(base: string, ip: string, email: string, password: string, cookie?: string): Promise<Answer> {
  const res = await fetch(`${base}/api/auth/sign-in`, {
    method: 'POST',
    headers: {
      origin: base,
      'content-type': 'application/json',
      'x-forwarded-for': ip,
      ...(cookie ? { cookie } : {}),
    },
    body: JSON.stringify({ email, password, elapsedMs: 3000 }),
  });
  await res.arrayBuffer();
  return { status: res.status, retryAfter: Number(res.headers.get('retry-after') ?? 0), cookies: res.headers.getSetCookie() };
}

function tally(answers: Answer[]) {
  const count = (f: (s: number) => boolean) => answers.filter((a) => f(a.status)).length;
  return {
    checked: count((s) => s === 401 || s === 200),
    signedIn: count((s) => s === 200),
    refused: count((s) => s === 429),
    serverErrors: count((s) => s >= 500),
  };
}

describe.skipIf(!HAS_PG)('sign-in limits across two processes on one PostgreSQL', () => {
  let testDb: TestDb;
  let db: Kysely<Database>;
  let closeDb: () => Promise<void>;
  let a: ServerProcess;
  let b: ServerProcess;
  let n = 0;
  const email = () => `fault-victim${++n}-${Date.now()}@example.com`;
  const both = () => [a.base, b.base];

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    // One after the other: the first migrates and seeds the empty database.
    a = await startServer(testDb.url, { TRUST_PROXY: 'true' });
    b = await startServer(testDb.url, { TRUST_PROXY: 'true' });
    const opened = openDatabase(testDb.url);
    db = opened.db;
    closeDb = opened.close;
  });
  afterAll(async () => {
    await a?.stop('SIGKILL');
    await b?.stop('SIGKILL');
    await closeDb?.();
    await testDb?.drop();
  });

  it('200 simultaneous guesses at one account from one address, split over the two processes, check at most 5', async () => {
    const victim = await createUser(db, { email: email(), password: 'Right-Password-1' });
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        signIn(both()[i % 2]!, '198.51.100.7', victim.email, i === 199 ? victim.password : `guess-${i}`),
      ),
    );
    const seen = tally(answers);
    expect(seen.serverErrors).toBe(0);
    expect(seen.checked).toBeLessThanOrEqual(SIGN_IN_LIMITS.perAccountAndIp.max);
    expect(seen.checked).toBeGreaterThan(0);
    expect(seen.signedIn).toBe(0);
    expect(seen.refused).toBe(200 - seen.checked);
    expect(answers[199]!.status).toBe(429);
    console.info(`[fault] one address, two processes: ${seen.checked} of 200 guesses checked, ${seen.refused} refused`);
  });

  it('200 guesses from 200 addresses over both processes are slowed to the free attempts and one per delay slot; the owner’s device cookie works on either process', async () => {
    const owner = await createUser(db, { email: email(), password: 'Owner-Password-1' });
    // The owner signed in on process A before; the cookie names the account, signed with the shared secret.
    const first = await signIn(a.base, '192.0.2.10', owner.email, owner.password);
    expect(first.status).toBe(200);
    const device = first.cookies.find((c) => c.startsWith(`${SIGN_IN_DEVICE_COOKIE}=`))!.split(';')[0]!;

    const started = Date.now();
    const attack = Array.from({ length: 200 }, (_, i) => signIn(both()[i % 2]!, `203.0.113.${i % 250}`, owner.email, `guess-${i}`));
    // The owner signs in on process B in the middle of it.
    const [mine, ...theirs] = await Promise.all([signIn(b.base, '192.0.2.10', owner.email, owner.password, device), ...attack]);
    const elapsed = Date.now() - started;
    expect(mine!.status).toBe(200);
    const seen = tally(theirs);
    expect(seen.serverErrors).toBe(0);
    const slow = SIGN_IN_LIMITS.perAccount;
    const slots = delaySlot(elapsed, slow.firstDelayMs, slow.maxDelayMs).index + 1;
    expect(seen.checked).toBeLessThanOrEqual(slow.free + slots);
    expect(seen.refused).toBe(200 - seen.checked);
    for (const r of theirs.filter((x) => x.status === 429)) expect(r.retryAfter).toBeLessThanOrEqual(slow.maxDelayMs / 1000);
    console.info(`[fault] 200 addresses, two processes: ${seen.checked} of 200 guesses checked in ${elapsed} ms; the owner signed in`);
  });
});
