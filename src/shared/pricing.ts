/**
 * The shop's money rules, written once: the browser uses them for instant feedback and the
 * server for every amount it charges. All amounts are integer cents.
 */

export const TAX_RATE_PERCENT = 8;

type PricedLine = { priceCents: number; quantity: number; isFreeGift?: boolean };

type CouponTerms = {
  discountType: 'percentage' | 'fixed';
  /** Percent (0–100) for percentage coupons, cents for fixed ones. */
  discountValue: number;
};

type ShippingOptionTerms = {
  id: string;
  priceCents: number;
  enabled: boolean;
  minimumOrderCents: number | null;
};

export function subtotalCents(lines: readonly PricedLine[]): number {
  return lines.reduce((sum, l) => sum + (l.isFreeGift ? 0 : l.priceCents * l.quantity), 0);
}

/** Percentage of the subtotal, or a fixed amount; never more than the subtotal, never negative. */
export function discountCents(subtotal: number, coupon: CouponTerms | null): number {
  if (!coupon || subtotal <= 0) return 0;
  const raw =
    coupon.discountType === 'percentage'
      ? Math.round((subtotal * Math.min(100, Math.max(0, coupon.discountValue))) / 100)
      : Math.max(0, Math.round(coupon.discountValue));
  return Math.min(raw, subtotal);
}

/** Options the shopper may choose: enabled, and whose minimum order the subtotal reaches. */
export function availableShippingOptions<T extends ShippingOptionTerms>(options: readonly T[], subtotal: number): T[] {
  return options.filter((o) => o.enabled && (o.minimumOrderCents ?? 0) <= subtotal);
}

/**
 * The option used for the order: the shopper's pick while it is available; otherwise a free
 * option if one is available, else the cheapest. Null when none is available.
 */
export function chooseShippingOption<T extends ShippingOptionTerms>(
  options: readonly T[],
  subtotal: number,
  pickedId?: string | null,
): T | null {
  const available = availableShippingOptions(options, subtotal);
  const picked = pickedId ? available.find((o) => o.id === pickedId) : undefined;
  if (picked) return picked;
  const free = available.find((o) => o.priceCents === 0);
  if (free) return free;
  return [...available].sort((a, b) => a.priceCents - b.priceCents)[0] ?? null;
}

/** The spend still needed to unlock the next option: the smallest gap among options not yet reached. */
export function nextShippingUnlock<T extends ShippingOptionTerms>(
  options: readonly T[],
  subtotal: number,
): { option: T; amountCents: number } | null {
  let best: { option: T; amountCents: number } | null = null;
  for (const o of options) {
    if (!o.enabled || o.minimumOrderCents == null || o.minimumOrderCents <= subtotal) continue;
    const gap = o.minimumOrderCents - subtotal;
    if (!best || gap < best.amountCents) best = { option: o, amountCents: gap };
  }
  return best;
}

/** Tax is charged once, on what the shopper pays for goods and delivery: 8% of (subtotal − discount + shipping). */
export function taxCents(subtotal: number, discount: number, shipping: number): number {
  return Math.round(((subtotal - discount + shipping) * TAX_RATE_PERCENT) / 100);
}

type Totals = {
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
};

export function computeTotals(input: {
  lines: readonly PricedLine[];
  coupon: CouponTerms | null;
  shippingOptions: readonly ShippingOptionTerms[];
  shippingOptionId?: string | null;
}): Totals & { shippingOptionId: string | null } {
  const subtotal = subtotalCents(input.lines);
  const discount = discountCents(subtotal, input.coupon);
  const option = chooseShippingOption(input.shippingOptions, subtotal, input.shippingOptionId);
  // No option for this subtotal: nothing is charged for shipping, and checkout is refused (it cannot ship).
  const shipping = option ? option.priceCents : 0;
  const tax = taxCents(subtotal, discount, shipping);
  return {
    subtotalCents: subtotal,
    discountCents: discount,
    shippingCents: shipping,
    taxCents: tax,
    totalCents: subtotal - discount + shipping + tax,
    shippingOptionId: option?.id ?? null,
  };
}

// ---- Loyalty ----

export const LOYALTY_REWARD_EVERY = 300;
export const LOYALTY_REWARD_PERCENT = 15;
export const LOYALTY_REWARD_VALID_DAYS = 90;
export const LOYALTY_BIG_ORDER_CENTS = 5000;

/** 10 points for an order of $50 or more, 3 below. */
export function pointsForOrder(totalCents: number): number {
  return totalCents >= LOYALTY_BIG_ORDER_CENTS ? 10 : 3;
}

/** How many reward coupons moving from `before` to `after` points earns (one per multiple of 300 crossed). */
export function rewardsEarned(before: number, after: number): number {
  return Math.max(0, Math.floor(after / LOYALTY_REWARD_EVERY) - Math.floor(Math.max(0, before) / LOYALTY_REWARD_EVERY));
}

/**
 * Points still needed for the next reward: 300 − (points mod 300), 0 on an exact multiple
 * (a reward is available), 300 when the user is unknown. Zero points is no reward yet.
 */
export function nextRewardAt(points: number | null | undefined): number {
  if (points == null || points <= 0) return LOYALTY_REWARD_EVERY;
  const rest = points % LOYALTY_REWARD_EVERY;
  return rest === 0 ? 0 : LOYALTY_REWARD_EVERY - rest;
}

/** Progress towards the next reward, 0–1: (300 − nextRewardAt) / 300. */
export function rewardProgress(points: number | null | undefined): number {
  return (LOYALTY_REWARD_EVERY - nextRewardAt(points)) / LOYALTY_REWARD_EVERY;
}
