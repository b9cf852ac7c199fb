import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { PendingWrite } from '../../db/query-helpers.js';
import type { PricedCart } from '../../cart/service.js';
import { reserveForCheckout, type GiveBack, type ReserveUnits } from '../../inventory/reservations.js';
import { HOLD_TTL_MS } from '../hold-times.js';
import { shortOfStock } from './short-of-stock.js';
import type { Holder } from './types.js';

/**
 * The checkout reserves its units (kept from other shoppers for the holder's 10 minutes, theirs
 * while their payment page is open; inventory/reservations.ts) in the holder's name, with the
 * writes still in `writes` (one round trip on PostgreSQL) and the units of the browser's ended
 * checkouts given back. Last, so the items' rows are locked only until the commit right after
 * (decision 0023). 409 when a product is short (the transaction rolls back).
 */
export async function reserveStock(
  trx: Kysely<Database>,
  o: {
    orderId: string;
    priced: PricedCart;
    who: Holder;
    now: Date;
    expiresAt: Date;
    giveBack: GiveBack;
    /** PostgreSQL: the stock is reserved with the COMMIT, guarded (db/pg-commit-tail.ts). */
    atCommit: boolean;
    /** The holder's first reservation of each product in the window (holderReservations). */
    firstByProduct?: Map<string, string>;
  },
  writes: PendingWrite[],
): Promise<void> {
  const { priced } = o;
  const units: ReserveUnits = new Map();
  for (const l of priced.lines) {
    const itemId = priced.variants?.get(l.variantId)?.itemId;
    // A variant with no stock item has nothing to sell (the line was priced as out of stock).
    if (!itemId) throw shortOfStock(l.name, 0, 0);
    units.set(l.variantId, { productId: l.productId, itemId, quantity: (units.get(l.variantId)?.quantity ?? 0) + l.quantity });
  }
  const { short } = await reserveForCheckout(trx, {
    orderId: o.orderId,
    units,
    holder: o.who,
    now: o.now,
    expiresAt: o.expiresAt,
    windowMs: HOLD_TTL_MS,
    giveBack: o.giveBack,
    writeWith: writes,
    atCommit: o.atCommit,
    firstByProduct: o.firstByProduct,
  });
  if (short) {
    const name = priced.lines.find((l) => l.variantId === short.variantId)?.name ?? short.productId;
    throw shortOfStock(name, short.onHand, short.reserved);
  }
}
