import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { queueEmail } from '../email/outbox.js';

/** "14 March 2026, 09:30 UTC": one reading whatever the reader's time zone. */
function utcTime(at: Date): string {
  const day = at.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  return `${day}, ${at.toISOString().slice(11, 16)} UTC`;
}

/**
 * Tells the old address that the account's e-mail changed (built-in template `email-changed`):
 * if the owner did not make the change, that address is the only one they still read.
 */
export async function queueEmailChangedEmail(
  db: Kysely<Database>,
  { oldEmail, newEmail, customerName }: { oldEmail: string; newEmail: string; customerName: string },
  publicUrl: string,
): Promise<void> {
  await queueEmail(db, {
    to: oldEmail,
    templateId: 'email-changed',
    variables: { customerName, newEmail, contactUrl: `${publicUrl}/contact` },
  });
}

/**
 * Tells the account's address that its password changed (built-in template `password-changed`),
 * on every change: from the dashboard and through a reset link.
 */
export async function queuePasswordChangedEmail(
  db: Kysely<Database>,
  user: { email: string; full_name: string },
  publicUrl: string,
  at: Date = new Date(),
): Promise<void> {
  await queueEmail(db, {
    to: user.email,
    templateId: 'password-changed',
    variables: {
      customerName: user.full_name,
      changedAt: utcTime(at),
      resetRequestUrl: `${publicUrl}/password-reset`,
      contactUrl: `${publicUrl}/contact`,
    },
  });
}
