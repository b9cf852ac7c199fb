import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { randomString } from '../lib/ids.js';
import type { PaymentProvider } from './provider.js';
import { chargeTestMethodOffSession } from './test-payment-methods.js';

/**
 * The built-in test card page (/pay/:id, payments/routes.ts) as a payment provider: its page is the
 * shop's own, so opening one names the session's own address, and a payment completes only by the
 * page's POST (never by a lookup: the shop's record is the truth). It takes no money, so a refund is
 * recorded with a test refund id (tre_…) and nothing to close.
 *
 * With the app's database it also charges the cards its page kept for subscriptions
 * (test_payment_methods) with the customer away, as the test card used says they behave
 * (payments/test-payment-methods.ts); built without one (a caller that only refunds), it cannot.
 */
export function testCardProvider(opts: { publicUrl: string; db?: Kysely<Database> }): PaymentProvider {
  const { db } = opts;
  return {
    name: 'test',
    newSessionId: () => `cs_test_${randomString(24)}`,
    openPayment: async (_db, input) => ({ id: input.sessionId, url: testCardPageUrl(opts.publicUrl, input.sessionId) }),
    lookUpPayment: async () => ({ paid: false }),
    refund: async (request) => ({ providerRefundId: `tre_${request.refundId.replace(/^refund_/, '')}`, reference: null, byHand: false }),
    closePayment: async () => 'closed',
    // [5/8]: a subscription's new card on the card page in setup mode (nothing charged); the page's POST saves it.
    openCardSetup: async (input) => ({ id: input.setupId, url: testCardSetupPageUrl(opts.publicUrl, input.setupId), customerRef: null }),
    ...(db
      ? { chargeOffSession: (charge: Parameters<typeof chargeTestMethodOffSession>[1]) => chargeTestMethodOffSession(db, charge) }
      : {}),
  };
}

/** The card page of a session: where a checkout's or link's shopper pays in test mode. */
export function testCardPageUrl(publicUrl: string, sessionId: string): string {
  return `${publicUrl}/pay/${sessionId}`;
}

/** The card page in setup mode of a subscription's card update: where its customer saves a new card in test mode. */
export function testCardSetupPageUrl(publicUrl: string, setupId: string): string {
  return `${publicUrl}/pay/setup/${setupId}`;
}
