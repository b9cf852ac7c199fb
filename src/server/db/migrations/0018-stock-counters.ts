import { sql, type Kysely } from 'kysely';

/**
 * A sale day: stock is taken with one atomic conditional update (decision 0023).
 *
 * - `stock_items.reserved`: the units firm reservations keep from other shoppers now, kept beside
 *   the level so a checkout reserves with `on_hand - reserved >= wanted` in the update itself, and
 *   a payment takes with the same kind of update, instead of holding the product's row locked for a
 *   whole checkout while it sums the reservations.
 * - `stock_reservations.counted`: 1 while the reservation is part of its item's `reserved`. Whoever
 *   turns it to 0 (the checkout ending, the payment, the reservation's firm time running out) takes
 *   its units off `reserved` in the same transaction, guarded by `counted = 1`, so a unit is never
 *   given back twice.
 * - `stock_items_changed_idx`: what the shop-change watcher reads each poll, the items written
 *   since its last look (a stock change refreshes only what shows that product).
 *
 * The live firm reservations are counted as they are.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  const now = new Date().toISOString();
  await db.schema
    .alterTable('stock_items')
    .addColumn('reserved', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('stock_reservations')
    .addColumn('counted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The reservations whose firm time runs out next (the lapse sweep): counted ones only.
  await db.schema
    .createIndex('stock_reservations_counted_idx')
    .on('stock_reservations')
    .columns(['firm_until'])
    .where(sql.ref('counted'), '=', 1)
    .execute();
  await db.schema.createIndex('stock_items_changed_idx').on('stock_items').columns(['updated_at']).execute();
  await db.updateTable('stock_reservations').set({ counted: 1 }).where('released_at', 'is', null).where('firm_until', '>', now).execute();
  await db
    .updateTable('stock_items')
    .set({
      reserved: sql`coalesce((select sum(r.quantity) from stock_reservations r where r.stock_item_id = stock_items.id and r.counted = 1), 0)`,
    })
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('stock_items_changed_idx').execute();
  await db.schema.dropIndex('stock_reservations_counted_idx').execute();
  await db.schema.alterTable('stock_reservations').dropColumn('counted').execute();
  await db.schema.alterTable('stock_items').dropColumn('reserved').execute();
}
