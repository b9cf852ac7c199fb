import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { nowIso } from '../lib/ids.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin.js';
import { containsText, pageOf } from '../db/query-helpers.js';

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

export async function patchUser(
  db: Kysely<Database>,
  actorId: string,
  id: string,
  patch: { emailVerified?: boolean; role?: 'client' | 'admin'; loyaltyPoints?: number },
) {
  if (id === actorId && patch.role === 'client') throw new HttpError(400, ADMIN_MESSAGES.ownRole);
  if (patch.role === 'client') {
    const admins = await db.selectFrom('users').select('id').where('role', '=', 'admin').limit(2).execute();
    if (admins.length === 1 && admins[0]!.id === id) throw new HttpError(400, ADMIN_MESSAGES.lastAdmin);
  }
  const r = await db
    .updateTable('users')
    .set({
      ...(patch.emailVerified !== undefined ? { email_verified: patch.emailVerified ? 1 : 0 } : {}),
      ...(patch.role ? { role: patch.role } : {}),
      // Clamped to a minimum of 0 (specification), whoever calls.
      ...(patch.loyaltyPoints !== undefined ? { loyalty_points: Math.max(0, patch.loyaltyPoints) } : {}),
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new HttpError(404, ADMIN_MESSAGES.userNotFound);
  // A demoted admin's sessions must not keep an impersonation going.
  if (patch.role === 'client') await db.updateTable('sessions').set({ acting_as_user_id: null }).where('user_id', '=', id).execute();
  return (await listUsers(db, { page: 1, pageSize: 1, search: id })).items[0]!;
}

/** The newest sign-ups, for the dashboard. */
export async function recentUsers(db: Kysely<Database>, limit = 5) {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'full_name', 'role', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((u) => ({ id: u.id, email: u.email, fullName: u.full_name, role: u.role, createdAt: u.created_at }));
}
