import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pageQuery } from '../../shared/schemas/paging.js';
import type { AppDeps } from '../app.js';
import { notFound, parseInput } from '../http/errors.js';
import { access } from '../http/access.js';
import { orderViewer, requireUser } from '../http/auth.js';
import { getOrderForViewer, listOrders } from './service.js';
import { accountActor, recordOrderEvent } from './events.js';

const IdParam = z.object({ id: z.string().min(1).max(100) });
const PageQuery = pageQuery(10);

/** One order, to whoever placed it: the signed-in owner, the guest's browser or an admin (store surface). */
export async function registerOrderRoutes(app: FastifyInstance, { db }: AppDeps): Promise<void> {
  app.get('/api/orders/:id', access.owner, async (req, reply) => {
    const { id } = parseInput(IdParam, req.params);
    const order = await getOrderForViewer(db, id, orderViewer(req));
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

/** The signed-in customer's orders, newest first, a page at a time (account surface). */
export async function registerAccountOrderRoutes(app: FastifyInstance, { db }: AppDeps): Promise<void> {
  app.get('/api/orders', access.signedIn, async (req, reply) => {
    const user = requireUser(req);
    const q = parseInput(PageQuery, req.query);
    reply.header('Cache-Control', 'no-store');
    return listOrders(db, { userId: user.id, isAdmin: user.role === 'admin' }, q);
  });
}
