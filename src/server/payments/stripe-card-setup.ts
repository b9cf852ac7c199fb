import type Stripe from 'stripe';
import { isStripeError } from './stripe-sdk.js';
import { stripeFailureMessage } from './stripe.js';
import { PaymentProviderError, type CardSetupInput, type OpenedCardSetup, type SavedCard } from './provider.js';
import { cardBrandName } from '../../shared/subscription-card.js';

const idOf = (v: string | { id: string } | null | undefined): string | null => (typeof v === 'string' ? v : (v?.id ?? null));

/** Stripe did not answer, or answered that it could not now: the same key may be asked again. */
function unanswered(err: unknown): boolean {
  return isStripeError(err, 'StripeConnectionError') || isStripeError(err, 'StripeAPIError') || isStripeError(err, 'StripeRateLimitError');
}

function providerError(err: unknown): PaymentProviderError {
  if (err instanceof PaymentProviderError) return err;
  return new PaymentProviderError(unanswered(err) ? 'no_answer' : 'refused', stripeFailureMessage(err));
}

/**
 * A new card for a subscription ([5/8]), nothing charged: a Checkout Session in setup mode for the
 * subscription's Stripe customer (one is made first when it has none: a card off-session must be
 * attached to a customer), cards only, which Stripe attaches to that customer when the page is
 * completed. Both requests carry the shop's setup id in their idempotency key, so a retried
 * request makes no second customer nor page.
 */
export async function openStripeCardSetup(stripe: Stripe, input: CardSetupInput): Promise<OpenedCardSetup> {
  try {
    const customer =
      input.customerRef ??
      (
        await stripe.customers.create(
          { email: input.email, metadata: input.metadata },
          { idempotencyKey: `card-setup-customer-${input.setupId}` },
        )
      ).id;
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'setup',
        customer,
        currency: 'usd',
        allowed_payment_method_types: ['card'],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        // Stripe's shortest allowed life is 30 minutes; the shop's page runs out with it.
        expires_at: Math.floor(input.expiresAt.getTime() / 1000),
        metadata: input.metadata,
        setup_intent_data: { metadata: input.metadata },
      },
      { idempotencyKey: `card-setup-${input.setupId}` },
    );
    if (!session.url) throw new PaymentProviderError('refused', 'Stripe answered without a page for the card');
    return { id: session.id, url: session.url, customerRef: customer };
  } catch (err) {
    throw providerError(err);
  }
}

/**
 * The card a setup-mode Checkout Session saved, read from Stripe (the webhook's word, or the
 * customer back first): the session complete, its SetupIntent succeeded, and the card's brand and
 * last four digits from the PaymentMethod. Null while it is not (or never was) complete.
 */
export async function lookUpStripeCardSetup(stripe: Stripe, sessionId: string): Promise<SavedCard | null> {
  try {
    const session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ['setup_intent.payment_method'] });
    if (session.mode !== 'setup' || session.status !== 'complete' || !session.setup_intent) return null;
    const intent =
      typeof session.setup_intent === 'string'
        ? await stripe.setupIntents.retrieve(session.setup_intent, { expand: ['payment_method'] })
        : session.setup_intent;
    if (intent.status !== 'succeeded' || !intent.payment_method) return null;
    const method =
      typeof intent.payment_method === 'string' ? await stripe.paymentMethods.retrieve(intent.payment_method) : intent.payment_method;
    if (!method.card) return null;
    return {
      paymentMethodRef: method.id,
      customerRef: idOf(session.customer) ?? idOf(intent.customer) ?? idOf(method.customer),
      brand: cardBrandName(method.card.brand),
      last4: method.card.last4,
    };
  } catch (err) {
    throw providerError(err);
  }
}
