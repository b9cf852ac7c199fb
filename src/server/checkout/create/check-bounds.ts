import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { assertOrderWithinBounds, type PricedCart } from '../../cart/service.js';
import { reservedByVariant } from '../../inventory/reservations.js';
import { HttpError } from '../../http/errors.js';
import { formatCents } from '../../../shared/money.js';
import { CHECKOUT_MESSAGES } from '../../../shared/schemas/checkout.js';
import { shortOfStock } from './short-of-stock.js';

/**
 * What the priced cart must be to become an order, checked in the order the shopper is told: the
 * ceiling (the quote's own check, cart/service.ts), the coupon, products gone, versions not chosen,
 * stock short as read, and a shipping option for this subtotal. Each refusal is the specification's
 * message (400, or 409 for stock and shipping).
 */
export async function checkBounds(trx: Kysely<Database>, priced: PricedCart, now: Date): Promise<void> {
  assertOrderWithinBounds(priced);
  if (priced.couponError) throw new HttpError(400, priced.couponError);
  if (priced.lines.some((l) => l.missing)) throw new HttpError(400, CHECKOUT_MESSAGES.missingProduct);
  // Never the first version in the shopper's stead: what they pay for is what they chose.
  const unchosen = priced.unchosen[0];
  if (unchosen) throw new HttpError(400, CHECKOUT_MESSAGES.chooseOptions(unchosen.name, unchosen.optionNames));
  // Short already as read: said at once (the reservation at the end is what decides).
  const short = priced.lines.find((l) => l.insufficientStock);
  if (short) {
    const reserved = (await reservedByVariant(trx, [short], now)).get(short.variantId) ?? 0;
    throw shortOfStock(short.name, short.inventory + reserved, reserved);
  }
  // No option ships this subtotal: refused (nothing can be delivered), with the spend that unlocks one.
  if (!priced.selectedShippingOptionId) {
    const unlock = priced.nextShippingUnlock;
    const hint = unlock ? ` ${CHECKOUT_MESSAGES.shippingUnlock(formatCents(unlock.amountCents), unlock.optionName)}` : '';
    throw new HttpError(409, `${CHECKOUT_MESSAGES.noShipping}${hint}`);
  }
}
