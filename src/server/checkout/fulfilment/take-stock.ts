import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { heldUnits } from '../../cart/service.js';
import type { LockedOrderRows } from './lock-order-rows.js';

/**
 * Takes the order's units from what other open checkouts do not hold. While this order's own hold
 * lives that is always enough; after it lapsed (a payment that came too late, or for a session
 * already ended) the units may be gone: stock never goes below what others hold, nor below zero,
 * and the answer lists what fell short ("Cloth: 2 ordered, 1 in stock") for the owner.
 * The products must be locked (lockOrderRows).
 */
export async function takeStock(
  trx: Kysely<Database>,
  { order, items, productIds, products }: Pick<LockedOrderRows, 'order' | 'items' | 'productIds' | 'products'>,
  now: Date,
): Promise<string[]> {
  const at = now.toISOString();
  const heldByOthers = await heldUnits(trx, productIds, now, order.id);
  const stockOf = new Map(products.map((p) => [p.id, p.inventory]));
  const wanted = new Map<string, number>();
  for (const i of items) wanted.set(i.product_id, (wanted.get(i.product_id) ?? 0) + i.quantity);
  const shortfall: string[] = [];
  for (const productId of productIds) {
    const want = wanted.get(productId) ?? 0;
    const name = items.find((i) => i.product_id === productId)?.product_name ?? productId;
    const inventory = stockOf.get(productId);
    if (inventory === undefined) {
      shortfall.push(`${name}: ${want} ordered, product no longer in the catalogue`);
      continue;
    }
    const take = Math.min(want, Math.max(0, inventory - (heldByOthers.get(productId) ?? 0)));
    if (take < want) shortfall.push(`${name}: ${want} ordered, ${take} in stock`);
    if (take > 0) {
      await trx
        .updateTable('products')
        .set({ inventory: sql`inventory - ${take}`, updated_at: at })
        .where('id', '=', productId)
        .execute();
    }
  }
  return shortfall;
}
