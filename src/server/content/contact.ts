import { retryWhileUnavailable } from '../db/unavailable.js';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { hitRateLimitWindow, secondsUntilWindowEnds } from '../http/rate-limit.js';
import { newId, nowIso } from '../lib/ids.js';
import { looksAutomated } from '../../shared/bot-guard.js';
import { readSettings } from './admin.js';
import { retryDelayMs } from '../lib/retry.js';
import { queueContactShopEmail } from '../email/shop-notifications.js';
import { CONTACT_MESSAGE_TEXTS, type ContactMessageCounts, type ContactMessageState } from '../../shared/schemas/contact-messages.js';

export const CONTACT_LIMIT_PER_IP = 5;
const WINDOW_MS = 15 * 60_000;
const CONTACT_SOURCE = 'website-contact-form';

type ContactFields = { name: string; email: string; subject: string; message: string; elapsedMs?: number; website?: string };

/**
 * Stores a message from the contact form. A bot (too fast, or the decoy field filled) gets the same
 * answer as a person and nothing is stored. When the workflow endpoint is on, the message is also
 * queued for forwarding, so nothing is lost while the endpoint is down.
 */
export async function submitContact(
  db: Kysely<Database>,
  input: ContactFields,
  ip: string,
  publicUrl = 'http://localhost:3000',
): Promise<{ stored: boolean }> {
  // The form always says how long it took; a submit that does not is treated as too fast.
  if (looksAutomated('contact', input)) return { stored: false };
  // Counted before anything is stored, in one statement: a simultaneous burst stores at most the limit.
  const now = new Date();
  const { hits, windowStartedAt } = await hitRateLimitWindow(db, `contact:ip:${ip}`, WINDOW_MS, now);
  if (hits > CONTACT_LIMIT_PER_IP) {
    throw new HttpError(429, 'Too many messages. Please wait 15 minutes and try again.', {
      'Retry-After': String(secondsUntilWindowEnds(windowStartedAt, WINDOW_MS, now)),
    });
  }
  const s = await readSettings(db, ['power_automate_enabled', 'power_automate_endpoint']);
  const forward = s.power_automate_enabled === 'true' && Boolean(s.power_automate_endpoint);
  const at = nowIso();
  // The message and the shop's e-mail about it (when switched on) exist together or not at all.
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('contact_messages')
      .values({
        id: newId('msg'),
        name: input.name,
        email: input.email,
        subject: input.subject,
        message: input.message,
        source: CONTACT_SOURCE,
        forward_status: forward ? 'pending' : 'stored',
        forward_attempts: 0,
        last_error: null,
        next_attempt_at: forward ? at : null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await queueContactShopEmail(trx, input, publicUrl);
  });
  return { stored: true };
}

const MAX_FORWARD_ATTEMPTS = 10;

/** Sends due messages to the workflow endpoint: {name, email, subject, message, timestamp, source}. */
export async function forwardDueMessages(
  db: Kysely<Database>,
  fetchImpl: typeof fetch = fetch,
  now: () => Date = () => new Date(),
): Promise<{ forwarded: number; failed: number }> {
  const s = await readSettings(db, ['power_automate_enabled', 'power_automate_endpoint']);
  const endpoint = s.power_automate_endpoint;
  if (!endpoint) return { forwarded: 0, failed: 0 };
  const due = await db
    .selectFrom('contact_messages')
    .select('id')
    .where('forward_status', '=', 'pending')
    .where('next_attempt_at', '<=', now().toISOString())
    .orderBy('next_attempt_at')
    .limit(20)
    .execute();
  let forwarded = 0;
  let failed = 0;
  for (const { id } of due) {
    // Claim by pushing the next attempt out; a second worker skips it.
    const claim = await db
      .updateTable('contact_messages')
      .set({ next_attempt_at: new Date(now().getTime() + 5 * 60_000).toISOString(), updated_at: nowIso() })
      .where('id', '=', id)
      .where('forward_status', '=', 'pending')
      .where('next_attempt_at', '<=', now().toISOString())
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) continue;
    const m = await db.selectFrom('contact_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    let res: Response | undefined;
    let error: unknown;
    try {
      res = await fetchImpl(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: m.name,
          email: m.email,
          subject: m.subject,
          message: m.message,
          timestamp: m.created_at,
          source: m.source,
        }),
        signal: AbortSignal.timeout(15_000),
      });
      if (!res.ok) error = new Error(`The workflow endpoint answered ${res.status}`);
    } catch (err) {
      error = err;
    }
    if (error === undefined) {
      // Forwarded: recording it must not turn into a second forward, so a lost database
      // connection is waited out rather than counted as a failed attempt.
      await retryWhileUnavailable(() =>
        db
          .updateTable('contact_messages')
          .set({
            forward_status: 'forwarded',
            forward_attempts: m.forward_attempts + 1,
            last_error: null,
            next_attempt_at: null,
            updated_at: nowIso(),
          })
          .where('id', '=', id)
          .execute(),
      );
      forwarded++;
    } else {
      const attempts = m.forward_attempts + 1;
      await db
        .updateTable('contact_messages')
        .set({
          forward_status: attempts >= MAX_FORWARD_ATTEMPTS ? 'failed' : 'pending',
          forward_attempts: attempts,
          last_error: (error instanceof Error ? error.message : String(error)).slice(0, 500),
          next_attempt_at: new Date(now().getTime() + retryDelayMs(attempts)).toISOString(),
          updated_at: nowIso(),
        })
        .where('id', '=', id)
        .execute();
      failed++;
    }
  }
  return { forwarded, failed };
}

