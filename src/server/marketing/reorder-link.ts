import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ReorderPreview } from '../../shared/schemas/reorder-reminders.js';
import { reorderLines } from './reorder-reminders.js';
import { batchIdOfToken } from './reorder-token.js';

/**
 * The reorder reminder's link (issue [7/8] item 4): `/reorder?token=<batch id>.<mac>` names one
 * e-mail's products. It signs nobody in and reading it changes nothing: the page shows the lines it
 * would put in the cart, priced now. Unlike the checkout recovery's link it may be used again while
 * it works (REORDER_LIMITS.linkDays after its e-mail): it only fills a cart, gives no coupon, and a
 * customer may well reorder from a second device; its first use is kept for the owner's figures.
 */
export type ReorderBatch = { id: string; orderId: string; orderNumber: string; productIds: string[]; expiresAt: string };

/** The e-mail a genuine token names, with its products e-mailed, or null. */
export async function reorderBatchOfToken(db: Kysely<Database>, token: string): Promise<ReorderBatch | null> {
  const id = await batchIdOfToken(db, token);
  if (!id) return null;
  const rows = await db
    .selectFrom('reorder_reminders as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select(['r.order_id', 'r.product_id', 'r.follow_until', 'o.order_number'])
    .where('r.batch_id', '=', id)
    .where('r.state', '=', 'sent')
    .orderBy('r.product_id')
    .execute();
  const first = rows[0];
  if (!first) return null;
  return {
    id,
    orderId: first.order_id,
    orderNumber: first.order_number,
    productIds: rows.map((r) => r.product_id),
    expiresAt: first.follow_until,
  };
}

/** What the link puts in the cart: the e-mail's lines as bought, priced now, with what can be bought now. */
export async function reorderPreview(db: Kysely<Database>, batch: ReorderBatch, now: Date): Promise<ReorderPreview> {
  return { orderNumber: batch.orderNumber, lines: await reorderLines(db, batch.orderId, batch.productIds, now) };
}

/** The link's first use, for the owner's figures (later uses change nothing). */
export async function noteReorderClick(db: Kysely<Database>, batchId: string, now: Date): Promise<void> {
  await db
    .updateTable('reorder_reminders')
    .set({ clicked_at: now.toISOString() })
    .where('batch_id', '=', batchId)
    .where('clicked_at', 'is', null)
    .execute();
}
