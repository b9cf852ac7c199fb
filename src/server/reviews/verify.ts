import { sql, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Database, ReviewLinksTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate } from '../db/locks.js';
import { hashToken, TOKEN_PATTERN } from '../lib/tokens.js';

/**
 * "Verified buyer" (issue [6/8], decision 0059): a review is verified when the server finds the
 * paid order that makes it so, and only then; `reviews.order_id` is set from what this file
 * answers and from nothing else (no admin route, no field of the form).
 *
 * An order counts while it holds money for the product: paid (`paid_at` set), not cancelled and
 * not refunded in full. A refund in part leaves it a purchase; a cancelled order does not, even
 * when the shop kept part of the money.
 */

/** The order's money still stands: paid, not cancelled, not refunded in full. */
function orderStillPaid(alias: string) {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<SqlBool>`${col('paid_at')} is not null and ${col('status')} <> 'cancelled' and ${col('refunded_cents')} < ${col('total_cents')}`;
}

/** The order behind a verified review, and what the form shows from it. */
export type PurchaseOfProduct = {
  orderId: string;
  /** The line's variant ('Lavender, 32 oz'; '' without options). */
  variantLabel: string;
  userId: string | null;
  /** The order's address, lowercased (a guest's review is theirs by it). */
  email: string;
  /** The shipping address's name: a guest's default display name. */
  shippingName: string;
};

function shippingNameOf(shippingAddress: string | null): string {
  if (!shippingAddress) return '';
  try {
    const name = (JSON.parse(shippingAddress) as { name?: unknown }).name;
    return typeof name === 'string' ? name : '';
  } catch {
    return '';
  }
}

/**
 * The account's newest order that bought the product and still stands, or null. A write reads it
 * inside its transaction (`db` is then the transaction), so it answers what holds when the review
 * is written, not when the form was drawn.
 */
export async function accountPurchaseOf(db: Kysely<Database>, userId: string, productId: string): Promise<PurchaseOfProduct | null> {
  const row = await db
    .selectFrom('orders as o')
    .innerJoin('order_items as i', 'i.order_id', 'o.id')
    .select(['o.id', 'o.email', 'o.user_id', 'o.shipping_address', 'i.variant_label'])
    .where('o.user_id', '=', userId)
    .where('i.product_id', '=', productId)
    .where(orderStillPaid('o'))
    .orderBy('o.paid_at', 'desc')
    .orderBy('o.id', 'desc')
    .orderBy('i.id')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  return {
    orderId: row.id,
    variantLabel: row.variant_label ?? '',
    userId: row.user_id,
    email: (row.email ?? '').toLowerCase(),
    shippingName: shippingNameOf(row.shipping_address),
  };
}

export type ReviewLinkRow = Selectable<ReviewLinksTable>;

/** A request link's row by its token; null for a malformed or unknown token (a malformed one never reaches the database). */
export async function readReviewLink(db: Kysely<Database>, token: string, lock?: Dialect): Promise<ReviewLinkRow | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const q = db.selectFrom('review_links').selectAll().where('token_hash', '=', hashToken(token));
  return (await (lock ? forUpdate(q, lock) : q).executeTakeFirst()) ?? null;
}

/**
 * The purchase a request link stands for: its order, read again (inside the write's transaction)
 * so a link whose order was cancelled or refunded in full since the e-mail went writes nothing.
 */
export async function linkPurchase(db: Kysely<Database>, link: ReviewLinkRow): Promise<PurchaseOfProduct | null> {
  const order = await db
    .selectFrom('orders as o')
    .select(['o.id', 'o.email', 'o.user_id', 'o.shipping_address'])
    .where('o.id', '=', link.order_id)
    .where(orderStillPaid('o'))
    .executeTakeFirst();
  if (!order) return null;
  return {
    orderId: order.id,
    variantLabel: link.variant_label ?? '',
    userId: order.user_id,
    email: (order.email ?? link.email).toLowerCase(),
    shippingName: shippingNameOf(order.shipping_address),
  };
}

/** Who a review belongs to: one review per product and author (the unique `reviews_product_author_key`). */
export function authorKeyOf(author: { userId: string | null; email: string }): string {
  return author.userId ? `user:${author.userId}` : `email:${author.email.trim().toLowerCase()}`;
}
