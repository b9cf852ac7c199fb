import type { VariantForPricing } from '../../lib/variant-pricing.js';
import type { QuoteLine } from '../../../shared/schemas/checkout.js';
import { lineTitle, sizeAndColor, variantLabel } from '../../../shared/variants.js';
import { lineOptions } from '../../../shared/line-options.js';
import { offers, type ResolvedPlan } from '../../lib/subscription-plans.js';
import { discountedCents, SUBSCRIPTION_MESSAGES } from '../../../shared/subscription-words.js';
import { imageOf, type MergedLine } from './lines.js';

type LineSubscription = Pick<QuoteLine, 'everyWeeks' | 'planDiscountPercent' | 'planLater' | 'subscriptionError'> & { priceCents: number };

/**
 * A line's price as a subscription (issue [4/8]): the variant's price less the plan's first-delivery
 * discount, when the plan is on and offers the interval; else the price bought once, and why not
 * (the cart offers to buy it once; checkout refuses it). A one-time line is its variant's price.
 */
export function subscriptionPricing(priceCents: number, everyWeeks: number | null, plan: ResolvedPlan | undefined): LineSubscription {
  const once = { priceCents, everyWeeks, planDiscountPercent: null, planLater: null, subscriptionError: null };
  if (everyWeeks === null) return once;
  if (!plan || !plan.enabled) return { ...once, subscriptionError: SUBSCRIPTION_MESSAGES.planOff };
  if (!offers(plan, everyWeeks)) return { ...once, subscriptionError: SUBSCRIPTION_MESSAGES.intervalNotOffered };
  return {
    priceCents: discountedCents(priceCents, plan.discountPercent),
    everyWeeks,
    planDiscountPercent: plan.discountPercent,
    planLater:
      plan.laterDiscountPercent !== null && plan.laterFromDelivery !== null
        ? { discountPercent: plan.laterDiscountPercent, fromDelivery: plan.laterFromDelivery }
        : null,
    subscriptionError: null,
  };
}

/** A variant and the line it becomes (its name, options, picture, price and the units free for it). */
export function quoteLineOf(
  v: VariantForPricing,
  l: { quantity: number; size: string; color: string; isFreeGift: boolean },
  free: number,
  sub: { everyWeeks: number | null; plan: ResolvedPlan | undefined } = { everyWeeks: null, plan: undefined },
): QuoteLine {
  const label = variantLabel(v.values);
  const oneTimePriceCents = l.isFreeGift ? 0 : v.priceCents;
  const { priceCents, ...subscription } = l.isFreeGift
    ? subscriptionPricing(0, null, undefined)
    : subscriptionPricing(v.priceCents, sub.everyWeeks, sub.plan);
  return {
    productId: v.productId,
    variantId: v.variantId,
    name: lineTitle(v.name, label),
    productName: v.name,
    variantLabel: label,
    options: lineOptions(v.optionNames, v.values),
    image: imageOf(v),
    priceCents,
    // Its size, for the price per unit the cart shows beside the price (decision 0043); absent without one.
    ...(!l.isFreeGift && v.unitQuantity !== null && v.unit ? { unitQuantity: v.unitQuantity, unit: v.unit } : {}),
    quantity: l.quantity,
    inventory: free,
    size: l.size,
    color: l.color,
    lineTotalCents: priceCents * l.quantity,
    isFreeGift: l.isFreeGift,
    missing: false,
    insufficientStock: false,
    held: 0,
    heldUntil: null,
    ...subscription,
    oneTimePriceCents,
  };
}

/** A line whose variant is no longer for sale (switched off, or of another product). */
function missingLine(l: MergedLine): QuoteLine {
  const { productId, variantId, quantity, size, color, everyWeeks } = l;
  return {
    productId,
    variantId,
    name: 'Unknown Product',
    productName: 'Unknown Product',
    variantLabel: '',
    options: [],
    image: null,
    priceCents: 0,
    quantity,
    inventory: 0,
    size,
    color,
    lineTotalCents: 0,
    isFreeGift: false,
    missing: true,
    insufficientStock: false,
    held: 0,
    heldUntil: null,
    everyWeeks,
    planDiscountPercent: null,
    planLater: null,
    oneTimePriceCents: 0,
    subscriptionError: null,
  };
}

/**
 * Each cart line priced from its variant as read (a subscription line less its plan's discount);
 * `wanted` counts the units asked of each variant over its lines, one-time and subscription alike,
 * and `unchosen` names products sold in versions whose line named none.
 */
export function priceLines(
  lines: MergedLine[],
  byId: Map<string, VariantForPricing>,
  available: (variantId: string) => number,
  plans: ReadonlyMap<string, ResolvedPlan> = new Map(),
): { quoteLines: QuoteLine[]; wanted: Map<string, number>; unchosen: { name: string; optionNames: string[] }[] } {
  const quoteLines: QuoteLine[] = [];
  const wanted = new Map<string, number>();
  const unchosen: { name: string; optionNames: string[] }[] = [];
  for (const l of lines) {
    const found = byId.get(l.variantId);
    const v = found && found.enabled && found.productId === l.productId ? found : undefined;
    if (l.unnamed && found && found.optionNames.length > 0) unchosen.push({ name: found.name, optionNames: found.optionNames });
    wanted.set(l.variantId, (wanted.get(l.variantId) ?? 0) + l.quantity);
    // An option named Size or Colour is the line's size or colour; otherwise the cart's own.
    const line = v ? { quantity: l.quantity, ...sizeAndColor(v.optionNames, v.values, l), isFreeGift: false } : null;
    quoteLines.push(
      v && line
        ? {
            ...quoteLineOf(v, line, available(v.variantId), { everyWeeks: l.everyWeeks, plan: plans.get(l.variantId) }),
            productId: l.productId,
            variantId: l.variantId,
          }
        : missingLine(l),
    );
  }
  return { quoteLines, wanted, unchosen };
}
