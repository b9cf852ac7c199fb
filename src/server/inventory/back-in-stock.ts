import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { queueEmail } from '../email/outbox.js';
import { newId } from '../lib/ids.js';
import { transactionWithRetry } from '../db/locks.js';
import { HttpError } from '../http/errors.js';
import { hitRateLimitWindow, secondsUntilWindowEnds } from '../http/rate-limit.js';
import type { LockedStock } from './stock.js';
import { productUrl } from './shop-links.js';
import type { BackInStockWaitingList } from '../../shared/schemas/inventory.js';
import { defaultVariantIdOf, lineTitle, variantLabel, variantOfLine } from '../../shared/variants.js';

/*
 * "Notify me when it's back" (decisions 0022, 0041). A shopper leaves an e-mail on a sold-out
 * product or variant; one open request per e-mail and variant (a second submit is the same request,
 * answered the same: a unique index over the open ones), a few a day per address and a bounded
 * number waiting per address. When the product's level rises from zero, every open request gets one e-mail with a
 * link, queued in the transaction that moved the level, and is marked done. No account needed.
 */

/** Requests one address may have waiting at once, across products and variants. */
export const NOTIFY_MAX_WAITING_PER_ADDRESS = 20;
/** Requests one address may make in a day (the same request again counts too). */
export const NOTIFY_MAX_PER_ADDRESS_PER_DAY = 10;
const DAY_MS = 24 * 60 * 60_000;

export const BACK_IN_STOCK_MESSAGES = {
  productNotFound: 'Product not found',
  inStock: 'This product is in stock: you can order it now.',
  saved: "We'll e-mail you when it's back in stock.",
  tooManyToday: `This e-mail address has asked to be notified ${NOTIFY_MAX_PER_ADDRESS_PER_DAY} times today. Please try again tomorrow.`,
  tooManyWaiting: `This e-mail address is already waiting for ${NOTIFY_MAX_WAITING_PER_ADDRESS} products. We'll write as they come back; you can ask for more then.`,
} as const;

/** The link in the e-mail: the product page, with the variant chosen when it is not the product's first. */
function variantUrl(db: Kysely<Database>, stock: Pick<LockedStock, 'productId' | 'variantId'>): string {
  const url = productUrl(db, stock.productId);
  return stock.variantId === defaultVariantIdOf(stock.productId) ? url : `${url}?variant=${encodeURIComponent(stock.variantId)}`;
}

/**
 * Records the request (once per e-mail and variant while it is open). The answer is the same
 * whether the address was already waiting or not, so nobody learns who asked for what. The
 * address's daily count is taken first (insert-or-increment returning the count); then the
 * variant must be the product's and on sale (404 otherwise; absent, it is the product's first);
 * an address with too many requests waiting may only repeat one of them (counted under the
 * address's lock, so requests at the same moment cannot pass the cap together).
 */
export async function requestBackInStock(
  db: Kysely<Database>,
  productId: string,
  email: string,
  now = new Date(),
  variantId?: string,
): Promise<void> {
  const normalized = email.trim().toLowerCase();
  const dailyKey = `notify:email:${normalized}`;
  const today = await hitRateLimitWindow(db, dailyKey, DAY_MS, now);
  if (today.hits > NOTIFY_MAX_PER_ADDRESS_PER_DAY) {
    throw new HttpError(429, BACK_IN_STOCK_MESSAGES.tooManyToday, {
      'Retry-After': String(secondsUntilWindowEnds(today.windowStartedAt, DAY_MS, now)),
    });
  }
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
  // Counted and stored under the address's lock (its daily counter's row, written just above): two
  // requests at the same moment cannot both pass a count read before either was written.
  await transactionWithRetry(db, async (trx) => {
    await trx
      .updateTable('rate_limits')
      .set((eb) => ({ hits: eb.ref('hits') }))
      .where('key', '=', dailyKey)
      .execute();
    const open = await trx
      .selectFrom('back_in_stock_requests')
      .select([
        (eb) => eb.fn.countAll<number>().as('n'),
        (eb) => eb.fn.max(eb.case().when('stock_item_id', '=', item.id).then(1).else(0).end()).as('here'),
      ])
      .where('email', '=', normalized)
      .where('notified_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(open.here) === 1) return;
    if (Number(open.n) >= NOTIFY_MAX_WAITING_PER_ADDRESS) throw new HttpError(429, BACK_IN_STOCK_MESSAGES.tooManyWaiting);
    await trx
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
      .execute();
  });
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
      variables: { productName: name, productUrl: variantUrl(trx, stock) },
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

/**
 * What shoppers wait for, for the back office: one row per variant with open requests (how many,
 * since when, and its stock now), most awaited first, then longest waiting. No addresses: the owner
 * needs to know what to restock, not who asked.
 */
export async function listWaitingRequests(
  db: Kysely<Database>,
  { page, pageSize }: { page: number; pageSize: number },
): Promise<BackInStockWaitingList> {
  const totals = await db
    .selectFrom('back_in_stock_requests')
    .select([(eb) => eb.fn.count<number>('stock_item_id').distinct().as('variants'), (eb) => eb.fn.countAll<number>().as('waiting')])
    .where('notified_at', 'is', null)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('back_in_stock_requests as r')
    .innerJoin('stock_items as si', 'si.id', 'r.stock_item_id')
    .innerJoin('products as p', 'p.id', 'si.product_id')
    .leftJoin('product_variants as v', 'v.id', 'si.variant_id')
    .select((eb) => [
      'si.product_id',
      'p.name',
      'si.variant_id',
      'si.on_hand',
      'v.option1',
      'v.option2',
      'v.option3',
      eb.fn.countAll<number>().as('waiting'),
      eb.fn.min('r.created_at').as('oldest'),
    ])
    .where('r.notified_at', 'is', null)
    .groupBy(['si.id', 'si.product_id', 'p.name', 'si.variant_id', 'si.on_hand', 'v.option1', 'v.option2', 'v.option3'])
    .orderBy('waiting', 'desc')
    .orderBy('oldest', 'asc')
    .orderBy('si.variant_id')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  const total = Number(totals.variants);
  return {
    items: rows.map((r) => {
      const label = variantLabel([r.option1 ?? '', r.option2 ?? '', r.option3 ?? '']);
      return {
        productId: r.product_id,
        productName: r.name,
        variantId: r.variant_id,
        variantLabel: label || null,
        waiting: Number(r.waiting),
        oldestRequestAt: String(r.oldest),
        onHand: Number(r.on_hand),
      };
    }),
    page,
    pageSize,
    total,
    totalPages: Math.max(1, Math.ceil(total / pageSize)),
    totalWaiting: Number(totals.waiting),
  };
}
