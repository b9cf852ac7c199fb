import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { variantLevels } from '../../inventory/stock.js';
import { reservedByDevice, reservedByVariant, type VariantKey } from '../../inventory/reservations.js';
import { variantsForPricing } from '../../lib/variant-pricing.js';
import { giftCandidates, type MergedLine, type StockView } from './lines.js';
import { ownStock, stockTerms, variantTerms } from './terms.js';

/**
 * A quote's read: prices and stock at most a second old, like the catalogue. The shopper's own
 * unpaid checkout (back from the payment page) is not someone else's: its units count as theirs, as
 * checkout counts them (it ends that checkout first).
 */
export async function readQuoteStock(
  db: Kysely<Database>,
  o: { ids: string[]; lines: MergedLine[]; giftId: string | null; giftProductId: string | null; giftVariantId: string | null | undefined },
  ctx: { deviceHash?: string | null; now: Date },
): Promise<StockView> {
  const idsKey = o.ids.join('\n');
  // The lines name their products: the reads of reservations walk the product index at once.
  const keys: VariantKey[] = [
    ...o.lines.map((l) => ({ productId: l.productId, variantId: l.variantId })),
    ...(o.giftId && o.giftProductId ? [{ productId: o.giftProductId, variantId: o.giftId }] : []),
  ];
  const [found, [stockLevels, stockHeld], own] = await Promise.all([
    variantTerms.get(`${idsKey}\n${o.giftProductId ?? ''}`, () => variantsForPricing(db, o.ids, o.giftProductId)),
    stockTerms.get(idsKey, () => Promise.all([variantLevels(db, o.ids), reservedByVariant(db, keys, ctx.now)])),
    ctx.deviceHash
      ? ownStock.get(`${ctx.deviceHash}\n${idsKey}`, () => reservedByDevice(db, keys, ctx.deviceHash!, ctx.now))
      : new Map<string, number>(),
  ]);
  let levels = stockLevels;
  let held = stockHeld;
  // The gift product's other variants, when the coupon names none and the product has several.
  const more = o.giftProductId ? giftCandidates(found, o.giftProductId, o.giftVariantId).filter((v) => !o.ids.includes(v.variantId)) : [];
  if (more.length) {
    const moreIds = more.map((v) => v.variantId);
    const [moreLevels, moreHeld] = await Promise.all([variantLevels(db, moreIds), reservedByVariant(db, more, ctx.now)]);
    levels = new Map([...levels, ...moreLevels]);
    held = new Map([...held, ...moreHeld]);
  }
  if (own.size) held = new Map([...held].map(([id, n]) => [id, Math.max(0, n - (own.get(id) ?? 0))]));
  return { variants: found, levels, held };
}
