import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AdminUserListQuery, LoyaltyAdjustmentInput, UserPatchInput } from '../../shared/schemas/admin/users.js';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { requireAdmin } from '../http/auth.js';
import { access } from '../http/access.js';
import { adjustLoyaltyPoints, listUsers, patchUser } from './admin-users.js';
import { auditByOf } from '../audit/audit.js';

const Id = z.object({ id: z.string().min(1).max(100) });

/** The back office's user routes; registered by app.ts inside the admin surface, whose guard covers them. */
export async function registerAdminUserRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): Promise<void> {
  app.get('/api/admin/users', access.admin, async (req) => listUsers(db, parseInput(AdminUserListQuery, req.query)));
  app.patch('/api/admin/users/:id', access.admin, async (req) => {
    const admin = requireAdmin(req);
    const { id } = parseInput(Id, req.params);
    const by = auditByOf({ user: admin, impersonator: req.session?.impersonator ?? null });
    return { user: await patchUser(db, by, id, parseInput(UserPatchInput, req.body)) };
  });
  // The owner's explicit points adjustment (add or remove N, with a reason), confirmed in the back office first.
  app.post('/api/admin/users/:id/loyalty-adjustments', access.admin, async (req) => {
    const admin = requireAdmin(req);
    const { id } = parseInput(Id, req.params);
    const by = auditByOf({ user: admin, impersonator: req.session?.impersonator ?? null });
    return { user: await adjustLoyaltyPoints(db, by, id, parseInput(LoyaltyAdjustmentInput, req.body)) };
  });
}
