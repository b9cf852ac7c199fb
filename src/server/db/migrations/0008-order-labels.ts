import type { Kysely } from 'kysely';

/**
 * One label per order: `label_state` is the order's claim on its shipping label ('buying' while
 * ShipStation is asked, 'bought' once it answered, null when there is none or it was voided),
 * taken with a conditional UPDATE so simultaneous requests buy one label; `label_key` names the
 * claim (the idempotency key sent to ShipStation) and `label_claimed_at` lets a claim left by a
 * process that died mid-purchase be taken again after a while. `email_outbox.order_id` ties an
 * e-mail to the order it concerns, so its delivery lands on that order's timeline.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('label_state', 'text').execute();
  await db.schema.alterTable('orders').addColumn('label_key', 'text').execute();
  await db.schema.alterTable('orders').addColumn('label_claimed_at', 'text').execute();
  await db.schema.alterTable('email_outbox').addColumn('order_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('email_outbox').dropColumn('order_id').execute();
  await db.schema.alterTable('orders').dropColumn('label_claimed_at').execute();
  await db.schema.alterTable('orders').dropColumn('label_key').execute();
  await db.schema.alterTable('orders').dropColumn('label_state').execute();
}
