import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { access } from '../http/access.js';
import { requireAdmin } from '../http/auth.js';
import { notFound, parseInput } from '../http/errors.js';
import { sessionActor } from '../orders/events.js';
import { SettleStrayPaymentInput, type StrayPaymentList } from '../../shared/schemas/payments.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin.js';
import { paymentMode } from './test-payments.js';
import { createStripeClient } from './stripe.js';
import { listStrayPayments, refundStrayPayment, settleStrayPayment } from './stray-payments.js';

const Id = z.object({ id: z.string().min(1).max(100) });
const NoFields = z.object({}).strict();

const actorOf = (req: FastifyRequest) => {
  requireAdmin(req);
  return sessionActor(req.session);
};

/**
 * The back office's view of payments (admin surface): whether they take real money, for its
 * banner; and payments that arrived for checkouts or links the shop had ended (stray payments),
 * on the dashboard and each order, with a retry of a failed refund and a settle-by-hand.
 */
export async function registerAdminPaymentRoutes(app: FastifyInstance, { config, db }: AppDeps): Promise<void> {
  const stripe = createStripeClient(config);
  app.get('/api/admin/payment-mode', access.admin, async () => paymentMode(config));

  app.get('/api/admin/stray-payments', access.admin, async (req, reply): Promise<StrayPaymentList> => {
    parseInput(NoFields, req.query);
    reply.header('Cache-Control', 'no-store');
    return (await listStrayPayments(db, { open: true }))!;
  });

  app.get('/api/admin/orders/:id/stray-payments', access.admin, async (req, reply): Promise<StrayPaymentList> => {
    const { id } = parseInput(Id, req.params);
    const list = await listStrayPayments(db, { orderId: id });
    if (!list) throw notFound(ADMIN_MESSAGES.orderNotFound);
    reply.header('Cache-Control', 'no-store');
    return list;
  });

  app.post('/api/admin/stray-payments/:id/retry', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    parseInput(NoFields, req.body ?? {});
    const actor = actorOf(req);
    const row = await refundStrayPayment(db, stripe, id, actor, { onlyOpen: true });
    return { status: row.status, error: row.error };
  });

  app.post('/api/admin/stray-payments/:id/settle', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const { note } = parseInput(SettleStrayPaymentInput, req.body);
    const row = await settleStrayPayment(db, id, note, actorOf(req));
    return { status: row.status };
  });
}
