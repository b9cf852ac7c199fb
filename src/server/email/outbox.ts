import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { newId, nowIso } from '../lib/ids.js';
import { renderTemplate } from './render.js';
import { writeTogether, type PendingWrite } from '../db/query-helpers.js';
import { MicroCache } from '../http/micro-cache.js';
import { insertRows } from '../db/compiled-once.js';

type QueueEmailInput = {
  to: string;
  templateId: string;
  /** Variables for the HTML body (escaped when rendered). */
  variables: Record<string, unknown>;
  /** Plain-text variants where they differ (pre-rendered lists, for instance). */
  textVariables?: Record<string, unknown>;
  /**
   * The order the e-mail is about: the e-mail is tied to it and lands on its timeline (queued, then
   * sent). From orders/events.ts `emailOnTimeline`: only orders/ writes an order's timeline.
   */
  order?: EmailOrder;
  /** The caller's writes to run with the e-mail's (one round trip on PostgreSQL). */
  writeWith?: PendingWrite[];
  /** Put before the rendered subject (a test send's "[TEST] "). */
  subjectPrefix?: string;
  /**
   * Where an answer goes: a contact notice's visitor. By default the shop's contact address
   * (Settings → General), as the e-mails' "just reply to this e-mail" promises; none when unset.
   */
  replyTo?: string;
  /**
   * The one-click opt-out address (RFC 8058): the delivery sends it as `List-Unsubscribe` with
   * `List-Unsubscribe-Post: List-Unsubscribe=One-Click`, so a mail app's own "Unsubscribe" button
   * works without opening the shop. An address that is not one plain https/http URL is left out.
   */
  listUnsubscribe?: string;
};

type QueuedEmail = { id: string; to: string; subject: string; text: string };

/** An e-mail queued about an order, as its timeline notes it. */
export type QueuedOrderEmail = { id: string; templateId: string; to: string; subject: string };

/** The order an e-mail is about, and the timeline's note of the e-mail (a write run with the e-mail's). */
export type EmailOrder = { id: string; note: (db: Kysely<Database>, email: QueuedOrderEmail) => PendingWrite };

export class UnknownTemplateError extends Error {}

/**
 * Templates as last read, for a second: every paid order renders the confirmation, and its text
 * changes only when the owner edits it (a write in the back office clears every cache at once, in
 * every process within the shop-change poll).
 */
const templates = new MicroCache<{ subject: string; html: string; text: string | null } | undefined>(1000, 100);

/** The shop's contact address, read once a second at most (a settings save clears it). */
const contactAddress = new MicroCache<string | null>(1000, 1);

async function shopContactAddress(db: Kysely<Database>): Promise<string | null> {
  return contactAddress.get('contact_email', async () => {
    const row = await db.selectFrom('settings').select('value').where('key', '=', 'contact_email').executeTakeFirst();
    const address = row?.value.trim() ?? '';
    return isPlainAddress(address) ? address : null;
  });
}

/**
 * One bare address, nothing that could end a header or add a recipient (no spaces, line breaks,
 * commas, semicolons, angle brackets or double quotes): what may go into Reply-To. The contact form's and the
 * settings' own checks come first; this one stands at the header itself.
 */
export function isPlainAddress(value: string): boolean {
  return value.length <= 254 && /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+\.[^\s@<>,;:"()[\]\\]+$/.test(value);
}

/**
 * One absolute http(s) address with nothing that could end the header or add a second address
 * (no spaces, line breaks, commas or angle brackets): what may go into List-Unsubscribe.
 */
export function isPlainUrl(value: string): boolean {
  return value.length <= 2000 && /^https?:\/\/[^\s<>,"]+$/.test(value);
}

/**
 * Renders a stored template and writes the e-mail to the outbox. Nothing is sent here: the
 * delivery worker sends queued rows, so an e-mail queued inside a transaction exists exactly
 * when the change that caused it does.
 */
export async function queueEmail(db: Kysely<Database>, input: QueueEmailInput): Promise<QueuedEmail> {
  const { writes, queued } = await emailWrites(db, input);
  await writeTogether(db, writes);
  return queued;
}

/**
 * queueEmail's writes, not run yet, for a caller that runs them with its own (one round trip on
 * PostgreSQL): the e-mail, and for an order's, the timeline's note of it.
 */
export async function emailWrites(db: Kysely<Database>, input: QueueEmailInput): Promise<{ writes: PendingWrite[]; queued: QueuedEmail }> {
  const template = await templates.get(input.templateId, () =>
    db.selectFrom('email_templates').select(['subject', 'html', 'text']).where('id', '=', input.templateId).executeTakeFirst(),
  );
  if (!template) throw new UnknownTemplateError(`E-mail template '${input.templateId}' does not exist`);
  const drawn = renderTemplate(template, input.variables, { ...input.variables, ...input.textVariables });
  const rendered = input.subjectPrefix ? { ...drawn, subject: `${input.subjectPrefix}${drawn.subject}` } : drawn;
  // An address that is not one plain address is left out rather than lose the e-mail (the caller's schema checked it already).
  const replyTo = input.replyTo === undefined ? await shopContactAddress(db) : isPlainAddress(input.replyTo) ? input.replyTo : null;
  const at = nowIso();
  const id = newId('mail');
  const insert = insertRows(db, 'email_outbox', [
    {
      id,
      to_address: input.to,
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      template_id: input.templateId,
      status: 'queued',
      attempts: 0,
      last_error: null,
      next_attempt_at: at,
      created_at: at,
      updated_at: at,
      sent_at: null,
      order_id: input.order?.id ?? null,
      reply_to: replyTo,
      // Named only when there is one: an outbox row of any other e-mail is written as before.
      ...(input.listUnsubscribe && isPlainUrl(input.listUnsubscribe) ? { list_unsubscribe: input.listUnsubscribe } : {}),
    },
  ]);
  // The e-mail and, for an order's, the timeline's note of it: one round trip on PostgreSQL.
  const writes: PendingWrite[] = [
    ...(input.writeWith ?? []),
    insert,
    ...(input.order ? [input.order.note(db, { id, templateId: input.templateId, to: input.to, subject: rendered.subject })] : []),
  ];
  return { writes, queued: { id, to: input.to, subject: rendered.subject, text: rendered.text } };
}

type OutboxEntry = {
  id: string;
  to: string;
  subject: string;
  templateId: string | null;
  status: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  nextAttemptAt: string;
};

export async function listOutbox(
  db: Kysely<Database>,
  { page, pageSize }: { page: number; pageSize: number },
): Promise<{ items: OutboxEntry[]; page: number; pageSize: number; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('email_outbox')
      .select([
        'id',
        'to_address',
        'subject',
        'template_id',
        'status',
        'attempts',
        'last_error',
        'created_at',
        'sent_at',
        'next_attempt_at',
      ])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    db
      .selectFrom('email_outbox')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst(),
  ]);
  return {
    items: rows.map((r) => ({
      id: r.id,
      to: r.to_address,
      subject: r.subject,
      templateId: r.template_id,
      status: r.status,
      attempts: r.attempts,
      lastError: r.last_error,
      createdAt: r.created_at,
      sentAt: r.sent_at,
      nextAttemptAt: r.next_attempt_at,
    })),
    page,
    pageSize,
    total: Number(count?.n ?? 0),
  };
}
