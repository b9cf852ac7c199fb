import type { Kysely } from 'kysely';

/**
 * Carts of signed-in customers are kept on the server (issue 29, decision 0030): one row per
 * account, owned by the cart module (src/server/cart/saved-carts.ts). `lines` is JSON
 * `[[productId, quantity, size, color], …]` (the cart cookie's shape), `coupon_code` the coupon the
 * cart carries. Prices are never stored: the cart is priced by the server's quote when shown.
 * The row goes with its account.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('saved_carts')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('lines', 'text', (c) => c.notNull())
    .addColumn('coupon_code', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('saved_carts').execute();
}
