import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/schema.js';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { errorCode, statementText, type WireRecorder } from '../test/pg-wire-recorder.js';

/*
 * No statement text reaching PostgreSQL carries a value from a request (decision 0050). The shop
 * talks to PostgreSQL through a proxy that records every protocol message; two shoppers sign up
 * with one e-mail at the same moment (an expected case: the unique index decides, and the loser's
 * insert fails, which is when PostgreSQL writes a statement's text into its own log). The e-mail,
 * name and password hash must reach the server only as bound values, never in a statement's text.
 */
const postgres = testDialect() === 'postgres';

let t: TestApp | undefined;
let wire: WireRecorder;
let app: FastifyInstance;
let db: Kysely<Database>;

beforeAll(async () => {
  if (!postgres) return;
  t = await createTestApp({ recordWire: true });
  ({ app, db } = t);
  wire = t.wire!;
});

afterAll(async () => {
  await t?.close();
});

/** Shoppers signing up with one e-mail at once, each from an address of its own; their answers' status codes. */
async function racingSignUps(email: string, fullName: string, password: string, shoppers: number): Promise<number[]> {
  const answers = await Promise.all(
    Array.from({ length: shoppers }, (_, i) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/sign-up',
        remoteAddress: `10.41.${Math.floor(Math.random() * 250)}.${i + 1}`,
        payload: { fullName, email, password, elapsedMs: 4000 },
      }),
    ),
  );
  return answers.map((a) => a.statusCode);
}

describe.runIf(postgres)('values from a request reach PostgreSQL only bound', () => {
  it('racing sign-ups on one e-mail: the failing insert and every other statement carry no e-mail, name or password hash in their text', async () => {
    let marker = '';
    let failedInserts = 0;
    // The race is all but certain (each sign-up checks for the e-mail, then hashes for a while, then
    // inserts); tried again with a new e-mail should every check come after the first insert.
    for (let attempt = 0; attempt < 5 && failedInserts === 0; attempt++) {
      marker = `wiremark${Date.now().toString(36)}x${attempt}`;
      const from = wire.messages.length;
      const statuses = await racingSignUps(`${marker}@example.com`, `Name ${marker}`, `pw-${marker}-long`, 4);
      expect(statuses.sort()).toEqual([201, 409, 409, 409]);
      failedInserts = wire.messages.slice(from).filter((m) => errorCode(m) === '23505').length;
    }
    expect(failedInserts).toBeGreaterThan(0);

    const user = await db
      .selectFrom('users')
      .select(['email', 'full_name', 'password_hash'])
      .where('email', '=', `${marker}@example.com`)
      .executeTakeFirstOrThrow();
    const secrets = [marker, user.password_hash];
    const texts = wire.messages.map(statementText).filter((t): t is string => t !== null);
    const bound = wire.messages.filter((m) => m.from === 'shop' && m.type === 'B').map((m) => m.body.toString('utf8'));
    for (const secret of secrets) expect(texts.filter((t) => t.includes(secret))).toEqual([]);
    // The recorder saw the traffic: the statements went out, and the values with them, bound.
    expect(texts.some((t) => /insert into "users"/.test(t))).toBe(true);
    expect(bound.some((b) => b.includes(user.password_hash))).toBe(true);
    expect(bound.some((b) => b.includes(`${marker}@example.com`))).toBe(true);
  });
});
