import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { access } from '../http/access.js';
import { requireAdmin } from '../http/auth.js';
import { notFound, parseInput } from '../http/errors.js';
import { recordOrderEvent, sessionActor } from './events.js';
import { SettleStrayPaymentInput, type StrayPaymentList } from '../../shared/schemas/payments.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { listStrayPayments, refundStrayPayment, settleStrayPayment } from '../payments/stray-payments.js';

const Id = z.object({ id: z.string().min(1).max(100) });
const NoFields = z.object({}).strict();

const actorOf = (req: FastifyRequest) => {
  requireAdmin(req);
  return sessionActor(req.session);
};

/**
 * The owner's stray payments (admin surface): payments that arrived for checkouts or links the shop
 * had ended, on the dashboard and each order, with a retry of a failed refund and a settle-by-hand.
 * The payments module keeps them and asks the provider; what happened goes on the order's timeline,
 * which only orders/ writes (hence these routes here, passing recordOrderEvent in).
 */
export async function registerStrayPaymentRoutes(app: FastifyInstance, { db, payments }: AppDeps): Promise<void> {
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
    const row = await refundStrayPayment(db, payments, id, recordOrderEvent, actor, { onlyOpen: true });
    return { status: row.status, error: row.error };
  });

  app.post('/api/admin/stray-payments/:id/settle', access.admin, async (req) => {
    const { id } = parseInput(Id, req.params);
    const { note } = parseInput(SettleStrayPaymentInput, req.body);
    const row = await settleStrayPayment(db, id, note, actorOf(req), recordOrderEvent);
    return { status: row.status };
  });
}
