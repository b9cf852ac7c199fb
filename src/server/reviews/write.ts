import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, ReviewPhotosTable, ReviewsTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, lockShopperKeys, transactionWithRetry } from '../db/locks.js';
import { HttpError, notFound } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { looksAutomated } from '../../shared/bot-guard.js';
import { AUTH_MESSAGES } from '../../shared/schemas/auth.js';
import {
  defaultDisplayName,
  REVIEW_LIMITS,
  REVIEW_MESSAGES,
  type MyReview,
  type ReviewFormState,
  type ReviewModeration,
  type ReviewStatus,
} from '../../shared/reviews.js';
import type { ReviewInput } from '../../shared/schemas/reviews.js';
import { lockProductRating, refreshProductRating } from './ratings.js';
import { readReviewSettings } from './settings.js';
import { accountPurchaseOf, authorKeyOf, linkPurchase, readReviewLink, type PurchaseOfProduct, type ReviewLinkRow } from './verify.js';
import type { StoredPhoto } from './photos.js';

/**
 * Writing and editing a review (issue [6/8], decision 0059), from an account or a request
 * e-mail's link. Each write is ONE transaction that locks the product's ratings row first
 * (ratings.ts: the lock order is that row, then the review's), reads or inserts the review, and
 * counts the product's stars again before it commits, so two reviews of one product at once are
 * counted one after the other.
 *
 * One review per product and author: the unique `reviews_product_author_key` decides, and a race
 * two submits both passed the check in is answered 409 like the check's own answer, never 500.
 * "Verified buyer" is `order_id`, set here from verify.ts and from nothing the caller sends.
 */

export type ReviewDeps = { db: Kysely<Database>; dialect: Dialect };
type ReviewRow = Selectable<ReviewsTable>;
type PhotoRow = Selectable<ReviewPhotosTable>;

export const REVIEW_WRITE_MESSAGES = {
  productNotFound: 'Product not found',
  /** An admin acting as a customer may read their reviews, never write one in their name. */
  notWhileImpersonating: 'A review is the customer’s own words: it cannot be written or changed while you act as them.',
} as const;

/** A review as its author sees it. Their photos are shown to them even when the shop hid them from the page. */
export function toMyReview(row: ReviewRow, photos: readonly PhotoRow[]): MyReview {
  return {
    id: row.id,
    productId: row.product_id,
    rating: row.rating,
    title: row.title,
    body: row.body,
    displayName: row.display_name,
    verified: row.order_id !== null,
    variantLabel: row.variant_label,
    photos: [...photos].sort((a, b) => a.position - b.position).map((p) => ({ url: p.url, width: p.width, height: p.height })),
    // A review waiting for approval has not been published: its author sees when they wrote it.
    publishedAt: row.published_at ?? row.created_at,
    editedAt: row.edited_at,
    reply: row.reply_text !== null ? { text: row.reply_text, at: row.reply_at ?? row.updated_at } : null,
    status: row.status,
    hiddenReason: row.status === 'hidden' ? row.hidden_reason : null,
  };
}

async function photosOf(db: Kysely<Database>, reviewIds: readonly string[]): Promise<Map<string, PhotoRow[]>> {
  const out = new Map<string, PhotoRow[]>();
  if (reviewIds.length === 0) return out;
  const rows = await db
    .selectFrom('review_photos')
    .selectAll()
    .where('review_id', 'in', [...reviewIds])
    .orderBy('review_id')
    .orderBy('position')
    .execute();
  for (const r of rows) out.set(r.review_id, [...(out.get(r.review_id) ?? []), r]);
  return out;
}

async function myReview(db: Kysely<Database>, id: string): Promise<MyReview> {
  const row = await db.selectFrom('reviews').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return toMyReview(row, (await photosOf(db, [id])).get(id) ?? []);
}

