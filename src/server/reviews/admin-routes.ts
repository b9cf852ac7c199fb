import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { parseInput } from '../http/errors.js';
import { requireAdmin } from '../http/auth.js';
import { access } from '../http/access.js';
import { auditByOf } from '../audit/audit.js';
import { PeriodInput } from '../../shared/schemas/reports.js';
import {
  AdminReviewQuery,
  BulkReviewInput,
  HideReviewInput,
  ReplyInput,
  ReviewPhotosInput,
  ReviewSettingsInput,
} from '../../shared/schemas/reviews.js';
import { approveReview, bulkModerate, hideReview, listAdminReviews, replyToReview, setReviewPhotosHidden } from './moderation.js';
import { readReviewSettings, saveReviewSettings } from './settings.js';
import { reviewFigures } from './admin-figures.js';

const IdParams = z.object({ id: z.string().min(1).max(64) }).strict();

/**
 * The owner's reviews (issue [6/8]): the moderation queue and its actions, the review settings and
 * the figures. Registered by app.ts inside the admin surface, whose guard covers every route here
 * however the path is spelled (and refuses writes from another site). There is no route that
 * changes a review's rating, words or "Verified buyer": the shop cannot.
 */
/**
 * Moderation changes what one product's pages show (bulk: a few products'), and each write stamps
 * that product's ratings row, which every process's watcher reads (decision 0059): the admin
 * surface does not clear the whole shop's caches after it.
 */
const ONE_PRODUCT = { config: { ...access.admin.config, refreshesOneProduct: true } };

export async function registerAdminReviewRoutes(app: FastifyInstance, { db, dialect }: Pick<AppDeps, 'db' | 'dialect'>): Promise<void> {
  const by = (req: FastifyRequest) => auditByOf({ user: requireAdmin(req), impersonator: req.session?.impersonator ?? null });
  const idOf = (req: FastifyRequest) => parseInput(IdParams, req.params).id;

  app.get('/api/admin/reviews', access.admin, async (req) => listAdminReviews(db, parseInput(AdminReviewQuery, req.query)));
  app.post('/api/admin/reviews/:id/approve', ONE_PRODUCT, async (req) => ({
    review: await approveReview(db, dialect, idOf(req), by(req)),
  }));
  app.post('/api/admin/reviews/:id/hide', ONE_PRODUCT, async (req) => {
    const id = idOf(req);
    return { review: await hideReview(db, dialect, id, parseInput(HideReviewInput, req.body), by(req)) };
  });
  app.post('/api/admin/reviews/:id/reply', ONE_PRODUCT, async (req) => {
    const id = idOf(req);
    return { review: await replyToReview(db, dialect, id, parseInput(ReplyInput, req.body).text, by(req)) };
  });
  app.post('/api/admin/reviews/:id/photos', ONE_PRODUCT, async (req) => {
    const id = idOf(req);
    return { review: await setReviewPhotosHidden(db, dialect, id, parseInput(ReviewPhotosInput, req.body).hidden, by(req)) };
  });
  app.post('/api/admin/reviews/bulk', ONE_PRODUCT, async (req) =>
    bulkModerate(db, dialect, parseInput(BulkReviewInput, req.body), by(req)),
  );

  app.get('/api/admin/reviews/figures', access.admin, async (req) => reviewFigures(db, parseInput(PeriodInput, req.query)));

  app.get('/api/admin/review-settings', access.admin, async () => readReviewSettings(db));
  app.put('/api/admin/review-settings', access.admin, async (req) =>
    saveReviewSettings(db, parseInput(ReviewSettingsInput, req.body), by(req)),
  );
}
