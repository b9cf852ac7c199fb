import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { hitRateLimitWindow, secondsUntilWindowEnds } from '../http/rate-limit.js';
import type { StockNotice } from '../../shared/schemas/inventory.js';
import { BACK_IN_STOCK_MESSAGES, requestBackInStock } from './back-in-stock.js';
import { reservationSummaryByVariant } from './reservations.js';
import { readStock } from './stock.js';
import { DEFAULT_LOW_STOCK_THRESHOLD } from './low-stock.js';
import { defaultVariantIdOf } from '../../shared/variants.js';

/*
 * What the shop shows of stock (decision 0022): what can be bought is the level less what other
 * shoppers' checkouts keep now; a product whose every unit is kept says so, with when the first may
 * come back, instead of "Out of stock". Since variants (decision 0036) that is counted per variant,
 * and a product shows the sum over its enabled variants: a switched-off variant's units stay on the
 * shelf (`products.inventory`, the back office's figure) but are never shown as buyable.
 */

/** A product's stock as shoppers see it, in two parts: buyable = `onHand` − `held`. */
export type BuyableParts = {
  /** Units on hand of its enabled variants (a switched-off variant's units are never on sale). */
  onHand: number;
  /** Of those, the units other shoppers' firm reservations keep now: each enabled variant's, up to its level. */
  held: number;
};

/** The firm reservations of these products, summed by variant (a subquery: one index range per product). */
function firmHeldByVariant(db: Kysely<Database>, productIds: readonly string[], now: Date) {
  return db
    .selectFrom('stock_reservations')
    .select(['variant_id', sql<number>`sum(quantity)`.as('held')])
    .where('product_id', 'in', [...productIds])
    .where('released_at', 'is', null)
    .where('firm_until', '>', now.toISOString())
    .groupBy('variant_id');
}

/**
 * What shoppers can buy of each product (decision 0036), in one grouped read of the products' stock
 * items with their variants and their firm reservations: Σ over enabled variants of
 * max(0, on hand − held). For a product with one variant that is max(0, level − held), as before
 * variants. Products without stock items are absent.
 */
export async function buyableParts(
  db: Kysely<Database>,
  productIds: readonly string[],
  now = new Date(),
): Promise<Map<string, BuyableParts>> {
  if (productIds.length === 0) return new Map();
  const ids = [...new Set(productIds)];
  const held = sql<number>`coalesce(h.held, 0)`;
  const rows = await db
    .selectFrom('stock_items as si')
    .innerJoin('product_variants as v', 'v.id', 'si.variant_id')
    .leftJoin(firmHeldByVariant(db, ids, now).as('h'), 'h.variant_id', 'si.variant_id')
    .select([
      'si.product_id',
      sql<number | string>`sum(case when v.enabled = 1 then si.on_hand else 0 end)`.as('on_hand'),
      sql<number | string>`sum(case when v.enabled <> 1 then 0 when ${held} < si.on_hand then ${held} else si.on_hand end)`.as('held'),
    ])
    .where('si.product_id', 'in', ids)
    .groupBy('si.product_id')
    .execute();
  return new Map(rows.map((r) => [r.product_id, { onHand: Number(r.on_hand), held: Number(r.held) }]));
}

/** What shoppers can buy of each product now (buyableParts): absent for a product without stock items. */
export async function buyableByProduct(
  db: Kysely<Database>,
  productIds: readonly string[],
  now = new Date(),
): Promise<Map<string, number>> {
  const parts = await buyableParts(db, productIds, now);
  return new Map([...parts].map(([id, p]) => [id, Math.max(0, p.onHand - p.held)]));
}

/**
 * The products with what can be bought: `inventory` becomes buyableByProduct's figure (one grouped
 * read), and `held` the units other checkouts keep, when some are (a card says so, not "Out of stock").
 */
export async function withBuyableStock<P extends { id: string; inventory: number }>(
  db: Kysely<Database>,
  products: P[],
  now = new Date(),
): Promise<(P & { held?: number })[]> {
  if (products.length === 0) return products;
  const parts = await buyableParts(
    db,
    products.map((p) => p.id),
    now,
  );
  return products.map((p) => {
    const part = parts.get(p.id);
    const inventory = part ? Math.max(0, part.onHand - part.held) : 0;
    return part && part.held > 0 ? { ...p, inventory, held: part.held } : { ...p, inventory };
  });
}

/**
 * The units firm reservations keep now of every product in open checkouts, as buyableParts counts
 * them (each enabled variant's, up to its level): as many rows as variants in open checkouts (the
 * catalogue index, beside the products' `inventory` less disabledLevels).
 */
export async function heldInShop(db: Kysely<Database>, now = new Date()): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('stock_reservations as r')
    .innerJoin('stock_items as si', 'si.variant_id', 'r.variant_id')
    .innerJoin('product_variants as v', 'v.id', 'r.variant_id')
    .select(['r.product_id', 'si.on_hand', 'v.enabled', sql<number | string>`sum(r.quantity)`.as('held')])
    .where('r.released_at', 'is', null)
    .where('r.firm_until', '>', now.toISOString())
    .groupBy(['r.product_id', 'r.variant_id', 'si.on_hand', 'v.enabled'])
    .execute();
  const held = new Map<string, number>();
  for (const r of rows) {
    if (Number(r.enabled) !== 1) continue;
    held.set(r.product_id, (held.get(r.product_id) ?? 0) + Math.min(Number(r.held), Number(r.on_hand)));
  }
  return held;
}

