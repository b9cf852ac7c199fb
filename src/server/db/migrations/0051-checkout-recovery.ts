import type { Kysely } from 'kysely';

/**
 * Checkout recovery (issue [7/8] item 3, decision 0061).
 * - `checkout_recoveries`: one row per checkout left unpaid past the owner's first delay, written
 *   by the recovery pass when it decides it (its `order_id` unique: two processes write one row and
 *   one e-mail). `state` abandoned | emailed | recovered | opted-out | expired | closed, `reason`
 *   why it is not (or no longer) e-mailed; the e-mails sent, the next one's time, the queued mail
 *   (deleted at once should the shopper pay first), the second e-mail's coupon, the restore link's
 *   use, and the order that followed with its amount.
 * - `emptied_carts`: a browser or account that emptied its cart by hand, and when: a checkout of
 *   theirs left before then is not e-mailed about.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('checkout_recoveries')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('device_id', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('value_cents', 'integer', (c) => c.notNull())
    .addColumn('checkout_at', 'text', (c) => c.notNull())
    .addColumn('emails_sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_email_at', 'text')
    .addColumn('last_email_at', 'text')
    .addColumn('mail_id', 'text')
    .addColumn('coupon_id', 'text')
    .addColumn('coupon_code', 'text')
    .addColumn('restored_at', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('recovered_order_id', 'text')
    .addColumn('recovered_at', 'text')
    .addColumn('recovered_cents', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('checkout_recoveries_due_idx')
    .ifNotExists()
    .on('checkout_recoveries')
    .columns(['state', 'next_email_at'])
    .execute();
  await db.schema
    .createIndex('checkout_recoveries_email_idx')
    .ifNotExists()
    .on('checkout_recoveries')
    .columns(['email', 'state'])
    .execute();
  await db.schema.createIndex('checkout_recoveries_checkout_idx').ifNotExists().on('checkout_recoveries').column('checkout_at').execute();
  await db.schema
    .createIndex('checkout_recoveries_expires_idx')
    .ifNotExists()
    .on('checkout_recoveries')
    .columns(['state', 'expires_at'])
    .execute();
  await db.schema
    .createIndex('checkout_recoveries_recovered_idx')
    .ifNotExists()
    .on('checkout_recoveries')
    .column('recovered_order_id')
    .execute();
  // An account's rows (its deletion).
  await db.schema.createIndex('checkout_recoveries_user_idx').ifNotExists().on('checkout_recoveries').column('user_id').execute();
  await db.schema
    .createTable('emptied_carts')
    .ifNotExists()
    .addColumn('holder', 'text', (c) => c.primaryKey())
    .addColumn('emptied_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('emptied_carts').ifExists().execute();
  await db.schema.dropTable('checkout_recoveries').ifExists().execute();
}