/** A product shoppers can see (a draft or unknown one cannot be reviewed): what the form shows of it. */
async function productForForm(db: Kysely<Database>, productId: string): Promise<ReviewFormState['product'] | null> {
  const row = await db
    .selectFrom('products')
    .select(['id', 'name', 'images'])
    .where('id', '=', productId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (!row) return null;
  let image: string | null = null;
  try {
    image = (JSON.parse(row.images) as unknown[]).find((i): i is string => typeof i === 'string') ?? null;
  } catch {
    image = null;
  }
  return { id: row.id, name: row.name, image };
}

function reviewOfAuthor(db: Kysely<Database>, productId: string, authorKey: string) {
  return db.selectFrom('reviews').selectAll().where('product_id', '=', productId).where('author_key', '=', authorKey);
}

/** The status a new review gets: the owner's moderation setting. */
function newStatus(moderation: ReviewModeration): ReviewStatus {
  return moderation === 'hold' ? 'pending' : 'published';
}

/** True when an insert failed on the one-review-per-product-and-author constraint (a race both submits passed the check in). */
function isAuthorTaken(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown };
  if (e.code === '23505') return e.constraint === 'reviews_product_author_key';
  return (
    typeof e.code === 'string' &&
    e.code.startsWith('SQLITE_CONSTRAINT') &&
    String(e.message).includes('reviews.product_id, reviews.author_key')
  );
}

/** Runs a write's transaction; the constraint's refusal of a second review becomes `conflict` (409). */
async function writeOnce<T>(db: Kysely<Database>, conflict: string, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  try {
    return await transactionWithRetry(db, work);
  } catch (err) {
    if (isAuthorTaken(err)) throw new HttpError(409, conflict);
    throw err;
  }
}

type NewReview = {
  productId: string;
  author: { userId: string | null; email: string };
  purchase: PurchaseOfProduct | null;
  input: ReviewInput;
  source: ReviewsTable['source'];
  requestId: string | null;
  moderation: ReviewModeration;
  photos: readonly StoredPhoto[];
  now: string;
};

async function insertReview(trx: Transaction<Database>, r: NewReview): Promise<string> {
  const id = newId('rev');
  const status = newStatus(r.moderation);
  await trx
    .insertInto('reviews')
    .values({
      id,
      product_id: r.productId,
      author_key: authorKeyOf(r.author),
      user_id: r.author.userId,
      email: r.author.email.toLowerCase(),
      display_name: r.input.displayName,
      // The badge: the paid order found by verify.ts, or none.
      order_id: r.purchase?.orderId ?? null,
      variant_label: r.purchase?.variantLabel ?? '',
      rating: r.input.rating,
      title: r.input.title,
      body: r.input.body,
      status,
      hidden_reason: null,
      hidden_note: null,
      hidden_at: null,
      hidden_by: null,
      photo_count: r.photos.length,
      reply_text: null,
      reply_at: null,
      reply_by: null,
      source: r.source,
      request_id: r.requestId,
      created_at: r.now,
      updated_at: r.now,
      edited_at: null,
      published_at: status === 'published' ? r.now : null,
    })
    .execute();
  if (r.photos.length)
    await trx
      .insertInto('review_photos')
      .values(r.photos.map((p, i) => ({ id: newId('revph'), review_id: id, position: i + 1, ...p, created_at: r.now })))
      .execute();
  // The figures' "led to a review": a request of this order already sent counts a review written from
  // the account after it, as well as one through its link (marked by the link's write).
  if (r.purchase)
    await trx
      .updateTable('review_requests')
      .set({ first_review_at: r.now })
      .where('order_id', '=', r.purchase.orderId)
      .where('status', '=', 'sent')
      .where('first_review_at', 'is', null)
      .execute();
  return id;
}

