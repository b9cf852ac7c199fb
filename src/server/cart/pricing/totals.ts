import type { Selectable } from 'kysely';
import type { ShippingOptionsTable } from '../../db/schema.js';
import { toShippingView } from '../../shipping/service.js';
import { computeTotals, nextShippingUnlock, availableShippingOptions } from '../../../shared/pricing.js';
import type { Quote, QuoteLine } from '../../../shared/schemas/checkout.js';

/** The cart's totals (shared/pricing.ts, as the browser computes them), the shipping options its subtotal allows, and the spend that unlocks the next. */
export function cartTotals(
  quoteLines: QuoteLine[],
  applied: Quote['coupon'],
  options: Selectable<ShippingOptionsTable>[],
  shippingOptionId: string | null | undefined,
): Omit<Quote, 'lines' | 'coupon' | 'couponError'> {
  const terms = options.map((o) => ({
    id: o.id,
    priceCents: o.price_cents,
    enabled: Boolean(o.enabled),
    minimumOrderCents: o.minimum_order_cents,
  }));
  const totals = computeTotals({
    lines: quoteLines.filter((l) => !l.missing).map((l) => ({ priceCents: l.priceCents, quantity: l.quantity, isFreeGift: l.isFreeGift })),
    coupon: applied ? { discountType: applied.discountType, discountValue: applied.discountValue } : null,
    shippingOptions: terms,
    shippingOptionId,
  });
  const availableIds = new Set(availableShippingOptions(terms, totals.subtotalCents).map((o) => o.id));
  const unlock = nextShippingUnlock(terms, totals.subtotalCents);
  const enabled = options.filter((o) => o.enabled);
  return {
    shippingOptions: enabled.filter((o) => availableIds.has(o.id)).map(toShippingView),
    allShippingOptions: enabled.map(toShippingView),
    selectedShippingOptionId: totals.shippingOptionId,
    nextShippingUnlock: unlock
      ? {
          optionId: unlock.option.id,
          optionName: options.find((o) => o.id === unlock.option.id)!.name,
          optionPriceCents: unlock.option.priceCents,
          amountCents: unlock.amountCents,
        }
      : null,
    subtotalCents: totals.subtotalCents,
    discountCents: totals.discountCents,
    shippingCents: totals.shippingCents,
    taxCents: totals.taxCents,
    totalCents: totals.totalCents,
  };
}
