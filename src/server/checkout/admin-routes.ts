import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { requireAdmin } from '../http/auth.js';
import { access } from '../http/access.js';
import { auditByOf } from '../audit/audit.js';
import { endHold } from './end-hold.js';

const OrderId = z.object({ orderId: z.string().min(1).max(100) });

/**
 * The back office ending a stock hold (decision 0042): its checkout ends (the holds are listed by
 * inventory/holds-admin-routes.ts). Registered by app.ts inside the admin surface, whose guard
 * covers it.
 */
export async function registerAdminCheckoutRoutes(app: FastifyInstance, { db, dialect }: Pick<AppDeps, 'db' | 'dialect'>): Promise<void> {
  app.post('/api/admin/holds/:orderId/end', access.admin, async (req) => {
    const { orderId } = parseInput(OrderId, req.params);
    const admin = requireAdmin(req);
    return endHold(db, dialect, orderId, auditByOf({ user: admin, impersonator: req.session?.impersonator ?? null }));
  });
}
