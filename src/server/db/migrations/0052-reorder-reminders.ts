import { sql, type Kysely } from 'kysely';

/**
 * Reorder reminders (issue [7/8] item 4).
 * - `products.reorder_after_days`: the owner's typical use period of a refill, in days (7–365);
 *   null: no reminders for it.
 * - `reorder_reminders`: one row per order line decided by the reminder pass (marketing/
 *   reorder-reminders.ts), e-mailed ('sent') or not ('skipped', with the reason). `(order_id,
 *   product_id)` is unique: two processes deciding at once write one row and one e-mail. The rows of
 *   one e-mail share its `batch_id`, which the e-mail's reorder link names. `follow_until` ends the
 *   time in which an order of the same product by the same address counts as one that followed.
 * - `orders_email_lower_idx`: an address's orders since a day (the pass's "ordered again?" and the
 *   owner's orders that followed), by `lower(email)` as both compare it.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('products').addColumn('reorder_after_days', 'integer').execute();
  await sql`create index if not exists products_reorder_idx on products (reorder_after_days) where reorder_after_days is not null`.execute(
    db,
  );
  await db.schema
    .createTable('reorder_reminders')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('variant_id', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('batch_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('sent','skipped')`))
    .addColumn('reason', 'text')
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('mail_id', 'text')
    .addColumn('follow_until', 'text', (c) => c.notNull())
    .addColumn('clicked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('reorder_reminders_line_key', ['order_id', 'product_id'])
    .execute();
  await db.schema
    .createIndex('reorder_reminders_created_idx')
    .ifNotExists()
    .on('reorder_reminders')
    .columns(['created_at', 'state'])
    .execute();
  await db.schema.createIndex('reorder_reminders_batch_idx').ifNotExists().on('reorder_reminders').column('batch_id').execute();
  // A person's rows (Download My Data, an account's deletion).
  await db.schema.createIndex('reorder_reminders_email_idx').ifNotExists().on('reorder_reminders').column('email').execute();
  await sql`create index if not exists orders_email_lower_idx on orders (lower(email), created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists orders_email_lower_idx`.execute(db);
  await db.schema.dropTable('reorder_reminders').ifExists().execute();
  await sql`drop index if exists products_reorder_idx`.execute(db);
  await db.schema.alterTable('products').dropColumn('reorder_after_days').execute();
}
