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
} as const;