/**
 * An edit: the text and stars replaced, `edited_at` set, `published_at` kept (the list's "newest"
 * stays when it first appeared). Under 'hold' moderation a published review that is edited goes
 * back to pending: the owner approved the words they read, not these. A hidden review stays
 * hidden (its reason stands), a pending one pending. Photos: those named in `keepPhotos` (by id
 * or address; none named: all kept) stay in their order, the new ones follow; the rest are
 * deleted, their files once the transaction committed (answered in `removed`).
 */
async function updateReview(
  trx: Transaction<Database>,
  row: ReviewRow,
  o: { input: ReviewInput; photos: readonly StoredPhoto[]; moderation: ReviewModeration; now: string },
): Promise<string[]> {
  const existing = (await photosOf(trx, [row.id])).get(row.id) ?? [];
  const keepList = o.input.keepPhotos;
  const kept = keepList === undefined ? existing : existing.filter((p) => keepList.includes(p.id) || keepList.includes(p.url));
  const removed = existing.filter((p) => !kept.includes(p));
  if (kept.length + o.photos.length > REVIEW_LIMITS.photosMax) throw new HttpError(400, REVIEW_MESSAGES.tooManyPhotos);
  const status: ReviewStatus = row.status === 'published' && o.moderation === 'hold' ? 'pending' : row.status;
  await trx
    .updateTable('reviews')
    .set({
      rating: o.input.rating,
      title: o.input.title,
      body: o.input.body,
      display_name: o.input.displayName,
      status,
      photo_count: kept.length + o.photos.length,
      edited_at: o.now,
      updated_at: o.now,
    })
    .where('id', '=', row.id)
    .execute();
  if (removed.length)
    await trx
      .deleteFrom('review_photos')
      .where(
        'id',
        'in',
        removed.map((p) => p.id),
      )
      .execute();
  // Kept photos first in the order they had, then the new ones.
  for (const [i, p] of kept.entries())
    if (p.position !== i + 1)
      await trx
        .updateTable('review_photos')
        .set({ position: i + 1 })
        .where('id', '=', p.id)
        .execute();
  if (o.photos.length)
    await trx
      .insertInto('review_photos')
      .values(o.photos.map((p, i) => ({ id: newId('revph'), review_id: row.id, position: kept.length + i + 1, ...p, created_at: o.now })))
      .execute();
  return removed.map((p) => p.url);
}

export type ReviewWriteResult = { review: MyReview; message: string };
/** What a write answers, with the photo files it dropped (removed by photos.ts once committed). */
export type ReviewWriteOutcome = { result: ReviewWriteResult; removed: string[] };

const created = (review: MyReview): ReviewWriteResult => ({
  review,
  message: review.status === 'published' ? REVIEW_MESSAGES.thanksPublished : REVIEW_MESSAGES.thanksPending,
});

// ——— From an account ———

/**
 * The form for a signed-in customer: their review of the product (then the form edits it), or
 * whether they may write one: with a paid order of it ("Verified buyer", the variant bought), or
 * without one only when the owner allows it.
 */
export async function accountReviewForm(
  db: Kysely<Database>,
  user: { id: string; full_name: string },
  productId: string,
): Promise<ReviewFormState> {
  const product = await productForForm(db, productId);
  if (!product) throw notFound(REVIEW_WRITE_MESSAGES.productNotFound);
  const [purchase, existing, settings] = await Promise.all([
    accountPurchaseOf(db, user.id, productId),
    reviewOfAuthor(db, productId, authorKeyOf({ userId: user.id, email: '' })).executeTakeFirst(),
    readReviewSettings(db),
  ]);
  const review = existing ? toMyReview(existing, (await photosOf(db, [existing.id])).get(existing.id) ?? []) : null;
  const canWrite = Boolean(review) || Boolean(purchase) || settings.allowWithoutOrder;
  return {
    product,
    variantLabel: review ? review.variantLabel : (purchase?.variantLabel ?? ''),
    verified: review ? review.verified : Boolean(purchase),
    canWrite,
    reason: canWrite ? null : REVIEW_MESSAGES.needsOrder,
    defaultDisplayName: defaultDisplayName(user.full_name),
    review,
  };
}

