import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { pageOf } from '../db/query-helpers.js';
import { randomString } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import type { AuditAction, AuditEntry, AuditLogPage, AuditLogQuery } from '../../shared/schemas/audit.js';
import type { LoadedSession } from './sessions.js';

/**
 * Who did it, for the audit log: the person at the keyboard (`actorId`, the real admin while
 * impersonating) and the customer they were acting as, if any. Null actor: the shop itself.
 */
export type AuditBy = { actorId: string | null; actingAsId?: string | null };

/** The person behind a session: the admin themselves while they act as a customer. */
export function auditByOf(session: Pick<LoadedSession, 'user' | 'impersonator'>): { actorId: string; actingAsId: string | null } {
  return session.impersonator
    ? { actorId: session.impersonator.id, actingAsId: session.user.id }
    : { actorId: session.user.id, actingAsId: null };
}

/** Rows of one millisecond keep the order they were written in (ids sort by time, then by this count). */
let sequence = 0;
function auditId(at: Date): string {
  sequence = (sequence + 1) % 36 ** 4;
  return `audit_${at.getTime().toString(36).padStart(9, '0')}${sequence.toString(36).padStart(4, '0')}${randomString(6)}`;
}

/**
 * Appends one row to the audit log, inside the caller's transaction where there is one, so the row
 * exists exactly when what it records does. Ids only (decision 0016): no e-mail addresses or names
 * in `details`, so an erased account leaves nothing personal behind.
 */
export async function recordAudit(
  db: Kysely<Database>,
  entry: { by: AuditBy; action: AuditAction; targetUserId: string | null; details?: Record<string, unknown>; at?: Date },
): Promise<void> {
  const at = entry.at ?? new Date();
  await db
    .insertInto('audit_log')
    .values({
      id: auditId(at),
      actor_user_id: entry.by.actorId,
      acting_as_user_id: entry.by.actingAsId ?? null,
      action: entry.action,
      target_user_id: entry.targetUserId,
      details: entry.details && Object.keys(entry.details).length ? JSON.stringify(entry.details) : null,
      created_at: at.toISOString(),
    })
    .execute();
}

/** A person filter names a user by id, or by e-mail (an unknown e-mail matches nothing). */
async function personId(db: Kysely<Database>, idOrEmail: string): Promise<string> {
  if (!idOrEmail.includes('@')) return idOrEmail;
  const row = await db.selectFrom('users').select('id').where('email', '=', idOrEmail.toLowerCase()).executeTakeFirst();
  return row?.id ?? `unknown:${idOrEmail}`;
}

function dayAfter(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();
}

/**
 * A page of the audit log, newest first, filtered in the database (each filter has an index that
 * also gives the order, migration 0016). The accounts named are read as they are now; a deleted
 * one keeps its id and loses its e-mail.
 */
export async function listAuditLog(db: Kysely<Database>, q: AuditLogQuery): Promise<AuditLogPage> {
  let base = db.selectFrom('audit_log as l');
  if (q.action) base = base.where('l.action', '=', q.action);
  if (q.actor) base = base.where('l.actor_user_id', '=', await personId(db, q.actor));
  if (q.user) base = base.where('l.target_user_id', '=', await personId(db, q.user));
  if (q.from) base = base.where('l.created_at', '>=', `${q.from}T00:00:00.000Z`);
  if (q.to) base = base.where('l.created_at', '<', dayAfter(q.to));
  const person = (id: string | null, email: string | null) => (id ? { id, email } : null);
  return pageOf(
    base
      .leftJoin('users as a', 'a.id', 'l.actor_user_id')
      .leftJoin('users as s', 's.id', 'l.acting_as_user_id')
      .leftJoin('users as t', 't.id', 'l.target_user_id')
      .select([
        'l.id',
        'l.action',
        'l.actor_user_id',
        'l.acting_as_user_id',
        'l.target_user_id',
        'l.details',
        'l.created_at',
        'a.email as actor_email',
        's.email as acting_as_email',
        't.email as target_email',
      ])
      .orderBy('l.created_at', 'desc')
      .orderBy('l.id', 'desc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute(),
    base.select(sql<number | string>`count(*)`.as('n')).executeTakeFirst(),
    q,
    (r): AuditEntry => ({
      id: r.id,
      action: r.action,
      actor: person(r.actor_user_id, r.actor_email),
      actingAs: person(r.acting_as_user_id, r.acting_as_email),
      target: person(r.target_user_id, r.target_email),
      details: parseJson<Record<string, unknown>>(r.details, {}),
      createdAt: r.created_at,
    }),
  );
}
