import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Without SMTP, e-mails stay in the outbox. Outside production this prints each new one's
 * recipient, subject and links, so a newcomer can follow a password-reset link from the log.
 */
export function startOutboxLogger(db: Kysely<Database>, print: (line: string) => void, intervalMs = 1000): { stop: () => void } {
  let since = new Date().toISOString();
  let busy = false;
  const poll = async () => {
    if (busy) return;
    busy = true;
    try {
      const rows = await db
        .selectFrom('email_outbox')
        .select(['to_address', 'subject', 'text', 'created_at'])
        .where('created_at', '>', since)
        .orderBy('created_at')
        .limit(50)
        .execute();
      for (const r of rows) {
        since = r.created_at > since ? r.created_at : since;
        const links = [...new Set((r.text ?? '').match(/https?:\/\/[^\s)>"]+/g) ?? [])];
        print(`[e-mail, not sent: SMTP_URL unset] to ${r.to_address}: ${r.subject}${links.map((l) => `\n    ${l}`).join('')}`);
      }
    } catch {
      // the database may be closing
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void poll(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
