import type { Kysely, Selectable } from 'kysely';
import type { Database, ReviewsTable } from '../db/schema.js';
import {
  averageOf,
  REVIEW_LIMITS,
  type PublicReview,
  type RatingSummary,
  type ReviewPage,
  type ReviewPhoto,
  type ReviewSort,
} from '../../shared/reviews.js';

/*
 * A product's published reviews and stars as the shop reads them (issue [6/8]). A read beneath the
 * modules, as lib/subscription-plans.ts is: the catalogue (the cards' stars, the shop list's "Top
 * rated" order, the product page's data) needs it and sits below reviews/, which writes these rows
 * (reviews/ratings.ts keeps `product_ratings`) and re-exports this (reviews/read.ts). It writes nothing.
 *
 * Only `published` reviews are ever read here: pending and hidden ones are the owner's and their authors'.
 *
 * Every read is bounded by the page, not by the reviews of the shop nor (but for "with photos") of
 * the product:
 * - newest: the product's published reviews on `reviews_product_list_idx` (product, status,
 *   published_at), walked backwards;
 * - a star filter, and "highest"/"lowest": each star's reviews on `reviews_product_rating_idx`
 *   (product, status, rating, published_at), newest first. The stars' counts in `product_ratings`
 *   say which stars a page falls in and how far into each, so a page is at most a query per star
 *   it shows (a page of 10 never needs more than two in practice), each reading its rows only;
 * - the totals come from `product_ratings` (the same counts the histogram shows), never count(*);
 *   "with photos" alone counts its rows, among the product's published reviews on the list index.
 * Ties of one moment fall to the id, descending, so a page's order never changes between reads.
 */

type ReviewQuery = { page: number; sort: ReviewSort; rating?: number | undefined };

type ReviewRow = Pick<
  Selectable<ReviewsTable>,
  | 'id'
  | 'rating'
  | 'title'
  | 'body'
  | 'display_name'
  | 'order_id'
  | 'variant_label'
  | 'photos_hidden'
  | 'photo_count'
  | 'published_at'
  | 'created_at'
  | 'edited_at'
  | 'reply_text'
  | 'reply_at'
>;

const COLUMNS = [
  'id',
  'rating',
  'title',
  'body',
  'display_name',
  'order_id',
  'variant_label',
  'photos_hidden',
  'photo_count',
  'published_at',
  'created_at',
  'edited_at',
  'reply_text',
  'reply_at',
] as const;

/**
 * A published review as shoppers see it: "Verified buyer" only from the paid order the server
 * tied it to, the photos left out when the shop hid them, never the author's address or account.
 */
export function toPublicReview(row: ReviewRow, photos: readonly ReviewPhoto[]): PublicReview {
  return {
    id: row.id,
    rating: row.rating,
    title: row.title,
    body: row.body,
    displayName: row.display_name,
    verified: row.order_id !== null,
    variantLabel: row.variant_label,
    photos: Number(row.photos_hidden) ? [] : [...photos],
    publishedAt: row.published_at ?? row.created_at,
    editedAt: row.edited_at,
    reply: row.reply_text ? { text: row.reply_text, at: row.reply_at ?? row.published_at ?? row.created_at } : null,
  };
}

/** The product's published reviews, newest first (optionally of one star, or with photos shown only). */
function publishedOf(db: Kysely<Database>, productId: string, rating: number | undefined, withPhotos: boolean) {
  let q = db.selectFrom('reviews').where('product_id', '=', productId).where('status', '=', 'published');
  if (rating !== undefined) q = q.where('rating', '=', rating);
  if (withPhotos) q = q.where('photo_count', '>', 0).where('photos_hidden', '=', 0);
  return q;
}

/**
 * A page of the product's published reviews, newest first. The page's ids are found first on the
 * index, sorted with their dates only (a deep page sorts as many as it skips: narrow keys, never
 * the reviews' texts, which are up to 5,000 characters each), then those ten rows are read whole.
 */
