import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  chooseShippingOption,
  computeTotals,
  discountCents,
  nextRewardAt,
  nextShippingUnlock,
  pointsForOrder,
  rewardProgress,
  rewardsEarned,
  subtotalCents,
  taxCents,
} from './pricing.js';

const DEFAULT_OPTIONS = [
  { id: 'standard', priceCents: 599, enabled: true, minimumOrderCents: null },
  { id: 'expedited', priceCents: 1299, enabled: true, minimumOrderCents: null },
  { id: 'overnight', priceCents: 2499, enabled: true, minimumOrderCents: null },
  { id: 'free', priceCents: 0, enabled: true, minimumOrderCents: 5000 },
];

describe('pricing rules', () => {
  it('sums lines, leaving a free gift at $0', () => {
    expect(
      subtotalCents([
        { priceCents: 1000, quantity: 2 },
        { priceCents: 499, quantity: 1, isFreeGift: true },
      ]),
    ).toBe(2000);
  });

  it('applies percentage and fixed discounts, never more than the subtotal', () => {
    expect(discountCents(2000, { discountType: 'percentage', discountValue: 10 })).toBe(200);
    expect(discountCents(2000, { discountType: 'fixed', discountValue: 500 })).toBe(500);
    expect(discountCents(300, { discountType: 'fixed', discountValue: 500 })).toBe(300);
    expect(discountCents(2000, null)).toBe(0);
  });

  it('chooses the cheapest enabled option whose minimum is met, free from $50', () => {
    expect(chooseShippingOption(DEFAULT_OPTIONS, 4999)?.id).toBe('standard');
    expect(chooseShippingOption(DEFAULT_OPTIONS, 5000)?.id).toBe('free');
    expect(chooseShippingOption(DEFAULT_OPTIONS, 5000, 'overnight')?.id).toBe('overnight');
    // A pick that is no longer available falls back to free, else the cheapest.
    expect(chooseShippingOption(DEFAULT_OPTIONS, 1000, 'free')?.id).toBe('standard');
    expect(chooseShippingOption([], 1000)).toBeNull();
  });

  it('charges no shipping when no option applies (the checkout is refused instead)', () => {
    const t = computeTotals({ lines: [{ priceCents: 1299, quantity: 1 }], coupon: null, shippingOptions: [] });
    expect(t.shippingCents).toBe(0);
    expect(t.shippingOptionId).toBeNull();
  });

  it('names the smallest gap to the next option', () => {
    expect(nextShippingUnlock(DEFAULT_OPTIONS, 3000)).toMatchObject({ amountCents: 2000, option: { id: 'free' } });
    expect(nextShippingUnlock(DEFAULT_OPTIONS, 6000)).toBeNull();
  });

  it('taxes 8% of subtotal − discount + shipping, once', () => {
    expect(taxCents(10000, 1000, 599)).toBe(Math.round(9599 * 0.08));
    const t = computeTotals({
      lines: [{ priceCents: 2500, quantity: 2 }],
      coupon: { discountType: 'percentage', discountValue: 10 },
      shippingOptions: DEFAULT_OPTIONS,
      shippingOptionId: 'expedited',
    });
    expect(t).toEqual({
      subtotalCents: 5000,
      discountCents: 500,
      shippingCents: 1299,
      taxCents: Math.round((5000 - 500 + 1299) * 0.08),
      totalCents: 5000 - 500 + 1299 + Math.round((5000 - 500 + 1299) * 0.08),
      shippingOptionId: 'expedited',
    });
  });

  const line = fc.record({
    priceCents: fc.integer({ min: 0, max: 200_000 }),
    quantity: fc.integer({ min: 1, max: 300 }),
    isFreeGift: fc.boolean(),
  });
  const coupon = fc.option(
    fc.record({
      discountType: fc.constantFrom('percentage' as const, 'fixed' as const),
      discountValue: fc.integer({ min: 0, max: 1_000_000 }),
    }),
    { nil: null },
  );
  const option = fc.record({
    id: fc.string({ minLength: 1, maxLength: 5 }),
    priceCents: fc.integer({ min: 0, max: 10_000 }),
    enabled: fc.boolean(),
    minimumOrderCents: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
  });

  it('never produces a negative total, and the discount never exceeds the subtotal (property)', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), coupon, fc.array(option, { maxLength: 6 }), (lines, c, options) => {
        const t = computeTotals({ lines, coupon: c, shippingOptions: options });
        expect(t.totalCents).toBeGreaterThanOrEqual(0);
        expect(t.discountCents).toBeGreaterThanOrEqual(0);
        expect(t.discountCents).toBeLessThanOrEqual(t.subtotalCents);
        expect(t.totalCents).toBe(t.subtotalCents - t.discountCents + t.shippingCents + t.taxCents);
        for (const v of Object.values(t)) if (typeof v === 'number') expect(Number.isInteger(v)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('loyalty rules', () => {
  it('awards 10 points from $50, 3 below', () => {
    expect(pointsForOrder(5000)).toBe(10);
    expect(pointsForOrder(4999)).toBe(3);
  });
  it('counts rewards per multiple of 300 crossed', () => {
    expect(rewardsEarned(295, 305)).toBe(1);
    expect(rewardsEarned(250, 260)).toBe(0);
    expect(rewardsEarned(290, 900)).toBe(3);
  });
  it('computes the next reward and progress', () => {
    expect(nextRewardAt(250)).toBe(50);
    expect(nextRewardAt(300)).toBe(0);
    expect(nextRewardAt(null)).toBe(300);
    expect(nextRewardAt(0)).toBe(300);
    expect(rewardProgress(250)).toBeCloseTo(250 / 300);
    expect(rewardProgress(600)).toBe(1);
  });
});
