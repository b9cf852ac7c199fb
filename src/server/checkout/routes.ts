import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { HttpError, notFound, parseInput } from '../http/errors.js';
import { CreateCheckoutSessionInput, type CheckoutSessionView } from '../../shared/schemas/checkout.js';
import { ensureDeviceHash } from '../lib/device.js';
import { orderViewer } from '../http/auth.js';
import { getOrderForViewer } from '../orders/service.js';
import { sessionActor } from '../orders/events.js';
import { adoptProviderSession, createCheckout, expirePaymentSession, fulfilPaymentSession } from './service.js';
import { findPaymentSession, getPaymentSession } from '../payments/service.js';
import { hitRateLimits } from '../http/rate-limit.js';
import { createStripeClient, createStripeCheckoutSession } from '../payments/stripe.js';
import { CHECKOUT_MESSAGES } from '../../shared/schemas/checkout.js';
import { access } from '../http/access.js';
import { closeDueProviderSessions, strayPaymentOfSession } from '../payments/stray-payments.js';
import { stripePaymentOf } from '../payments/stripe.js';
import { STRAY_PAYMENT_TEXTS } from '../../shared/schemas/payments.js';
import { formatCents } from '../../shared/money.js';

const IdParam = z.object({ id: z.string().min(1).max(100) });
/** The window of the checkout-creation limits (config.checkoutLimitPerIp, checkoutLimitPerDevice). */
const CHECKOUT_WINDOW_MS = 10 * 60_000;

export async function registerCheckoutRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, dialect, config } = deps;
  const stripe = createStripeClient(config);
  app.post('/api/create-checkout-session', access.public, async (req, reply) => {
    const input = parseInput(CreateCheckoutSessionInput, req.body);
    if (input.website) throw new HttpError(400, 'Please try again');
    const device = ensureDeviceHash(req, reply, config);
    // Counted before the work, per IP and per browser (one statement): a checkout holds stock and coupon uses.
    const [byIp = 0, byDevice = 0] = await hitRateLimits(db, [`checkout:ip:${req.ip}`, `checkout:device:${device}`], CHECKOUT_WINDOW_MS);
    if (byIp > config.checkoutLimitPerIp || byDevice > config.checkoutLimitPerDevice) {
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
      // An admin acting as the customer places it in their own name (as the customer).
      ...(req.session?.impersonator ? { actor: sessionActor(req.session) } : {}),
    });
    reply.header('Cache-Control', 'no-store');
    // The browser's earlier checkouts have ended here; a Stripe page of one stops taking payments
    // now (else the payments worker closes it on its next turn; a payment it took meanwhile is refunded).
    await closeDueProviderSessions(
      db,
      stripe,
      req.log,
      created.superseded.map((s) => s.sessionId),
    );
    if (!stripe) return { url: created.url, sessionId: created.sessionId, orderId: created.orderId };

    // The order and its holds exist; now the hosted page. If Stripe fails, the holds end at once.
    try {
      const remote = await createStripeCheckoutSession(stripe, db, created.orderId, config.publicUrl, now);
      await adoptProviderSession(db, created, remote);
      return { url: remote.url, sessionId: remote.id, orderId: created.orderId };
    } catch (err) {
      req.log.error({ err, orderId: created.orderId }, 'Stripe checkout session failed');
      await expirePaymentSession(db, created.sessionId, 'cancelled');
      throw new HttpError(502, CHECKOUT_MESSAGES.sessionFallback);
    }
  });

  app.get('/api/checkout-session/:id', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    let session = await findPaymentSession(db, id);
    let order = session ? await getOrderForViewer(db, session.order_id, orderViewer(req)) : null;
    if (!session || !order) throw notFound('Checkout session not found');
    reply.header('Cache-Control', 'no-store');
    // The buyer may be back before Stripe's webhook: ask Stripe, and fulfil (idempotently) if paid.
    if (stripe && session.provider === 'stripe' && !order.paidAt) {
      const remote = await stripe.checkout.sessions.retrieve(session.id).catch((err: unknown) => {
        req.log.warn({ err }, 'could not retrieve the Stripe session');
        return null;
      });
      if (remote?.payment_status === 'paid') {
        await fulfilPaymentSession(db, dialect, session.id, {
          publicUrl: config.publicUrl,
          stripe,
          log: req.log,
          paid: stripePaymentOf(remote),
        });
        session = await getPaymentSession(db, id);
        order = (await getOrderForViewer(db, session.order_id, orderViewer(req)))!;
      }
    }
    const stray = await strayPaymentOfSession(db, session.id);
    return {
      id: session.id,
      status: session.status,
      ...(stray ? { refund_note: STRAY_PAYMENT_TEXTS.payer(formatCents(Number(stray.amount_cents)), order.orderNumber) } : {}),
      // Refunded later or not, the checkout itself was paid.
      payment_status: order.paidAt ? 'paid' : 'unpaid',
      amount_total: session.amount_cents,
      currency: 'usd',
      metadata: { orderId: order.id },
    } satisfies CheckoutSessionView;
  });
}
