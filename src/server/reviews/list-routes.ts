import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';
import { access } from '../http/access.js';
import { notFound, parseInput } from '../http/errors.js';
import { MicroCache } from '../http/micro-cache.js';
import { ProductIdParam } from '../../shared/schemas/catalog.js';
import { ReviewListQuery } from '../../shared/schemas/reviews.js';
import { listProductReviews } from './read.js';

/**
 * How long a page of reviews is reused. A review written, edited or moderated stamps its product's
 * ratings row, and every process drops this cache within a poll of the stamp (a `ratings` change:
 * http/shop-changes.ts), so the time only bounds what a missed signal could cost.
 */
const REVIEW_PAGE_CACHE_MS = 30_000;

/** GET /api/products/:id/reviews?page=&sort=&rating= → ReviewPage (published reviews only; 404 for an unknown or draft product). */
export async function registerReviewListRoutes(app: FastifyInstance, { db }: AppDeps): Promise<void> {
  // Shows products' stars and reviews: a `ratings` change (or any of the back office) clears it.
  const pages = new MicroCache<string>(REVIEW_PAGE_CACHE_MS, 200, 0, true);
  app.get('/api/products/:id/reviews', access.public, async (req, reply) => {
    const { id } = parseInput(ProductIdParam, req.params);
    const query = parseInput(ReviewListQuery, req.query);
    const key = JSON.stringify([id, query.page, query.sort, query.rating ?? null]);
    const body = await pages.get(key, async () => JSON.stringify(await listProductReviews(db, id, query)));
    if (body === 'null') throw notFound('Product not found');
    return reply.header('Cache-Control', 'no-cache').type('application/json; charset=utf-8').send(body);
  });
}
