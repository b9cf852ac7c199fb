import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AdminUserListQuery, UserPatchInput } from '../../shared/schemas/admin.js';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { requireAdmin } from '../http/auth.js';
import { access } from '../http/access.js';
import { listUsers, patchUser } from './admin-users.js';

const Id = z.object({ id: z.string().min(1).max(100) });

/** The back office's user routes; registered by app.ts inside the admin surface, whose guard covers them. */
export async function registerAdminUserRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): Promise<void> {
  app.get('/api/admin/users', access.admin, async (req) => listUsers(db, parseInput(AdminUserListQuery, req.query)));
  app.patch('/api/admin/users/:id', access.admin, async (req) => {
    const admin = requireAdmin(req);
    const { id } = parseInput(Id, req.params);
    return { user: await patchUser(db, admin.id, id, parseInput(UserPatchInput, req.body)) };
  });
}
