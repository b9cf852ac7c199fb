import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { requireAdmin } from '../http/auth.js';
import { access } from '../http/access.js';
import { auditByOf } from '../audit/audit.js';
import { AdminRecoveryQuery, RecoverySettingsInput } from '../../shared/schemas/recovery.js';
import { listRecoveries } from './admin-recovery.js';
import { readRecoverySettings, saveRecoverySettings } from './recovery-settings.js';

/**
 * The owner's checkout recovery (issue [7/8] items 3 and 5): the abandoned checkouts with their
 * figures, and the settings. Registered by app.ts inside the admin surface, whose guard covers every
 * route here however the path is spelled (and refuses writes from another site).
 */
export async function registerAdminRecoveryRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): Promise<void> {
  const by = (req: FastifyRequest) => auditByOf({ user: requireAdmin(req), impersonator: req.session?.impersonator ?? null });
  app.get('/api/admin/recovery', access.admin, async (req) => listRecoveries(db, parseInput(AdminRecoveryQuery, req.query)));
  app.get('/api/admin/recovery/settings', access.admin, async () => readRecoverySettings(db));
  app.put('/api/admin/recovery/settings', access.admin, async (req) =>
    saveRecoverySettings(db, parseInput(RecoverySettingsInput, req.body), by(req)),
  );
}
