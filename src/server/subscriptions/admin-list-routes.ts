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
import { UPCOMING_WINDOWS, upcomingCsv, upcomingUnits } from './admin-upcoming.js';
import { figuresCsv, figuresCsvName, subscriptionFigures } from './admin-figures.js';
import { accountActor } from '../lib/actors.js';
import { FIGURES_CSV_NAMES, SubscriptionFiguresQuery } from '../../shared/schemas/admin/subscription-figures.js';

const SubscriptionParams = z.object({ id: z.string().min(1).max(100) }).strict();

/**
 * The owner's Subscriptions tab (issue [5/8]): the list with its status counts, what the schedule
 * will renew in the next 7, 30 and 90 days against stock (JSON and CSV), one subscription with its
 * cycles, and a cancellation for the customer. Registered by app.ts inside the admin
 * surface, whose guard covers every route here however the path is spelled.
 */
export async function registerAdminSubscriptionListRoutes(
  app: FastifyInstance,
  { db, dialect }: Pick<AppDeps, 'db' | 'dialect'>,
): Promise<void> {
  app.get('/api/admin/subscriptions', access.admin, async (req) =>
    listAdminSubscriptions(db, parseInput(AdminSubscriptionListQuery, req.query)),
  );

  // "Upcoming" (admin-upcoming.ts): registered before `:id`, whose parameter would otherwise take the word.
  app.get('/api/admin/subscriptions/upcoming', access.admin, async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const now = new Date();
    return { rows: await upcomingUnits(db, now), generatedAt: now.toISOString(), windows: UPCOMING_WINDOWS };
  });

  app.get('/api/admin/subscriptions/upcoming.csv', access.admin, async (_req, reply) => {
    const now = new Date();
    const csv = upcomingCsv(await upcomingUnits(db, now));
    reply.header('Cache-Control', 'no-store');
    reply.header('Content-Type', 'text/csv; charset=utf-8');
    reply.header('Content-Disposition', `attachment; filename="subscriptions-upcoming-${now.toISOString().slice(0, 10)}.csv"`);
    return reply.send(csv);
  });

  // Figures (admin-figures.ts): subscribers, revenue, new, paused and cancelled, reasons, retention; each as CSV.
  app.get('/api/admin/subscriptions/figures', access.admin, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const { allReasons: _all, ...figures } = await subscriptionFigures(db, parseInput(SubscriptionFiguresQuery, req.query));
    return figures;
  });
  for (const name of FIGURES_CSV_NAMES) {
    app.get(`/api/admin/subscriptions/figures/${name}.csv`, access.admin, async (req, reply) => {
      const figures = await subscriptionFigures(db, parseInput(SubscriptionFiguresQuery, req.query), new Date(), name);
      reply.header('Cache-Control', 'no-store');
      reply.header('Content-Type', 'text/csv; charset=utf-8');
      reply.header('Content-Disposition', `attachment; filename="${figuresCsvName(name, figures)}"`);
      return reply.send(figuresCsv(name, figures));
    });
  }

  app.get('/api/admin/subscriptions/:id', access.admin, async (req) => ({
    subscription: await adminSubscriptionDetail(db, parseInput(SubscriptionParams, req.params).id),
  }));

  app.post('/api/admin/subscriptions/:id/cancel', access.admin, async (req) => {
    const { id } = parseInput(SubscriptionParams, req.params);
    const input = parseInput(AdminCancelSubscriptionInput, req.body);
    const by = auditByOf({ user: requireAdmin(req), impersonator: req.session?.impersonator ?? null });
    const admin = requireAdmin(req);
    return { subscription: await cancelSubscriptionForCustomer(db, dialect, id, input, by, accountActor(admin)) };
  });
}
