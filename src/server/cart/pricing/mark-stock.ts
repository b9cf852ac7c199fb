import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { isOwnHold, liveHolds } from '../../inventory/reservations.js';
import type { QuoteLine } from '../../../shared/schemas/checkout.js';
import { heldUntil } from '../held-lines.js';

/**
 * Marks each line short or not, and what other checkouts keep of it. A line short only for units
 * other shoppers' checkouts keep stays in the cart (a quote): it says when they come back (the
 * first holds to end that give back enough). Checkout decides on the rows.
 */
export async function markStock(
  db: Kysely<Database>,
  quoteLines: QuoteLine[],
  o: {
    wanted: Map<string, number>;
    levels: Map<string, number>;
    held: Map<string, number>;
    available: (variantId: string) => number;
    lock: boolean;
  },
  ctx: { deviceHash?: string | null; now: Date },
): Promise<void> {
  for (const l of quoteLines) {
    if (l.missing) continue;
    l.insufficientStock = (o.wanted.get(l.variantId) ?? 0) > o.available(l.variantId);
    l.held = Math.min(o.held.get(l.variantId) ?? 0, o.levels.get(l.variantId) ?? 0);
  }
  const shortForHolds = o.lock ? [] : quoteLines.filter((l) => l.insufficientStock && (l.held ?? 0) > 0);
  if (!shortForHolds.length) return;
  const holds = (await liveHolds(db, shortForHolds, ctx.now)).filter((h) => !isOwnHold(h, ctx.deviceHash ?? null, ctx.now));
  for (const l of shortForHolds) {
    const ofVariant = holds.filter((h) => h.variantId === l.variantId);
    l.heldUntil = heldUntil(o.levels.get(l.variantId) ?? 0, o.wanted.get(l.variantId) ?? 0, ofVariant);
  }
}
