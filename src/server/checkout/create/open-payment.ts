import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { PendingWrite } from '../../db/query-helpers.js';
import { randomString } from '../../lib/ids.js';
import { PAYMENT_SESSION_TTL_MS } from '../../payments/session-times.js';
import { openPaymentSessionWrite } from '../../payments/sessions.js';
import type { CheckoutContext } from './types.js';

/** A new payment session's id: the provider's page replaces a Stripe one's with its own (adoptProviderSession). */
export function newCheckoutSessionId(provider: string): string {
  return `cs_${provider === 'stripe' ? 'live' : 'test'}_${randomString(24)}`;
}

/**
 * The checkout's payment session, open for PAYMENT_SESSION_TTL_MS for the order's total: its write
 * goes into `writes` (run with the order's and the reservation's). The provider's hosted page, if
 * any, is opened after the commit (checkout/routes.ts).
 */
export function openPayment(
  trx: Kysely<Database>,
  o: { orderId: string; sessionId: string; amountCents: number; ctx: CheckoutContext },
  writes: PendingWrite[],
): { url: string } {
  const { ctx } = o;
  const url = ctx.sessionUrl(o.sessionId);
  writes.push(
    openPaymentSessionWrite(trx, {
      id: o.sessionId,
      orderId: o.orderId,
      provider: ctx.provider,
      amountCents: o.amountCents,
      url,
      now: ctx.now,
      expiresAt: new Date(ctx.now.getTime() + PAYMENT_SESSION_TTL_MS),
    }),
  );
  return { url };
}
