import type Stripe from 'stripe';
import { isStripeError } from './stripe-sdk.js';
import { stripeFailureMessage } from './stripe.js';
import {
  OFF_SESSION_MESSAGES,
  PaymentProviderError,
  type OffSessionCharge,
  type OffSessionOutcome,
  type SavedCardFacts,
} from './provider.js';
import { cardBrandName } from '../../shared/subscription-card.js';

const idOf = (v: string | { id: string } | null | undefined): string | null => (typeof v === 'string' ? v : (v?.id ?? null));

/** Stripe did not answer, or answered that it could not now (5xx, rate limited): the same key may be asked again. */
function unanswered(err: unknown): boolean {
  return isStripeError(err, 'StripeConnectionError') || isStripeError(err, 'StripeAPIError') || isStripeError(err, 'StripeRateLimitError');
}

/**
 * The saved method and customer of a subscription's first payment, when the charge does not name its
 * method yet (Stripe's webhook names the payment intent, not its method): read from that payment intent.
 */
export async function methodOfFirstPayment(
  stripe: Stripe,
  paymentRef: string,
): Promise<{ paymentMethod: string | null; customer: string | null; card: SavedCardFacts | null }> {
  let first: Stripe.PaymentIntent;
  try {
    // [5/8]: the method expanded, so the customer's card (brand, last four) is known with it.
    first = await stripe.paymentIntents.retrieve(paymentRef, { expand: ['payment_method'] });
  } catch (err) {
    if (unanswered(err)) throw new PaymentProviderError('no_answer', stripeFailureMessage(err));
    if (isStripeError(err, 'StripeInvalidRequestError')) return { paymentMethod: null, customer: null, card: null };
    throw new PaymentProviderError('refused', stripeFailureMessage(err));
  }
  const method = typeof first.payment_method === 'object' ? first.payment_method : null;
  const card = method?.card ? { brand: cardBrandName(method.card.brand), last4: method.card.last4 } : null;
  return { paymentMethod: idOf(first.payment_method), customer: idOf(first.customer), card };
}

/** What a PaymentIntent Stripe answered (no error) says: paid, the bank wants the customer, or not paid. */
function outcomeOfIntent(pi: Stripe.PaymentIntent, paymentMethod: string): OffSessionOutcome {
  if (pi.status === 'succeeded')
    return {
      status: 'paid',
      payment: { amountCents: pi.amount_received, reference: pi.id },
      paymentMethodRef: idOf(pi.payment_method) ?? paymentMethod,
    };
  if (pi.status === 'requires_action' || pi.status === 'requires_confirmation')
    return { status: 'needs_customer', message: OFF_SESSION_MESSAGES.needsCustomer };
  // A card payment still processing may yet succeed: asked again under the same key, never charged anew.
  if (pi.status === 'processing') throw new PaymentProviderError('no_answer', 'Stripe is still processing this payment');
  return { status: 'declined', message: pi.last_payment_error?.message ?? OFF_SESSION_MESSAGES.declined };
}

/**
 * A renewal charged on the card Stripe Checkout saved (setup_future_usage = off_session): a
 * PaymentIntent for the customer and method, confirmed at once with the customer away, under the
 * charge's idempotency key (the SDK's own retries and the caller's use it: one key, one payment).
 *
 * Stripe answers a card it refuses with a 402 card error (the PaymentIntent left in
 * requires_payment_method): `authentication_required` means the bank wants the customer (3-D
 * Secure), anything else is a decline with Stripe's own message. A request Stripe rejects as such
 * (no such method, or one never attached to the customer) is a decline too: the customer must give
 * another card. No answer (network, timeout, Stripe's 5xx, rate limit) throws `no_answer`.
 */
export async function chargeStripeOffSession(stripe: Stripe, charge: OffSessionCharge): Promise<OffSessionOutcome> {
  let paymentMethod = charge.paymentMethodRef;
  let customer = charge.customerRef;
  let card: SavedCardFacts | null = null;
  if (!paymentMethod && charge.paymentRef) {
    const first = await methodOfFirstPayment(stripe, charge.paymentRef);
    paymentMethod = first.paymentMethod;
    customer ??= first.customer;
    card = first.card;
  }
  if (!paymentMethod) return { status: 'declined', message: OFF_SESSION_MESSAGES.noSavedMethod };
  try {
    const pi = await stripe.paymentIntents.create(
      {
        amount: charge.amountCents,
        currency: 'usd',
        ...(customer ? { customer } : {}),
        payment_method: paymentMethod,
        off_session: true,
        confirm: true,
        metadata: { orderId: charge.orderId },
      },
      { idempotencyKey: charge.idempotencyKey },
    );
    const outcome = outcomeOfIntent(pi, paymentMethod);
    return outcome.status === 'paid' && card ? { ...outcome, card } : outcome;
  } catch (err) {
    if (err instanceof PaymentProviderError) throw err;
    if (isStripeError(err, 'StripeCardError')) {
      const wantsCustomer =
        err.code === 'authentication_required' ||
        err.decline_code === 'authentication_required' ||
        err.payment_intent?.status === 'requires_action';
      return wantsCustomer
        ? { status: 'needs_customer', message: OFF_SESSION_MESSAGES.needsCustomer }
        : { status: 'declined', message: err.message || OFF_SESSION_MESSAGES.declined };
    }
    if (unanswered(err)) throw new PaymentProviderError('no_answer', stripeFailureMessage(err));
    // Not the card: a key reused with other parameters, a bad key. The caller's fault to see.
    if (!isStripeError(err, 'StripeInvalidRequestError')) throw new PaymentProviderError('refused', stripeFailureMessage(err));
    return { status: 'declined', message: err.message || OFF_SESSION_MESSAGES.declined };
  }
}
