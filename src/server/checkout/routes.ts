import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type Stripe from 'stripe';
import type { AppDeps } from '../app.js';
import { HttpError, notFound, parseInput } from '../http/errors.js';
import { CreateCheckoutSessionInput, QuoteInput, type CheckoutSessionView } from '../../shared/schemas/checkout.js';
import { priceCart } from '../cart/service.js';
import { deviceHash, ensureDeviceHash } from '../lib/device.js';
import { getOrderForViewer, type OrderAccess } from '../orders/service.js';
import { accountActor, recordOrderEvent } from '../orders/events.js';
import { assertOrderWithinBounds, createCheckout, expirePaymentSession, fulfilPaymentSession, recordDeclinedPayment } from './service.js';
import { hitRateLimit } from '../http/rate-limit.js';
import { cardProblem, CARD_MESSAGES, renderTestCheckoutPage, type CardInput } from '../payments/test-checkout-page.js';
import { createStripeClient, createStripeCheckoutSession } from '../payments/stripe.js';
import { CHECKOUT_MESSAGES } from '../../shared/schemas/checkout.js';
import { access } from '../http/access.js';

const IdParam = z.object({ id: z.string().min(1).max(100) });
/** The window of the checkout-creation limits (config.checkoutLimitPerIp, checkoutLimitPerDevice). */
const CHECKOUT_WINDOW_MS = 10 * 60_000;
const CardForm = z.object({
  cardNumber: z.string().max(40).optional(),
  expiry: z.string().max(10).optional(),
  cvc: z.string().max(10).optional(),
  name: z.string().max(100).optional(),
});

export function registerCheckoutRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, dialect, config } = deps;
  const stripe = createStripeClient(config);
  const viewer = (req: Parameters<typeof deviceHash>[0]): OrderAccess => ({
    userId: req.session?.user.id ?? null,
    isAdmin: req.session?.user.role === 'admin',
    deviceHash: deviceHash(req),
  });

  app.post('/api/cart/quote', { config: { ...access.public.config, changesNoSession: true } }, async (req, reply) => {
    const input = parseInput(QuoteInput, req.body);
    reply.header('Cache-Control', 'no-store');
    const { couponId: _couponId, ...quote } = await priceCart(
      db,
      dialect,
      { lines: input.lines, couponCode: input.couponCode, shippingOptionId: input.shippingOptionId },
      { userId: req.session?.user.id ?? null, deviceHash: deviceHash(req), now: new Date() },
    );
    assertOrderWithinBounds(quote);
    return quote;
  });

  app.post('/api/create-checkout-session', access.public, async (req, reply) => {
    const input = parseInput(CreateCheckoutSessionInput, req.body);
    if (input.website) throw new HttpError(400, 'Please try again');
    const device = ensureDeviceHash(req, reply, config);
    // Counted before the work, per IP and per browser: a checkout holds stock and coupon uses.
    if (
      (await hitRateLimit(db, `checkout:ip:${req.ip}`, CHECKOUT_WINDOW_MS)) > config.checkoutLimitPerIp ||
      (await hitRateLimit(db, `checkout:device:${device}`, CHECKOUT_WINDOW_MS)) > config.checkoutLimitPerDevice
    ) {
      throw new HttpError(429, CHECKOUT_MESSAGES.tooManyCheckouts);
    }
    const now = new Date();
    const created = await createCheckout(db, dialect, input, {
      userId: req.session?.user.id ?? null,
      deviceHash: device,
      ip: req.ip,
      maxUnitsHeld: config.checkoutMaxUnitsHeld,
      now,
      provider: stripe ? 'stripe' : 'test',
      sessionUrl: (id) => `${config.publicUrl}/pay/${id}`,
    });
    reply.header('Cache-Control', 'no-store');
    // The browser's earlier checkouts have ended here; a Stripe page of one must stop taking payments too.
    for (const old of created.superseded) {
      if (stripe && old.provider === 'stripe') {
        await stripe.checkout.sessions
          .expire(old.sessionId)
          .catch((err: unknown) => req.log.warn({ err, sessionId: old.sessionId }, 'could not expire a replaced Stripe session'));
      }
    }
    if (!stripe) return { url: created.url, sessionId: created.sessionId, orderId: created.orderId };

    // The order and its holds exist; now the hosted page. If Stripe fails, the holds end at once.
    try {
      const remote = await createStripeCheckoutSession(stripe, db, created.orderId, config.publicUrl, now);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('payment_sessions').set({ id: remote.id, url: remote.url }).where('id', '=', created.sessionId).execute();
        await trx.updateTable('orders').set({ payment_session_id: remote.id }).where('id', '=', created.orderId).execute();
      });
      return { url: remote.url, sessionId: remote.id, orderId: created.orderId };
    } catch (err) {
      req.log.error({ err, orderId: created.orderId }, 'Stripe checkout session failed');
      await expirePaymentSession(db, created.sessionId, 'cancelled');
      throw new HttpError(502, CHECKOUT_MESSAGES.sessionFallback);
    }
  });

  app.get('/api/checkout-session/:id', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    let session = await db.selectFrom('payment_sessions').selectAll().where('id', '=', id).executeTakeFirst();
    let order = session ? await getOrderForViewer(db, session.order_id, viewer(req)) : null;
    if (!session || !order) throw notFound('Checkout session not found');
    reply.header('Cache-Control', 'no-store');
    // The buyer may be back before Stripe's webhook: ask Stripe, and fulfil (idempotently) if paid.
    if (stripe && session.provider === 'stripe' && !order.paidAt) {
      const remote = await stripe.checkout.sessions.retrieve(session.id).catch((err: unknown) => {
        req.log.warn({ err }, 'could not retrieve the Stripe session');
        return null;
      });
      if (remote?.payment_status === 'paid') {
        await fulfilPaymentSession(db, dialect, session.id, { publicUrl: config.publicUrl });
        session = await db.selectFrom('payment_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        order = (await getOrderForViewer(db, session.order_id, viewer(req)))!;
      }
    }
    return {
      id: session.id,
      status: session.status,
      // Refunded later or not, the checkout itself was paid.
      payment_status: order.paidAt ? 'paid' : 'unpaid',
      amount_total: session.amount_cents,
      currency: 'usd',
      metadata: { orderId: order.id },
    } satisfies CheckoutSessionView;
  });

  app.get('/api/orders/:id', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    const order = await getOrderForViewer(db, id, viewer(req));
    if (!order) throw notFound('Order not found');
    // An admin acting as the customer looked at the customer's order: the owner's timeline keeps it.
    const impersonator = req.session?.impersonator;
    if (impersonator)
      await recordOrderEvent(db, order.id, 'viewed.impersonated', accountActor(impersonator), {
        asUserId: req.session?.user.id ?? null,
        asEmail: req.session?.user.email ?? null,
      });
    reply.header('Cache-Control', 'no-store');
    return { order };
  });
}

