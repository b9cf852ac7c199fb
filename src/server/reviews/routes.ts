import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import { HttpError, notFound, parseInput, tooManyRequests } from '../http/errors.js';
import { access } from '../http/access.js';
import { requireUser } from '../http/auth.js';
import { hitRateLimitWindow, secondsUntilWindowEnds } from '../http/rate-limit.js';
import { TOKEN_PATTERN } from '../lib/tokens.js';
import { REVIEW_MESSAGES } from '../../shared/reviews.js';
import { ReviewListQuery } from '../../shared/schemas/reviews.js';
import { readReviewUpload, REVIEW_MULTIPART_LIMITS, reviewFieldsOf, withStoredPhotos, type ReviewFields } from './photos.js';
import {
  accountReviewForm,
  createAccountReview,
  createLinkReview,
  editAccountReview,
  editLinkReview,
  linkReviewForm,
  listMyReviews,
  REVIEW_WRITE_MESSAGES,
} from './write.js';

/**
 * Writing reviews (issue [6/8]): from a request e-mail's link on the store surface (nobody signed
 * in, and the link signs nobody in), and from the account surface. Each plugin adds its own
 * multipart parser (photos.ts's limits), which stays with its routes.
 */

/** Review writes (new and edited) from one address (config.reviewWriteLimitPerIp): counted before the work, with the photos' storing. */
const REVIEW_WRITE_WINDOW_MS = 15 * 60_000;
const tooManyWrites = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return `Too many reviews sent from this address. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
};

const TokenParam = z.object({ token: z.string().max(200) });
const LinkQuery = z.object({ productId: z.string().max(100).optional() });
const ProductParam = z.object({ productId: z.string().min(1, 'productId is required').max(100, 'productId cannot exceed 100 characters') });
const IdParam = z.object({ id: z.string().min(1, 'id is required').max(100, 'id cannot exceed 100 characters') });
const MyReviewsQuery = ReviewListQuery.pick({ page: true });

/** The token of a link's address; a malformed one is unknown without asking the database. */
function linkToken(req: FastifyRequest): string {
  const { token } = parseInput(TokenParam, req.params);
  if (!TOKEN_PATTERN.test(token)) throw notFound(REVIEW_MESSAGES.linkUnknown);
  return token;
}

/**
 * A write's form, read whole, counted against the address's limit, then checked: the count comes
 * before anything is stored, and a refused form stores nothing.
 */
async function readWrite(req: FastifyRequest, { db, config }: Pick<AppDeps, 'db' | 'config'>): Promise<ReviewFields & { files: Buffer[] }> {
  const upload = await readReviewUpload(req);
  const now = new Date();
  const { hits, windowStartedAt } = await hitRateLimitWindow(db, `review-write:ip:${req.ip}`, REVIEW_WRITE_WINDOW_MS, now);
  if (hits > config.reviewWriteLimitPerIp)
    throw tooManyRequests(tooManyWrites, secondsUntilWindowEnds(windowStartedAt, REVIEW_WRITE_WINDOW_MS, now));
  return { ...reviewFieldsOf(upload), files: upload.files };
}

/** A request e-mail's link: the form, the review written once, and edited until the link expires (store surface). */
export async function registerReviewLinkRoutes(app: FastifyInstance, { db, dialect, config, files: store }: AppDeps): Promise<void> {
  await app.register(fastifyMultipart, { limits: REVIEW_MULTIPART_LIMITS });
  app.get('/api/reviews/link/:token', access.public, async (req, reply) => {
    const token = linkToken(req);
    const { productId } = parseInput(LinkQuery, req.query);
    reply.header('Cache-Control', 'no-store');
    return linkReviewForm(db, token, productId, new Date());
  });
  app.post('/api/reviews/link/:token', access.public, async (req, reply) => {
    const token = linkToken(req);
    const { input, productId, files } = await readWrite(req, { db, config });
    const result = await withStoredPhotos(store, files, (photos) =>
      createLinkReview({ db, dialect }, { token, productId, input, photos, now: new Date() }),
    );
    return reply.code(201).header('Cache-Control', 'no-store').send(result);
  });
  app.put('/api/reviews/link/:token', access.public, async (req, reply) => {
    const token = linkToken(req);
    const { input, productId, files } = await readWrite(req, { db, config });
    const result = await withStoredPhotos(store, files, (photos) =>
      editLinkReview({ db, dialect }, { token, productId, input, photos, now: new Date() }),
    );
    return reply.header('Cache-Control', 'no-store').send(result);
  });
}

/** The signed-in customer's reviews: the form for a product, writing, editing and their list (account surface). */
export async function registerAccountReviewRoutes(app: FastifyInstance, { db, dialect, config, files: store }: AppDeps): Promise<void> {
  await app.register(fastifyMultipart, { limits: REVIEW_MULTIPART_LIMITS });
  /** The customer writing: an admin acting as them may read, not write in their name (checked once the form is known good). */
  const writer = (req: FastifyRequest) => {
    const user = requireUser(req);
    if (req.session?.impersonator) throw new HttpError(403, REVIEW_WRITE_MESSAGES.notWhileImpersonating);
    return user;
  };
  app.get('/api/account/reviews', access.signedIn, async (req) => {
    const user = requireUser(req);
    const { page } = parseInput(MyReviewsQuery, req.query);
    return listMyReviews(db, user.id, page);
  });
  app.get('/api/account/reviews/product/:productId', access.signedIn, async (req) => {
    const user = requireUser(req);
    const { productId } = parseInput(ProductParam, req.params);
    return accountReviewForm(db, user, productId);
  });
  app.post('/api/account/reviews/product/:productId', access.signedIn, async (req, reply) => {
    const { productId } = parseInput(ProductParam, req.params);
    const { input, files } = await readWrite(req, { db, config });
    const user = writer(req);
    const result = await withStoredPhotos(store, files, (photos) =>
      createAccountReview({ db, dialect }, { user, productId, input, photos, now: new Date() }),
    );
    return reply.code(201).send(result);
  });
  app.put('/api/account/reviews/:id', access.signedIn, async (req) => {
    const { id } = parseInput(IdParam, req.params);
    const { input, files } = await readWrite(req, { db, config });
    const user = writer(req);
    return withStoredPhotos(store, files, (photos) =>
      editAccountReview({ db, dialect }, { user, reviewId: id, input, photos, now: new Date() }),
    );
  });
}
