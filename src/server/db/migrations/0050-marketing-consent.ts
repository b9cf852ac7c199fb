import type { Kysely } from 'kysely';

/**
 * Marketing consent (issue [7/8], decision 0060): one row per address that was ever asked.
 * - `id`: what an unsubscribe link names (signed: marketing/unsubscribe.ts), so the link shows no address.
 * - `status` 'granted' or 'withdrawn'; `granted_at` and `source` say when and where it was given
 *   ('sign-up', 'checkout', 'account'), `withdrawn_at` and `withdrawn_via` when and how it ended
 *   ('account', 'unsubscribe'). A withdrawal keeps the row: the proof of what the address said.
 * - A withdrawal also writes `email_opt_outs (email, 'marketing')` (migration 0048), which every
 *   marketing send checks: an address that unsubscribed gets no more, even if it ticks the box again
 *   as a guest; only the account holder, signed in, can turn it back on.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('marketing_consents')
    .ifNotExists()
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('granted_at', 'text', (c) => c.notNull())
    .addColumn('withdrawn_at', 'text')
    .addColumn('withdrawn_via', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('marketing_consents').ifExists().execute();
}
