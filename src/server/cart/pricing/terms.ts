import type { Kysely, Selectable } from 'kysely';
import type { CouponsTable, Database, ShippingOptionsTable } from '../../db/schema.js';
import type { Dialect } from '../../db/database.js';
import { MicroCache } from '../../http/micro-cache.js';
import type { VariantForPricing } from '../../lib/variant-pricing.js';
import { findCoupon, lockCoupon } from '../../coupons/service.js';
import { readShippingOptionRows } from '../../shipping/service.js';

/** A quote may use terms a second old, like the catalogue; checkout (lock) always reads the rows themselves. */
const QUOTE_TERMS_MS = 1000;
const couponTerms = new MicroCache<Selectable<CouponsTable> | undefined>(QUOTE_TERMS_MS);
const shippingTerms = new MicroCache<Selectable<ShippingOptionsTable>[]>(QUOTE_TERMS_MS);
export const variantTerms = new MicroCache<VariantForPricing[]>(QUOTE_TERMS_MS);
export const stockTerms = new MicroCache<[Map<string, number>, Map<string, number>]>(QUOTE_TERMS_MS, 1000, 0, true);
export const ownStock = new MicroCache<Map<string, number>>(QUOTE_TERMS_MS, 1000, 0, true);

/**
 * The coupon (locked at checkout: its limits are counted under the lock) and the shipping options.
 * Independent reads go out together (on PostgreSQL they overlap; SQLite runs them in turn).
 */
export async function readTerms(
  db: Kysely<Database>,
  dialect: Dialect,
  couponCode: string | null,
  lock: boolean,
): Promise<{ coupon: Selectable<CouponsTable> | undefined; options: Selectable<ShippingOptionsTable>[] }> {
  const [coupon, options] = await Promise.all([
    !couponCode ? undefined : lock ? lockCoupon(db, dialect, couponCode) : couponTerms.get(couponCode, () => findCoupon(db, couponCode)),
    lock ? readShippingOptionRows(db) : shippingTerms.get('all', () => readShippingOptionRows(db)),
  ]);
  return { coupon, options };
}
