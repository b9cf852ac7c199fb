import type { OrderDelivery } from './schemas/orders.js';

/**
 * The estimate as the shopper reads it: an owner's bare "5-7" (the spec's default) reads
 * "5-7 business days"; anything worded ("Next business day") is shown as typed.
 */
export function deliveryEstimateText(estimatedDays: string): string {
  const t = estimatedDays.trim();
  return /^\d+(\s*-\s*\d+)?$/.test(t) ? `${t} business days` : t;
}

/** "Standard Shipping, 5-7 business days": one line for the confirmation page and e-mail. */
export function deliveryLine(d: OrderDelivery): string {
  return `${d.method}, ${deliveryEstimateText(d.estimatedDays)}`;
}
