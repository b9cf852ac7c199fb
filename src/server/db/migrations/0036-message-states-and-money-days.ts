import { sql, type Kysely } from 'kysely';

/**
 * Issue [2/8], the owner's part (decision 0046).
 * - `contact_messages.state`: 'unread' (new), 'read' or 'answered', set by the owner in the
 *   Messages tab, with when it last changed. Messages stored before this migration start unread:
 *   nothing records whether the owner saw them. Indexed by state then day, for the tab's filter and
 *   its unread count.
 * - Money counted on the day it moved: payments by `orders.paid_at`, refunds by
 *   `refunds.settled_at` (when the provider confirmed them). Both get an index so a period's
 *   figures read only that period's rows.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('contact_messages')
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('unread')
        .check(sql`state in ('unread','read','answered')`),
    )
    .execute();
  await db.schema.alterTable('contact_messages').addColumn('state_changed_at', 'text').execute();
  await db.schema.createIndex('contact_messages_state_idx').on('contact_messages').columns(['state', 'created_at']).execute();
  await db.schema.createIndex('orders_paid_at_idx').on('orders').column('paid_at').execute();
  await db.schema.createIndex('refunds_settled_idx').on('refunds').columns(['status', 'settled_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('refunds_settled_idx').execute();
  await db.schema.dropIndex('orders_paid_at_idx').execute();
  await db.schema.dropIndex('contact_messages_state_idx').execute();
  await db.schema.alterTable('contact_messages').dropColumn('state_changed_at').execute();
  await db.schema.alterTable('contact_messages').dropColumn('state').execute();
}
