import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { hitRateLimitWindow, secondsUntilWindowEnds } from '../http/rate-limit.js';
import type { StockNotice } from '../../shared/schemas/inventory.js';
import { BACK_IN_STOCK_MESSAGES, requestBackInStock } from './back-in-stock.js';
import { reservationSummary, reservedUnits } from './reservations.js';
import { DEFAULT_LOW_STOCK_THRESHOLD, readStock } from './stock.js';
import { defaultVariantIdOf } from '../../shared/variants.js';

/*
 * What the shop shows of stock (decision 0022): what can be bought is the level less what other
 * shoppers' checkouts keep now; a product whose every unit is kept says so, with when the first may
 * come back, instead of "Out of stock".
 */

/** The products with what can be bought: `inventory` becomes max(0, level − kept by checkouts). */
export async function withBuyableStock<P extends { id: string; inventory: number }>(
  db: Kysely<Database>,
  products: P[],
  now = new Date(),
): Promise<P[]> {
  if (products.length === 0) return products;
  const held = await reservedUnits(
    db,
    products.map((p) => p.id),
    now,
  );
  if (held.size === 0) return products;
  return products.map((p) => ({ ...p, inventory: Math.max(0, p.inventory - (held.get(p.id) ?? 0)) }));
}

/** A product's units kept in other checkouts, and when the first may come back (the product page). */
export async function stockNotice(db: Kysely<Database>, product: { id: string }, now = new Date()): Promise<StockNotice> {
  const [summaries, stock] = await Promise.all([reservationSummary(db, [product.id], now), readStock(db, [product.id])]);
  const summary = summaries.get(product.id);
  const items = [...stock.values()];
  const onHand = items.reduce((n, s) => n + s.onHand, 0);
  const item = stock.get(defaultVariantIdOf(product.id)) ?? items[0];
  return {
    reserved: summary ? Math.min(summary.units, onHand) : 0,
    reservedUntil: summary?.until ?? null,
    lowStockThreshold: item?.threshold ?? DEFAULT_LOW_STOCK_THRESHOLD,
  };
}

const NOTIFY_WINDOW_MS = 10 * 60_000;
const NOTIFY_LIMIT_PER_IP = 10;

type NotifyAnswer = { limited: false; created: boolean; message: string } | { limited: true; message: string; retryAfter: number };

/** "Notify me": counted per address before anything is stored (10 per 10 minutes), then recorded once. */
export async function requestBackInStockLimited(db: Kysely<Database>, productId: string, email: string, ip: string): Promise<NotifyAnswer> {
  const now = new Date();
  const { hits, windowStartedAt } = await hitRateLimitWindow(db, `notify:ip:${ip}`, NOTIFY_WINDOW_MS, now);
  if (hits > NOTIFY_LIMIT_PER_IP) {
    return {
      limited: true,
      message: 'Too many requests. Please wait a few minutes and try again.',
      retryAfter: secondsUntilWindowEnds(windowStartedAt, NOTIFY_WINDOW_MS, now),
    };
  }
  const { created } = await requestBackInStock(db, productId, email, now);
  return { limited: false, created, message: BACK_IN_STOCK_MESSAGES.saved };
}
