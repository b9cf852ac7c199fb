import type { FastifyInstance } from 'fastify';
import { AuditLogQuery } from '../../shared/schemas/audit.js';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { access } from '../http/access.js';
import { listAuditLog } from './audit.js';

/** The back office's audit log; registered by app.ts inside the admin surface, whose guard covers it. */
export async function registerAdminAuditRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): Promise<void> {
  // Who did what to which account: role, verification and points changes, impersonations, refunds, deletions.
  app.get('/api/admin/audit-log', access.admin, async (req) => listAuditLog(db, parseInput(AuditLogQuery, req.query)));
}
