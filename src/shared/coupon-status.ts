/**
 * Where a coupon stands for a shopper right now, from its switch, dates and uses: the same tests,
 * in the same order, as the cart's check (couponProblem in coupons.ts), so the back office shows
 * what a shopper typing the code would meet.
 */
export type CouponStanding = 'inactive' | 'scheduled' | 'expired' | 'used-up' | 'live';

export const COUPON_STANDING_LABELS: Record<Exclude<CouponStanding, 'live'>, string> = {
  inactive: 'Inactive',
  scheduled: 'Not yet active',
  expired: 'Expired',
  'used-up': 'Used up',
};

export function couponStanding(
  c: { isActive: boolean; validFrom: string | null; validUntil: string | null; maxUses: number | null; currentUses: number },
  now: Date,
): CouponStanding {
  if (!c.isActive) return 'inactive';
  if (c.validFrom && Date.parse(c.validFrom) > now.getTime()) return 'scheduled';
  if (c.validUntil && Date.parse(c.validUntil) < now.getTime()) return 'expired';
  if (c.maxUses != null && c.currentUses >= c.maxUses) return 'used-up';
  return 'live';
}
