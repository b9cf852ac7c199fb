import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Payments that arrive for a checkout or a payment link the shop had already ended (issue [1/8],
 * decision 0039). `stray_payments` keeps each one, never deleted: one row per provider session
 * (a webhook delivered twice records it once), with its automatic refund's outcome, so the owner
 * sees it on the order and the dashboard. `payment_sessions.close_due` marks a session ended here
 * whose provider page may still take money: the payments worker closes it at the provider
 * (Stripe's `expire`) and clears the mark.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  const money = db.getExecutor().adapter instanceof PostgresAdapter ? 'bigint' : 'integer';
  await db.schema
    .createTable('stray_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('session_id', 'text', (c) => c.notNull().unique())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('amount_cents', money, (c) => c.notNull())
    .addColumn('payment_reference', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('refunding','refunded','failed','settled')`))
    // Each attempt at the refund has its own idempotency key: Stripe replays a key's first answer,
    // a refusal included, for a day, so the owner's retry after a refusal must ask anew.
    .addColumn('refund_attempt', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('provider_refund_id', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('settled_at', 'text')
    .addColumn('settled_by', 'text')
    .execute();
  await db.schema.createIndex('stray_payments_order_idx').on('stray_payments').columns(['order_id', 'created_at']).execute();
  await db.schema.createIndex('stray_payments_status_idx').on('stray_payments').columns(['status', 'created_at']).execute();

  await db.schema
    .alterTable('payment_sessions')
    .addColumn('close_due', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Stripe sessions this shop ended before now whose page may still be open at Stripe: closed there by the worker.
  await db
    .updateTable('payment_sessions')
    .set({ close_due: 1 })
    .where('provider', '=', 'stripe')
    .where('status', '=', 'expired')
    .where('expires_at', '>', new Date().toISOString())
    .execute();
  await db.schema
    .createIndex('payment_sessions_close_due_idx')
    .on('payment_sessions')
    .column('close_due')
    .where(sql.ref('close_due'), '=', 1)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('payment_sessions_close_due_idx').execute();
  await db.schema.alterTable('payment_sessions').dropColumn('close_due').execute();
  await db.schema.dropTable('stray_payments').execute();
}
