import type Stripe from 'stripe';
import { randomString } from '../lib/ids.js';
import { isStripeError } from './stripe-sdk.js';
import { createStripeCheckoutSession, stripeFailureMessage, stripePaymentOf } from './stripe.js';
import { chargeStripeOffSession, methodOfFirstPayment } from './stripe-off-session.js';
import { lookUpStripeCardSetup, openStripeCardSetup } from './stripe-card-setup.js';
import {
  PaymentProviderError,
  type CardSetupInput,
  type OffSessionCharge,
  type PaymentProvider,
  type ProviderEvent,
  type RefundRequest,
} from './provider.js';

const NOT_CONFIGURED = 'Stripe is not configured on this server';

/** The payment intent a Checkout Session took (null while it took none). */
function paymentIntentOf(s: Pick<Stripe.Checkout.Session, 'payment_intent'>): string | null {
  return typeof s.payment_intent === 'string' ? s.payment_intent : (s.payment_intent?.id ?? null);
}

/** The payment to refund: the one known already, else the one Stripe says the session took. */
async function paymentToRefund(stripe: Stripe, request: RefundRequest): Promise<string> {
  if (request.reference) return request.reference;
  if (!request.sessionId) throw new PaymentProviderError('no_payment', 'Stripe names no payment for this session');
  let reference: string | null;
  try {
    reference = paymentIntentOf(await stripe.checkout.sessions.retrieve(request.sessionId));
  } catch (err) {
    throw new PaymentProviderError('refused', stripeFailureMessage(err));
  }
  if (!reference) throw new PaymentProviderError('no_payment', 'Stripe names no payment for this session');
  return reference;
}

/**
 * Stripe Checkout as a payment provider: a hosted page per checkout or link (the order's id, or
 * the link's, as idempotency key), the session looked up when the shopper is back before the
 * webhook, refunds of the session's payment intent, expiring a page the shop ended, and the signed
 * webhook. `stripe` null: the shop has no key, and every call says so (an old Stripe order's refund).
 */
export function stripeProvider(stripe: Stripe | null, opts: { publicUrl: string; webhookSecret?: string }): PaymentProvider {
  const configured = (): Stripe => {
    if (!stripe) throw new PaymentProviderError('not_configured', NOT_CONFIGURED);
    return stripe;
  };
  return {
    name: 'stripe',
    // A placeholder until Stripe names the session (adoptHostedPage).
    newSessionId: () => `cs_live_${randomString(24)}`,
    openPayment: (db, input) =>
      createStripeCheckoutSession(configured(), db, input.orderId, opts.publicUrl, input.expiresAt, input.link, {
        keepMethod: input.keepMethod ?? false,
        customerRef: input.customerRef ?? null,
      }),
    async lookUpPayment(sessionId) {
      const remote = await configured().checkout.sessions.retrieve(sessionId);
      return remote.payment_status === 'paid' ? { paid: true, payment: stripePaymentOf(remote) } : { paid: false };
    },
    async refund(request) {
      const client = configured();
      const reference = await paymentToRefund(client, request);
      try {
        const refund = await client.refunds.create(
          {
            payment_intent: reference,
            ...(request.amountCents === null ? {} : { amount: request.amountCents }),
            metadata: { orderId: request.orderId, ...request.metadata },
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return { providerRefundId: refund.id, reference, byHand: false };
      } catch (err) {
        // After the SDK's own retries under the same key: Stripe may have refunded.
        if (isStripeError(err, 'StripeConnectionError')) throw new PaymentProviderError('no_answer', stripeFailureMessage(err));
        throw new PaymentProviderError('refused', stripeFailureMessage(err));
      }
    },
    async closePayment(sessionId) {
      if (!stripe) return 'retry';
      try {
        await stripe.checkout.sessions.expire(sessionId);
      } catch (err) {
        // Stripe answered (not open there, or unknown): nothing left to close. Unreachable: try again later.
        const answered =
          typeof err === 'object' && err !== null && 'statusCode' in err && typeof err.statusCode === 'number' && err.statusCode < 500;
        if (!answered) return 'retry';
      }
      return 'closed';
    },
    ...(stripe && opts.webhookSecret
      ? {
          parseWebhook(rawBody: Buffer, signature: string): ProviderEvent {
            let event: Stripe.Event;
            try {
              event = stripe.webhooks.constructEvent(rawBody, signature, opts.webhookSecret!);
            } catch {
              throw new PaymentProviderError('refused', 'Invalid Stripe signature');
            }
            if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') {
              const s = event.data.object;
              // [5/8]: a setup page (a subscription's new card) takes no payment; its card is read from Stripe.
              if (s.mode === 'setup') return s.status === 'complete' ? { type: 'card_saved', sessionId: s.id } : { type: 'ignored' };
              if (s.payment_status !== 'paid') return { type: 'ignored' };
              // Stripe's own offers box (consent_collection.promotions, asked where the owner turned it on): ticked or not.
              const offersConsent = s.consent?.promotions === 'opt_in';
              return { type: 'paid', sessionId: s.id, payment: stripePaymentOf(s), ...(offersConsent ? { offersConsent } : {}) };
            }
            if (event.type === 'checkout.session.expired') return { type: 'expired', sessionId: event.data.object.id };
            return { type: 'ignored' };
          },
        }
      : {}),
    // [4/8]: a renewal on the card Checkout saved, a PaymentIntent confirmed with the customer away.
    // Without a key there is no Stripe to ask: the renewal offers its link instead.
    ...(stripe
      ? {
          chargeOffSession: (charge: OffSessionCharge) => chargeStripeOffSession(stripe, charge),
          savedCardOfPayment: (paymentRef: string) => methodOfFirstPayment(stripe, paymentRef),
        }
      : {}),
    // [5/8]: a subscription's new card on Checkout in setup mode, nothing charged.
    ...(stripe
      ? {
          openCardSetup: (input: CardSetupInput) => openStripeCardSetup(stripe, input),
          lookUpCardSetup: (sessionId: string) => lookUpStripeCardSetup(stripe, sessionId),
        }
      : {}),
  };
}
