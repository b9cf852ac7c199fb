import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { pageOf } from '../db/query-helpers.js';
import { randomString } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import type { AuditAction, AuditEntry, AuditLogPage, AuditLogQuery } from '../../shared/schemas/audit.js';

/** The people of a request's session, as the audit log names them (accounts/sessions.ts LoadedSession fits it). */
type SessionPeople = { user: { id: string }; impersonator: { id: string } | null };

/**
 * Who did it, for the audit log: the person at the keyboard (`actorId`, the real admin while
 * impersonating) and the customer they were acting as, if any. Null actor: the shop itself.
 */
export type AuditBy = { actorId: string | null; actingAsId?: string | null };

/** The person behind a session: the admin themselves while they act as a customer. */
export function auditByOf(session: SessionPeople): { actorId: string; actingAsId: string | null } {
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

/** The audit's "who" of a request's session (decision 0020); the shop itself without one. */
export function auditBySession(session: SessionPeople | null | undefined): AuditBy {
  return session ? auditByOf(session) : { actorId: null };
}

/** Order events a person's act that the audit log also keeps (issue [2/8]), and the action each becomes. */
const AUDITED_ORDER_EVENTS: Partial<Record<string, (data: Record<string, unknown>) => AuditAction>> = {
  // A cancel is a status change to cancelled: named as such, once (its 'cancelled' event is not audited twice).
  'status.changed': (data) => (data.to === 'cancelled' ? 'order.cancelled' : 'order.status_changed'),
  'label.bought': () => 'order.label_bought',
  'label.voided': () => 'order.label_voided',
  'viewed.impersonated': () => 'impersonation.viewed',
};

/**
 * The audit row of an order event, in the same transaction (orders/events.ts calls it for every
 * event): status changes, cancels, labels bought and voided, and an order an admin looked at as a
 * customer. Only a person's acts; what the shop or a provider did is on the timeline alone. Ids,
 * states and figures only.
 */
export async function auditOrderEvent(
  db: Kysely<Database>,
  orderId: string,
  type: string,
  actor: { userId: string | null; actingAsUserId?: string | null | undefined },
  data: Record<string, unknown>,
): Promise<void> {
  const action = AUDITED_ORDER_EVENTS[type]?.(data);
  if (!action || !actor.userId) return;
  const order = await db.selectFrom('orders').select(['user_id', 'order_number']).where('id', '=', orderId).executeTakeFirst();
  const actingAsId = actor.actingAsUserId ?? (typeof data.asUserId === 'string' ? data.asUserId : null);
  const keep = ['from', 'to', 'trackingNumber', 'carrierCode', 'cause'] as const;
  const details: Record<string, unknown> = { orderId, orderNumber: order?.order_number ?? null };
  if (action === 'impersonation.viewed') details.what = 'order';
  else for (const k of keep) if (data[k] !== undefined && data[k] !== null) details[k] = data[k];
  await recordAudit(db, { by: { actorId: actor.userId, actingAsId }, action, targetUserId: order?.user_id ?? actingAsId, details });
}

/**
 * Every read an admin makes while acting as a customer, in the scope it is added to (the account
 * surface): one audit row per answered GET, naming the route read (its declared pattern) and whom
 * the admin acted as (decision 0020). Written before the answer leaves, so the row exists when the
 * page shows, and dated when the read arrived.
 */
export function auditImpersonatedReads(scope: FastifyInstance, db: Kysely<Database>): void {
  scope.addHook('onSend', async (req, reply, payload) => {
    const session = req.session;
    if (req.method !== 'GET' || !session?.impersonator || reply.statusCode >= 400) return payload;
    await recordAudit(db, {
      by: auditByOf(session),
      action: 'impersonation.viewed',
      targetUserId: session.user.id,
      details: { what: req.routeOptions.url ?? null },
      // When the read was asked, not when it was answered: a read still in flight as the admin
      // ends the impersonation sits before "Impersonation ended", where it happened.
      at: new Date(Date.now() - reply.elapsedTime),
    });
    return payload;
  });
}

/**
 * Settings about to be written (content/admin.ts writeSettings, in its transaction): one row naming
 * the keys whose value changes, ShipStation's keys included, never a value (a secret must not reach
 * the log). Nothing when nothing changes.
 */
export async function auditSettingsChange(
  db: Kysely<Database>,
  by: AuditBy,
  values: Record<string, string | boolean | undefined>,
): Promise<void> {
  const given = Object.entries(values).filter((e): e is [string, string | boolean] => e[1] !== undefined);
  if (!given.length) return;
  const stored = await db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where(
      'key',
      'in',
      given.map(([k]) => k),
    )
    .execute();
  const before = new Map(stored.map((r) => [r.key, r.value]));
  const keys = given.filter(([k, v]) => before.get(k) !== String(v)).map(([k]) => k);
  if (keys.length) await recordAudit(db, { by, action: 'settings.changed', targetUserId: null, details: { keys } });
}

/**
 * A product edit (its details or its variants), audited for the prices it changed: each variant's
 * price before and after, read around the edit. Nothing is recorded when no price moved or the
 * edit was refused (it throws first).
 */
export async function auditPriceEdits<T>(
  db: Kysely<Database>,
  session: SessionPeople | null | undefined,
  productId: string,
  edit: () => Promise<T>,
): Promise<T> {
  const prices = async () =>
    new Map(
      (await db.selectFrom('product_variants').select(['id', 'price_cents']).where('product_id', '=', productId).execute()).map((v) => [
        v.id,
        Number(v.price_cents),
      ]),
    );
  const before = await prices();
  const result = await edit();
  const after = await prices();
  const changes = [...after]
    .filter(([id, cents]) => before.has(id) && before.get(id) !== cents)
    .map(([variantId, toCents]) => ({ variantId, fromCents: before.get(variantId)!, toCents }));
  if (changes.length)
    await recordAudit(db, {
      by: auditBySession(session),
      action: 'product.price_changed',
      targetUserId: null,
      details: { productId, changes },
    });
  return result;
}

/** An e-mail template saved or restored to its default: which one, and how (never its text). */
export async function auditTemplateEdit(
  db: Kysely<Database>,
  session: SessionPeople | null | undefined,
  templateId: string,
  how: 'saved' | 'restored' | 'deleted',
): Promise<void> {
  await recordAudit(db, { by: auditBySession(session), action: 'template.changed', targetUserId: null, details: { templateId, how } });
}
