import { describe, expect, it } from 'vitest';
import { COUPON_MESSAGES } from '../coupons.js';
import { CouponCodeForm } from './cart-forms.js';

describe('CouponCodeForm', () => {
  it('gives the code as the quote compares it, and refuses an empty one', () => {
    expect(CouponCodeForm.parse({ couponCode: '  welcome10 ' })).toEqual({ couponCode: 'WELCOME10' });
    expect(CouponCodeForm.safeParse({ couponCode: '   ' }).error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['couponCode', COUPON_MESSAGES.invalidInput],
    ]);
  });
});
