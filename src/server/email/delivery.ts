import { retryWhileUnavailable } from '../db/unavailable.js';
import { retryDelayMs } from '../lib/retry.js';
import { createRequire } from 'node:module';
import type Nodemailer from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { nowIso } from '../lib/ids.js';
import { isPlainAddress, isPlainUrl } from './outbox.js';

/**
 * `replyTo`: where an answer goes (a contact notice's visitor, the shop for a customer), when it differs from `from`.
 * `listUnsubscribe`: the one-click opt-out address (RFC 8058), sent with `List-Unsubscribe-Post`.
 */
export type MailMessage = {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string | null;
  replyTo?: string;
  listUnsubscribe?: string;
};
export type MailTransport = { send: (m: MailMessage) => Promise<void>; verify: () => Promise<void>; close: () => void };

/** An e-mail tied to an order, sent. */
export type SentOrderEmail = { id: string; orderId: string; templateId: string | null; to: string; subject: string };
/**
 * Notes on the order's timeline that its e-mail was sent, in the transaction that marks it sent:
 * orders/events.ts `noteOrderEmailSent`, passed in by whoever starts the delivery (main.ts), since
 * only orders/ writes an order's timeline.
 */
export type OnOrderEmailSent = (trx: Kysely<Database>, email: SentOrderEmail) => Promise<void>;

const load = createRequire(import.meta.url);

/**
 * SMTP delivery. nodemailer is loaded here, when SMTP is configured: a shop without it never loads it.
 * Connections are pooled and kept for the next e-mail: a connection per e-mail cost 105 ms each even
 * to a mail server on the same machine (5 ms pooled), so one process sent fewer than 10 e-mails a
 * second, and a sale's confirmations (two e-mails per order) fell minutes behind. `?pool=false` in
 * SMTP_URL turns it off.
 */
