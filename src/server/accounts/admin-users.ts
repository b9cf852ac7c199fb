import { linkGuestOrders } from './email-verification.js';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { nowIso } from '../lib/ids.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { adjustedBalance, LOYALTY_MESSAGES } from '../../shared/schemas/admin/users.js';
import { AUTH_MESSAGES } from '../../shared/schemas/auth.js';
import { containsText, isPostgres, pageOf } from '../db/query-helpers.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import type { Dialect } from '../db/database.js';
import { recordAudit, type AuditBy } from '../audit/audit.js';
import { forgetLoadedSessions } from './sessions.js';

export async function listUsers(db: Kysely<Database>, q: { page: number; pageSize: number; search?: string }) {
  let base = db.selectFrom('users');
  if (q.search) {
    const text = q.search;
    base = base.where((eb) => eb.or([containsText('email', text), containsText('full_name', text), eb('id', '=', text)]));
  }
  return pageOf(
    base
      .select(['id', 'email', 'full_name', 'phone', 'role', 'email_verified', 'loyalty_points', 'total_points_earned', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute(),
    base.select(sql<number | string>`count(*)`.as('n')).executeTakeFirst(),
    q,
    (u) => ({
      id: u.id,
      email: u.email,
      fullName: u.full_name,
      phone: u.phone,
      role: u.role,
      emailVerified: Boolean(u.email_verified),
      loyaltyPoints: u.loyalty_points,
      totalPointsEarned: u.total_points_earned,
      createdAt: u.created_at,
    }),
  );
}

type UserPatch = { emailVerified?: boolean; role?: 'client' | 'admin'; loyaltyPoints?: number };

/**
 * Verification, role and loyalty points of one user, each change an audit row naming `by` (the
 * admin at the keyboard). "The last admin cannot be demoted" holds under a lock: every admin row
 * is locked (in id order, as deleting an account locks them) before anyone is counted, so two
 * admins demoting each other at once, in one process or several, run one after the other, and
 * the second finds itself demoted (403) or its target the last admin (400).
 */
export async function patchUser(db: Kysely<Database>, by: AuditBy & { actorId: string }, id: string, patch: UserPatch) {
  if (id === by.actorId && patch.role === 'client') throw new HttpError(400, ADMIN_MESSAGES.ownRole);
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  await transactionWithRetry(db, async (trx) => {
    if (patch.role !== undefined) {
      const admins = await forUpdate(trx.selectFrom('users').select('id').where('role', '=', 'admin').orderBy('id'), dialect).execute();
      if (patch.role === 'client' && admins.length === 1 && admins[0]!.id === id) throw new HttpError(400, ADMIN_MESSAGES.lastAdmin);
      // The caller was demoted by another admin since the request began: no longer theirs to decide.
      if (!admins.some((a) => a.id === by.actorId)) throw new HttpError(403, AUTH_MESSAGES.accessDenied);
    }
    const before = await forUpdate(
      trx.selectFrom('users').select(['id', 'role', 'email_verified', 'loyalty_points']).where('id', '=', id),
      dialect,
    ).executeTakeFirst();
    if (!before) throw new HttpError(404, ADMIN_MESSAGES.userNotFound);
    // Never clamped: the schema refuses a negative balance (an adjustment below takes points away).
    const points = patch.loyaltyPoints;
    if (points !== undefined && points < 0) throw new HttpError(400, LOYALTY_MESSAGES.negative);
    await trx
      .updateTable('users')
      .set({
        ...(patch.emailVerified !== undefined ? { email_verified: patch.emailVerified ? 1 : 0 } : {}),
        ...(patch.role ? { role: patch.role } : {}),
        ...(points !== undefined ? { loyalty_points: points } : {}),
        updated_at: nowIso(),
      })
      .where('id', '=', id)
      .execute();
    const at = new Date();
    if (patch.role && patch.role !== before.role) {
      await recordAudit(trx, { by, action: 'user.role_changed', targetUserId: id, details: { from: before.role, to: patch.role }, at });
      if (patch.role === 'client') {
        // A demoted admin's sessions must not keep an impersonation going.
        await trx.updateTable('sessions').set({ acting_as_user_id: null }).where('user_id', '=', id).execute();
      } else {
        // Nobody acts as an admin: an impersonation of the promoted user ends.
        await trx.updateTable('sessions').set({ acting_as_user_id: null }).where('acting_as_user_id', '=', id).execute();
      }
    }
    const verified = Boolean(before.email_verified);
    if (patch.emailVerified !== undefined && patch.emailVerified !== verified) {
      const details = { from: verified, to: patch.emailVerified };
      await recordAudit(trx, { by, action: 'user.verification_changed', targetUserId: id, details, at });
      // Verified by the admin: the address's paid guest orders join the account, as through the link.
      if (patch.emailVerified) {
        const user = await trx.selectFrom('users').select(['id', 'email']).where('id', '=', id).executeTakeFirstOrThrow();
        await linkGuestOrders(trx, user);
      }
    }
    if (points !== undefined && points !== Number(before.loyalty_points)) {
      const details = { from: Number(before.loyalty_points), to: points };
      await recordAudit(trx, { by, action: 'user.loyalty_points_changed', targetUserId: id, details, at });
    }
  });
  forgetLoadedSessions();
  return (await listUsers(db, { page: 1, pageSize: 1, search: id })).items[0]!;
}

/**
 * The owner's explicit points adjustment: add or remove N with a reason, under a lock on the user's
 * row. Removing more than the balance is refused with a sentence (never clamped to 0); when the
 * balance moved since the owner confirmed (`fromBalance`), nothing is saved. Recorded in the audit log.
 */
export async function adjustLoyaltyPoints(
  db: Kysely<Database>,
  by: AuditBy & { actorId: string },
  id: string,
  input: { change: 'add' | 'remove'; points: number; reason: string; fromBalance?: number },
) {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  await transactionWithRetry(db, async (trx) => {
    const before = await forUpdate(
      trx.selectFrom('users').select(['id', 'loyalty_points']).where('id', '=', id),
      dialect,
    ).executeTakeFirst();
    if (!before) throw new HttpError(404, ADMIN_MESSAGES.userNotFound);
    const from = Number(before.loyalty_points);
    if (input.fromBalance !== undefined && input.fromBalance !== from) throw new HttpError(409, LOYALTY_MESSAGES.balanceMoved(from));
    const next = adjustedBalance(from, input);
    if (!next.ok) throw new HttpError(400, next.message);
    await trx.updateTable('users').set({ loyalty_points: next.balance, updated_at: nowIso() }).where('id', '=', id).execute();
    await recordAudit(trx, {
      by,
      action: 'user.loyalty_points_changed',
      targetUserId: id,
      details: { from, to: next.balance, change: input.change, points: input.points, reason: input.reason },
      at: new Date(),
    });
  });
  forgetLoadedSessions();
  return (await listUsers(db, { page: 1, pageSize: 1, search: id })).items[0]!;
}
