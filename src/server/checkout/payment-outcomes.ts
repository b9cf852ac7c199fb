import type { AppDeps } from '../app.js';
import type { PaymentOutcomes } from '../payments/provider.js';
import { expirePaymentSession, fulfilPaymentSession, recordDeclinedPayment } from './service.js';

/** Checkout's answers to a provider's word (payments' webhook and card page call these; payments imports no checkout code). */
export function checkoutPaymentOutcomes({ db, dialect, config, payments }: AppDeps): PaymentOutcomes {
  return {
    paid: (sessionId, ctx) =>
      fulfilPaymentSession(db, dialect, sessionId, { publicUrl: config.publicUrl, payments, log: ctx.log, paid: ctx.paid, now: ctx.now }),
    ended: (sessionId, reason) => expirePaymentSession(db, sessionId, reason),
    declined: (sessionId) => recordDeclinedPayment(db, sessionId),
  };
}
