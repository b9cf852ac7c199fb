import { sql, type Kysely, type Selectable, type SqlBool, type Transaction } from 'kysely';
import type { Database, ReviewsTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { HttpError, notFound } from '../http/errors.js';
import { recordAudit, type AuditBy } from '../audit/audit.js';
import { lockProductRating, refreshProductRating } from './ratings.js';
import { REVIEW_MESSAGES, type AdminReview, type ReviewHideReason, type ReviewPhoto, type ReviewStatus } from '../../shared/reviews.js';
import type { AdminReviewQuery, BulkReviewInput, HideReviewInput } from '../../shared/schemas/reviews.js';

/**
 * The owner's moderation of reviews (issue [6/8] item 4, decision 0059): approve, hide for a stated
 * reason (spam, abuse, personal data, off-topic: never for its rating), reply once in public, hide
 * the photos alone, and the same approve and hide for up to 100 at once. Nothing here changes a
 * review's rating, its words or its "Verified buyer" (the order it came from): there is no such
 * function and no such field.
 *
 * Every change that alters what is published, or what a published review shows (a reply, its
 * photos), runs in one transaction that locks the product's ratings row first (lockProductRating,
 * the lock order every review write keeps: the product's ratings row, then review rows) and
 * refreshes it after (refreshProductRating stamps `updated_at`, so every process drops that
 * product's cached pages and lists within a poll, and only those). Each change is audited in the
 * same transaction, the hide with its reason and note.
 */

type ReviewRow = Selectable<ReviewsTable>;
type Count = number | string;

const iso = (d: Date) => d.toISOString();

/** The queue's rows: the review, its product's name, its order's number and who replied. */
function queueRows(db: Kysely<Database>) {
  return db
    .selectFrom('reviews as r')
    .innerJoin('products as p', 'p.id', 'r.product_id')
    .leftJoin('orders as o', 'o.id', 'r.order_id')
    .leftJoin('users as ru', 'ru.id', 'r.reply_by')
    .selectAll('r')
    .select(['p.name as product_name', 'o.order_number', 'ru.email as reply_by_email']);
}

type QueueRow = ReviewRow & { product_name: string; order_number: string | null; reply_by_email: string | null };

async function photosOf(db: Kysely<Database>, reviewIds: string[]): Promise<Map<string, ReviewPhoto[]>> {
  const out = new Map<string, ReviewPhoto[]>();
  if (reviewIds.length === 0) return out;
  const rows = await db
    .selectFrom('review_photos')
    .select(['review_id', 'url', 'width', 'height'])
    .where('review_id', 'in', reviewIds)
    .orderBy('review_id')
    .orderBy('position')
    .execute();
  for (const p of rows) {
    const list = out.get(p.review_id) ?? [];
    list.push({ url: p.url, width: p.width, height: p.height });
    out.set(p.review_id, list);
  }
  return out;
}

function toAdminReview(r: QueueRow, photos: ReviewPhoto[]): AdminReview {
  return {
    id: r.id,
    product: { id: r.product_id, name: r.product_name },
    rating: r.rating,
    title: r.title,
    body: r.body,
    displayName: r.display_name,
    email: r.email,
    userId: r.user_id,
    verified: r.order_id !== null,
    orderId: r.order_id,
    orderNumber: r.order_number,
    variantLabel: r.variant_label,
    status: r.status,
    hiddenReason: r.status === 'hidden' ? r.hidden_reason : null,
    hiddenNote: r.status === 'hidden' ? r.hidden_note : null,
    photosHidden: Boolean(r.photos_hidden),
    photos,
    reply: r.reply_text !== null ? { text: r.reply_text, at: r.reply_at ?? r.updated_at, by: r.reply_by_email ?? r.reply_by } : null,
    createdAt: r.created_at,
    editedAt: r.edited_at,
    publishedAt: r.published_at,
  };
}

/** These reviews as the queue shows them, in the order of `ids` (unknown ids left out). */
export async function adminReviewsByIds(db: Kysely<Database>, ids: readonly string[]): Promise<AdminReview[]> {
  if (ids.length === 0) return [];
  const rows = (await queueRows(db)
    .where('r.id', 'in', [...ids])
    .execute()) as QueueRow[];
  const photos = await photosOf(
    db,
    rows.map((r) => r.id),
  );
  const byId = new Map(rows.map((r) => [r.id, toAdminReview(r, photos.get(r.id) ?? [])]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

async function adminReview(db: Kysely<Database>, id: string): Promise<AdminReview> {
  const [review] = await adminReviewsByIds(db, [id]);
  if (!review) throw notFound(REVIEW_MESSAGES.reviewNotFound);
  return review;
}

const withPhotos = sql<SqlBool>`r.photo_count > 0`;

export type AdminReviewPage = {
  items: AdminReview[];
  total: number;
  page: number;
  pageSize: number;
  counts: Record<ReviewStatus, number>;
};

/**
 * The owner's queue, newest written first: filtered by status, with photos, rating and product in
 * the database (the status filter and the order are the `reviews_queue_idx` (status, created_at)
 * index; without one, `reviews_created_idx`). `counts` are per status under the other filters, so
 * each status tab says how many it holds of what the filters leave.
 */
export async function listAdminReviews(db: Kysely<Database>, q: AdminReviewQuery): Promise<AdminReviewPage> {
  let scope = db.selectFrom('reviews as r');
  // Written as the partial index `reviews_queue_photos_idx` says it (a bound 0 would not match it on SQLite).
  if (q.photos === 'with') scope = scope.where(withPhotos);
  if (q.rating !== undefined) scope = scope.where('r.rating', '=', q.rating);
  if (q.productId) scope = scope.where('r.product_id', '=', q.productId);
  const matching = q.status === 'all' ? scope : scope.where('r.status', '=', q.status);

  let rowsQuery = queueRows(db);
  if (q.status !== 'all') rowsQuery = rowsQuery.where('r.status', '=', q.status);
  if (q.photos === 'with') rowsQuery = rowsQuery.where(withPhotos);
  if (q.rating !== undefined) rowsQuery = rowsQuery.where('r.rating', '=', q.rating);
  if (q.productId) rowsQuery = rowsQuery.where('r.product_id', '=', q.productId);

  const [rows, total, byStatus] = await Promise.all([
    rowsQuery
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute() as Promise<QueueRow[]>,
    matching.select(sql<Count>`count(*)`.as('n')).executeTakeFirst(),
    scope
      .select(['r.status', sql<Count>`count(*)`.as('n')])
      .groupBy('r.status')
      .execute(),
  ]);
  const photos = await photosOf(
    db,
    rows.map((r) => r.id),
  );
  const counts: Record<ReviewStatus, number> = { pending: 0, published: 0, hidden: 0 };
  for (const s of byStatus) counts[s.status] = Number(s.n);
  return {
    items: rows.map((r) => toAdminReview(r, photos.get(r.id) ?? [])),
    total: Number(total?.n ?? 0),
    page: q.page,
    pageSize: q.pageSize,
    counts,
  };
}

/**
 * One review changed in its product's transaction: the ratings row locked first, then the review's
 * row; `change` answers whether it changed anything (then the product's ratings are counted again
 * and stamped). Unknown id: 404.
 */
async function changeOne(
  db: Kysely<Database>,
  dialect: Dialect,
  id: string,
  now: Date,
  change: (trx: Transaction<Database>, review: ReviewRow) => Promise<boolean>,
): Promise<AdminReview> {
  // A review's product never changes: read it first to know which ratings row to lock.
  const known = await db.selectFrom('reviews').select('product_id').where('id', '=', id).executeTakeFirst();
  if (!known) throw notFound(REVIEW_MESSAGES.reviewNotFound);
  const at = iso(now);
  await transactionWithRetry(db, async (trx) => {
    await lockProductRating(trx, dialect, known.product_id, at);
    const review = await forUpdate(trx.selectFrom('reviews').selectAll().where('id', '=', id), dialect).executeTakeFirst();
    if (!review) throw notFound(REVIEW_MESSAGES.reviewNotFound);
    if (await change(trx, review)) await refreshProductRating(trx, known.product_id, at);
  });
  return adminReview(db, id);
}

const auditOf = (review: Pick<ReviewRow, 'id' | 'product_id' | 'user_id'>) => ({
  targetUserId: review.user_id,
  details: { reviewId: review.id, productId: review.product_id },
});

/** Pending or hidden → published (first publication dated now); a published review stays as it is. */
export async function approveReview(
  db: Kysely<Database>,
  dialect: Dialect,
  id: string,
  by: AuditBy,
  now = new Date(),
): Promise<AdminReview> {
  return changeOne(db, dialect, id, now, async (trx, review) => {
    if (review.status === 'published') return false;
    await trx.updateTable('reviews').set(approvedSet(now)).where('id', '=', id).execute();
    const a = auditOf(review);
    await recordAudit(trx, {
      by,
      action: 'review.approved',
      targetUserId: a.targetUserId,
      details: { ...a.details, from: review.status },
      at: now,
    });
    return true;
  });
}

/** What approval writes: published, dated the first time only, and the stated reason of an earlier hide cleared (the audit keeps it). */
function approvedSet(now: Date) {
  const at = iso(now);
  return {
    status: 'published' as const,
    published_at: sql<string>`coalesce(published_at, ${at})`,
    hidden_reason: null,
    hidden_note: null,
    hidden_at: null,
    hidden_by: null,
    updated_at: at,
  };
}

/** What hiding writes: the reason (required by the schema), the note, when and by whom. */
function hiddenSet(input: { reason: ReviewHideReason; note?: string | undefined }, by: AuditBy, now: Date) {
  const at = iso(now);
  return {
    status: 'hidden' as const,
    hidden_reason: input.reason,
    hidden_note: input.note?.trim() || null,
    hidden_at: at,
    hidden_by: by.actorId,
    updated_at: at,
  };
}

/**
 * Hidden, for one of the stated reasons, with the owner's note; its first publication date is kept
 * (approved again, it takes its old place). Hidden again with the same reason and note: unchanged.
 */
export async function hideReview(
  db: Kysely<Database>,
  dialect: Dialect,
  id: string,
  input: HideReviewInput,
  by: AuditBy,
  now = new Date(),
): Promise<AdminReview> {
  return changeOne(db, dialect, id, now, async (trx, review) => {
    const note = input.note?.trim() || null;
    if (review.status === 'hidden' && review.hidden_reason === input.reason && review.hidden_note === note) return false;
    await trx
      .updateTable('reviews')
      .set(hiddenSet(input, by, now))
      .where('id', '=', id)
      .execute();
    const a = auditOf(review);
    await recordAudit(trx, {
      by,
      action: 'review.hidden',
      targetUserId: a.targetUserId,
      details: { ...a.details, reason: input.reason, note, from: review.status },
      at: now,
    });
    return true;
  });
}

/**
 * The shop's public reply, once per review: written only where none is (a conditional update), so
 * two replies at once make one and the other answers 409.
 */
export async function replyToReview(
  db: Kysely<Database>,
  dialect: Dialect,
  id: string,
  text: string,
  by: AuditBy,
  now = new Date(),
): Promise<AdminReview> {
  return changeOne(db, dialect, id, now, async (trx, review) => {
    const at = iso(now);
    const written = await trx
      .updateTable('reviews')
      .set({ reply_text: text, reply_at: at, reply_by: by.actorId, updated_at: at })
      .where('id', '=', id)
      .where('reply_text', 'is', null)
      .executeTakeFirst();
    if (Number(written.numUpdatedRows) === 0) throw new HttpError(409, REVIEW_MESSAGES.alreadyReplied);
    const a = auditOf(review);
    await recordAudit(trx, { by, action: 'review.replied', targetUserId: a.targetUserId, details: a.details, at: now });
    return true;
  });
}

/** The review's photos hidden (or shown again) apart from its words; unchanged when already so. */
export async function setReviewPhotosHidden(
  db: Kysely<Database>,
  dialect: Dialect,
  id: string,
  hidden: boolean,
  by: AuditBy,
  now = new Date(),
): Promise<AdminReview> {
  return changeOne(db, dialect, id, now, async (trx, review) => {
    if (Boolean(review.photos_hidden) === hidden) return false;
    await trx
      .updateTable('reviews')
      .set({ photos_hidden: hidden ? 1 : 0, updated_at: iso(now) })
      .where('id', '=', id)
      .execute();
    const a = auditOf(review);
    await recordAudit(trx, {
      by,
      action: hidden ? 'review.photos_hidden' : 'review.photos_shown',
      targetUserId: a.targetUserId,
      details: { ...a.details, photos: review.photo_count },
      at: now,
    });
    return true;
  });
}

/**
 * Approve or hide up to 100 reviews: one transaction per product, products taken in sorted id order
 * (its ratings row locked first, then its reviews), so two owners' bulk actions over the same
 * products never wait on each other in a circle. Each review changed is counted and audited;
 * one already so (or an unknown id) is not.
 */
export async function bulkModerate(
  db: Kysely<Database>,
  dialect: Dialect,
  input: BulkReviewInput,
  by: AuditBy,
  now = new Date(),
): Promise<{ changed: number; reviews: AdminReview[] }> {
  const ids = [...new Set(input.ids)];
  const known = await db.selectFrom('reviews').select(['id', 'product_id']).where('id', 'in', ids).execute();
  const byProduct = new Map<string, string[]>();
  for (const r of known) byProduct.set(r.product_id, [...(byProduct.get(r.product_id) ?? []), r.id]);
  const at = iso(now);
  let changed = 0;
  for (const productId of [...byProduct.keys()].sort()) {
    const group = byProduct.get(productId)!;
    changed += await transactionWithRetry(db, async (trx) => {
      await lockProductRating(trx, dialect, productId, at);
      const rows =
        input.action === 'approve'
          ? await trx
              .updateTable('reviews')
              .set(approvedSet(now))
              .where('id', 'in', group)
              .where('status', 'in', ['pending', 'hidden'])
              .returning(['id', 'product_id', 'user_id'])
              .execute()
          : await trx
              .updateTable('reviews')
              .set(hiddenSet(input, by, now))
              .where('id', 'in', group)
              .where('status', 'in', ['pending', 'published'])
              .returning(['id', 'product_id', 'user_id'])
              .execute();
      if (rows.length === 0) return 0;
      for (const r of rows) {
        const a = auditOf(r);
        await recordAudit(trx, {
          by,
          action: input.action === 'approve' ? 'review.approved' : 'review.hidden',
          targetUserId: a.targetUserId,
          details:
            input.action === 'approve'
              ? { ...a.details, bulk: true }
              : { ...a.details, bulk: true, reason: input.reason, note: input.note?.trim() || null },
          at: now,
        });
      }
      await refreshProductRating(trx, productId, at);
      return rows.length;
    });
  }
  return { changed, reviews: await adminReviewsByIds(db, ids) };
}
