import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Refunds and restocks (src/server/orders/refunds.ts):
 * - `refunds`: one row per refund asked of the payment provider, never updated after it settled
 *   and never deleted (a record of money). `status` is 'pending' while the provider is asked,
 *   then 'succeeded' or 'failed'; pending and succeeded rows count against what may still be
 *   refunded, so two refunds at once can never exceed what was paid.
 * - orders gain `refunded_cents` (the succeeded refunds' sum, kept with them in one transaction)
 *   and `restocked_at` (set while the order's units are back in stock: a cancel or a refund
 *   restocks only when it is null, so units return exactly once).
 * - orders_payment_idx serves the order list's payment filters (orders/admin-orders.ts paymentCondition)
 *   and their counts from the index alone.
 * Money is bigint on PostgreSQL, as in 0004.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const money = postgres ? 'bigint' : 'integer';
  await db.schema
    .createTable('refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('amount_cents', money, (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_refund_id', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending','succeeded','failed')`),
    )
    .addColumn('reason', 'text')
    .addColumn('restock', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`restock in (0, 1)`),
    )
    .addColumn('error', 'text')
    .addColumn('actor_user_id', 'text')
    .addColumn('actor_label', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('settled_at', 'text')
    .execute();
  await db.schema.createIndex('refunds_order_idx').on('refunds').columns(['order_id', 'created_at']).execute();

  await db.schema
    .alterTable('orders')
    .addColumn('refunded_cents', money, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('orders').addColumn('restocked_at', 'text').execute();
  // Orders marked refunded before refunds were recorded were refunded in full.
  await db
    .updateTable('orders')
    .set({ refunded_cents: sql`total_cents` })
    .where('payment_status', '=', 'refunded')
    .execute();
  await db.schema
    .createIndex('orders_payment_idx')
    .on('orders')
    .columns(['payment_status', 'refunded_cents', 'payment_provider', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_payment_idx').execute();
  await db.schema.alterTable('orders').dropColumn('restocked_at').execute();
  await db.schema.alterTable('orders').dropColumn('refunded_cents').execute();
  await db.schema.dropTable('refunds').execute();
}