/** The built-in test checkout (pages surface): a hosted card page in the same flow shape as the real provider. */
export function registerTestCheckoutPages(app: FastifyInstance, deps: AppDeps): void {
  const { db, dialect, config } = deps;

  const loadPayable = async (id: string) => {
    const session = await db
      .selectFrom('payment_sessions')
      .selectAll()
      .where('id', '=', id)
      .where('provider', '=', 'test')
      .executeTakeFirst();
    if (!session) return null;
    const order = await db
      .selectFrom('orders')
      .select(['id', 'email', 'payment_status'])
      .where('id', '=', session.order_id)
      .executeTakeFirstOrThrow();
    let closed: string | null = null;
    if (order.payment_status === 'paid' || order.payment_status === 'refunded') closed = CARD_MESSAGES.paid;
    else if (session.status !== 'open' || session.expires_at <= new Date().toISOString()) closed = CARD_MESSAGES.expired;
    return { session, order, closed };
  };

  const page = (reply: FastifyReply, status: number, html: string) =>
    reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').header('X-Robots-Tag', 'noindex').send(html);

  app.get('/pay/:id', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    const p = await loadPayable(id);
    if (!p)
      return page(reply, 404, renderTestCheckoutPage({ sessionId: id, amountCents: 0, email: null, closed: 'Payment session not found.' }));
    return page(
      reply,
      200,
      renderTestCheckoutPage({ sessionId: id, amountCents: p.session.amount_cents, email: p.order.email, closed: p.closed }),
    );
  });

  app.post('/pay/:id', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    const card: CardInput = parseInput(CardForm, req.body);
    const p = await loadPayable(id);
    if (!p)
      return page(reply, 404, renderTestCheckoutPage({ sessionId: id, amountCents: 0, email: null, closed: 'Payment session not found.' }));
    if (p.closed)
      return page(
        reply,
        409,
        renderTestCheckoutPage({ sessionId: id, amountCents: p.session.amount_cents, email: p.order.email, closed: p.closed }),
      );
    const problem = cardProblem(card);
    if (problem) {
      if (problem === CARD_MESSAGES.declined) await recordDeclinedPayment(db, id);
      return page(
        reply,
        402,
        renderTestCheckoutPage({ sessionId: id, amountCents: p.session.amount_cents, email: p.order.email, error: problem, values: card }),
      );
    }
    await fulfilPaymentSession(db, dialect, id, { publicUrl: config.publicUrl });
    return reply.redirect(`/order-confirmation?session_id=${encodeURIComponent(id)}&orderId=${encodeURIComponent(p.order.id)}`, 303);
  });

  // Cancelling changes state, so it is the card page's form button (a POST). A GET of the same
  // address (an old link, a prefetch, a crawler) changes nothing: it goes back to the card page.
  app.post('/pay/:id/cancel', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    const p = await loadPayable(id);
    if (p && !p.closed) await expirePaymentSession(db, id, 'cancelled');
    return reply.redirect('/checkout?canceled=true', 303);
  });

  app.get('/pay/:id/cancel', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    return reply.redirect(`/pay/${encodeURIComponent(id)}`, 303);
  });
}

/**
 * Stripe's webhook: the signature is checked on the raw body, then paid sessions are fulfilled
 * (idempotently: Stripe delivers an event more than once) and expired ones release their holds.
 */
export async function registerStripeWebhook(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, dialect, config } = deps;
  const stripe = createStripeClient(config);
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));
    scope.post('/api/webhooks/stripe', access.public, async (req, reply) => {
      if (!stripe || !config.stripeWebhookSecret) throw new HttpError(404, 'Stripe is not configured');
      const signature = req.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(req.body)) throw new HttpError(400, 'Missing Stripe signature');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(req.body, signature, config.stripeWebhookSecret);
      } catch {
        throw new HttpError(400, 'Invalid Stripe signature');
      }
      if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') {
        const s = event.data.object;
        if (s.payment_status === 'paid') {
          const known = await db.selectFrom('payment_sessions').select('id').where('id', '=', s.id).executeTakeFirst();
          if (known) await fulfilPaymentSession(db, dialect, s.id, { publicUrl: config.publicUrl });
          else req.log.warn({ sessionId: s.id }, 'webhook for an unknown checkout session');
        }
      } else if (event.type === 'checkout.session.expired') {
        await expirePaymentSession(db, event.data.object.id, 'expired');
      }
      return reply.send({ received: true });
    });
  });
}
