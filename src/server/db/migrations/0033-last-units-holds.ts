import { sql, type Kysely } from 'kysely';

/**
 * Holds of a variant's last units (issue [2/8], decision 0042): `stock_reservations.last_units` is 1
 * on a reservation that left no more than the variant's low-stock threshold free when it was taken.
 * The firm time such reservations of one variant keep from other shoppers, whoever holds them, is
 * bounded per hour (inventory/reservations.ts); the index reads one variant's of the last hour.
 * Existing reservations are not marked: they count as before.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('stock_reservations')
    .addColumn('last_units', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('stock_reservations_last_units_idx')
    .on('stock_reservations')
    .columns(['variant_id', 'created_at'])
    .where(sql.ref('last_units'), '=', 1)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('stock_reservations_last_units_idx').execute();
  await db.schema.alterTable('stock_reservations').dropColumn('last_units').execute();
}
