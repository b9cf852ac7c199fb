import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { variantsForCheckout } from '../../inventory/stock.js';
import { reservedByVariant } from '../../inventory/reservations.js';
import { giftCandidates, type MergedLine, type StockView } from './lines.js';

/**
 * Checkout's read: one read of the variants with their products and their stock items' level and
 * units kept for checkouts (the counter every reservation moves). The counter may still count a
 * reservation that lapsed in the last poll, never fewer than are kept, so it can only make stock
 * look short: then, and only then, the reservations themselves are summed.
 */
export async function readCheckoutStock(
  db: Kysely<Database>,
  o: { ids: string[]; lines: MergedLine[]; giftProductId: string | null; giftVariantId: string | null | undefined; now: Date },
): Promise<StockView> {
  const rows = await variantsForCheckout(db, o.ids, o.giftProductId);
  const levels = new Map(rows.map((r) => [r.variantId, r.onHand]));
  let held = new Map(rows.map((r) => [r.variantId, r.reserved]));
  const want = new Map<string, number>();
  for (const l of o.lines) want.set(l.variantId, (want.get(l.variantId) ?? 0) + l.quantity);
  const free = (id: string) => (levels.get(id) ?? 0) - (held.get(id) ?? 0) - (want.get(id) ?? 0);
  const giftLooksShort =
    o.giftProductId !== null && !giftCandidates(rows, o.giftProductId, o.giftVariantId).some((v) => free(v.variantId) >= 1);
  if (giftLooksShort || [...want].some(([id]) => free(id) < 0)) held = await reservedByVariant(db, rows, o.now);
  return { variants: rows, levels, held, checkoutVariants: new Map(rows.map((r) => [r.variantId, { itemId: r.itemId, sku: r.sku }])) };
}
