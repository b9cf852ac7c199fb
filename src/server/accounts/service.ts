import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import { AUTH_MESSAGES, type PasswordResetConfirmInput, type SignInInput, type SignUpInput } from '../../shared/schemas/auth.js';
import { HttpError, tooManyRequests } from '../http/errors.js';
import { looksAutomated } from '../../shared/bot-guard.js';
import { hitRateLimitWindow, secondsUntilWindowEnds } from '../http/rate-limit.js';
import { newId, nowIso } from '../lib/ids.js';
import { queueEmail } from '../email/outbox.js';
import { hashPassword, verifyPassword } from './password.js';
import { createSession, deleteUserSessions } from './sessions.js';
import { hashToken, newToken, TOKEN_PATTERN } from '../lib/tokens.js';
import { admitSignInAttempt, signInSucceeded } from './sign-in-limits.js';
import { issueDeviceToken, readDeviceToken } from './sign-in-devices.js';
import { recordAudit } from '../audit/audit.js';
import { queuePasswordChangedEmail } from './account-emails.js';
import { newCustomerRow } from './users.js';
import { sendVerificationEmail } from './email-verification.js';

const WINDOW_MS = 15 * 60_000;
/** Per 15 minutes, counted before the work. Sign-in has its own, in sign-in-limits.ts; sign-ups per IP are a setting (config.signUpLimitPerIp). */
export const LIMITS = {
  resetRequestsPerAccount: 5,
  resetRequestsPerIp: 10,
} as const;

/** Counts one attempt at `key`; past `max` in the window, a 429 that says how long to wait. */
async function takeAttempt(db: Kysely<Database>, key: string, max: number): Promise<void> {
  const now = new Date();
  const { hits, windowStartedAt } = await hitRateLimitWindow(db, key, WINDOW_MS, now);
  if (hits > max) {
    throw tooManyRequests(AUTH_MESSAGES.tooManyAttempts, secondsUntilWindowEnds(windowStartedAt, WINDOW_MS, now));
  }
}

// A fixed hash to verify against when the e-mail is unknown, so timing does not tell which e-mails have accounts.
let dummyHash: Promise<string> | null = null;
const getDummyHash = () => (dummyHash ??= hashPassword('not-a-real-password-0'));

/** A new session, and a fresh device token naming the account for the browser that signed in. */
type SessionGrant = { user: UserRow; token: string; expiresAt: Date; deviceToken: string };

export async function signUp(
  db: Kysely<Database>,
  input: SignUpInput,
  ctx: { ip: string; publicUrl: string; limitPerIp: number },
): Promise<SessionGrant> {
  if (looksAutomated('signUp', input)) throw new HttpError(400, AUTH_MESSAGES.tryAgain);
  await takeAttempt(db, `signup:ip:${ctx.ip}`, ctx.limitPerIp);

  const existing = await db.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst();
  if (existing) throw new HttpError(409, AUTH_MESSAGES.userExists);

  const passwordHash = await hashPassword(input.password);
  const at = nowIso();
  const id = newId('user');
  const user = await db.transaction().execute(async (trx) => {
    try {
      await trx
        .insertInto('users')
        .values(newCustomerRow({ id, email: input.email, fullName: input.fullName, passwordHash, at }))
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
    // Guest orders with this address join the account only once the address is proven (decision 0032).
    await sendVerificationEmail(trx, { id, email: input.email, full_name: input.fullName }, ctx.publicUrl);
    return trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  });
  const session = await createSession(db, user.id);
  return { user, ...session, deviceToken: await issueDeviceToken(db, user) };
}

/**
 * Checks a password only after the attempt is counted (see sign-in-limits.ts): a browser carrying
 * this account's device cookie is counted against that cookie alone; any other against its IP
 * address, the account from that address, and the account from everywhere.
 */
export async function signIn(db: Kysely<Database>, input: SignInInput, ctx: { ip: string; deviceToken?: string }): Promise<SessionGrant> {
  if (looksAutomated('signIn', input)) throw new HttpError(400, AUTH_MESSAGES.tryAgain);
  const user = await db.selectFrom('users').selectAll().where('email', '=', input.email).executeTakeFirst();
  const deviceNonce = user ? await readDeviceToken(db, ctx.deviceToken, user) : null;
  const admission = await admitSignInAttempt(db, { email: input.email, ip: ctx.ip, deviceNonce });
  const ok = user
    ? await verifyPassword(user.password_hash, input.password)
    : (await verifyPassword(await getDummyHash(), input.password), false);
  if (!user || !ok) throw new HttpError(401, AUTH_MESSAGES.invalidCredentials);
  await signInSucceeded(db, admission);
  const session = await createSession(db, user.id);
  return { user, ...session, deviceToken: await issueDeviceToken(db, user) };
}

const RESET_TOKEN_TTL_MS = 3_600_000;

/**
 * Always ends quietly, whether or not the address has an account (no account discovery). When it
 * has one, a single-use token (stored hashed, valid one hour) goes out in the password-reset e-mail.
 */
export async function requestPasswordReset(db: Kysely<Database>, email: string, ctx: { ip: string; publicUrl: string }): Promise<void> {
  await takeAttempt(db, `reset:ip:${ctx.ip}`, LIMITS.resetRequestsPerIp);
  await takeAttempt(db, `reset:acct:${email}`, LIMITS.resetRequestsPerAccount);
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
  const row = await db.selectFrom('password_reset_tokens').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirst();
  if (!row || row.used_at) throw new HttpError(400, AUTH_MESSAGES.invalidOrExpiredToken);
  if (row.expires_at <= nowIso()) throw new HttpError(400, AUTH_MESSAGES.tokenExpired);
  const user = await db.selectFrom('users').select(['id', 'email']).where('id', '=', row.user_id).executeTakeFirst();
  if (!user) throw new HttpError(400, AUTH_MESSAGES.userNotFound);
  return { userId: user.id, email: user.email };
}

/** A new password through a reset link: every session ends, and the account's address is told. */
export async function confirmPasswordReset(
  db: Kysely<Database>,
  input: PasswordResetConfirmInput,
  ctx: { publicUrl: string },
): Promise<void> {
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
    const user = await trx.selectFrom('users').select(['email', 'full_name']).where('id', '=', userId).executeTakeFirstOrThrow();
    await recordAudit(trx, {
      by: { actorId: userId },
      action: 'account.password_changed',
      targetUserId: userId,
      details: { via: 'reset' },
    });
    await queuePasswordChangedEmail(trx, user, ctx.publicUrl);
  });
}
