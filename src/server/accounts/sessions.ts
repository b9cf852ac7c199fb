import type { CompiledQuery, Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import { planOnce } from '../db/pg-connection.js';
import { compiledOnce } from '../db/compiled-once.js';
import { nowIso } from '../lib/ids.js';
import { hashToken, newToken } from '../lib/tokens.js';
import { MicroCache } from '../http/micro-cache.js';

export const SESSION_COOKIE = 'sid';
export const SESSION_TTL_MS = 24 * 3_600_000;

export type LoadedSession = {
  tokenHash: string;
  /** The user every request acts as: the impersonated customer while an admin impersonates. */
  user: UserRow;
  /** The signed-in admin while impersonating, else null. */
  impersonator: UserRow | null;
  expiresAt: string;
};

export async function createSession(db: Kysely<Database>, userId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      acting_as_user_id: null,
      created_at: nowIso(),
      expires_at: expiresAt.toISOString(),
    })
    .execute();
  // Sessions of this user that have run out are of no use to anybody.
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<=', nowIso()).execute();
  return { token, expiresAt };
}

/** The session named by a cookie token, or null when it is unknown or expired (an expired one is deleted). */
const USER_COLUMNS = [
  'id',
  'email',
  'full_name',
  'phone',
  'role',
  'password_hash',
  'email_verified',
  'loyalty_points',
  'total_points_earned',
  'shipping_address',
  'billing_address',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof UserRow)[];

/** The session, its owner and (while impersonating) the customer, in one query: it runs on every signed-in request. */
export async function loadSession(db: Kysely<Database>, token: string): Promise<LoadedSession | null> {
  if (!token || token.length > 100) return null;
  return loadSessionByHash(db, hashToken(token));
}

/**
 * Sessions as reads see them, kept for a second. Any sign-out, password change or other write
 * (every non-GET request but a cart quote, and every back-office write) forgets them all at once
 * in this process; another process sees a sign-out within the second. Writes always read the
 * session afresh.
 */
const recentSessions = new MicroCache<LoadedSession | null>(1000, 10_000);

export function forgetLoadedSessions(): void {
  recentSessions.clear();
}

/** `loadSession` for read-only requests: at most a second old, never past its expiry. */
export async function loadSessionForRead(db: Kysely<Database>, token: string): Promise<LoadedSession | null> {
  if (!token || token.length > 100) return null;
  const tokenHash = hashToken(token);
  const session = await recentSessions.get(tokenHash, () => loadSessionByHash(db, tokenHash));
  if (session && session.expiresAt <= nowIso()) {
    forgetLoadedSessions();
    return loadSessionByHash(db, tokenHash);
  }
  return session;
}

/**
 * The session's statement (it runs on every signed-in request, and on every back-office and
 * account request afresh): built and compiled by Kysely once (db/compiled-once.ts), not on each
 * request, and on PostgreSQL planned once per connection (`planOnce`), as a look-up by the primary
 * key has one best plan whatever the token. SQLite keeps the prepared statement by its text (db/database.ts).
 */
const sessionStatement = compiledOnce((db, { tokenHash }: { tokenHash: string }) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as o', 'o.id', 's.user_id')
    .leftJoin('users as a', 'a.id', 's.acting_as_user_id')
    .select(['s.expires_at', 's.acting_as_user_id'])
    .select(USER_COLUMNS.map((c) => `o.${c} as o_${c}` as const))
    .select(USER_COLUMNS.map((c) => `a.${c} as a_${c}` as const))
    .where('s.token_hash', '=', tokenHash),
);

type SessionRow = { expires_at: string; acting_as_user_id: string | null } & Record<string, unknown>;

async function loadSessionByHash(db: Kysely<Database>, tokenHash: string): Promise<LoadedSession | null> {
  const statement = sessionStatement(db, { tokenHash }) as CompiledQuery<SessionRow>;
  const { rows } = await db.executeQuery(planOnce(statement, statement.parameters));
  const row = rows[0];
  if (!row) return null;
  if (row.expires_at <= nowIso()) {
    await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
    return null;
  }
  const pick = (prefix: 'o' | 'a'): UserRow | undefined => {
    if (row[`${prefix}_id`] == null) return undefined;
    return Object.fromEntries(USER_COLUMNS.map((c) => [c, row[`${prefix}_${c}`]])) as unknown as UserRow;
  };
  const owner = pick('o')!;
  const actingAs = row.acting_as_user_id ? pick('a') : undefined;
  // Impersonation only holds while the session's owner is still an admin, and acts only as a
  // customer: as another admin (promoted meanwhile) it would borrow that admin's rights and name.
  if (actingAs && owner.role === 'admin' && actingAs.role !== 'admin') {
    return { tokenHash, user: actingAs, impersonator: owner, expiresAt: row.expires_at };
  }
  return { tokenHash, user: owner, impersonator: null, expiresAt: row.expires_at };
}

export async function deleteSession(db: Kysely<Database>, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  forgetLoadedSessions();
}

export async function deleteUserSessions(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  forgetLoadedSessions();
}

export async function deleteExpiredSessions(db: Kysely<Database>): Promise<number> {
  const r = await db.deleteFrom('sessions').where('expires_at', '<=', nowIso()).executeTakeFirst();
  forgetLoadedSessions();
  return Number(r.numDeletedRows);
}