function newestRows(
  db: Kysely<Database>,
  productId: string,
  rating: number | undefined,
  withPhotos: boolean,
  offset: number,
  limit: number,
) {
  const page = publishedOf(db, productId, rating, withPhotos)
    .select('id')
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset);
  return db.selectFrom('reviews').select(COLUMNS).where('id', 'in', page).orderBy('published_at', 'desc').orderBy('id', 'desc').execute();
}

/**
 * "Highest" (5 stars down to 1) or "lowest" (1 up to 5), each star's reviews newest first: the
 * page's rows read star by star, only from the stars the page reaches (their counts tell where).
 */
async function rowsByStars(
  db: Kysely<Database>,
  productId: string,
  stars: RatingSummary['stars'],
  order: 'highest' | 'lowest',
  offset: number,
  limit: number,
): Promise<ReviewRow[]> {
  const reads: Promise<ReviewRow[]>[] = [];
  let skip = offset;
  let want = limit;
  for (let i = 0; i < 5 && want > 0; i++) {
    const star = order === 'highest' ? 5 - i : i + 1;
    const count = stars[star - 1] ?? 0;
    if (skip >= count) {
      skip -= count;
      continue;
    }
    const take = Math.min(want, count - skip);
    reads.push(newestRows(db, productId, star, false, skip, take));
    want -= take;
    skip = 0;
  }
  return (await Promise.all(reads)).flat();
}

/** The photos shown with these reviews (one read, by the photos' review index), by review. */
async function photosOf(db: Kysely<Database>, rows: readonly ReviewRow[]): Promise<Map<string, ReviewPhoto[]>> {
  const ids = rows.filter((r) => Number(r.photo_count) > 0 && !Number(r.photos_hidden)).map((r) => r.id);
  const out = new Map<string, ReviewPhoto[]>();
  if (ids.length === 0) return out;
  const photos = await db
    .selectFrom('review_photos')
    .select(['review_id', 'url', 'width', 'height'])
    .where('review_id', 'in', ids)
    .orderBy('review_id')
    .orderBy('position')
    .execute();
  for (const p of photos) {
    const list = out.get(p.review_id) ?? [];
    list.push({ url: p.url, width: p.width, height: p.height });
    out.set(p.review_id, list);
  }
  return out;
}

const NO_STARS: RatingSummary = { count: 0, average: 0, stars: [0, 0, 0, 0, 0] };

const starsOf = (row: {
  review_count: number;
  rating_sum: number;
  stars_1: number;
  stars_2: number;
  stars_3: number;
  stars_4: number;
  stars_5: number;
}): RatingSummary => ({
  count: row.review_count,
  average: averageOf(row.rating_sum, row.review_count),
  stars: [row.stars_1, row.stars_2, row.stars_3, row.stars_4, row.stars_5],
});

/** One product's stars (`product_ratings`, by its key): no row yet, no published review. */
export async function readProductStars(db: Kysely<Database>, productId: string): Promise<RatingSummary> {
  const row = await db.selectFrom('product_ratings').selectAll().where('product_id', '=', productId).executeTakeFirst();
  return row ? starsOf(row) : NO_STARS;
}

/**
 * The stars of a product on sale, in the read that finds it (its ratings row joined by key): null
 * when no product of that id is on sale (unknown, or a draft: migration 0037).
 */
export async function readStarsOnSale(db: Kysely<Database>, productId: string): Promise<RatingSummary | null> {
  const row = await db
    .selectFrom('products as p')
    .leftJoin('product_ratings as r', 'r.product_id', 'p.id')
    .select(['r.review_count', 'r.rating_sum', 'r.stars_1', 'r.stars_2', 'r.stars_3', 'r.stars_4', 'r.stars_5'])
    .where('p.id', '=', productId)
    .where('p.status', '=', 'active')
    .executeTakeFirst();
  if (!row) return null;
  return row.review_count === null
    ? NO_STARS
    : starsOf({
        review_count: row.review_count,
        rating_sum: row.rating_sum ?? 0,
        stars_1: row.stars_1 ?? 0,
        stars_2: row.stars_2 ?? 0,
        stars_3: row.stars_3 ?? 0,
        stars_4: row.stars_4 ?? 0,
        stars_5: row.stars_5 ?? 0,
      });
}

