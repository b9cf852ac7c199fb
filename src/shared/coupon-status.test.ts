import { describe, expect, it } from 'vitest';
import { couponStanding } from './coupon-status.js';

describe('couponStanding: what a shopper typing the code would meet', () => {
  const now = new Date('2026-06-15T12:00:00Z');
  const base = { isActive: true, validFrom: '2026-01-01T00:00:00Z', validUntil: null, maxUses: null, currentUses: 0 };

  it('live while active, started, not ended and not used up', () => {
    expect(couponStanding(base, now)).toBe('live');
    expect(couponStanding({ ...base, validUntil: '2026-06-15T12:00:00Z', maxUses: 3, currentUses: 2 }, now)).toBe('live');
  });

  it('expired once its end has passed, not yet active before its start, used up at its limit', () => {
    expect(couponStanding({ ...base, validUntil: '2026-06-15T11:59:59Z' }, now)).toBe('expired');
    expect(couponStanding({ ...base, validFrom: '2026-06-16T00:00:00Z' }, now)).toBe('scheduled');
    expect(couponStanding({ ...base, maxUses: 3, currentUses: 3 }, now)).toBe('used-up');
  });

  it('switched off wins over the dates (the cart answers "Invalid coupon code" first)', () => {
    expect(couponStanding({ ...base, isActive: false, validUntil: '2020-01-01T00:00:00Z' }, now)).toBe('inactive');
  });
});