/**
 * A signed-in customer's new review. Verified from their newest paid order of the product, read in
 * the transaction. Without one: refused (403) unless the owner allows it; then the spam guard and
 * at most REVIEW_LIMITS.withoutOrderPerDay a day per account, counted in the transaction before the
 * insert (on PostgreSQL under an advisory lock per account, so simultaneous submits count in turn).
 */
export async function createAccountReview(
  { db, dialect }: ReviewDeps,
  o: { user: { id: string; email: string }; productId: string; input: ReviewInput; photos: readonly StoredPhoto[]; now: Date },
): Promise<ReviewWriteOutcome> {
  if (!(await productForForm(db, o.productId))) throw notFound(REVIEW_WRITE_MESSAGES.productNotFound);
  const at = o.now.toISOString();
  const author = { userId: o.user.id, email: o.user.email };
  const id = await writeOnce(db, REVIEW_MESSAGES.alreadyReviewed, async (trx) => {
    await lockProductRating(trx, dialect, o.productId, at);
    const settings = await readReviewSettings(trx);
    if (await reviewOfAuthor(trx, o.productId, authorKeyOf(author)).executeTakeFirst())
      throw new HttpError(409, REVIEW_MESSAGES.alreadyReviewed);
    const purchase = await accountPurchaseOf(trx, o.user.id, o.productId);
    if (!purchase) {
      if (!settings.allowWithoutOrder) throw new HttpError(403, REVIEW_MESSAGES.needsOrder);
      if (looksAutomated('review', o.input)) throw new HttpError(400, AUTH_MESSAGES.tryAgain);
      await lockShopperKeys(trx, dialect, [`review-without-order:${o.user.id}`]);
      const since = new Date(o.now.getTime() - 86_400_000).toISOString();
      const today = await trx
        .selectFrom('reviews')
        .select(sql<number>`count(*)`.as('n'))
        .where('user_id', '=', o.user.id)
        .where('order_id', 'is', null)
        .where('created_at', '>', since)
        .executeTakeFirst();
      if (Number(today?.n ?? 0) >= REVIEW_LIMITS.withoutOrderPerDay) throw new HttpError(429, REVIEW_MESSAGES.tooManyWithoutOrder);
    }
    const reviewId = await insertReview(trx, {
      productId: o.productId,
      author,
      purchase,
      input: o.input,
      source: 'account',
      requestId: null,
      moderation: settings.moderation,
      photos: o.photos,
      now: at,
    });
    await refreshProductRating(trx, o.productId, at);
    return reviewId;
  });
  return { result: created(await myReview(db, id)), removed: [] };
}

/** The author's edit of their review (another account's review, or an unknown id, is 404 alike). */
export async function editAccountReview(
  { db, dialect }: ReviewDeps,
  o: { user: { id: string }; reviewId: string; input: ReviewInput; photos: readonly StoredPhoto[]; now: Date },
): Promise<ReviewWriteOutcome> {
  const before = await db.selectFrom('reviews').select(['product_id', 'user_id']).where('id', '=', o.reviewId).executeTakeFirst();
  if (!before || before.user_id !== o.user.id) throw notFound(REVIEW_MESSAGES.reviewNotFound);
  const at = o.now.toISOString();
  const removed = await transactionWithRetry(db, async (trx) => {
    await lockProductRating(trx, dialect, before.product_id, at);
    const row = await forUpdate(trx.selectFrom('reviews').selectAll().where('id', '=', o.reviewId), dialect).executeTakeFirst();
    if (!row || row.user_id !== o.user.id) throw notFound(REVIEW_MESSAGES.reviewNotFound);
    const settings = await readReviewSettings(trx);
    const dropped = await updateReview(trx, row, { input: o.input, photos: o.photos, moderation: settings.moderation, now: at });
    await refreshProductRating(trx, row.product_id, at);
    return dropped;
  });
  return { result: { review: await myReview(db, o.reviewId), message: REVIEW_MESSAGES.edited }, removed };
}

