import type { Kysely } from 'kysely';

/**
 * Issue [5/8], the owner's subscription Figures (subscriptions/admin-figures.ts): each figure reads
 * only its period's rows, however long the shop has sold subscriptions.
 * - `subscriptions (created_at, cancelled_at)`: new subscriptions per day, those still subscribed
 *   when a period starts, and retention by month of signing up, from the index alone.
 * - `subscriptions (cancelled_at)`: cancellations and their reasons per day.
 * - `subscriptions (first_order_id)`: "is this paid order the checkout that started a
 *   subscription", asked of each order whose money moved in the period.
 * No index on `orders (origin, paid_at)`: it took the figures' 90 days from 90 to 65 ms on SQLite,
 * but SQLite's planner then chose it for the owner's order list, whose first page went from 2 to
 * 108 ms at 100,000 orders (order-list.scale.test.ts).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('subscriptions_created_idx')
    .ifNotExists()
    .on('subscriptions')
    .columns(['created_at', 'cancelled_at'])
    .execute();
  await db.schema.createIndex('subscriptions_cancelled_idx').ifNotExists().on('subscriptions').column('cancelled_at').execute();
  await db.schema.createIndex('subscriptions_first_order_idx').ifNotExists().on('subscriptions').column('first_order_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('subscriptions_first_order_idx').ifExists().execute();
  await db.schema.dropIndex('subscriptions_cancelled_idx').ifExists().execute();
  await db.schema.dropIndex('subscriptions_created_idx').ifExists().execute();
}
