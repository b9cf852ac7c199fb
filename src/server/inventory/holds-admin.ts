import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { pageOf } from '../db/query-helpers.js';
import { lineTitle, variantOfLine } from '../../shared/variants.js';
import type { HoldsPage, HoldsQuery } from '../../shared/schemas/holds.js';

/*
 * The owner's side of stock holds (issue [2/8], decision 0042): what unpaid checkouts hold now, per
 * product and variant, and the units one checkout holds. Ending a hold ends its checkout, which is
 * checkout's (checkout/end-hold.ts, by the shop's one path endOpenSession).
 */

/** The reservations of unpaid checkouts that still hold units (not ended, not run out). */
function liveHoldRows(db: Kysely<Database>, now: Date) {
  return db
    .selectFrom('stock_reservations as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .where('r.released_at', 'is', null)
    .where('r.expires_at', '>', now.toISOString())
    .where('o.payment_status', '=', 'unpaid');
}

/** A page of the holds, by product and variant, oldest first within each, each with its checkout and the shopper's e-mail. */
export async function listHolds(db: Kysely<Database>, query: Pick<HoldsQuery, 'page' | 'pageSize'>, now = new Date()): Promise<HoldsPage> {
  const { page, pageSize } = query;
  const rows = await liveHoldRows(db, now)
    .select([
      'r.order_id',
      'o.order_number',
      'o.email',
      'r.product_id',
      'r.variant_id',
      'r.quantity',
      'r.created_at',
      'r.firm_until',
      'r.expires_at',
    ])
    .orderBy('r.product_id')
    .orderBy('r.variant_id')
    .orderBy('r.created_at')
    .orderBy('r.order_id')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  // Each hold named as its checkout's line names it (the catalogue may have changed since).
  const orderIds = [...new Set(rows.map((r) => r.order_id))];
  const lines = orderIds.length
    ? await db
        .selectFrom('order_items')
        .select(['order_id', 'product_id', 'variant_id', 'product_name', 'variant_label'])
        .where('order_id', 'in', orderIds)
        .execute()
    : [];
  const titles = new Map(
    lines.map((l) => [`${l.order_id}|${variantOfLine(l.product_id, l.variant_id)}`, lineTitle(l.product_name, l.variant_label ?? '')]),
  );
  const count = liveHoldRows(db, now)
    .select(sql<number | string>`count(*)`.as('n'))
    .executeTakeFirst();
  return pageOf(Promise.resolve(rows), count, { page, pageSize }, (r) => ({
    orderId: r.order_id,
    orderNumber: r.order_number,
    productId: r.product_id,
    variantId: r.variant_id,
    title: titles.get(`${r.order_id}|${r.variant_id}`) ?? r.product_id,
    units: Number(r.quantity),
    since: r.created_at,
    firmUntil: r.firm_until,
    expiresAt: r.expires_at,
    email: r.email || null,
  }));
}

/** The units an unpaid checkout holds now (0 when paid, ended or run out), in the caller's transaction. */
export async function unitsHeldBy(trx: Kysely<Database>, orderId: string, now: Date): Promise<number> {
  const held = await liveHoldRows(trx, now)
    .select(sql<number | string>`coalesce(sum(r.quantity), 0)`.as('units'))
    .where('r.order_id', '=', orderId)
    .executeTakeFirst();
  return Number(held?.units ?? 0);
}
