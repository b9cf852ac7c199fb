import { describe, expect, it } from 'vitest';
import { DEMO_CUSTOMER } from './demo-accounts.js';
import { LOYALTY_REWARD_EVERY, nextRewardAt, rewardsEarned } from '../../../shared/pricing.js';

describe('the demo customer’s loyalty fixture', () => {
  it('has one reward coupon per 300 points earned, and the points left after them', () => {
    const { loyaltyPoints, totalPointsEarned, rewardCouponCodes } = DEMO_CUSTOMER;
    expect(rewardCouponCodes).toHaveLength(rewardsEarned(0, totalPointsEarned));
    expect(totalPointsEarned - rewardCouponCodes.length * LOYALTY_REWARD_EVERY).toBe(loyaltyPoints);
    // The card's "points to next reward" is the same whether read from the balance or the lifetime total.
    expect(nextRewardAt(loyaltyPoints)).toBe(nextRewardAt(totalPointsEarned));
  });
});
