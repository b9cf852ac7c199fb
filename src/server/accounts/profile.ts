import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import { HttpError, tooManyRequests } from '../http/errors.js';
import { clearRateLimit, hitRateLimitWindow, secondsUntilWindowEnds } from '../http/rate-limit.js';
import { AUTH_MESSAGES, type SessionUser } from '../../shared/schemas/auth.js';
import { verifyPassword } from './password.js';
import { toSessionUser } from './users.js';
import { nowIso } from '../lib/ids.js';
import { ACCOUNT_MESSAGES, type AccountSummary } from '../../shared/schemas/account.js';
import { nextRewardAt, rewardProgress } from '../../shared/pricing.js';
import { customerOrderStats } from '../orders/service.js';
import { rewardCouponsOf } from '../coupons/service.js';
import { indexOrdersOfUser } from '../orders/search-terms.js';
import { queueEmailChangedEmail } from './account-emails.js';
import { auditByOf, recordAudit } from '../audit/audit.js';
import type { LoadedSession } from './sessions.js';

/** Wrong current passwords given to change an e-mail, per person, counted before the check. */
export const CURRENT_PASSWORD_LIMIT = { max: 5, windowMs: 15 * 60_000 } as const;

/**
 * E-mail changes per person, counted before the change (as verification resends are): each one
 * e-mails the previous address a name the person chose, so without a limit an account is a way
 * to mail anyone. Three a day leave room for a typo or two.
 */
export const EMAIL_CHANGE_LIMIT = { max: 3, windowMs: 24 * 3_600_000 } as const;

/** Counts one e-mail change of this person before it is made; past the limit, a 429 that says how long to wait. */
async function takeEmailChange(db: Kysely<Database>, userId: string): Promise<void> {
  const { max, windowMs } = EMAIL_CHANGE_LIMIT;
  const now = new Date();
  const { hits, windowStartedAt } = await hitRateLimitWindow(db, `email-change:user:${userId}`, windowMs, now);
  if (hits > max) throw tooManyRequests(ACCOUNT_MESSAGES.tooManyEmailChanges, secondsUntilWindowEnds(windowStartedAt, windowMs, now));
}

/**
 * The password of the signed-in person, checked like a
 * sign-in: the try is counted first (insert-or-increment), and a success starts the count over.
 */
export async function confirmCurrentPassword(
  db: Kysely<Database>,
  holder: Pick<UserRow, 'id' | 'password_hash'>,
  password: string | undefined,
): Promise<void> {
  if (!password) throw new HttpError(400, ACCOUNT_MESSAGES.currentPasswordRequired);
  const key = `reauth:user:${holder.id}`;
  const { max, windowMs } = CURRENT_PASSWORD_LIMIT;
  const now = new Date();
  const { hits, windowStartedAt } = await hitRateLimitWindow(db, key, windowMs, now);
  if (hits > max) {
    throw tooManyRequests(AUTH_MESSAGES.tooManyAttempts, secondsUntilWindowEnds(windowStartedAt, windowMs, now));
  }
  if (!(await verifyPassword(holder.password_hash, password))) throw new HttpError(401, ACCOUNT_MESSAGES.currentPasswordWrong);
  await clearRateLimit(db, key, max);
}

/**
 * Name, e-mail and phone of the signed-in person; answers the person as changed. The e-mail is how
 * the account signs in, so it is theirs alone to change: it needs their current password (a
 * borrowed or stolen session must not take the account over through a password reset sent to
 * another address), and an admin acting as them may not change it at all (403). The old address
 * is told of the change; an admin's edits while impersonating are audit rows in the admin's name.
 */
