/** Demo accounts exist only outside production; printed by `npm start`. */
export const DEMO_ADMIN = {
  email: 'admin@example.com',
  password: 'Admin-Demo-2026',
  fullName: 'Shop Admin',
} as const;

export const DEMO_CUSTOMER = {
  email: 'customer@example.com',
  password: 'Customer-Demo-2026',
  fullName: 'Test Customer',
  loyaltyPoints: 250,
  totalPointsEarned: 850,
  /**
   * The reward coupons 850 earned points gave (one per 300: shared/pricing.ts `rewardsEarned`),
   * fixed codes so the demo reads the same after every start. 850 − 2 × 300 = 250 points left,
   * 50 to the next reward. demo-accounts.test.ts holds these three figures to the rules.
   */
  rewardCouponCodes: ['REWARD-DEMO0001', 'REWARD-DEMO0002'],
} as const;
