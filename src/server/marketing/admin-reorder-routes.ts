import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { access } from '../http/access.js';
import { AdminReorderRemindersQuery } from '../../shared/schemas/reorder-reminders.js';
import { reorderReminderFigures } from './admin-reorder-reminders.js';

/**
 * The owner's reorder reminders (issue [7/8] item 4): the period's reminders sent and skipped, the
 * orders that followed and the last decisions. Registered by app.ts inside the admin surface, whose
 * guard covers every route here however the path is spelled.
 */
export async function registerAdminReorderReminderRoutes(app: FastifyInstance, { db }: Pick<AppDeps, 'db'>): Promise<void> {
  app.get('/api/admin/reorder-reminders', access.admin, async (req) =>
    reorderReminderFigures(db, parseInput(AdminReorderRemindersQuery, req.query)),
  );
}
