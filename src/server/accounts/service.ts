import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import {
  AUTH_MESSAGES,
  FORM_MIN_FILL_MS,
  type PasswordResetConfirmInput,
  type SignInInput,
  type SignUpInput,
} from '../../shared/schemas/auth.js';
import { HttpError } from '../http/errors.js';
import { clearRateLimit, hitRateLimit, peekRateLimit } from '../http/rate-limit.js';
import { newId, nowIso } from '../lib/ids.js';
import { queueEmail } from '../email/outbox.js';
import { hashPassword, verifyPassword } from './password.js';
import { createSession, deleteUserSessions } from './sessions.js';
import { hashToken, newToken, TOKEN_PATTERN } from './tokens.js';

const WINDOW_MS = 15 * 60_000;
export const LIMITS = {
  signInFailuresPerAccount: 10,
  signInFailuresPerIp: 30,
  signUpsPerIp: 10,
  resetRequestsPerAccount: 5,
  resetRequestsPerIp: 10,
} as const;

const tooMany = () => new HttpError(429, AUTH_MESSAGES.tooManyAttempts);

/** A submit faster than a person can fill the form, or one that filled the hidden decoy field. */
function looksAutomated(input: { elapsedMs?: number; website?: string }): boolean {
  if (input.website) return true;
  return input.elapsedMs !== undefined && input.elapsedMs < FORM_MIN_FILL_MS;
}

// A fixed hash to verify against when the e-mail is unknown, so timing does not tell which e-mails have accounts.
let dummyHash: Promise<string> | null = null;
const getDummyHash = () => (dummyHash ??= hashPassword('not-a-real-password-0'));

export type SessionGrant = { user: UserRow; token: string; expiresAt: Date };

