import { recordMarketingConsent } from '../marketing/consent.js';
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
import { findPaymentSession } from '../payments/service.js';
import { hitRateLimits } from '../http/rate-limit.js';
import { CHECKOUT_MESSAGES } from '../../shared/schemas/checkout.js';
import { access } from '../http/access.js';
import { closeDueProviderSessions, strayPaymentOfSession } from '../payments/stray-payments.js';
import { PROVIDER_SESSION_TTL_MS } from '../payments/session-times.js';
import { STRAY_PAYMENT_TEXTS } from '../../shared/schemas/payments.js';
import { formatCents } from '../../shared/money.js';

const IdParam = z.object({ id: z.string().min(1).max(100) });
const NoFields = z.object({}).strict();
/** The window of the checkout-creation limits (config.checkoutLimitPerIp, checkoutLimitPerDevice). */
const CHECKOUT_WINDOW_MS = 10 * 60_000;

export async function registerCheckoutRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, dialect, config, payments } = deps;
  const card = payments.card;
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
      provider: card.name,
      sessionUrl: (id) => `${config.publicUrl}/pay/${id}`,
      // An admin acting as the customer places it in their own name (as the customer).
      ...(req.session?.impersonator ? { actor: sessionActor(req.session) } : {}),
    });
    reply.header('Cache-Control', 'no-store');
    // The shopper's yes to offers (an address that unsubscribed stays so); never an admin's, acting as them.
    if (input.marketing && !req.session?.impersonator)
      await recordMarketingConsent(db, { email: input.customerEmail, userId: req.session?.user.id ?? null, source: 'checkout', now });
    // The browser's earlier checkouts have ended here; a Stripe page of one stops taking payments
    // now (else the payments worker closes it on its next turn; a payment it took meanwhile is refunded).
    await closeDueProviderSessions(
      db,
      payments,
      req.log,
      created.superseded.map((s) => s.sessionId),
    );
    // The order and its holds exist; now the provider's page (the test card page is the session's own).
    // If the provider fails, the holds end at once.
    try {
      const remote = await card.openPayment(db, {
        orderId: created.orderId,
        sessionId: created.sessionId,
        expiresAt: new Date(now.getTime() + PROVIDER_SESSION_TTL_MS),
        // Subscription lines: the page keeps the card for renewals charged with the customer away (issue [4/8]).
        ...(created.keepMethod ? { keepMethod: true } : {}),
      });
      if (remote.id !== created.sessionId) await adoptProviderSession(db, created, remote);
      return { url: remote.url, sessionId: remote.id, orderId: created.orderId };
    } catch (err) {
      req.log.error({ err, orderId: created.orderId }, 'the payment provider could not open a page');
      await expirePaymentSession(db, created.sessionId, 'cancelled');
      throw new HttpError(502, CHECKOUT_MESSAGES.sessionFallback);
    }
  });

  // Reads only: a GET never completes a payment (a prefetch, a crawler or a replayed link changes nothing).
  app.get('/api/checkout-session/:id', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    reply.header('Cache-Control', 'no-store');
    return checkoutSessionView(deps, id, orderViewer(req));
  });

  // The shopper is back from the provider's page, maybe before its webhook: the return page asks the
  // server (a POST) to look the session up at the provider, and a paid one is fulfilled (idempotently).
  app.post('/api/checkout-session/:id/confirm', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    parseInput(NoFields, req.body ?? {});
    reply.header('Cache-Control', 'no-store');
    const viewer = orderViewer(req);
    const session = await findPaymentSession(db, id);
    const order = session ? await getOrderForViewer(db, session.order_id, viewer) : null;
    if (!session || !order) throw notFound('Checkout session not found');
    if (!order.paidAt) {
      const lookup = await payments
        .of(session.provider)
        .lookUpPayment(session.id)
        .catch((err: unknown) => {
          req.log.warn({ err }, 'could not look the payment session up at its provider');
          return { paid: false as const };
        });
      if (lookup.paid)
        await fulfilPaymentSession(db, dialect, session.id, { publicUrl: config.publicUrl, payments, log: req.log, paid: lookup.payment });
    }
    return checkoutSessionView(deps, id, viewer);
  });
}

/** The session as the shopper's return page reads it: its state, its order's payment, a refund note for a stray payment. */
async function checkoutSessionView(
  { db }: Pick<AppDeps, 'db'>,
  id: string,
  viewer: ReturnType<typeof orderViewer>,
): Promise<CheckoutSessionView> {
  const session = await findPaymentSession(db, id);
  const order = session ? await getOrderForViewer(db, session.order_id, viewer) : null;
  if (!session || !order) throw notFound('Checkout session not found');
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
}
