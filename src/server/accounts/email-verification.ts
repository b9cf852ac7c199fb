import { type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { VERIFY_MESSAGES, type VerifyEmailResponse } from '../../shared/schemas/email-verification.js';
import { HttpError } from '../http/errors.js';
import { hitRateLimitWindow, secondsUntilWindowEnds } from '../http/rate-limit.js';
import { nowIso } from '../lib/ids.js';
import { hashToken, newToken, TOKEN_PATTERN } from '../lib/tokens.js';
import { queueEmail } from '../email/outbox.js';
import { forgetLoadedSessions } from './sessions.js';
import { linkGuestOrdersTo } from '../orders/customer-orders.js';

/** A link works for a day, once. */
export const VERIFY_TOKEN_TTL_MS = 24 * 3_600_000;
const RESEND_WINDOW_MS = 15 * 60_000;
/** Verification e-mails one account may ask for per 15 minutes (the one sent at sign-up is not counted). */
export const RESENDS_PER_WINDOW = 3;

type Db = Kysely<Database> | Transaction<Database>;

/**
 * A new verification link for the account's current address, in the `verify-email` e-mail.
 * Earlier unused links stop working: only the newest one verifies.
 */
export async function sendVerificationEmail(
  db: Db,
  user: { id: string; email: string; full_name: string },
  publicUrl: string,
  at: Date = new Date(),
): Promise<void> {
  const token = newToken();
  await db.deleteFrom('email_verification_tokens').where('user_id', '=', user.id).where('used_at', 'is', null).execute();
  await db
    .insertInto('email_verification_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: user.id,
      email: user.email,
      created_at: at.toISOString(),
      expires_at: new Date(at.getTime() + VERIFY_TOKEN_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  await queueEmail(db, {
    to: user.email,
    templateId: 'verify-email',
    variables: {
      customerName: user.full_name,
      verifyUrl: `${publicUrl}/verify-email?token=${token}`,
      expiresInHours: VERIFY_TOKEN_TTL_MS / 3_600_000,
    },
  });
}

/** "Resend" from the account page: counted per account before anything is sent. */
export async function resendVerificationEmail(db: Kysely<Database>, userId: string, publicUrl: string): Promise<{ email: string }> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'full_name', 'email_verified'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (user.email_verified) throw new HttpError(400, VERIFY_MESSAGES.alreadyVerified);
  const now = new Date();
  const { hits, windowStartedAt } = await hitRateLimitWindow(db, `verify:user:${user.id}`, RESEND_WINDOW_MS, now);
  if (hits > RESENDS_PER_WINDOW) {
    throw new HttpError(429, VERIFY_MESSAGES.tooManyResends, {
      'Retry-After': String(secondsUntilWindowEnds(windowStartedAt, RESEND_WINDOW_MS, now)),
    });
  }
  await db.transaction().execute((trx) => sendVerificationEmail(trx, user, publicUrl, now));
  return { email: user.email };
}

/**
 * Gives the account the guest orders its verified address paid for: paid or refunded, placed
 * without an account, the same address in any case. Unpaid, failed and expired checkouts stay
 * where they are, and so does every order that already belongs to an account. Run inside the
 * transaction that marks the address verified; answers how many orders moved.
 */
export function linkGuestOrders(trx: Transaction<Database>, user: { id: string; email: string }): Promise<number> {
  return linkGuestOrdersTo(trx, user);
}

/**
 * Follows a verification link. Idempotent: a link followed again (a second click, a mail
 * scanner) answers "already verified" and changes nothing. Everything else that is wrong with a
 * link gets its own words: unknown, used, expired, or sent to an address the account has left.
 */
export async function verifyEmail(db: Kysely<Database>, token: string): Promise<VerifyEmailResponse> {
  if (!token) throw new HttpError(400, VERIFY_MESSAGES.missingToken);
  if (!TOKEN_PATTERN.test(token)) throw new HttpError(400, VERIFY_MESSAGES.unknownToken);
  const tokenHash = hashToken(token);
  const answer = await db.transaction().execute(async (trx): Promise<VerifyEmailResponse> => {
    const row = await trx.selectFrom('email_verification_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    if (!row) throw new HttpError(400, VERIFY_MESSAGES.unknownToken);
    const user = await trx.selectFrom('users').select(['id', 'email', 'email_verified']).where('id', '=', row.user_id).executeTakeFirst();
    if (!user) throw new HttpError(400, VERIFY_MESSAGES.unknownToken);
    const sameAddress = user.email.toLowerCase() === row.email.toLowerCase();
    if (row.used_at) {
      if (user.email_verified && sameAddress)
        return { status: 'already-verified', message: VERIFY_MESSAGES.alreadyVerified, linkedOrders: 0 };
      throw new HttpError(400, VERIFY_MESSAGES.usedToken);
    }
    if (row.expires_at <= nowIso()) throw new HttpError(400, VERIFY_MESSAGES.expiredToken);
    if (!sameAddress) throw new HttpError(400, VERIFY_MESSAGES.emailChanged);
    // The conditional update makes the link single-use when two clicks race: the second waits
    // for the first's transaction and then finds the link used.
    const used = await trx
      .updateTable('email_verification_tokens')
      .set({ used_at: nowIso() })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) return { status: 'already-verified', message: VERIFY_MESSAGES.alreadyVerified, linkedOrders: 0 };
    if (user.email_verified) return { status: 'already-verified', message: VERIFY_MESSAGES.alreadyVerified, linkedOrders: 0 };
    await trx.updateTable('users').set({ email_verified: 1, updated_at: nowIso() }).where('id', '=', user.id).execute();
    const linkedOrders = await linkGuestOrders(trx, user);
    const message = linkedOrders ? `${VERIFY_MESSAGES.verified} ${VERIFY_MESSAGES.linkedOrders(linkedOrders)}` : VERIFY_MESSAGES.verified;
    return { status: 'verified', message, linkedOrders };
  });
  // Sessions carry `emailVerified`: the next request reads it afresh.
  forgetLoadedSessions();
  return answer;
}
