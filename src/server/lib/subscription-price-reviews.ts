import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { randomString } from './ids.js';

/*
 * Price changes told to subscribers (issue [5/8], decision 0058 "Price changes"): the owner's save
 * only marks the product, in its own transaction; the schedule's background pass
 * (subscriptions/price-notices.ts) tells its subscribers. A write beneath the modules, as
 * lib/subscription-plans.ts is a read: the catalogue, below subscriptions/, marks its products too.
 */

/**
 * Marks products whose price or plan changed for review, in the caller's transaction: one row per
 * product whatever its number of subscribers. A product marked again while a pass is at work
 * starts over from its first subscriber (the pass compares each with what it was told, so one
 * already told the new price is left alone).
 */
export async function markPricesForReview(trx: Kysely<Database>, productIds: readonly string[], at: string): Promise<void> {
  const ids = [...new Set(productIds)].sort();
  if (ids.length === 0) return;
  // Unique per mark, so a pass that read an older mark never deletes this one.
  const mark = `${at} ${randomString(8)}`;
  await trx
    .insertInto('subscription_price_reviews')
    .values(ids.map((product_id) => ({ product_id, marked_at: mark, cursor: '', lease_until: null })))
    .onConflict((oc) => oc.column('product_id').doUpdateSet({ marked_at: mark, cursor: '' }))
    .execute();
}
