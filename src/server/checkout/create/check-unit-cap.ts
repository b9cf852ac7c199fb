import type { PricedCart } from '../../cart/service.js';
import type { HolderReservations } from '../../inventory/reservations.js';
import { HttpError } from '../../http/errors.js';
import { CHECKOUT_MESSAGES } from '../../../shared/schemas/checkout.js';
import type { SupersededSession } from './types.js';

/**
 * One shopper (same IP, browser or account) holds at most `maxUnitsHeld` units across their open
 * checkouts: what they hold now, less the checkouts this one just ended, plus this cart (409).
 */
export function checkUnitCap(
  priced: PricedCart,
  mine: HolderReservations,
  superseded: readonly SupersededSession[],
  maxUnitsHeld: number,
): void {
  const units = priced.lines.reduce((n, l) => n + l.quantity, 0);
  const ended = new Set(superseded.map((x) => x.orderId));
  const held = [...mine.unitsByOrder].reduce((n, [orderId, u]) => (ended.has(orderId) ? n : n + u), 0);
  if (held + units > maxUnitsHeld) throw new HttpError(409, CHECKOUT_MESSAGES.holdLimit(maxUnitsHeld));
}
