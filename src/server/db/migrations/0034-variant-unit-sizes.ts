import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Unit sizes (issue [2/8], decision 0043): a variant may say how much it holds (16 + 'oz',
 * 10 + 'count'), so the shop shows its price per unit ("$0.94 / oz") the way refill shoppers
 * compare sizes. Both null: no unit price. A product without options keeps its unit size on its
 * one variant, as it keeps its price there.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  const decimal = db.getExecutor().adapter instanceof PostgresAdapter ? 'double precision' : 'real';
  await db.schema.alterTable('product_variants').addColumn('unit_quantity', decimal).execute();
  await db.schema.alterTable('product_variants').addColumn('unit', 'text').execute();
  // A shop seeded before this showed the 32 oz cleaner "was $29.98": two 16 oz bottles, never a
  // price. Only that exact seeded row loses it (an owner's own compare-at is theirs); its sizes
  // are given as the seed now gives them.
  await db
    .updateTable('product_variants')
    .set({ compare_at_cents: null })
    .where('id', '=', 'var_concentrated-cleaner-unscented-32-oz')
    .where('price_cents', '=', 2499)
    .where('compare_at_cents', '=', 2998)
    .execute();
  const cleaner = [
    ['var_concentrated-cleaner', 16],
    ['var_concentrated-cleaner-unscented-32-oz', 32],
    ['var_concentrated-cleaner-lavender-16-oz', 16],
    ['var_concentrated-cleaner-lavender-32-oz', 32],
    ['var_concentrated-cleaner-lemon-16-oz', 16],
    ['var_concentrated-cleaner-lemon-32-oz', 32],
  ] as const;
  for (const [id, quantity] of cleaner) {
    await db
      .updateTable('product_variants')
      .set({ unit_quantity: quantity, unit: 'oz' })
      .where('id', '=', id)
      .where('option2', '=', `${quantity} oz`)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('product_variants').dropColumn('unit').execute();
  await db.schema.alterTable('product_variants').dropColumn('unit_quantity').execute();
}
