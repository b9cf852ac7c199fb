import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { createCheckout } from '../checkout/service.js';
import { randomString } from '../lib/ids.js';

const TEST_ADDRESS = {
  name: 'Pat Buyer',
  address: '1 Main St',
  city: 'Springfield',
  state: 'CA',
  zip: '90210',
  country: 'US',
} as const;

/** The body of POST /api/create-checkout-session for these items, as a guest at the test address. */
export const guestCheckoutBody = (items: { productId: string; quantity: number }[]) => ({
  items,
  customerEmail: 'pat@example.com',
  shippingAddress: { ...TEST_ADDRESS },
  appliedCouponCode: null,
  appliedCouponDiscount: 0,
});

/** An unpaid checkout (a pending order, its open payment session and holds), as the store's checkout makes it. */
export async function placeCheckout(
  db: Kysely<Database>,
  dialect: Dialect,
  o: { items: { productId: string; quantity: number }[]; couponCode?: string | null; userId?: string | null; email?: string; now?: Date },
): Promise<{ orderId: string; sessionId: string }> {
  const device = `device-${randomString(10)}`;
  const created = await createCheckout(
    db,
    dialect,
    {
      items: o.items,
      customerEmail: o.email ?? 'pat@example.com',
      shippingAddress: { ...TEST_ADDRESS },
      appliedCouponCode: o.couponCode ?? null,
    },
    {
      userId: o.userId ?? null,
      deviceHash: device,
      ip: `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      maxUnitsHeld: 250,
      now: o.now ?? new Date(),
      provider: 'test',
      sessionUrl: (id) => `http://shop.test/pay/${id}`,
    },
  );
  return { orderId: created.orderId, sessionId: created.sessionId };
}
