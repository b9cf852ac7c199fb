import { normalizeCouponCode } from '../../shared/coupons.js';

/** Per-device list of coupon codes used in a paid order (spec: "a coupon usage record per device"). */
const USED_COUPONS_STORAGE_KEY = 'usedCoupons';

export function getUsedCoupons(): string[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(USED_COUPONS_STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

export function hasUsedCoupon(code: string): boolean {
  const wanted = normalizeCouponCode(code);
  return getUsedCoupons().some((c) => normalizeCouponCode(c) === wanted);
}

/** Written when an order with this coupon is confirmed paid. */
export function markCouponUsed(code: string): void {
  if (hasUsedCoupon(code)) return;
  try {
    window.localStorage.setItem(USED_COUPONS_STORAGE_KEY, JSON.stringify([...getUsedCoupons(), normalizeCouponCode(code)]));
  } catch {
    // Storage disabled: the server still refuses a second use.
  }
}
