import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { access } from '../http/access.js';
import { cardProblem, CARD_MESSAGES, keptTestCard, renderTestSetupPage, type CardInput } from './test-checkout-page.js';
import { forgetTestPaymentMethod, keepTestPaymentMethod } from './test-payment-methods.js';
import type { CardSetupOutcomes } from './provider.js';
import { CARD_UPDATE_MESSAGES } from '../../shared/subscription-card.js';

const IdParam = z.object({ id: z.string().min(1).max(100) });
const PageQuery = z.object({ declined: z.string().max(10).optional() });
const CardForm = z.object({
  cardNumber: z.string().max(40).optional(),
  expiry: z.string().max(10).optional(),
  cvc: z.string().max(10).optional(),
  name: z.string().max(100).optional(),
});

/**
 * The built-in test card page in setup mode ([5/8], pages surface): a subscription's new card, as
 * Stripe Checkout in setup mode takes it, nothing charged. Its state and what a saved card does
 * are subscriptions' (`cardSetups`, wired by app.ts); this page keeps the test card (behaviour,
 * brand, last four) and gives it to them, forgetting it again when they refuse it.
 */
export async function registerTestCardSetupPages(app: FastifyInstance, deps: AppDeps & { cardSetups: CardSetupOutcomes }): Promise<void> {
  const { db, cardSetups } = deps;
  const page = (reply: FastifyReply, status: number, html: string) =>
    reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').header('X-Robots-Tag', 'noindex').send(html);
  const unknown = (reply: FastifyReply, id: string) =>
    page(reply, 404, renderTestSetupPage({ setupId: id, email: null, terms: null, closed: CARD_UPDATE_MESSAGES.notFound, backHref: '/' }));

  app.get('/pay/setup/:id', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    const { declined } = parseInput(PageQuery, req.query);
    const state = await cardSetups.state(id);
    if (!state) return unknown(reply, id);
    return page(
      reply,
      200,
      renderTestSetupPage({
        setupId: id,
        email: state.email,
        terms: state.terms,
        closed: state.closed,
        backHref: state.backHref,
        error: declined === '1' ? CARD_MESSAGES.declined : null,
      }),
    );
  });

  app.post('/pay/setup/:id', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    const card: CardInput = parseInput(CardForm, req.body);
    const state = await cardSetups.state(id);
    if (!state) return unknown(reply, id);
    const shown = { setupId: id, email: state.email, terms: state.terms, backHref: state.backHref };
    if (state.closed) return page(reply, 409, renderTestSetupPage({ ...shown, closed: state.closed }));
    const problem = cardProblem(card);
    // Declined: a redirect (POST, 303, GET), so a reload shows the page again rather than sending the form once more.
    if (problem === CARD_MESSAGES.declined)
      return reply.header('Cache-Control', 'no-store').redirect(`/pay/setup/${encodeURIComponent(id)}?declined=1`, 303);
    if (problem) return page(reply, 402, renderTestSetupPage({ ...shown, error: problem, values: card }));
    const kept = keptTestCard(card.cardNumber);
    if (!kept) return page(reply, 402, renderTestSetupPage({ ...shown, error: CARD_MESSAGES.number, values: card }));
    const methodId = await keepTestPaymentMethod(db, kept);
    // Decided again under the subscription's lock: used, run out or cancelled since the page was read, nothing is saved.
    const result = await cardSetups.saved(id, { paymentMethodRef: methodId, customerRef: null, brand: kept.brand, last4: kept.last4 });
    if (!result.saved) {
      await forgetTestPaymentMethod(db, methodId);
      return page(reply, 409, renderTestSetupPage({ ...shown, closed: result.message }));
    }
    return reply.header('Cache-Control', 'no-store').redirect(result.returnUrl, 303);
  });

  // Leaving changes state (the page ends), so it is the page's form button; a GET goes back to the page.
  app.post('/pay/setup/:id/cancel', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    return reply.header('Cache-Control', 'no-store').redirect(await cardSetups.left(id), 303);
  });
  app.get('/pay/setup/:id/cancel', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    return reply.redirect(`/pay/setup/${encodeURIComponent(id)}`, 303);
  });
}
