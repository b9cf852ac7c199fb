import { z } from 'zod';
import { COUPON_MESSAGES } from '../coupons.js';
import { QuoteInput } from './checkout.js';

/**
 * The cart's coupon field: the quote body's `couponCode` (trimmed, upper-cased, at most 50
 * characters), which must not be empty here (spec: 'Please enter a valid coupon code').
 */
export const CouponCodeForm = z.object({
  couponCode: QuoteInput.shape.couponCode.pipe(z.string({ message: COUPON_MESSAGES.invalidInput })),
});
export type CouponCodeForm = z.input<typeof CouponCodeForm>;