/** A card's stars: the average as shown (one decimal) and the count. */
export type CardRating = { average: number; count: number };

/**
 * The stars the cards show, of these products (absent: no published review), or of every product
 * that has one (`productIds` null: the catalogue index's build, one read of the ratings table).
 */
export async function readCardRatings(db: Kysely<Database>, productIds: readonly string[] | null): Promise<Map<string, CardRating>> {
  const out = new Map<string, CardRating>();
  if (productIds !== null && productIds.length === 0) return out;
  let q = db.selectFrom('product_ratings').select(['product_id', 'review_count', 'rating_sum']).where('review_count', '>', 0);
  if (productIds !== null) q = q.where('product_id', 'in', [...productIds]);
  for (const r of await q.execute()) out.set(r.product_id, { average: averageOf(r.rating_sum, r.review_count), count: r.review_count });
  return out;
}

/**
 * The ratings rows stamped after `since` (index product_ratings_updated_idx), oldest first: each
 * review write's transaction stamps its product's row, so the shop-change watcher learns from
 * these which products' pages and lists to draw again (http/shop-changes.ts). `state` is what a
 * page shows of them, the stamp included (an edit changes the text and leaves the sums).
 */
export async function starsStampedSince(
  db: Kysely<Database>,
  since: string,
  limit: number,
): Promise<{ productId: string; state: string; at: string }[]> {
  const rows = await db
    .selectFrom('product_ratings')
    .select(['product_id', 'review_count', 'rating_sum', 'updated_at'])
    .where('updated_at', '>', since)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ productId: r.product_id, state: `${r.review_count}|${r.rating_sum}|${r.updated_at}`, at: r.updated_at }));
}

/** The stars a card shows: absent when the product has no published review. */
export function cardRating(summary: Pick<RatingSummary, 'average' | 'count'>): CardRating | undefined {
  return summary.count > 0 ? { average: summary.average, count: summary.count } : undefined;
}

/**
 * One page of a product's published reviews (the product is known to exist and be on sale):
 * `summary` counts all of them (read here unless the caller has read it), `total` those the star
 * filter (or "with photos") keeps.
 */
export async function readReviewPage(
  db: Kysely<Database>,
  productId: string,
  query: ReviewQuery,
  stars?: RatingSummary,
): Promise<ReviewPage> {
  const pageSize = REVIEW_LIMITS.pageSize;
  const offset = (query.page - 1) * pageSize;
  const rating = query.rating ?? null;
  const summary = stars ?? (await readProductStars(db, productId));
  let rows: ReviewRow[];
  let total: number;
  if (query.sort === 'photos') {
    // No count per star of the photos: counted here, on the product's own published reviews only.
    const [found, counted] = await Promise.all([
      newestRows(db, productId, query.rating, true, offset, pageSize),
      publishedOf(db, productId, query.rating, true)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirst(),
    ]);
    rows = found;
    total = Number(counted?.n ?? 0);
  } else if (rating !== null) {
    // One star: every order is that star's newest first.
    total = summary.stars[rating - 1] ?? 0;
    rows = offset < total ? await newestRows(db, productId, rating, false, offset, pageSize) : [];
  } else {
    total = summary.count;
    rows =
      offset >= total
        ? []
        : query.sort === 'newest'
          ? await newestRows(db, productId, undefined, false, offset, pageSize)
          : await rowsByStars(db, productId, summary.stars, query.sort, offset, pageSize);
  }
  const photos = await photosOf(db, rows);
  return {
    summary,
    items: rows.map((r) => toPublicReview(r, photos.get(r.id) ?? [])),
    total,
    page: query.page,
    pageSize,
    sort: query.sort,
    rating,
  };
}

/** The product page's first page of reviews: newest first, every star (what GET …/reviews answers with no query). */
export function readFirstReviewPage(db: Kysely<Database>, productId: string): Promise<ReviewPage> {
  return readReviewPage(db, productId, { page: 1, sort: 'newest' });
}
