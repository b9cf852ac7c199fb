import type { Kysely } from 'kysely';

/**
 * Issue 29 (guest orders follow the shopper into the account).
 *
 * E-mail verification links: one row per link sent, the token stored only as its hash, valid
 * for a day and once. The row keeps the address it was sent to, so a link sent before the
 * account's e-mail changed cannot verify the new address. Verifying (or the admin marking the
 * account verified) links the paid guest orders of that address to the account.
 *
 * Everything below is frozen as of this migration (it imports nothing from the app).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('email_verification_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('email_verification_tokens_user').on('email_verification_tokens').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('email_verification_tokens').execute();
}
