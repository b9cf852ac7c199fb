import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate } from '../db/locks.js';
import { averageOf, type RatingSummary } from '../../shared/reviews.js';

/**
 * Each product's published reviews summed (`product_ratings`, migration 0048). Every write that
 * changes what is published (a new review, an edit, approval, hiding, showing again) calls
 * `refreshProductRating` in its own transaction, after locking the product's ratings row first
 * (`lockProductRating`): two reviews of one product at once are counted one after the other, never
 * from two snapshots that each miss the other. The lock order is: the product's ratings row, then
 * the review row(s).
 *
 * `updated_at` is stamped on every refresh: the shop-change watcher (http/shop-changes.ts) reads the
 * rows stamped in the last moments and drops only that product's pages and lists.
 */
export async function lockProductRating(trx: Transaction<Database>, dialect: Dialect, productId: string, now: string): Promise<void> {
  await trx
    .insertInto('product_ratings')
    .values({ product_id: productId, updated_at: now })
    .onConflict((oc) => oc.column('product_id').doNothing())
    .execute();
  await forUpdate(trx.selectFrom('product_ratings').select('product_id').where('product_id', '=', productId), dialect).execute();
}

/** Counts the product's published reviews again (one grouped read on its index) and stores the sums. */
export async function refreshProductRating(trx: Transaction<Database>, productId: string, now: string): Promise<RatingSummary> {
  const rows = await trx
    .selectFrom('reviews')
    .select(['rating', sql<number>`count(*)`.as('n')])
    .where('product_id', '=', productId)
    .where('status', '=', 'published')
    .groupBy('rating')
    .execute();
  const stars: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  for (const r of rows) if (r.rating >= 1 && r.rating <= 5) stars[r.rating - 1] = Number(r.n);
  const count = stars.reduce((a, b) => a + b, 0);
  const sum = stars.reduce((a, n, i) => a + n * (i + 1), 0);
  await trx
    .updateTable('product_ratings')
    .set({
      review_count: count,
      rating_sum: sum,
      stars_1: stars[0],
      stars_2: stars[1],
      stars_3: stars[2],
      stars_4: stars[3],
      stars_5: stars[4],
      updated_at: now,
    })
    .where('product_id', '=', productId)
    .execute();
  return { count, average: averageOf(sum, count), stars };
}

const EMPTY: RatingSummary = { count: 0, average: 0, stars: [0, 0, 0, 0, 0] };

/** One product's summary (no row yet: no reviews). */
export async function readRatingSummary(db: Kysely<Database>, productId: string): Promise<RatingSummary> {
  const row = await db.selectFrom('product_ratings').selectAll().where('product_id', '=', productId).executeTakeFirst();
  if (!row) return EMPTY;
  return {
    count: row.review_count,
    average: averageOf(row.rating_sum, row.review_count),
    stars: [row.stars_1, row.stars_2, row.stars_3, row.stars_4, row.stars_5],
  };
}

/** The stars a card shows, for these products (absent: no published review). */
export async function readRatings(
  db: Kysely<Database>,
  productIds: readonly string[],
): Promise<Map<string, { count: number; average: number }>> {
  const out = new Map<string, { count: number; average: number }>();
  if (productIds.length === 0) return out;
  const rows = await db
    .selectFrom('product_ratings')
    .select(['product_id', 'review_count', 'rating_sum'])
    .where('product_id', 'in', [...productIds])
    .where('review_count', '>', 0)
    .execute();
  for (const r of rows) out.set(r.product_id, { count: r.review_count, average: averageOf(r.rating_sum, r.review_count) });
  return out;
}
