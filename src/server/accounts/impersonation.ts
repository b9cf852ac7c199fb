import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { ACCOUNT_MESSAGES } from '../../shared/schemas/account.js';
import { forgetLoadedSessions, type LoadedSession } from './sessions.js';
import { recordAudit } from '../audit/audit.js';

/** Only an admin acting as themselves may start an impersonation (checked before the body is read). */
export function assertCanImpersonate(session: LoadedSession | null): { session: LoadedSession; admin: LoadedSession['user'] } {
  if (!session) throw new HttpError(401, 'Authentication required');
  const admin = session.impersonator ?? session.user;
  if (admin.role !== 'admin' || session.impersonator) throw new HttpError(403, ACCOUNT_MESSAGES.impersonationAdminsOnly);
  return { session, admin };
}

/**
 * The admin's own session acts as the customer from now on; written to the audit log. Another
 * admin cannot be impersonated: the admin would act with that admin's rights, under their name.
 */
export async function startImpersonation(db: Kysely<Database>, current: LoadedSession | null, targetUserId: string): Promise<void> {
  const { session, admin } = assertCanImpersonate(current);
  if (targetUserId === admin.id) throw new HttpError(400, ACCOUNT_MESSAGES.impersonationSelf);
  await db.transaction().execute(async (trx) => {
    const target = await trx.selectFrom('users').select(['id', 'role']).where('id', '=', targetUserId).executeTakeFirst();
    if (!target) throw new HttpError(404, ACCOUNT_MESSAGES.userNotFound);
    if (target.role === 'admin') throw new HttpError(403, ACCOUNT_MESSAGES.impersonationOfAdmin);
    await trx.updateTable('sessions').set({ acting_as_user_id: target.id }).where('token_hash', '=', session.tokenHash).execute();
    await recordAudit(trx, { by: { actorId: admin.id, actingAsId: target.id }, action: 'impersonation.start', targetUserId: target.id });
  });
  forgetLoadedSessions();
}

export async function endImpersonation(db: Kysely<Database>, session: LoadedSession | null): Promise<void> {
  if (!session?.impersonator) throw new HttpError(400, ACCOUNT_MESSAGES.notImpersonating);
  const adminId = session.impersonator.id;
  const targetId = session.user.id;
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('sessions').set({ acting_as_user_id: null }).where('token_hash', '=', session.tokenHash).execute();
    await recordAudit(trx, { by: { actorId: adminId, actingAsId: targetId }, action: 'impersonation.end', targetUserId: targetId });
  });
  forgetLoadedSessions();
}
