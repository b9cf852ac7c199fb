import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, OrdersTable, ReviewsTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { transactionWithRetry } from '../db/locks.js';
import { hashToken, newToken } from '../lib/tokens.js';
import { randomString } from '../lib/ids.js';
import { defaultVariantIdOf, variantLabel } from '../../shared/variants.js';
import { REVIEW_LIMITS } from '../../shared/reviews.js';
import { lockProductRating, refreshProductRating } from '../reviews/ratings.js';

/**
 * Set-up for the review tests (issue [6/8]): orders that make a review "Verified buyer", request
 * links, reviews written straight to the table, and the multipart body the review routes take.
 * Everything here writes rows directly: the tests that use it test the reviews, not the checkout.
 */

type Db = { db: Kysely<Database> };
type DbAndDialect = { db: Kysely<Database>; dialect: Dialect };

const DAY_MS = 86_400_000;

export type TestPaidOrder = {
  /** The buyer's account; null or absent: a guest's order. */
  userId?: string | null;
  /** The order's address; the account's address when absent (a guest's: a new one). */
  email?: string;
  /** The first line's product; `moreProductIds` adds a line each. */
  productId: string;
  /** The variant bought (default: the product's first); the line's label is read from it. */
  variantId?: string;
  moreProductIds?: string[];
  /** The shipping address's name (what a guest's review name defaults to). */
  name?: string;
  /** When it shipped (status 'shipped'); absent: paid, not shipped. */
  shipped?: Date;
  /** When it was paid (default: a day before it shipped, or now). */
  paidAt?: Date;
  /** false: a checkout never paid (payment unpaid, no paid_at). Default true. */
  paid?: boolean;
  /** true: cancelled after it was paid. */
  cancelled?: boolean;
  /** Refunded so far; equal to `totalCents` is a full refund (payment 'refunded'). */
  refundedCents?: number;
  /** Default 2500. */
  totalCents?: number;
};

/**
 * A paid order (as a checkout leaves it) with one line per product, the line naming the variant
 * bought as the checkout does ('Lavender, 32 oz', '' without options).
 */
export async function makePaidOrder(t: Db, o: TestPaidOrder): Promise<{ orderId: string; orderNumber: string }> {
  const orderId = `order_r${randomString(11)}`;
  const orderNumber = orderId.slice(-8).toUpperCase();
  const paid = o.paid !== false;
  const totalCents = o.totalCents ?? 2500;
  const refundedCents = Math.min(o.refundedCents ?? 0, totalCents);
  const shippedAt = o.shipped?.toISOString() ?? null;
  const paidAt = paid ? (o.paidAt ?? new Date((o.shipped?.getTime() ?? Date.now()) - (o.shipped ? DAY_MS : 0))).toISOString() : null;
  const createdAt = paidAt ?? new Date().toISOString();
  const user = o.userId
    ? await t.db.selectFrom('users').select(['email', 'full_name']).where('id', '=', o.userId).executeTakeFirstOrThrow()
    : null;
  const email = (o.email ?? user?.email ?? `guest-${randomString(8).toLowerCase()}@example.com`).toLowerCase();
  const status: OrdersTable['status'] = o.cancelled ? 'cancelled' : !paid ? 'pending' : shippedAt ? 'shipped' : 'completed';
  await t.db
    .insertInto('orders')
    .values({
      id: orderId,
      order_number: orderNumber,
      user_id: o.userId ?? null,
      email,
      status,
      payment_status: !paid ? 'unpaid' : refundedCents >= totalCents ? 'refunded' : 'paid',
      payment_provider: 'test',
      payment_session_id: null,
      shipping_address: JSON.stringify({
        name: o.name ?? user?.full_name ?? 'Pat Buyer',
        address: '1 Main St',
        city: 'Springfield',
        state: 'CA',
        zip: '90210',
        country: 'US',
        email,
      }),
      billing_address: null,
      subtotal_cents: totalCents,
      discount_cents: 0,
      shipping_cents: 0,
      tax_cents: 0,
      total_cents: totalCents,
      refunded_cents: refundedCents,
      coupon_code: null,
      shipping_option_id: null,
      shipstation_data: null,
      shipstation_tracking_number: null,
      guest_token_hash: null,
      created_at: createdAt,
      updated_at: createdAt,
      paid_at: paidAt,
      shipped_at: shippedAt,
    })
    .execute();
  const lines: { productId: string; variantId?: string }[] = [
    { productId: o.productId, variantId: o.variantId },
    ...(o.moreProductIds ?? []).map((productId) => ({ productId })),
  ];
  for (const [i, line] of lines.entries()) {
    const variantId = line.variantId ?? defaultVariantIdOf(line.productId);
    const product = await t.db.selectFrom('products').select(['name', 'images']).where('id', '=', line.productId).executeTakeFirstOrThrow();
    const variant = await t.db
      .selectFrom('product_variants')
      .select(['option1', 'option2', 'option3', 'price_cents', 'sku'])
      .where('id', '=', variantId)
      .executeTakeFirst();
    await t.db
      .insertInto('order_items')
      .values({
        id: `${orderId}_item${i + 1}`,
        order_id: orderId,
        product_id: line.productId,
        variant_id: variantId,
        variant_label: variant ? variantLabel([variant.option1, variant.option2, variant.option3]) : '',
        product_name: product.name,
        product_image: (JSON.parse(product.images) as string[])[0] ?? null,
        sku: variant?.sku ?? null,
        quantity: 1,
        price_cents: variant?.price_cents ?? totalCents,
        size: '',
        color: '',
        is_free_gift: 0,
      })
      .execute();
  }
  return { orderId, orderNumber };
}