export async function signUp(
  db: Kysely<Database>,
  input: SignUpInput,
  ctx: { ip: string; publicUrl: string },
): Promise<SessionGrant> {
  if (looksAutomated(input)) throw new HttpError(400, AUTH_MESSAGES.tryAgain);
  if ((await hitRateLimit(db, `signup:ip:${ctx.ip}`, WINDOW_MS)) > LIMITS.signUpsPerIp) throw tooMany();

  const existing = await db.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst();
  if (existing) throw new HttpError(409, AUTH_MESSAGES.userExists);

  const passwordHash = await hashPassword(input.password);
  const at = nowIso();
  const id = newId('user');
  const user = await db.transaction().execute(async (trx) => {
    try {
      await trx
        .insertInto('users')
        .values({
          id,
          email: input.email,
          full_name: input.fullName,
          phone: null,
          role: 'client',
          password_hash: passwordHash,
          email_verified: 0,
          loyalty_points: 0,
          total_points_earned: 0,
          shipping_address: null,
          billing_address: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
    } catch (err) {
      // Two sign-ups with one e-mail at the same moment: the unique index decides.
      if (/unique|duplicate/i.test(String((err as Error).message))) throw new HttpError(409, AUTH_MESSAGES.userExists);
      throw err;
    }
    await queueEmail(trx, {
      to: input.email,
      templateId: 'welcome',
      variables: { customerName: input.fullName, shopUrl: ctx.publicUrl },
    });
    return trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  });
  const session = await createSession(db, user.id);
  return { user, ...session };
}

export async function signIn(db: Kysely<Database>, input: SignInInput, ctx: { ip: string }): Promise<SessionGrant> {
  if (looksAutomated(input)) throw new HttpError(400, AUTH_MESSAGES.tryAgain);
  const accountKey = `signin-fail:acct:${input.email}`;
  const ipKey = `signin-fail:ip:${ctx.ip}`;
  if (
    (await peekRateLimit(db, accountKey, WINDOW_MS)) >= LIMITS.signInFailuresPerAccount ||
    (await peekRateLimit(db, ipKey, WINDOW_MS)) >= LIMITS.signInFailuresPerIp
  ) {
    throw tooMany();
  }
  const user = await db.selectFrom('users').selectAll().where('email', '=', input.email).executeTakeFirst();
  const ok = user
    ? await verifyPassword(user.password_hash, input.password)
    : (await verifyPassword(await getDummyHash(), input.password), false);
  if (!user || !ok) {
    await hitRateLimit(db, accountKey, WINDOW_MS);
    await hitRateLimit(db, ipKey, WINDOW_MS);
    throw new HttpError(401, AUTH_MESSAGES.invalidCredentials);
  }
  await clearRateLimit(db, accountKey);
  const session = await createSession(db, user.id);
  return { user, ...session };
}

export const RESET_TOKEN_TTL_MS = 3_600_000;

/**
 * Always ends quietly, whether or not the address has an account (no account discovery). When it
 * has one, a single-use token (stored hashed, valid one hour) goes out in the password-reset e-mail.
 */
export async function requestPasswordReset(
  db: Kysely<Database>,
  email: string,
  ctx: { ip: string; publicUrl: string },
): Promise<void> {
  if ((await hitRateLimit(db, `reset:ip:${ctx.ip}`, WINDOW_MS)) > LIMITS.resetRequestsPerIp) throw tooMany();
  if ((await hitRateLimit(db, `reset:acct:${email}`, WINDOW_MS)) > LIMITS.resetRequestsPerAccount) throw tooMany();
  const user = await db.selectFrom('users').select(['id', 'full_name', 'email']).where('email', '=', email).executeTakeFirst();
  if (!user) return;
  const token = newToken();
  const at = new Date();
  await db.transaction().execute(async (trx) => {
    // Only the newest link works.
    await trx.deleteFrom('password_reset_tokens').where('user_id', '=', user.id).execute();
    await trx
      .insertInto('password_reset_tokens')
      .values({
        token_hash: hashToken(token),
        user_id: user.id,
        created_at: at.toISOString(),
        expires_at: new Date(at.getTime() + RESET_TOKEN_TTL_MS).toISOString(),
        used_at: null,
      })
      .execute();
    await queueEmail(trx, {
      to: user.email,
      templateId: 'password-reset',
      variables: {
        customerName: user.full_name,
        resetUrl: `${ctx.publicUrl}/reset-password?token=${token}`,
        expiresInMinutes: RESET_TOKEN_TTL_MS / 60_000,
      },
    });
  });
}

/** The user a reset token belongs to, or the specification's reason why it cannot be used. */
export async function checkResetToken(db: Kysely<Database>, token: string): Promise<{ userId: string; email: string }> {
  if (!token) throw new HttpError(400, AUTH_MESSAGES.missingToken);
  if (!TOKEN_PATTERN.test(token)) throw new HttpError(400, AUTH_MESSAGES.invalidTokenFormat);
  const row = await db
    .selectFrom('password_reset_tokens')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.used_at) throw new HttpError(400, AUTH_MESSAGES.invalidOrExpiredToken);
  if (row.expires_at <= nowIso()) throw new HttpError(400, AUTH_MESSAGES.tokenExpired);
  const user = await db.selectFrom('users').select(['id', 'email']).where('id', '=', row.user_id).executeTakeFirst();
  if (!user) throw new HttpError(400, AUTH_MESSAGES.userNotFound);
  return { userId: user.id, email: user.email };
}

export async function confirmPasswordReset(db: Kysely<Database>, input: PasswordResetConfirmInput): Promise<void> {
  const { userId } = await checkResetToken(db, input.token);
  const passwordHash = await hashPassword(input.password);
  await db.transaction().execute(async (trx) => {
    // The conditional update makes the token single-use even if two requests race.
    const used = await trx
      .updateTable('password_reset_tokens')
      .set({ used_at: nowIso() })
      .where('token_hash', '=', hashToken(input.token))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw new HttpError(400, AUTH_MESSAGES.invalidOrExpiredToken);
    await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: nowIso() }).where('id', '=', userId).execute();
    await deleteUserSessions(trx, userId);
  });
}