export async function updateContactInfo(
  db: Kysely<Database>,
  session: Pick<LoadedSession, 'user' | 'impersonator'>,
  input: { fullName: string; email: string; phone: string | null; currentPassword?: string },
  ctx: { publicUrl: string },
): Promise<SessionUser> {
  const userId = session.user.id;
  const current = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow();
  if (current.email !== input.email) {
    if (session.impersonator) throw new HttpError(403, ACCOUNT_MESSAGES.emailChangeWhileImpersonating);
    await confirmCurrentPassword(db, session.user, input.currentPassword);
    await takeEmailChange(db, userId);
  }
  const clash = await db.selectFrom('users').select('id').where('email', '=', input.email).where('id', '!=', userId).executeTakeFirst();
  if (clash) throw new HttpError(409, ACCOUNT_MESSAGES.emailTaken);
  const by = auditByOf(session);
  try {
    await db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('users')
        .select(['email', 'full_name', 'phone'])
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      // Checked again inside: the e-mail may have changed since the check above.
      if (session.impersonator && before.email !== input.email) throw new HttpError(403, ACCOUNT_MESSAGES.emailChangeWhileImpersonating);
      await trx
        .updateTable('users')
        .set({
          full_name: input.fullName,
          email: input.email,
          phone: input.phone,
          // A new address is not proven yet (decision 0032): guest orders of it are linked only after verifying.
          ...(before.email !== input.email ? { email_verified: 0 } : {}),
          updated_at: nowIso(),
        })
        .where('id', '=', userId)
        .execute();
      // The back office finds orders by the customer's current name and e-mail.
      await indexOrdersOfUser(trx, userId);
      if (before.email !== input.email) {
        await recordAudit(trx, { by, action: 'account.email_changed', targetUserId: userId });
        // To the address that is no longer the account's: its owner learns of a change they may not have made.
        await queueEmailChangedEmail(trx, { oldEmail: before.email, newEmail: input.email, customerName: input.fullName }, ctx.publicUrl);
      }
      const fields = [before.full_name !== input.fullName && 'fullName', (before.phone ?? null) !== input.phone && 'phone'].filter(Boolean);
      if (session.impersonator && fields.length) {
        await recordAudit(trx, { by, action: 'account.contact_changed', targetUserId: userId, details: { fields } });
      }
    });
  } catch (err) {
    if (/unique|duplicate/i.test(String((err as Error).message))) throw new HttpError(409, ACCOUNT_MESSAGES.emailTaken);
    throw err;
  }
  return sessionUserOf(db, userId);
}

/** A saved address; an admin's save while acting as the customer is an audit row in the admin's name. */
export async function saveAddress(
  db: Kysely<Database>,
  session: Pick<LoadedSession, 'user' | 'impersonator'>,
  kind: 'shipping' | 'billing',
  address: Record<string, string>,
): Promise<SessionUser> {
  const userId = session.user.id;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ [kind === 'shipping' ? 'shipping_address' : 'billing_address']: JSON.stringify(address), updated_at: nowIso() })
      .where('id', '=', userId)
      .execute();
    if (session.impersonator) {
      await recordAudit(trx, { by: auditByOf(session), action: 'account.address_changed', targetUserId: userId, details: { kind } });
    }
  });
  return sessionUserOf(db, userId);
}

/** The person as the browser shows them, read after a change. */
async function sessionUserOf(db: Kysely<Database>, userId: string): Promise<SessionUser> {
  return toSessionUser(await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow());
}

export async function accountSummary(db: Kysely<Database>, userId: string): Promise<AccountSummary> {
  const user = await db
    .selectFrom('users')
    .select(['loyalty_points', 'total_points_earned'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const rewards = await rewardCouponsOf(db, userId, { all: false });
  return {
    stats: await customerOrderStats(db, userId),
    loyalty: {
      points: user.loyalty_points,
      totalEarned: user.total_points_earned,
      nextRewardAt: nextRewardAt(user.loyalty_points),
      progress: rewardProgress(user.loyalty_points),
      rewards: rewards.map((r) => ({
        code: r.code,
        discountPercent: r.discount_value,
        expiresAt: r.valid_until,
        used: r.max_uses != null && r.current_uses >= r.max_uses,
      })),
    },
  };
}
