import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { HttpError, parseInput } from '../http/errors.js';
import { access } from '../http/access.js';
import { cardProblem, CARD_MESSAGES, keptTestCard, renderTestCheckoutPage, type CardInput } from './test-checkout-page.js';
import { forgetTestPaymentMethod, keepTestPaymentMethod } from './test-payment-methods.js';
import { PaymentProviderError, type CardSetupOutcomes, type PaymentOutcomes, type ProviderEvent } from './provider.js';
import { findPayableTestSession, isKnownPaymentSession, paymentLinkOutcome, type PayableTestSession } from './service.js';
import { cardPageOrder } from './card-page-lines.js';
import { formatCents } from '../../shared/money.js';
import { STRAY_PAYMENT_TEXTS } from '../../shared/schemas/payments.js';

const IdParam = z.object({ id: z.string().min(1).max(100) });
/** The card page's address after a declined card (?declined=1); other parameters (a link's tracking) are ignored. */
const PayPageQuery = z.object({ declined: z.string().max(10).optional() });
const CardForm = z.object({
  cardNumber: z.string().max(40).optional(),
  expiry: z.string().max(10).optional(),
  cvc: z.string().max(10).optional(),
  name: z.string().max(100).optional(),
});

/** The built-in test checkout (pages surface): a hosted card page in the same flow shape as the real provider. */
export async function registerTestCheckoutPages(app: FastifyInstance, deps: AppDeps & { outcomes: PaymentOutcomes }): Promise<void> {
  const { db, outcomes } = deps;

  const page = (reply: FastifyReply, status: number, html: string) =>
    reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').header('X-Robots-Tag', 'noindex').send(html);

  /**
   * The card page of an order paid since (Back after paying, a reload, a second tab): said as a
   * fact, not an error, with the way to the order. A checkout's order opens on its confirmation
   * (readable by the browser or account that placed it); a link the shop e-mailed has no page
   * the payer may read, so it offers only the shop.
   */
  const alreadyPaid = (reply: FastifyReply, status: number, p: PayableTestSession) =>
    page(
      reply,
      status,
      renderTestCheckoutPage({
        sessionId: p.session.id,
        amountCents: p.session.amount_cents,
        email: p.order.email,
        alreadyPaidLink: p.order.origin === 'owner' ? null : `/order-confirmation?orderId=${encodeURIComponent(p.order.id)}`,
      }),
    );

  app.get('/pay/:id', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    const { declined } = parseInput(PayPageQuery, req.query);
    const p = await findPayableTestSession(db, id);
    if (!p)
      return page(reply, 404, renderTestCheckoutPage({ sessionId: id, amountCents: 0, email: null, closed: 'Payment session not found.' }));
    if (p.closed === CARD_MESSAGES.paid) return alreadyPaid(reply, 200, p);
    return page(
      reply,
      200,
      renderTestCheckoutPage({
        sessionId: id,
        amountCents: p.session.amount_cents,
        email: p.order.email,
        closed: p.closed,
        order: p.closed ? null : await cardPageOrder(db, p.order.id),
        // Where a declined card's POST sends the browser: the page again, saying so.
        error: declined === '1' ? CARD_MESSAGES.declined : null,
      }),
    );
  });

  app.post('/pay/:id', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    const card: CardInput = parseInput(CardForm, req.body);
    const p = await findPayableTestSession(db, id);
    if (!p)
      return page(reply, 404, renderTestCheckoutPage({ sessionId: id, amountCents: 0, email: null, closed: 'Payment session not found.' }));
    if (p.closed === CARD_MESSAGES.paid) return alreadyPaid(reply, 409, p);
    if (p.closed)
      return page(
        reply,
        409,
        renderTestCheckoutPage({ sessionId: id, amountCents: p.session.amount_cents, email: p.order.email, closed: p.closed }),
      );
    const problem = cardProblem(card);
    // Declined: answered with a redirect (POST, 303, GET), so Back or reload shows the page again
    // rather than offering to send the card form once more ("Confirm Form Resubmission").
    if (problem === CARD_MESSAGES.declined) {
      await outcomes.declined(id);
      return reply.header('Cache-Control', 'no-store').redirect(`/pay/${encodeURIComponent(id)}?declined=1`, 303);
    }
    // A typing slip: the page again at once, with what was typed (but never the card number or CVC).
    if (problem) {
      return page(
        reply,
        402,
        renderTestCheckoutPage({
          sessionId: id,
          amountCents: p.session.amount_cents,
          email: p.order.email,
          error: problem,
          values: card,
          order: await cardPageOrder(db, p.order.id),
        }),
      );
    }
    // An order with subscription lines keeps the card for its renewals (what the test card says
    // they do, its brand and last four digits; never the number), named in the payment as Stripe's
    // saved customer and method are.
    const kept = p.keepsMethod ? keptTestCard(card.cardNumber) : null;
    const methodId = kept ? await keepTestPaymentMethod(db, kept) : null;
    // Decided again under the order's lock: a cancel, another payment or a new link may have come
    // since the page was read, and then this card is not charged (two payers: one pays).
    const result = await outcomes.paid(id, {
      log: req.log,
      ...(methodId ? { paid: { amountCents: null, reference: null, saved: { customerRef: null, paymentMethodRef: methodId } } } : {}),
    });
    if (!result.fulfilled && methodId) await forgetTestPaymentMethod(db, methodId);
    if (!result.fulfilled) {
      if (result.refused === undefined || result.refused === 'order_paid') return alreadyPaid(reply, 409, p);
      return page(
        reply,
        409,
        renderTestCheckoutPage({ sessionId: id, amountCents: p.session.amount_cents, email: p.order.email, closed: CARD_MESSAGES.expired }),
      );
    }
    // A link the shop e-mailed for an order it typed in: the payer may have no account nor this
    // browser's checkout, so the thanks are said here rather than on the order page.
    if (p.order.origin === 'owner')
      return page(
        reply,
        200,
        renderTestCheckoutPage({
          sessionId: id,
          amountCents: p.session.amount_cents,
          email: p.order.email,
          done: CARD_MESSAGES.linkPaid(formatCents(p.session.amount_cents), p.order.order_number),
        }),
      );
    return reply.redirect(`/order-confirmation?session_id=${encodeURIComponent(id)}&orderId=${encodeURIComponent(p.order.id)}`, 303);
  });

  // Stripe's page sends the payer of a link the shop e-mailed here (stripe.ts): the thanks for
  // that payment, read from the shop's own record (the session's id is Stripe's, unguessable).
  app.get('/pay/:id/done', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    const found = await paymentLinkOutcome(db, id);
    if (!found)
      return page(reply, 404, renderTestCheckoutPage({ sessionId: id, amountCents: 0, email: null, closed: 'Payment session not found.' }));
    const amount = formatCents(found.amountCents);
    return page(
      reply,
      200,
      renderTestCheckoutPage({
        sessionId: id,
        amountCents: found.amountCents,
        email: found.email,
        done:
          found.strayCents !== null
            ? STRAY_PAYMENT_TEXTS.payer(formatCents(found.strayCents), found.orderNumber)
            : found.paid
              ? CARD_MESSAGES.linkPaid(amount, found.orderNumber)
              : CARD_MESSAGES.linkConfirming(found.orderNumber),
      }),
    );
  });

  // Cancelling changes state, so it is the card page's form button (a POST). A GET of the same
  // address (an old link, a prefetch, a crawler) changes nothing: it goes back to the card page.
  app.post('/pay/:id/cancel', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    const p = await findPayableTestSession(db, id);
    // A link the shop sent stays payable until it runs out: leaving its page only goes to the shop.
    if (p?.order.origin === 'owner') return reply.redirect('/', 303);
    if (p && !p.closed) await outcomes.ended(id, 'cancelled');
    return reply.redirect('/checkout?canceled=true', 303);
  });

  app.get('/pay/:id/cancel', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    return reply.redirect(`/pay/${encodeURIComponent(id)}`, 303);
  });
}