/** Forwarding starts right away in the background; the periodic worker retries what fails. */
export function forwardContactMessagesNow(db: Kysely<Database>, log: FastifyBaseLogger): void {
  forwardDueMessages(db).catch((err: unknown) => log.error({ err }, 'contact forwarding failed'));
}

/** Messages newest first, all or those in one of the owner's states (the Messages tab's filter). */
export async function listContactMessages(
  db: Kysely<Database>,
  q: { page: number; pageSize: number; state?: ContactMessageState | undefined },
) {
  const [rows, count, counts] = await Promise.all([
    db
      .selectFrom('contact_messages')
      .selectAll()
      .$if(q.state !== undefined, (qb) => qb.where('state', '=', q.state!))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute(),
    db
      .selectFrom('contact_messages')
      .select(sql<number | string>`count(*)`.as('n'))
      .$if(q.state !== undefined, (qb) => qb.where('state', '=', q.state!))
      .executeTakeFirst(),
    contactMessageCounts(db),
  ]);
  return {
    items: rows.map((m) => ({
      id: m.id,
      name: m.name,
      email: m.email,
      subject: m.subject,
      message: m.message,
      forwardStatus: m.forward_status,
      attempts: m.forward_attempts,
      lastError: m.last_error,
      createdAt: m.created_at,
      state: m.state,
      stateChangedAt: m.state_changed_at,
    })),
    page: q.page,
    pageSize: q.pageSize,
    total: Number(count?.n ?? 0),
    counts,
  };
}

/** How many messages are unread, read and answered (the Messages tab's unread count). */
export async function contactMessageCounts(db: Kysely<Database>): Promise<ContactMessageCounts> {
  const rows = await db
    .selectFrom('contact_messages')
    .select(['state', sql<number | string>`count(*)`.as('n')])
    .groupBy('state')
    .execute();
  const counts: ContactMessageCounts = { unread: 0, read: 0, answered: 0 };
  for (const r of rows) counts[r.state] = Number(r.n);
  return counts;
}

/** The owner marks a message unread, read or answered; 404 for an unknown id. */
export async function setContactMessageState(db: Kysely<Database>, id: string, state: ContactMessageState) {
  const at = nowIso();
  const r = await db
    .updateTable('contact_messages')
    .set({ state, state_changed_at: at, updated_at: at })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new HttpError(404, CONTACT_MESSAGE_TEXTS.notFound);
  return { id, state, stateChangedAt: at };
}

export async function retryContactForward(db: Kysely<Database>, id: string): Promise<void> {
  const r = await db
    .updateTable('contact_messages')
    .set({ forward_status: 'pending', next_attempt_at: nowIso(), updated_at: nowIso() })
    .where('id', '=', id)
    .where('forward_status', 'in', ['pending', 'failed', 'stored'])
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new HttpError(404, 'Message not found');
}
