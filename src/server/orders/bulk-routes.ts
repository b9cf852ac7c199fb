import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { access } from '../http/access.js';
import { requireAdmin } from '../http/auth.js';
import { BulkOrderStatusInput } from '../../shared/schemas/bulk.js';
import { bulkOrderStatus } from './bulk-orders.js';
import { sessionActor } from './events.js';

/** The order list's bulk actions (admin surface): each order on its own, each reported. */
export async function registerBulkOrderRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): Promise<void> {
  app.post('/api/admin/orders/bulk/status', access.admin, async (req) => {
    const input = parseInput(BulkOrderStatusInput, req.body);
    requireAdmin(req);
    return { results: await bulkOrderStatus(db, input, sessionActor(req.session), req.log) };
  });
}
