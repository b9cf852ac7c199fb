import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * A product's shelf stock and the units its paid orders took. Nothing is lost or made up as long
 * as the two add up to the stock it started with.
 */
export async function stockAndPaidUnits(db: Kysely<Database>, productId: string): Promise<{ inventory: number; paidUnits: number }> {
  const { inventory } = await db.selectFrom('products').select('inventory').where('id', '=', productId).executeTakeFirstOrThrow();
  const sold = await db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select(sql<number | string>`coalesce(sum(i.quantity), 0)`.as('units'))
    .where('i.product_id', '=', productId)
    .where('o.payment_status', '=', 'paid')
    .executeTakeFirstOrThrow();
  return { inventory: Number(inventory), paidUnits: Number(sold.units) };
}
