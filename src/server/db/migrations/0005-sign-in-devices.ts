import type { Kysely } from 'kysely';

/**
 * Secrets the server keeps for itself, one row per purpose, created once by whichever process
 * needs one first, so every process behind a load balancer signs and checks with the same key.
 * The first is `sign-in-device`: the HMAC key of the device cookies that let a browser that has
 * signed in to an account before keep signing in while that account is under a guessing attack.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('server_secrets').execute();
}
