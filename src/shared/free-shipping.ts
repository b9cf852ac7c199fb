/**
 * The free-shipping progress line of the product page and the cart: how far the cart is from the
 * smallest order that ships free. The minimum is the one the shop states everywhere (the enabled
 * shipping options' free one, shop-facts.ts); the subtotal is the one checkout compares it with
 * (pricing.ts availableShippingOptions: the goods, free gifts not counted, before the coupon).
 *
 * Plain functions, no zod: loaded with the product page.
 */
import { formatCents } from './money.js';
import { freeShippingSentence } from './shop-facts.js';

type FreeShippingProgress =
  /** No enabled option ships free: nothing to say. */
  | { state: 'none' }
  /** The cart is empty or not known yet: the shop's rule, as a sentence. */
  | { state: 'rule'; minimumCents: number }
  | { state: 'short'; minimumCents: number; remainingCents: number; subtotalCents: number }
  | { state: 'reached'; minimumCents: number };

export function freeShippingProgress(minimumCents: number | null, subtotalCents: number | null): FreeShippingProgress {
  if (minimumCents === null) return { state: 'none' };
  if (subtotalCents === null || subtotalCents <= 0) return { state: 'rule', minimumCents };
  if (subtotalCents >= minimumCents) return { state: 'reached', minimumCents };
  return { state: 'short', minimumCents, remainingCents: minimumCents - subtotalCents, subtotalCents };
}

/** "Add $12.34 more for free shipping", "You've got free shipping", or the rule ('' when nothing ships free). */
export function freeShippingText(p: FreeShippingProgress): string {
  switch (p.state) {
    case 'none':
      return '';
    case 'rule':
      return freeShippingSentence(p.minimumCents);
    case 'short':
      return `Add ${formatCents(p.remainingCents)} more for free shipping`;
    case 'reached':
      return "You've got free shipping";
  }
}

/** How much of the way the cart is, 0–1 (1 once reached; 0 while only the rule is shown). */
export function freeShippingFraction(p: FreeShippingProgress): number {
  if (p.state === 'reached') return 1;
  if (p.state === 'short') return p.subtotalCents / p.minimumCents;
  return 0;
}

/**
 * The rule of a shipping option that only larger orders may choose, from its own minimum (never
 * the owner's description, which may name an old figure): "Free on orders with a subtotal of
 * $50.00 or more (before discounts, shipping and tax)." Subtotal in the sense checkout compares
 * (pricing.ts availableShippingOptions). '' for an option every order may choose.
 */
export function shippingOptionMinimumText(option: { priceCents: number; minimumOrderCents: number | null }): string {
  if (!option.minimumOrderCents || option.minimumOrderCents <= 0) return '';
  const lead = option.priceCents === 0 ? 'Free on orders' : 'For orders';
  return `${lead} with a subtotal of ${formatCents(option.minimumOrderCents)} or more (before discounts, shipping and tax).`;
}
