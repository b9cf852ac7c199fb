import type { Kysely } from 'kysely';
import type { AppDeps } from '../app.js';
import type { Database } from '../db/schema.js';
import { recordMarketingConsent } from '../marketing/consent.js';
import type { PaymentOutcomes } from '../payments/provider.js';
import { expirePaymentSession, fulfilPaymentSession, recordDeclinedPayment } from './service.js';

type Log = Parameters<PaymentOutcomes['paid']>[1]['log'];

/** Checkout's answers to a provider's word (payments' webhook and card page call these; payments imports no checkout code). */
export function checkoutPaymentOutcomes({ db, dialect, config, payments }: AppDeps): PaymentOutcomes {
  return {
    paid: async (sessionId, ctx) => {
      const result = await fulfilPaymentSession(db, dialect, sessionId, {
        publicUrl: config.publicUrl,
        payments,
        log: ctx.log,
        paid: ctx.paid,
        now: ctx.now,
      });
      if (ctx.offersConsent) await recordOffersConsentOfSession(db, sessionId, ctx.log, ctx.now ?? new Date());
      return result;
    },
    ended: (sessionId, reason) => expirePaymentSession(db, sessionId, reason),
    declined: (sessionId) => recordDeclinedPayment(db, sessionId),
  };
}

/**
 * The payer's yes to offers on the provider's own page (Stripe Checkout's box, issue [7/8]), as
 * the shop's checkout box records it: for the order's address and account, once this session's
 * payment is the order's (a payment refused as stray records nothing; a delivery again changes
 * nothing). After the payment's own transaction, and never failing it. An address that
 * unsubscribed stays so (recordMarketingConsent).
 */
async function recordOffersConsentOfSession(db: Kysely<Database>, sessionId: string, log: Log, now: Date): Promise<void> {
  try {
    const order = await db
      .selectFrom('payment_sessions as s')
      .innerJoin('orders as o', 'o.id', 's.order_id')
      .select(['o.email', 'o.user_id'])
      .where('s.id', '=', sessionId)
      .where('s.status', '=', 'complete')
      .executeTakeFirst();
    if (!order?.email) return;
    await recordMarketingConsent(db, { email: order.email, userId: order.user_id, source: 'checkout', now });
  } catch (err) {
    log.error({ err, sessionId }, "could not record the offers consent given on the provider's payment page");
  }
}
