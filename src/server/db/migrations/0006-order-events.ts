import { sql, type Kysely } from 'kysely';

/**
 * What happened to an order, one row per event, never updated or deleted (the order's history
 * stays even when the order's own row changes): placed, paid, e-mails, status changes, edits
 * (before → after), labels, refunds, notes, impersonated views. `actor_label` keeps who did it
 * as it read then (an account's e-mail, "customer", "system", "Stripe"); `customer_visible` marks
 * the events the customer's receipt shows (placed, paid, shipped with tracking, refunded).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('order_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'text')
    .addColumn('actor_label', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('customer_visible', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`customer_visible in (0, 1)`),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_events_order_idx').on('order_events').columns(['order_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('order_events').execute();
}