/**
 * A request e-mail's signed link for one product of an order: the order's `review_requests` row
 * (made as 'sent' when it has none) and a `review_links` row holding the token's hash only.
 */
export async function makeReviewLink(
  t: Db,
  o: { orderId: string; productId: string; expiresAt?: Date; token?: string },
): Promise<{ token: string; requestId: string }> {
  const token = o.token ?? newToken();
  const order = await t.db.selectFrom('orders').select(['email', 'user_id']).where('id', '=', o.orderId).executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const email = (order.email ?? '').toLowerCase();
  await t.db
    .insertInto('review_requests')
    .values({
      id: `revreq_${randomString(12)}`,
      order_id: o.orderId,
      email,
      user_id: order.user_id,
      status: 'sent',
      skip_reason: null,
      created_at: now,
      first_review_at: null,
    })
    .onConflict((oc) => oc.column('order_id').doNothing())
    .execute();
  const request = await t.db.selectFrom('review_requests').select('id').where('order_id', '=', o.orderId).executeTakeFirstOrThrow();
  const line = await t.db
    .selectFrom('order_items')
    .select('variant_label')
    .where('order_id', '=', o.orderId)
    .where('product_id', '=', o.productId)
    .executeTakeFirst();
  await t.db
    .insertInto('review_links')
    .values({
      token_hash: hashToken(token),
      request_id: request.id,
      order_id: o.orderId,
      product_id: o.productId,
      variant_label: line?.variant_label ?? '',
      email,
      expires_at: (o.expiresAt ?? new Date(Date.now() + REVIEW_LIMITS.linkDays * DAY_MS)).toISOString(),
      used_at: null,
      review_id: null,
    })
    .execute();
  return { token, requestId: request.id };
}

export type TestReview = {
  productId: string;
  rating: number;
  /** The author: an account, or a guest's address (author_key 'email:…'). */
  userId?: string | null;
  email?: string;
  /** The paid order making it "Verified buyer"; absent: none. */
  orderId?: string | null;
  variantLabel?: string;
  title?: string;
  body?: string;
  displayName?: string;
  status?: ReviewsTable['status'];
  hiddenReason?: ReviewsTable['hidden_reason'];
  source?: ReviewsTable['source'];
  requestId?: string | null;
  /** created_at and (when published) published_at; default now. */
  at?: Date;
  reply?: string;
  photos?: { url: string; width: number; height: number }[];
  photosHidden?: boolean;
};

/**
 * A review written straight to the table (for the lists, the queue and the figures), its product's
 * ratings row refreshed in the same transaction as the review writes do. Answers its id.
 */
