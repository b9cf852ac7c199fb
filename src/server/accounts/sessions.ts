import { sql, type CompiledQuery, type Kysely, type SqlBool } from 'kysely';
import { isPostgres } from '../db/query-helpers.js';
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

/** A user's columns as every request reads them with its session. */
const USER_COLUMNS = [
  'id', // first: a row without its user has null here (userOf)
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

/**
 * The session named by a cookie token, its owner and (while impersonating) the customer, in one query, or null when
 * it is unknown or expired (an expired one is deleted): it runs on every signed-in request.
 */
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
 * The session's statements (they run on every signed-in request, and on every back-office and
 * account request afresh): built and compiled by Kysely once (db/compiled-once.ts), not on each
 * request. SQLite reads one session a statement and keeps it prepared by its text (db/database.ts);
 * PostgreSQL reads a turn's sessions at once (SessionLookups), planned once per connection
 * (`planOnce`), as a look-up by the primary key has one best plan whatever the tokens.
 */
const sessionStatement = compiledOnce((db, { tokenHash }: { tokenHash: string }) =>
  sessionColumns(db).where('s.token_hash', '=', tokenHash),
);

/** PostgreSQL's, for several sessions at once (the hashes go as one array parameter). */
const sessionsStatement = compiledOnce((db, { tokenHashes }: { tokenHashes: string[] }) =>
  sessionColumns(db).where(sql<SqlBool>`s.token_hash = any(${tokenHashes}::text[])`),
);

function sessionColumns(db: Kysely<Database>) {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as o', 'o.id', 's.user_id')
    .leftJoin('users as a', 'a.id', 's.acting_as_user_id')
    .select(['s.token_hash', 's.expires_at', 's.acting_as_user_id'])
    .select(USER_COLUMNS.map((c) => `o.${c} as o_${c}` as const))
    .select(USER_COLUMNS.map((c) => `a.${c} as a_${c}` as const));
}

type SessionRow = { token_hash: string; expires_at: string; acting_as_user_id: string | null } & Record<string, unknown>;

/** Most sessions one PostgreSQL statement looks up. */
const BATCH_MOST = 100;

/**
 * Sessions asked for during one turn of the event loop, looked up together on PostgreSQL in one
 * statement once the turn's requests have all been read (`setImmediate`): on a busy back office a
 * trip to the database, its three messages and its answer serve every request of the turn, not
 * one. Each request's look-up still goes out after the request arrived, so it sees every sign-out
 * and demotion committed before it, as a look-up of its own would. The same token asked for twice
 * in a turn is looked up once.
 */
class SessionLookups {
  private waiting = new Map<string, { resolve: (row: SessionRow | undefined) => void; reject: (err: unknown) => void }[]>();

  constructor(private readonly db: Kysely<Database>) {}

  row(tokenHash: string): Promise<SessionRow | undefined> {
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) setImmediate(() => this.flush());
      const waiters = this.waiting.get(tokenHash);
      if (waiters) waiters.push({ resolve, reject });
      else this.waiting.set(tokenHash, [{ resolve, reject }]);
      if (this.waiting.size >= BATCH_MOST) this.flush();
    });
  }

  private flush(): void {
    const waiting = this.waiting;
    if (waiting.size === 0) return;
    this.waiting = new Map();
    const statement = sessionsStatement(this.db, { tokenHashes: [...waiting.keys()] }) as CompiledQuery<SessionRow>;
    this.db.executeQuery(planOnce(statement)).then(
      ({ rows }) => {
        const found = new Map(rows.map((r) => [r.token_hash, r]));
        for (const [hash, waiters] of waiting) for (const w of waiters) w.resolve(found.get(hash));
      },
      (err: unknown) => {
        for (const waiters of waiting.values()) for (const w of waiters) w.reject(err);
      },
    );
  }
}

const lookups = new WeakMap<Kysely<Database>, SessionLookups>();

function sessionRow(db: Kysely<Database>, tokenHash: string): Promise<SessionRow | undefined> {
  // SQLite answers a statement in a function call, with no trip to batch.
  if (!isPostgres(db)) {
    return db.executeQuery(sessionStatement(db, { tokenHash }) as CompiledQuery<SessionRow>).then(({ rows }) => rows[0]);
  }
  let batch = lookups.get(db);
  if (!batch) lookups.set(db, (batch = new SessionLookups(db)));
  return batch.row(tokenHash);
}

/** The row's columns of each user, by their names in the statement (`o_id`, `a_email`, …). */
const PREFIXED = { o: USER_COLUMNS.map((c) => `o_${c}`), a: USER_COLUMNS.map((c) => `a_${c}`) };

/** The session's owner (`o`) or impersonated customer (`a`) from its row, or undefined when it has none. */
function userOf(row: SessionRow, prefix: 'o' | 'a'): UserRow | undefined {
  const names = PREFIXED[prefix];
  if (row[names[0]!] == null) return undefined;
  const user: Record<string, unknown> = {};
  for (let i = 0; i < USER_COLUMNS.length; i++) user[USER_COLUMNS[i]!] = row[names[i]!];
  return user as unknown as UserRow;
}

async function loadSessionByHash(db: Kysely<Database>, tokenHash: string): Promise<LoadedSession | null> {
  const row = await sessionRow(db, tokenHash);
  if (!row) return null;
  if (row.expires_at <= nowIso()) {
    await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
    return null;
  }
  const owner = userOf(row, 'o')!;
  const actingAs = row.acting_as_user_id ? userOf(row, 'a') : undefined;
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
