import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { queueEmail } from '../email/outbox.js';
import { newId } from '../lib/ids.js';
import { HttpError } from '../http/errors.js';
import type { LockedStock } from './stock.js';
import { productUrl } from './alerts.js';
import { defaultVariantIdOf, lineTitle, variantLabel, variantOfLine } from '../../shared/variants.js';

/*
 * "Notify me when it's back" (decision 0022). A shopper leaves an e-mail on a sold-out product; one
 * open request per e-mail and product (a second submit is the same request: a unique index over the
 * open ones). When the product's level rises from zero, every open request gets one e-mail with a
 * link, queued in the transaction that moved the level, and is marked done. No account needed.
 */

export const BACK_IN_STOCK_MESSAGES = {
  productNotFound: 'Product not found',
  inStock: 'This product is in stock: you can order it now.',
  saved: "We'll e-mail you when it's back in stock.",
} as const;

/** The link in the e-mail: the product page, with the variant chosen when it is not the product's first. */
function variantUrl(stock: Pick<LockedStock, 'productId' | 'variantId'>): string {
  const url = productUrl(stock.productId);
  return stock.variantId === defaultVariantIdOf(stock.productId) ? url : `${url}?variant=${encodeURIComponent(stock.variantId)}`;
}

/**
 * Records the request (once per e-mail and variant while it is open); true when it is new. The
 * variant must be the product's and on sale (404 otherwise); absent, it is the product's first.
 */
export async function requestBackInStock(
  db: Kysely<Database>,
  productId: string,
  email: string,
  now = new Date(),
  variantId?: string,
): Promise<{ created: boolean }> {
  // The variant named (absent: the product's first), of this product and on sale: else not found.
  const item = await db
    .selectFrom('stock_items as si')
    .innerJoin('product_variants as v', 'v.id', 'si.variant_id')
    .select(['si.id', 'si.on_hand'])
    .where('si.variant_id', '=', variantOfLine(productId, variantId))
    .where('si.product_id', '=', productId)
    .where('v.enabled', '=', 1)
    .executeTakeFirst();
  if (!item) throw new HttpError(404, BACK_IN_STOCK_MESSAGES.productNotFound);
  if (Number(item.on_hand) > 0) throw new HttpError(409, BACK_IN_STOCK_MESSAGES.inStock);
  const normalized = email.trim().toLowerCase();
  const open = await db
    .selectFrom('back_in_stock_requests')
    .select('id')
    .where('stock_item_id', '=', item.id)
    .where('email', '=', normalized)
    .where('notified_at', 'is', null)
    .executeTakeFirst();
  if (open) return { created: false };
  const r = await db
    .insertInto('back_in_stock_requests')
    .values({
      id: newId('bis'),
      stock_item_id: item.id,
      product_id: productId,
      email: normalized,
      created_at: now.toISOString(),
      notified_at: null,
    })
    .onConflict((oc) => oc.columns(['stock_item_id', 'email']).where('notified_at', 'is', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  return { created: r !== undefined };
}

/** The level rose from zero: each open request gets its e-mail and is done (inside the movement's transaction). */
export async function notifyBackInStock(trx: Kysely<Database>, stock: LockedStock, at: Date): Promise<number> {
  const waiting = await trx
    .selectFrom('back_in_stock_requests')
    .select(['id', 'email'])
    .where('stock_item_id', '=', stock.itemId)
    .where('notified_at', 'is', null)
    .orderBy('created_at')
    .execute();
  if (waiting.length === 0) return 0;
  const product = await trx
    .selectFrom('products as p')
    .leftJoin('product_variants as v', (j) => j.onRef('v.product_id', '=', 'p.id').on('v.id', '=', stock.variantId))
    .select(['p.name', 'v.option1', 'v.option2', 'v.option3'])
    .where('p.id', '=', stock.productId)
    .executeTakeFirst();
  if (!product) return 0;
  // The version that is back, by its title ('Concentrated All-Purpose Cleaner — Lemon, 32 oz').
  const name = lineTitle(product.name, variantLabel([product.option1 ?? '', product.option2 ?? '', product.option3 ?? '']));
  for (const w of waiting) {
    await queueEmail(trx, {
      to: w.email,
      templateId: 'back-in-stock',
      variables: { productName: name, productUrl: variantUrl(stock) },
    });
  }
  await trx
    .updateTable('back_in_stock_requests')
    .set({ notified_at: at.toISOString() })
    .where(
      'id',
      'in',
      waiting.map((w) => w.id),
    )
    .execute();
  return waiting.length;
}