/**
 * Units on hand of switched-off variants, by product (all products, or these): what the product's
 * `inventory` (every item's units, the back office's figure) holds that shoppers cannot buy. Most
 * shops have none: the read finds nothing.
 */
export async function disabledLevels(db: Kysely<Database>, productIds?: readonly string[]): Promise<Map<string, number>> {
  if (productIds && productIds.length === 0) return new Map();
  let query = db
    .selectFrom('product_variants as v')
    .innerJoin('stock_items as si', 'si.variant_id', 'v.id')
    .select(['si.product_id', sql<number | string>`sum(si.on_hand)`.as('units')])
    .where('v.enabled', '<>', 1)
    .groupBy('si.product_id');
  if (productIds) query = query.where('v.product_id', 'in', [...productIds]);
  const rows = await query.execute();
  return new Map(rows.filter((r) => Number(r.units) > 0).map((r) => [r.product_id, Number(r.units)]));
}

/** A variant's stock as the product page shows it. */
export type VariantStock = {
  onHand: number;
  /** Units other shoppers' firm reservations keep now (may exceed `onHand` after a level fell: buyable is never below 0). */
  reserved: number;
  /** When the first of them may be on sale again (ISO), or null. */
  reservedUntil: string | null;
  lowStockThreshold: number;
};

/**
 * Each variant's stock of a product (by variant id), every variant's, switched off or not: one read
 * of the product's stock items and one of its firm reservations, grouped by variant.
 */
export async function variantStock(db: Kysely<Database>, productId: string, now = new Date()): Promise<Map<string, VariantStock>> {
  const [holds, items] = await Promise.all([reservationSummaryByVariant(db, [productId], now), readStock(db, [productId])]);
  const stocks = new Map<string, VariantStock>();
  for (const [variantId, item] of items) {
    const hold = holds.get(variantId);
    stocks.set(variantId, {
      onHand: item.onHand,
      reserved: hold?.units ?? 0,
      reservedUntil: hold?.until ?? null,
      lowStockThreshold: item.threshold,
    });
  }
  // Units kept of a variant without an item still count in the product's notice, as before variants.
  for (const [variantId, hold] of holds) {
    if (!stocks.has(variantId))
      stocks.set(variantId, { onHand: 0, reserved: hold.units, reservedUntil: hold.until, lowStockThreshold: DEFAULT_LOW_STOCK_THRESHOLD });
  }
  return stocks;
}

/** A variant as the product page's pickers read its stock: what can be bought, and what else to say. */
export function variantStockView(stock: VariantStock | undefined): { available: number; stock: StockNotice } {
  if (!stock) return { available: 0, stock: { reserved: 0, reservedUntil: null, lowStockThreshold: DEFAULT_LOW_STOCK_THRESHOLD } };
  const reserved = Math.min(stock.reserved, stock.onHand);
  return {
    available: stock.onHand - reserved,
    stock: { reserved, reservedUntil: stock.reservedUntil, lowStockThreshold: stock.lowStockThreshold },
  };
}

/** The product's notice from its variants' stock: every variant's units kept, and the first variant's low-stock line. */
export function stockNoticeOf(productId: string, stocks: Map<string, VariantStock>): StockNotice {
  let onHand = 0;
  let units = 0;
  let until: string | null = null;
  for (const s of stocks.values()) {
    onHand += s.onHand;
    units += s.reserved;
    if (s.reservedUntil !== null && (until === null || s.reservedUntil < until)) until = s.reservedUntil;
  }
  const first = stocks.get(defaultVariantIdOf(productId)) ?? stocks.values().next().value;
  return {
    reserved: Math.min(units, onHand),
    reservedUntil: until,
    lowStockThreshold: first?.lowStockThreshold ?? DEFAULT_LOW_STOCK_THRESHOLD,
  };
}

/** A product's units kept in other checkouts, and when the first may come back (the product page). */
export async function stockNotice(db: Kysely<Database>, product: { id: string }, now = new Date()): Promise<StockNotice> {
  return stockNoticeOf(product.id, await variantStock(db, product.id, now));
}

const NOTIFY_WINDOW_MS = 10 * 60_000;
const NOTIFY_LIMIT_PER_IP = 10;

type NotifyAnswer = { limited: false; message: string } | { limited: true; message: string; retryAfter: number };

/** "Notify me": counted per network address before anything is stored (10 per 10 minutes), then per e-mail address and recorded once (back-in-stock.ts). */
export async function requestBackInStockLimited(
  db: Kysely<Database>,
  productId: string,
  email: string,
  ip: string,
  variantId?: string,
): Promise<NotifyAnswer> {
  const now = new Date();
  const { hits, windowStartedAt } = await hitRateLimitWindow(db, `notify:ip:${ip}`, NOTIFY_WINDOW_MS, now);
  if (hits > NOTIFY_LIMIT_PER_IP) {
    return {
      limited: true,
      message: 'Too many requests. Please wait a few minutes and try again.',
      retryAfter: secondsUntilWindowEnds(windowStartedAt, NOTIFY_WINDOW_MS, now),
    };
  }
  await requestBackInStock(db, productId, email, now, variantId);
  return { limited: false, message: BACK_IN_STOCK_MESSAGES.saved };
}
