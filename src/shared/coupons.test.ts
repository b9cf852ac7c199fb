import { describe, expect, it } from 'vitest';
import { COUPON_MESSAGES, couponProblem, minimumOrderMessage, normalizeCouponCode, normalizeCouponEmail } from './coupons.js';

const base = {
  isActive: true,
  validFrom: '2025-01-01T00:00:00.000Z',
  validUntil: null,
  minOrderCents: null,
  maxUses: null,
  usesTaken: 0,
  ownerUserId: null,
};
const ctx = { subtotalCents: 5000, now: new Date('2026-06-01T00:00:00Z'), userId: null, usedBefore: false };

describe('coupon rules', () => {
  it('normalises codes', () => expect(normalizeCouponCode('  save5 ')).toBe('SAVE5'));
  it('accepts a valid coupon', () => expect(couponProblem(base, ctx)).toBeNull());
  it('refuses unknown, inactive, not-yet-valid and other people’s coupons as invalid', () => {
    expect(couponProblem(null, ctx)).toBe(COUPON_MESSAGES.invalid);
    expect(couponProblem({ ...base, isActive: false }, ctx)).toBe(COUPON_MESSAGES.invalid);
    expect(couponProblem({ ...base, validFrom: '2027-01-01T00:00:00Z' }, ctx)).toBe(COUPON_MESSAGES.invalid);
    expect(couponProblem({ ...base, ownerUserId: 'u1' }, { ...ctx, userId: 'u2' })).toBe(COUPON_MESSAGES.invalid);
    expect(couponProblem({ ...base, ownerUserId: 'u1' }, { ...ctx, userId: 'u1' })).toBeNull();
  });
  it('refuses expired coupons', () => {
    expect(couponProblem({ ...base, validUntil: '2026-05-31T00:00:00Z' }, ctx)).toBe(COUPON_MESSAGES.expired);
  });
  it('names the minimum order', () => {
    expect(couponProblem({ ...base, minOrderCents: 10000 }, ctx)).toBe('Minimum order amount of $100.00 required');
    expect(minimumOrderMessage(2550)).toBe('Minimum order amount of $25.50 required');
  });
  it('refuses a coupon at its usage limit and one used before', () => {
    expect(couponProblem({ ...base, maxUses: 3, usesTaken: 3 }, ctx)).toBe(COUPON_MESSAGES.usageLimit);
    expect(couponProblem(base, { ...ctx, usedBefore: true })).toBe(COUPON_MESSAGES.alreadyUsed);
  });
});

describe('normalizeCouponEmail', () => {
  it('reads one mailbox however it is spelled: case, spaces, +tags, and Gmail’s dots and domains', () => {
    for (const spelling of ['Pat.Buyer@gmail.com', ' patbuyer+promo@gmail.com ', 'PATBUYER@googlemail.com', 'p.a.t.buyer+x+y@GMAIL.COM']) {
      expect(normalizeCouponEmail(spelling)).toBe('patbuyer@gmail.com');
    }
    expect(normalizeCouponEmail('Pat.Buyer+shop@Example.com')).toBe('pat.buyer@example.com');
    expect(normalizeCouponEmail('pat.buyer@example.com')).not.toBe(normalizeCouponEmail('patbuyer@example.com'));
    expect(normalizeCouponEmail('+only@example.com')).toBe('+only@example.com');
  });
});
