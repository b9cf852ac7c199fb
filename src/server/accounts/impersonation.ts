import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { newId, nowIso } from '../lib/ids.js';
import { ACCOUNT_MESSAGES } from '../../shared/schemas/account.js';
import type { LoadedSession } from './sessions.js';

async function audit(db: Kysely<Database>, action: string, actorId: string, targetId: string): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({ id: newId('audit'), actor_user_id: actorId, action, target_user_id: targetId, details: null, created_at: nowIso() })
    .execute();
}

/** The admin's own session acts as the customer from now on; written to the audit log. */
/** Only an admin acting as themselves may start an impersonation (checked before the body is read). */
export function assertCanImpersonate(session: LoadedSession | null): { session: LoadedSession; admin: LoadedSession['user'] } {
  if (!session) throw new HttpError(401, 'Authentication required');
  const admin = session.impersonator ?? session.user;
  if (admin.role !== 'admin' || session.impersonator) throw new HttpError(403, ACCOUNT_MESSAGES.impersonationAdminsOnly);
  return { session, admin };
}

export async function startImpersonation(db: Kysely<Database>, current: LoadedSession | null, targetUserId: string): Promise<void> {
  const { session, admin } = assertCanImpersonate(current);
  if (targetUserId === admin.id) throw new HttpError(400, ACCOUNT_MESSAGES.impersonationSelf);
  const target = await db.selectFrom('users').select('id').where('id', '=', targetUserId).executeTakeFirst();
  if (!target) throw new HttpError(404, ACCOUNT_MESSAGES.userNotFound);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('sessions').set({ acting_as_user_id: target.id }).where('token_hash', '=', session.tokenHash).execute();
    await audit(trx, 'impersonation.start', admin.id, target.id);
  });
}

export async function endImpersonation(db: Kysely<Database>, session: LoadedSession | null): Promise<void> {
  if (!session?.impersonator) throw new HttpError(400, ACCOUNT_MESSAGES.notImpersonating);
  const adminId = session.impersonator.id;
  const targetId = session.user.id;
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('sessions').set({ acting_as_user_id: null }).where('token_hash', '=', session.tokenHash).execute();
    await audit(trx, 'impersonation.end', adminId, targetId);
  });
}