export function smtpTransport(smtpUrl: string): MailTransport {
  const nodemailer = load('nodemailer') as typeof Nodemailer;
  const t = nodemailer.createTransport({ url: smtpUrl, pool: true });
  return {
    send: async (m) => {
      await t.sendMail({
        from: m.from,
        to: m.to,
        subject: m.subject,
        html: m.html,
        text: m.text ?? undefined,
        ...(m.replyTo ? { replyTo: m.replyTo } : {}),
        ...(m.listUnsubscribe
          ? { headers: { 'List-Unsubscribe': `<${m.listUnsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } }
          : {}),
      });
    },
    verify: async () => {
      await t.verify();
    },
    close: () => t.close(),
  };
}

export const MAX_ATTEMPTS = 10;
/** Retry after 30 s, 1 min, 2 min, … capped at an hour. */
export const backoffMs = retryDelayMs;
/** A row left 'sending' this long (the process died mid-send) goes back to the queue. */
const STALE_SENDING_MS = 10 * 60_000;

/**
 * Sends the due rows of the outbox. Each row is claimed with a conditional update, so several
 * processes can run this at once and a row is sent by one of them only.
 */
export async function deliverDueEmails(
  db: Kysely<Database>,
  transport: MailTransport,
  from: string,
  { batch = 20, now = () => new Date(), onOrderEmailSent }: { batch?: number; now?: () => Date; onOrderEmailSent?: OnOrderEmailSent } = {},
): Promise<{ sent: number; failed: number }> {
  const at = now();
  await db
    .updateTable('email_outbox')
    .set({ status: 'queued', updated_at: at.toISOString() })
    .where('status', '=', 'sending')
    .where('updated_at', '<', new Date(at.getTime() - STALE_SENDING_MS).toISOString())
    .execute();

  const due = await db
    .selectFrom('email_outbox')
    .select(['id'])
    .where('status', '=', 'queued')
    .where('next_attempt_at', '<=', at.toISOString())
    .orderBy('next_attempt_at')
    .limit(batch)
    .execute();

  let sent = 0;
  let failed = 0;
  for (const { id } of due) {
    const result = await deliverOne(db, transport, from, id, now, onOrderEmailSent);
    if (result === 'sent') sent++;
    else if (result === 'failed') failed++;
  }
  return { sent, failed };
}

/**
 * Claims one queued row (a conditional update, so only one worker wins), sends it, and records
 * the outcome; a failure goes back to the queue with backoff until MAX_ATTEMPTS.
 */
export async function deliverOne(
  db: Kysely<Database>,
  transport: MailTransport,
  from: string,
  id: string,
  now: () => Date = () => new Date(),
  onOrderEmailSent?: OnOrderEmailSent,
): Promise<'sent' | 'failed' | 'skipped'> {
  // Claimed and read in one statement: a connection lost between a claim and a read would leave
  // the row 'sending' (and unsent) until it goes stale.
  const row = await db
    .updateTable('email_outbox')
    .set({ status: 'sending', updated_at: nowIso() })
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
  if (!row) return 'skipped';
  try {
    // Checked again at the header: a row written another way never carries a second header or recipient in.
    const replyTo = row.reply_to && isPlainAddress(row.reply_to) ? { replyTo: row.reply_to } : {};
    const optOut = row.list_unsubscribe && isPlainUrl(row.list_unsubscribe) ? { listUnsubscribe: row.list_unsubscribe } : {};
    await transport.send({ from, to: row.to_address, subject: row.subject, html: row.html, text: row.text, ...replyTo, ...optOut });
  } catch (err) {
    return recordFailure(db, row, err, now);
  }
  // It is sent: recording that must not turn into a second send. A lost database connection is
  // waited out (the row stays 'sending' meanwhile, and only a stale one is ever sent again).
  await retryWhileUnavailable(() =>
    db.transaction().execute(async (trx) => {
      await trx
        .updateTable('email_outbox')
        .set({ status: 'sent', attempts: row.attempts + 1, last_error: null, sent_at: nowIso(), updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
      if (row.order_id && onOrderEmailSent) {
        await onOrderEmailSent(trx, { id, orderId: row.order_id, templateId: row.template_id, to: row.to_address, subject: row.subject });
      }
    }),
  );
  return 'sent';
}

async function recordFailure(
  db: Kysely<Database>,
  row: { id: string; attempts: number },
  err: unknown,
  now: () => Date,
): Promise<'failed'> {
  const attempts = row.attempts + 1;
  const message = err instanceof Error ? err.message : String(err);
  await retryWhileUnavailable(() =>
    db
      .updateTable('email_outbox')
      .set({
        status: attempts >= MAX_ATTEMPTS ? 'failed' : 'queued',
        attempts,
        last_error: message.slice(0, 500),
        next_attempt_at: new Date(now().getTime() + backoffMs(attempts)).toISOString(),
        updated_at: nowIso(),
      })
      .where('id', '=', row.id)
      .execute(),
  );
  return 'failed';
}

/** Puts a failed or waiting e-mail back at the front of the queue. */
export async function retryEmail(db: Kysely<Database>, id: string): Promise<boolean> {
  const r = await db
    .updateTable('email_outbox')
    .set({ status: 'queued', next_attempt_at: nowIso(), updated_at: nowIso() })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'failed'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Polls the outbox while the server runs. */
export function startDeliveryWorker(
  db: Kysely<Database>,
  transport: MailTransport,
  from: string,
  log: { error: (obj: unknown, msg: string) => void },
  { intervalMs = 5000, onOrderEmailSent }: { intervalMs?: number; onOrderEmailSent: OnOrderEmailSent },
): { stop: () => Promise<void>; runNow: () => Promise<void> } {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return running;
    running = deliverDueEmails(db, transport, from, { onOrderEmailSent })
      .then(() => undefined)
      .catch((err) => log.error({ err }, 'e-mail delivery failed'))
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return {
    runNow: tick,
    stop: async () => {
      clearInterval(timer);
      if (running) await running;
      transport.close();
    },
  };
}
