import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ProductListQuery } from '../../shared/schemas/catalog.js';
import { toProductCard, type ProductCardItem } from '../../shared/product-card.js';
import { listProducts } from './service.js';

/** "You may also like": at most this many products. */
const RELATED_LIMIT = 4;
/** The first products of the category (in shop order) looked at: enough for four in stock in any real category. */
const CANDIDATES = 24;

/**
 * Up to four other products of the product's category, those that can be bought first, each
 * group in shop order; with the stock the shop shows (recorded stock less open holds), from the
 * catalogue index (search-index.ts). Cards only: what the section shows. null: no such product;
 * [] when it has no category or is alone in it.
 */
export async function listRelatedProducts(db: Kysely<Database>, id: string): Promise<ProductCardItem[] | null> {
  const row = await db.selectFrom('products').select('category_id').where('id', '=', id).where('status', '=', 'active').executeTakeFirst();
  if (!row) return null;
  if (!row.category_id) return [];
  const filter = ProductListQuery.safeParse({ category: row.category_id, pageSize: CANDIDATES + 1 });
  if (!filter.success) return [];
  const others = (await listProducts(db, filter.data)).items.filter((p) => p.id !== id);
  const inStock = others.filter((p) => p.inventory > 0);
  const soldOut = others.filter((p) => p.inventory <= 0);
  return [...inStock, ...soldOut].slice(0, RELATED_LIMIT).map(toProductCard);
}