export async function insertReview(t: DbAndDialect, o: TestReview): Promise<string> {
  const id = `rev_${randomString(14)}`;
  const at = (o.at ?? new Date()).toISOString();
  const user = o.userId ? await t.db.selectFrom('users').select('email').where('id', '=', o.userId).executeTakeFirstOrThrow() : null;
  const email = (o.email ?? user?.email ?? `reviewer-${randomString(8).toLowerCase()}@example.com`).toLowerCase();
  const status = o.status ?? 'published';
  await transactionWithRetry(t.db, async (trx) => {
    await lockProductRating(trx, t.dialect, o.productId, at);
    await trx
      .insertInto('reviews')
      .values({
        id,
        product_id: o.productId,
        author_key: o.userId ? `user:${o.userId}` : `email:${email}`,
        user_id: o.userId ?? null,
        email,
        display_name: o.displayName ?? 'Pat B.',
        order_id: o.orderId ?? null,
        variant_label: o.variantLabel ?? '',
        rating: o.rating,
        title: o.title ?? `Rated ${o.rating}`,
        body: o.body ?? 'Does what it says, and the bottle lasts.',
        status,
        hidden_reason: status === 'hidden' ? (o.hiddenReason ?? 'spam') : null,
        hidden_note: null,
        hidden_at: status === 'hidden' ? at : null,
        hidden_by: null,
        photos_hidden: o.photosHidden ? 1 : 0,
        photo_count: o.photos?.length ?? 0,
        reply_text: o.reply ?? null,
        reply_at: o.reply ? at : null,
        reply_by: null,
        source: o.source ?? (o.userId ? 'account' : 'link'),
        request_id: o.requestId ?? null,
        created_at: at,
        updated_at: at,
        edited_at: null,
        published_at: status === 'published' ? at : null,
      })
      .execute();
    if (o.photos?.length)
      await trx
        .insertInto('review_photos')
        .values(o.photos.map((p, i) => ({ id: `revph_${randomString(12)}`, review_id: id, position: i + 1, ...p, created_at: at })))
        .execute();
    await refreshProductRating(trx, o.productId, at);
  });
  return id;
}

/** A file in a review's multipart body (the field is `photos`). */
export type TestReviewFile = { content: Buffer; type?: string; filename?: string; field?: string };

/**
 * The multipart body of a review write (POST/PUT /api/reviews/link/:token and the account's):
 * its fields (arrays as repeated fields, as a browser's FormData sends `keepPhotos`), then files.
 * Spread into `app.inject({ method, url, ...reviewForm(…) })`, adding cookies/origin as needed.
 */
export function reviewForm(
  fields: Record<string, string | number | readonly string[] | undefined>,
  files: TestReviewFile[] = [],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----reviewtest${randomString(12)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? (value as readonly string[]) : [String(value)])
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${v}\r\n`));
  }
  for (const [i, f] of files.entries()) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'photos'}"; filename="${f.filename ?? `photo-${i + 1}.png`}"\r\nContent-Type: ${f.type ?? 'image/png'}\r\n\r\n`,
      ),
      f.content,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A valid review's fields, with these changed. */
export function reviewFields(
  o: Partial<Record<'rating' | 'title' | 'body' | 'displayName', string | number>> & { keepPhotos?: readonly string[] } = {},
): Record<string, string | number | readonly string[] | undefined> {
  return { rating: 5, title: 'Works well', body: 'Cleans the counter without streaks.', displayName: 'Pat B.', ...o };
}

/**
 * Sends a review's multipart form as a browser would: the client's cookies (a signed-in account;
 * none for a request link) and the shop's Origin, from `ip` (the write limit counts per address).
 */
export function sendReview(
  app: FastifyInstance,
  o: {
    method: 'POST' | 'PUT';
    url: string;
    fields?: Record<string, string | number | readonly string[] | undefined>;
    files?: TestReviewFile[];
    cookies?: Map<string, string>;
    ip?: string;
  },
): Promise<LightMyRequestResponse> {
  const form = reviewForm(o.fields ?? reviewFields(), o.files ?? []);
  const cookie = [...(o.cookies ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
  return app.inject({
    method: o.method,
    url: o.url,
    remoteAddress: o.ip ?? '10.0.0.1',
    payload: form.payload,
    headers: { ...form.headers, origin: 'http://localhost:80', ...(cookie ? { cookie } : {}) },
  });
}

/** Count, sum and one count per star (1 to 5). */
export type RatingFigures = { count: number; sum: number; stars: number[] };

/**
 * A product's stored ratings row beside the same figures counted by hand from its published reviews:
 * the check every concurrency test makes after the dust settles.
 */
export async function ratingsBesideHandCount(
  db: Kysely<Database>,
  productId: string,
): Promise<{ stored: RatingFigures; counted: RatingFigures }> {
  const row = await db.selectFrom('product_ratings').selectAll().where('product_id', '=', productId).executeTakeFirst();
  const published = await db
    .selectFrom('reviews')
    .select('rating')
    .where('product_id', '=', productId)
    .where('status', '=', 'published')
    .execute();
  return {
    stored: row
      ? { count: row.review_count, sum: row.rating_sum, stars: [row.stars_1, row.stars_2, row.stars_3, row.stars_4, row.stars_5] }
      : { count: 0, sum: 0, stars: [0, 0, 0, 0, 0] },
    counted: {
      count: published.length,
      sum: published.reduce((s, r) => s + r.rating, 0),
      stars: [1, 2, 3, 4, 5].map((s) => published.filter((r) => r.rating === s).length),
    },
  };
}
