import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { requireAdmin } from '../http/auth.js';
import { access } from '../http/access.js';
import { auditByOf } from '../audit/audit.js';
import {
  AdminCancelSubscriptionInput,
  AdminSubscriptionListQuery,
  adminSubscriptionDetail,
  cancelSubscriptionForCustomer,
  listAdminSubscriptions,
} from './admin-list.js';

const SubscriptionParams = z.object({ id: z.string().min(1).max(100) }).strict();

/**
 * The owner's Subscriptions tab (issue [5/8]): the list with its status counts, one subscription
 * with its cycles, and a cancellation for the customer. Registered by app.ts inside the admin
 * surface, whose guard covers every route here however the path is spelled.
 */
export async function registerAdminSubscriptionListRoutes(
  app: FastifyInstance,
  { db, dialect }: Pick<AppDeps, 'db' | 'dialect'>,
): Promise<void> {
  app.get('/api/admin/subscriptions', access.admin, async (req) =>
    listAdminSubscriptions(db, parseInput(AdminSubscriptionListQuery, req.query)),
  );

  app.get('/api/admin/subscriptions/:id', access.admin, async (req) => ({
    subscription: await adminSubscriptionDetail(db, parseInput(SubscriptionParams, req.params).id),
  }));

  app.post('/api/admin/subscriptions/:id/cancel', access.admin, async (req) => {
    const { id } = parseInput(SubscriptionParams, req.params);
    const input = parseInput(AdminCancelSubscriptionInput, req.body);
    const by = auditByOf({ user: requireAdmin(req), impersonator: req.session?.impersonator ?? null });
    return { subscription: await cancelSubscriptionForCustomer(db, dialect, id, input, by) };
  });
}
