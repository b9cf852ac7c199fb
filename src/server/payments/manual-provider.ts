import { PaymentProviderError, type PaymentProvider } from './provider.js';

/** The id scheme of a refund the owner gives back by hand (cash, bank transfer, card on the phone): man_… */
export const MANUAL_REFUND_PREFIX = 'man_';

/**
 * Money the owner took themselves (cash, a bank transfer, a card read over the phone; recorded in
 * orders/owner-payments.ts) as a payment provider. It opens no page and is never looked up; a
 * refund calls no one: it is recorded as settled by hand (the owner pays it out the way it came),
 * under its own id scheme (man_…), so the books never show a card refund that did not happen.
 */
export function manualProvider(): PaymentProvider {
  return {
    name: 'manual',
    newSessionId: () => {
      throw new PaymentProviderError('no_payment', 'A payment recorded by hand has no payment page');
    },
    lookUpPayment: async () => ({ paid: false }),
    refund: async (request) => ({
      providerRefundId: `${MANUAL_REFUND_PREFIX}${request.refundId.replace(/^refund_/, '')}`,
      reference: null,
      byHand: true,
    }),
    closePayment: async () => 'closed',
  };
}
