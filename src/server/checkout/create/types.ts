import type { OrderEventActor } from '../../orders/events.js';
import type { Holder as StockHolder } from '../../inventory/reservations.js';
import type { CreateCheckoutSessionInput } from '../../../shared/schemas/checkout.js';

export type CheckoutInput = CreateCheckoutSessionInput & { appliedCouponCode: string | null };

export type CheckoutContext = {
  userId: string | null;
  deviceHash: string;
  /** The shopper's address, for the cap on units one shopper may hold. */
  ip: string;
  /** Units one shopper (same IP, browser or account) may hold across open checkouts at once (config). */
  maxUnitsHeld: number;
  now: Date;
  provider: string;
  /** Builds the provider's payment page address for a new session id. */
  sessionUrl: (sessionId: string) => string;
  /** Who places it: the customer, or an admin acting as them (named on the timeline and in the audit log). */
  actor?: OrderEventActor;
};

/** An earlier unpaid checkout of the same browser that a new checkout ended (a Stripe one is also expired at Stripe). */
export type SupersededSession = { sessionId: string; provider: string; orderId: string };

export type CreatedCheckout = {
  orderId: string;
  sessionId: string;
  url: string;
  amountCents: number;
  superseded: SupersededSession[];
  /** The order has subscription lines: its payment page keeps the payment method for the renewals (issue [4/8]). */
  keepMethod: boolean;
};

/** The shopper who holds the checkout's units and coupon use: address, browser, account and the coupon's e-mail. */
export type Holder = StockHolder & { email: string };