/** The signed-in customer's reviews, newest first. */
export async function listMyReviews(
  db: Kysely<Database>,
  userId: string,
  page: number,
): Promise<{ items: MyReview[]; total: number; page: number; pageSize: number }> {
  const pageSize = REVIEW_LIMITS.pageSize;
  const [rows, count] = await Promise.all([
    db
      .selectFrom('reviews')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    db
      .selectFrom('reviews')
      .select(sql<number>`count(*)`.as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirst(),
  ]);
  const photos = await photosOf(
    db,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => toMyReview(r, photos.get(r.id) ?? [])), total: Number(count?.n ?? 0), page, pageSize };
}

// ——— From a request e-mail's link ———

/** The link a token names, refused as the contract says: unknown 404, expired 410. */
function usableLink(link: ReviewLinkRow | null, now: Date): ReviewLinkRow {
  if (!link) throw notFound(REVIEW_MESSAGES.linkUnknown);
  if (Date.parse(link.expires_at) <= now.getTime()) throw new HttpError(410, REVIEW_MESSAGES.linkExpired);
  return link;
}

/** A product named with the link (the form's `productId`) must be the link's own: a link reviews one product only. */
function ofLinkProduct(link: ReviewLinkRow, productId: string | undefined): void {
  if (productId !== undefined && productId !== link.product_id) throw notFound(REVIEW_MESSAGES.linkUnknown);
}

/** The author a link writes as: the order's account when it has one, else the order's address. */
function linkAuthor(purchase: PurchaseOfProduct): { userId: string | null; email: string } {
  return { userId: purchase.userId, email: purchase.email };
}

async function defaultNameOfPurchase(db: Kysely<Database>, purchase: PurchaseOfProduct | null): Promise<string> {
  if (!purchase) return '';
  if (purchase.userId) {
    const user = await db.selectFrom('users').select('full_name').where('id', '=', purchase.userId).executeTakeFirst();
    if (user?.full_name) return defaultDisplayName(user.full_name);
  }
  return defaultDisplayName(purchase.shippingName);
}

/**
 * The form a request e-mail's link opens (nobody signed in). A used link edits the review it made
 * until the link expires; an unused one writes one, while its order still stands and its author has
 * not reviewed the product another way.
 */
export async function linkReviewForm(
  db: Kysely<Database>,
  token: string,
  productId: string | undefined,
  now: Date,
): Promise<ReviewFormState> {
  const link = usableLink(await readReviewLink(db, token), now);
  ofLinkProduct(link, productId);
  const product = await productForForm(db, link.product_id);
  if (!product) throw notFound(REVIEW_WRITE_MESSAGES.productNotFound);
  const purchase = await linkPurchase(db, link);
  const base = { product, variantLabel: link.variant_label, defaultDisplayName: await defaultNameOfPurchase(db, purchase) };
  if (link.review_id) {
    const review = await db.selectFrom('reviews').selectAll().where('id', '=', link.review_id).executeTakeFirst();
    if (review) {
      const mine = toMyReview(review, (await photosOf(db, [review.id])).get(review.id) ?? []);
      return { ...base, variantLabel: mine.variantLabel, verified: mine.verified, canWrite: true, reason: null, review: mine };
    }
    return { ...base, verified: false, canWrite: false, reason: REVIEW_MESSAGES.linkUsed, review: null };
  }
  if (!purchase) return { ...base, verified: false, canWrite: false, reason: REVIEW_MESSAGES.needsOrder, review: null };
  if (await reviewOfAuthor(db, link.product_id, authorKeyOf(linkAuthor(purchase))).executeTakeFirst())
    return { ...base, verified: true, canWrite: false, reason: REVIEW_MESSAGES.alreadyReviewed, review: null };
  return { ...base, verified: true, canWrite: true, reason: null, review: null };
}

