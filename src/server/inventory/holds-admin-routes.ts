import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { access } from '../http/access.js';
import { HoldsQuery } from '../../shared/schemas/holds.js';
import { listHolds } from './holds-admin.js';

/**
 * The back office's view of stock holds (decision 0042): the holds of unpaid checkouts, paginated
 * (ending one ends its checkout: checkout/admin-routes.ts). Registered by app.ts inside the admin
 * surface, whose guard covers them.
 */
export async function registerAdminHoldRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): Promise<void> {
  app.get('/api/admin/holds', access.admin, async (req) => listHolds(db, parseInput(HoldsQuery, req.query)));
}
