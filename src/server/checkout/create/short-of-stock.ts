import { HttpError } from '../../http/errors.js';
import { CHECKOUT_MESSAGES } from '../../../shared/schemas/checkout.js';
import { INVENTORY_MESSAGES } from '../../../shared/schemas/inventory.js';

/** 409 for a product short of stock: units other checkouts keep are said to be so, not "out of stock" (decision 0022). */
export function shortOfStock(name: string, onHand: number, reserved: number): HttpError {
  const available = Math.max(0, onHand - reserved);
  return new HttpError(
    409,
    reserved > 0
      ? INVENTORY_MESSAGES.reservedElsewhere(name, available, Math.min(reserved, onHand))
      : CHECKOUT_MESSAGES.outOfStock(name, available),
  );
}
