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

/** A product's level (summed over its variants' items), its shown copy and the sum of its ledger: one figure when nothing is lost. */
export async function ledgerAndLevel(db: Kysely<Database>, productId: string): Promise<{ level: number; copy: number; ledger: number }> {
  const items = await db.selectFrom('stock_items').select(['id', 'on_hand']).where('product_id', '=', productId).execute();
  if (items.length === 0) throw new Error(`no stock item for ${productId}`);
  const sum = await db
    .selectFrom('stock_movements')
    .select(sql<number | string>`coalesce(sum(quantity), 0)`.as('q'))
    .where(
      'stock_item_id',
      'in',
      items.map((i) => i.id),
    )
    .executeTakeFirstOrThrow();
  const copy = await db.selectFrom('products').select('inventory').where('id', '=', productId).executeTakeFirstOrThrow();
  return { level: items.reduce((n, i) => n + Number(i.on_hand), 0), copy: Number(copy.inventory), ledger: Number(sum.q) };
}

/** One variant's level and the sum of its own ledger. */
export async function variantLedgerAndLevel(db: Kysely<Database>, variantId: string): Promise<{ level: number; ledger: number }> {
  const item = await db.selectFrom('stock_items').select(['id', 'on_hand']).where('variant_id', '=', variantId).executeTakeFirstOrThrow();
  const sum = await db
    .selectFrom('stock_movements')
    .select(sql<number | string>`coalesce(sum(quantity), 0)`.as('q'))
    .where('stock_item_id', '=', item.id)
    .executeTakeFirstOrThrow();
  return { level: Number(item.on_hand), ledger: Number(sum.q) };
}

/**
 * Stock items' `reserved` units beside the sum of their counted reservations (decision 0023), for
 * a product (all its variants) or, with `variantId`, one variant: the two are one figure whenever
 * no checkout is half done.
 */
export async function reservedAndCounted(
  db: Kysely<Database>,
  productId: string,
  variantId?: string,
): Promise<{ reserved: number; counted: number }> {
  let items = db.selectFrom('stock_items').select(['id', 'reserved']).where('product_id', '=', productId);
  if (variantId) items = items.where('variant_id', '=', variantId);
  const rows = await items.execute();
  if (rows.length === 0) throw new Error(`no stock item for ${productId}`);
  const sum = await db
    .selectFrom('stock_reservations')
    .select(sql<number | string>`coalesce(sum(quantity), 0)`.as('q'))
    .where(
      'stock_item_id',
      'in',
      rows.map((i) => i.id),
    )
    .where('counted', '=', 1)
    .executeTakeFirstOrThrow();
  return { reserved: rows.reduce((n, i) => n + Number(i.reserved), 0), counted: Number(sum.q) };
}