/**
 * A review through a link: once (a second create, or one racing it, is 409 linkUsed), for the
 * link's product only, while its order still stands (read again in the transaction). The link is
 * marked used with the review it made, and its request e-mail as having led to a review.
 */
export async function createLinkReview(
  { db, dialect }: ReviewDeps,
  o: { token: string; productId?: string; input: ReviewInput; photos: readonly StoredPhoto[]; now: Date },
): Promise<ReviewWriteOutcome> {
  const first = usableLink(await readReviewLink(db, o.token), o.now);
  ofLinkProduct(first, o.productId);
  if (first.used_at) throw new HttpError(409, REVIEW_MESSAGES.linkUsed);
  if (!(await productForForm(db, first.product_id))) throw notFound(REVIEW_WRITE_MESSAGES.productNotFound);
  const at = o.now.toISOString();
  const id = await writeOnce(db, REVIEW_MESSAGES.linkUsed, async (trx) => {
    await lockProductRating(trx, dialect, first.product_id, at);
    const link = usableLink(await readReviewLink(trx, o.token, dialect), o.now);
    if (link.used_at) throw new HttpError(409, REVIEW_MESSAGES.linkUsed);
    const purchase = await linkPurchase(trx, link);
    if (!purchase) throw new HttpError(403, REVIEW_MESSAGES.needsOrder);
    const author = linkAuthor(purchase);
    if (await reviewOfAuthor(trx, link.product_id, authorKeyOf(author)).executeTakeFirst())
      throw new HttpError(409, REVIEW_MESSAGES.alreadyReviewed);
    const settings = await readReviewSettings(trx);
    const reviewId = await insertReview(trx, {
      productId: link.product_id,
      author,
      purchase,
      input: o.input,
      source: 'link',
      requestId: link.request_id,
      moderation: settings.moderation,
      photos: o.photos,
      now: at,
    });
    const used = await trx
      .updateTable('review_links')
      .set({ used_at: at, review_id: reviewId })
      .where('token_hash', '=', link.token_hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw new HttpError(409, REVIEW_MESSAGES.linkUsed);
    await trx
      .updateTable('review_requests')
      .set({ first_review_at: at })
      .where('id', '=', link.request_id)
      .where('first_review_at', 'is', null)
      .execute();
    await refreshProductRating(trx, link.product_id, at);
    return reviewId;
  });
  return { result: created(await myReview(db, id)), removed: [] };
}

/** The link's holder edits the review that link made, until the link expires (an unused link has none: 404). */
export async function editLinkReview(
  { db, dialect }: ReviewDeps,
  o: { token: string; productId?: string; input: ReviewInput; photos: readonly StoredPhoto[]; now: Date },
): Promise<ReviewWriteOutcome> {
  const first = usableLink(await readReviewLink(db, o.token), o.now);
  ofLinkProduct(first, o.productId);
  if (!first.review_id) throw notFound(REVIEW_MESSAGES.reviewNotFound);
  const reviewId = first.review_id;
  const at = o.now.toISOString();
  const removed = await transactionWithRetry(db, async (trx) => {
    await lockProductRating(trx, dialect, first.product_id, at);
    const row = await forUpdate(trx.selectFrom('reviews').selectAll().where('id', '=', reviewId), dialect).executeTakeFirst();
    if (!row) throw notFound(REVIEW_MESSAGES.reviewNotFound);
    const settings = await readReviewSettings(trx);
    const dropped = await updateReview(trx, row, { input: o.input, photos: o.photos, moderation: settings.moderation, now: at });
    await refreshProductRating(trx, row.product_id, at);
    return dropped;
  });
  return { result: { review: await myReview(db, reviewId), message: REVIEW_MESSAGES.edited }, removed };
}