/**
 * Stripe's webhook: the signature is checked on the raw body (the provider's parseWebhook), then paid
 * sessions are fulfilled (idempotently: Stripe delivers an event more than once) and expired ones
 * release their holds.
 */
export async function registerStripeWebhook(
  app: FastifyInstance,
  deps: AppDeps & { outcomes: PaymentOutcomes; cardSetups?: CardSetupOutcomes },
): Promise<void> {
  const { db, outcomes } = deps;
  const stripe = deps.payments.of('stripe');
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));
    scope.post('/api/webhooks/stripe', access.public, async (req, reply) => {
      if (!stripe.parseWebhook) throw new HttpError(404, 'Stripe is not configured');
      const signature = req.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(req.body)) throw new HttpError(400, 'Missing Stripe signature');
      let event: ProviderEvent;
      try {
        event = stripe.parseWebhook(req.body, signature);
      } catch (err) {
        if (err instanceof PaymentProviderError) throw new HttpError(400, 'Invalid Stripe signature');
        throw err;
      }
      if (event.type === 'paid') {
        if (await isKnownPaymentSession(db, event.sessionId))
          await outcomes.paid(event.sessionId, {
            log: req.log,
            paid: event.payment,
            ...(event.offersConsent ? { offersConsent: true } : {}),
          });
        else req.log.warn({ sessionId: event.sessionId }, 'webhook for an unknown checkout session');
      } else if (event.type === 'expired') {
        await outcomes.ended(event.sessionId, 'expired');
      } else if (event.type === 'card_saved') {
        // [5/8]: a subscription's new card (setup mode), read back from Stripe and saved once.
        if (deps.cardSetups) await deps.cardSetups.completed(event.sessionId, req.log);
        else req.log.warn({ sessionId: event.sessionId }, 'card setup webhook with nothing to save it');
      }
      return reply.send({ received: true });
    });
  });
}
