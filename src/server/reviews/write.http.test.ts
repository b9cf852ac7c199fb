import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct, createUser, createVariant } from '../db/seed/factories.js';
import { makePaidOrder, makeReviewLink, reviewFields, sendReview, type TestReviewFile } from '../test/reviews.js';
import { exifSegment, jpeg, png } from '../test/images.js';
import { saveReviewSettings } from './settings.js';
import { REVIEW_WRITE_MESSAGES } from './write.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { readRatingSummary } from './ratings.js';
import { REVIEW_LIMITS, REVIEW_MESSAGES, type MyReview, type ReviewFormState } from '../../shared/reviews.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { AUTH_MESSAGES } from '../../shared/schemas/auth.js';

/**
 * Issue [6/8]: writing a review from an account. "Verified buyer" only from a paid order of the
 * product; one review per product and customer however many submits race; every limit's sentence;
 * photos through the image pipeline; the owner's moderation; the guards however the path is spelled.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
afterEach(async () => {
  await saveReviewSettings(t.db, { moderation: 'publish', allowWithoutOrder: false }, { actorId: null });
});

let ipCount = 0;
/** Each test writes from addresses of its own: the write limit counts per address. */
const nextIp = () => `10.61.${Math.floor(++ipCount / 250)}.${ipCount % 250}`;

type Customer = { id: string; email: string; client: TestClient; cookies: Map<string, string> };
async function customer(fullName = 'Jane Doe'): Promise<Customer> {
  const user = await createUser(t.db, { fullName });
  const client = new TestClient(t.app, nextIp());
  expect((await client.signIn(user.email, user.password)).statusCode).toBe(200);
  return { id: user.id, email: user.email, client, cookies: client.cookies };
}

const write = (
  c: Customer | null,
  productId: string,
  o: { fields?: Record<string, unknown>; files?: TestReviewFile[]; ip?: string } = {},
) =>
  sendReview(t.app, {
    method: 'POST',
    url: `/api/account/reviews/product/${productId}`,
    fields: { ...reviewFields(), ...(o.fields as Record<string, string | undefined>) },
    files: o.files,
    cookies: c?.cookies,
    ip: o.ip ?? nextIp(),
  });
const edit = (c: Customer, id: string, o: { fields?: Record<string, unknown>; files?: TestReviewFile[] } = {}) =>
  sendReview(t.app, {
    method: 'PUT',
    url: `/api/account/reviews/${id}`,
    fields: { ...reviewFields(), ...(o.fields as Record<string, string | undefined>) },
    files: o.files,
    cookies: c.cookies,
    ip: nextIp(),
  });
const reviewRows = (productId: string) => t.db.selectFrom('reviews').selectAll().where('product_id', '=', productId).execute();
const ratingRow = (productId: string) =>
  t.db.selectFrom('product_ratings').selectAll().where('product_id', '=', productId).executeTakeFirst();
const product = (name = 'Concentrated Cleaner') => createProduct(t.db, { name, priceCents: 1500, inventory: 50 });

describe('verified buyer: only a paid order of the product', () => {
  it('a paid order: the form says verified with the variant bought and the name by default; the review is verified and counted', async () => {
    const p = await createProduct(t.db, { name: 'Cleaner', priceCents: 1500 });
    const lavender = await createVariant(t.db, p.id, { options: ['Lavender, 32 oz'], priceCents: 2499 });
    const c = await customer('Jane Q Doe');
    await makePaidOrder(t, { userId: c.id, productId: p.id, variantId: lavender, shipped: new Date() });
    const form = await c.client.get(`/api/account/reviews/product/${p.id}`);
    expect(form.statusCode).toBe(200);
    const state = form.json<ReviewFormState>();
    expect(state).toMatchObject({
      product: { id: p.id, name: 'Cleaner' },
      verified: true,
      canWrite: true,
      reason: null,
      variantLabel: 'Lavender, 32 oz',
      defaultDisplayName: 'Jane D.',
      review: null,
    });
    const res = await write(c, p.id, { fields: { rating: 4, displayName: state.defaultDisplayName } });
    expect(res.statusCode, res.body).toBe(201);
    const { review, message } = res.json<{ review: MyReview; message: string }>();
    expect(message).toBe(REVIEW_MESSAGES.thanksPublished);
    expect(review).toMatchObject({
      productId: p.id,
      rating: 4,
      verified: true,
      variantLabel: 'Lavender, 32 oz',
      status: 'published',
      displayName: 'Jane D.',
      editedAt: null,
    });
    expect(await readRatingSummary(t.db, p.id)).toEqual({ count: 1, average: 4, stars: [0, 0, 0, 1, 0] });
    // The form now edits it.
    expect((await c.client.get(`/api/account/reviews/product/${p.id}`)).json<ReviewFormState>()).toMatchObject({
      review: { id: review.id },
      canWrite: true,
    });
  });

  it('no order, an unpaid one, a cancelled one, one refunded in full: 403, nothing stored; one refunded in part still counts', async () => {
    const p = await product();
    const none = await customer();
    const unpaid = await customer();
    await makePaidOrder(t, { userId: unpaid.id, productId: p.id, paid: false });
    const cancelled = await customer();
    await makePaidOrder(t, { userId: cancelled.id, productId: p.id, cancelled: true });
    const refunded = await customer();
    await makePaidOrder(t, { userId: refunded.id, productId: p.id, totalCents: 2000, refundedCents: 2000 });
    const otherProduct = await customer();
    await makePaidOrder(t, { userId: otherProduct.id, productId: (await product('Other')).id });
    for (const c of [none, unpaid, cancelled, refunded, otherProduct]) {
      const form = (await c.client.get(`/api/account/reviews/product/${p.id}`)).json<ReviewFormState>();
      expect(form).toMatchObject({ verified: false, canWrite: false, reason: REVIEW_MESSAGES.needsOrder });
      const res = await write(c, p.id);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: REVIEW_MESSAGES.needsOrder });
    }
    expect(await reviewRows(p.id)).toEqual([]);
    const partly = await customer();
    const { orderId } = await makePaidOrder(t, { userId: partly.id, productId: p.id, totalCents: 2000, refundedCents: 500 });
    const res = await write(partly, p.id);
    expect(res.statusCode).toBe(201);
    expect((await reviewRows(p.id))[0]).toMatchObject({ order_id: orderId, author_key: `user:${partly.id}`, source: 'account' });
  });

  it('the badge comes from the order only: an orderId or verified field sent with the form changes nothing', async () => {
    await saveReviewSettings(t.db, { allowWithoutOrder: true }, { actorId: null });
    const p = await product();
    const someoneElses = await makePaidOrder(t, { productId: p.id });
    const c = await customer();
    const res = await write(c, p.id, {
      fields: { orderId: someoneElses.orderId, order_id: someoneElses.orderId, verified: 'true', elapsedMs: 5000 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json<{ review: MyReview }>().review.verified).toBe(false);
    expect((await reviewRows(p.id))[0]!.order_id).toBeNull();
  });

  it('an unknown or draft product is 404; nobody signed in is 401', async () => {
    const c = await customer();
    expect((await c.client.get('/api/account/reviews/product/no-such-product')).statusCode).toBe(404);
    expect((await write(c, 'no-such-product')).statusCode).toBe(404);
    const draft = await product('Draft');
    await t.db.updateTable('products').set({ status: 'draft' }).where('id', '=', draft.id).execute();
    await makePaidOrder(t, { userId: c.id, productId: draft.id });
    expect((await write(c, draft.id)).statusCode).toBe(404);
    expect((await write(null, draft.id)).statusCode).toBe(401);
  });
});

describe('the request e-mail that led to it', () => {
  it('a review written from the account after the order’s request counts for the figures (first_review_at), once', async () => {
    const p = await product('Refill Pouch');
    const c = await customer('Ada Lovelace');
    const { orderId } = await makePaidOrder(t, { userId: c.id, productId: p.id, shipped: new Date() });
    const { requestId } = await makeReviewLink(t, { orderId, productId: p.id });
    const request = () =>
      t.db.selectFrom('review_requests').select('first_review_at').where('id', '=', requestId).executeTakeFirstOrThrow();
    expect((await request()).first_review_at).toBeNull();
    expect((await write(c, p.id)).statusCode).toBe(201);
    const first = (await request()).first_review_at;
    expect(first).not.toBeNull();
    // A second submit (refused) does not move it.
    expect((await write(c, p.id)).statusCode).toBe(409);
    expect((await request()).first_review_at).toBe(first);
  });
});

describe('one review per product and customer', () => {
  it('thirty submits at once: exactly one 201, the rest 409 alreadyReviewed, one row, the stars counted once', async () => {
    const p = await product();
    const c = await customer();
    await makePaidOrder(t, { userId: c.id, productId: p.id });
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => write(c, p.id, { fields: { rating: (i % 5) + 1 } })));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((s) => s === 201)).toHaveLength(1);
    expect(codes.filter((s) => s === 409)).toHaveLength(29);
    for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json()).toEqual({ error: REVIEW_MESSAGES.alreadyReviewed });
    const rows = await reviewRows(p.id);
    expect(rows).toHaveLength(1);
    expect(await ratingRow(p.id)).toMatchObject({ review_count: 1, rating_sum: rows[0]!.rating });
    // And again later: still 409.
    expect((await write(c, p.id)).statusCode).toBe(409);
  });

  it('two customers review the same product at once: both counted', async () => {
    const p = await product();
    const people = await Promise.all(Array.from({ length: 6 }, () => customer()));
    for (const c of people) await makePaidOrder(t, { userId: c.id, productId: p.id });
    const answers = await Promise.all(people.map((c, i) => write(c, p.id, { fields: { rating: i < 3 ? 5 : 2 } })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(201));
    expect(await readRatingSummary(t.db, p.id)).toEqual({ count: 6, average: 3.5, stars: [0, 3, 0, 0, 3] });
  });
});

describe('editing from the account', () => {
  it('the author edits: marked edited, published_at kept, the stars recounted; another customer’s review id is 404 and unchanged', async () => {
    const p = await product();
    const c = await customer();
    await makePaidOrder(t, { userId: c.id, productId: p.id });
    const first = (await write(c, p.id, { fields: { rating: 5 } })).json<{ review: MyReview }>().review;
    const before = (await reviewRows(p.id))[0]!;
    const res = await edit(c, first.id, { fields: { rating: 2, title: 'Changed my mind', body: 'It streaks on glass after a week.' } });
    expect(res.statusCode, res.body).toBe(200);
    const { review, message } = res.json<{ review: MyReview; message: string }>();
    expect(message).toBe(REVIEW_MESSAGES.edited);
    expect(review).toMatchObject({ rating: 2, title: 'Changed my mind', status: 'published', verified: true });
    expect(review.editedAt).not.toBeNull();
    const after = (await reviewRows(p.id))[0]!;
    expect(after.published_at).toBe(before.published_at);
    expect(after.edited_at).not.toBeNull();
    expect(await readRatingSummary(t.db, p.id)).toEqual({ count: 1, average: 2, stars: [0, 1, 0, 0, 0] });

    const stranger = await customer();
    const theirs = await edit(stranger, first.id, { fields: { rating: 1, title: 'Hijacked' } });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ error: REVIEW_MESSAGES.reviewNotFound });
    expect((await edit(stranger, 'rev_nosuchreview')).statusCode).toBe(404);
    expect((await reviewRows(p.id))[0]).toMatchObject({ rating: 2, title: 'Changed my mind' });
  });

  it('the list of my reviews: newest first, mine only', async () => {
    const c = await customer();
    const other = await customer();
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C']) {
      const p = await product(name);
      await makePaidOrder(t, { userId: c.id, productId: p.id });
      await makePaidOrder(t, { userId: other.id, productId: p.id });
      ids.push((await write(c, p.id)).json<{ review: MyReview }>().review.id);
      expect((await write(other, p.id)).statusCode).toBe(201);
    }
    const res = await c.client.get('/api/account/reviews?page=1');
    expect(res.statusCode).toBe(200);
    const list = res.json<{ items: MyReview[]; total: number; page: number; pageSize: number }>();
    expect(list).toMatchObject({ total: 3, page: 1, pageSize: REVIEW_LIMITS.pageSize });
    expect(list.items.map((r) => r.id)).toEqual([...ids].reverse());
    expect((await c.client.get('/api/account/reviews?page=0')).statusCode).toBe(400);
  });
});

describe('moderation: hold', () => {
  it('a new review waits (pending, thanksPending) and the stars do not move; an edit of a published one goes back to pending', async () => {
    const p = await product();
    const early = await customer();
    await makePaidOrder(t, { userId: early.id, productId: p.id });
    const published = (await write(early, p.id, { fields: { rating: 5 } })).json<{ review: MyReview }>().review;
    const summary = await readRatingSummary(t.db, p.id);
    expect(summary).toMatchObject({ count: 1, average: 5 });

    await saveReviewSettings(t.db, { moderation: 'hold' }, { actorId: null });
    const c = await customer();
    await makePaidOrder(t, { userId: c.id, productId: p.id });
    const res = await write(c, p.id, { fields: { rating: 1 } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ message: REVIEW_MESSAGES.thanksPending, review: { status: 'pending' } });
    expect((await reviewRows(p.id)).find((r) => r.user_id === c.id)).toMatchObject({ status: 'pending', published_at: null });
    expect(await readRatingSummary(t.db, p.id)).toEqual(summary);

    const edited = await edit(early, published.id, { fields: { rating: 3 } });
    expect(edited.json()).toMatchObject({ review: { status: 'pending', rating: 3 } });
    expect((await reviewRows(p.id)).find((r) => r.id === published.id)!.published_at).toBe(published.publishedAt);
    expect(await readRatingSummary(t.db, p.id)).toMatchObject({ count: 0 });
  });

  it('a hidden review stays hidden when its author edits it', async () => {
    const p = await product();
    const c = await customer();
    await makePaidOrder(t, { userId: c.id, productId: p.id });
    const review = (await write(c, p.id)).json<{ review: MyReview }>().review;
    await t.db.updateTable('reviews').set({ status: 'hidden', hidden_reason: 'abuse' }).where('id', '=', review.id).execute();
    const res = await edit(c, review.id, { fields: { title: 'Edited after hiding' } });
    expect(res.json()).toMatchObject({ review: { status: 'hidden', hiddenReason: 'abuse', title: 'Edited after hiding' } });
  });
});

describe('every limit answers 400 with its own sentence', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['rating 0', { rating: 0 }, REVIEW_MESSAGES.ratingRequired],
    ['rating 6', { rating: 6 }, REVIEW_MESSAGES.ratingRequired],
    ['rating 4.5', { rating: 4.5 }, REVIEW_MESSAGES.ratingRequired],
    ['rating missing', { rating: undefined }, REVIEW_MESSAGES.ratingRequired],
    ['title empty', { title: '   ' }, REVIEW_MESSAGES.titleRequired],
    ['title 101', { title: 'x'.repeat(101) }, REVIEW_MESSAGES.titleTooLong],
    ['body 9', { body: 'x'.repeat(9) }, REVIEW_MESSAGES.bodyTooShort],
    ['body 5001', { body: 'x'.repeat(5001) }, REVIEW_MESSAGES.bodyTooLong],
    ['name empty', { displayName: '' }, REVIEW_MESSAGES.displayNameRequired],
    ['name 41', { displayName: 'x'.repeat(41) }, REVIEW_MESSAGES.displayNameTooLong],
  ];
  it.each(cases)('%s', async (_name, fields, sentence) => {
    const p = await product();
    const c = await customer();
    await makePaidOrder(t, { userId: c.id, productId: p.id });
    const res = await write(c, p.id, { fields });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: sentence });
    expect(await reviewRows(p.id)).toEqual([]);
  });

  it('the longest allowed passes: title 100, body 5000 (in letters that take 3 bytes each), name 40', async () => {
    const p = await product();
    const c = await customer();
    await makePaidOrder(t, { userId: c.id, productId: p.id });
    const res = await write(c, p.id, { fields: { title: 'x'.repeat(100), body: '€'.repeat(5000), displayName: 'x'.repeat(40) } });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('photos', () => {
  const uploads = () => path.join(t.config.uploadDir, 'reviews');
  const filesNow = () => (fs.existsSync(uploads()) ? fs.readdirSync(uploads()).sort() : []);
  const photo = (content: Buffer, type = 'image/jpeg'): TestReviewFile => ({ content, type, filename: 'p.jpg' });

  it('stored without their metadata, served, counted; an edit keeps those named and adds new ones, and removes the rest’s files', async () => {
    const p = await product();
    const c = await customer();
    await makePaidOrder(t, { userId: c.id, productId: p.id });
    const serial = 'CAMERA-SERIAL-98431';
    const res = await write(c, p.id, { files: [photo(jpeg(640, 480, [exifSegment(6, serial)])), photo(png(32, 24), 'image/png')] });
    expect(res.statusCode, res.body).toBe(201);
    const review = res.json<{ review: MyReview }>().review;
    expect(review.photos).toHaveLength(2);
    expect(review.photos[0]).toMatchObject({ width: 640, height: 480 });
    expect(review.photos[0]!.url).toMatch(/^\/uploads\/reviews\/[a-z0-9-]+\.jpg$/);
    const served = await t.app.inject({ method: 'GET', url: review.photos[0]!.url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.includes(Buffer.from(serial))).toBe(false);
    expect(served.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect((await reviewRows(p.id))[0]!.photo_count).toBe(2);

    const [keep, drop] = review.photos;
    const res2 = await edit(c, review.id, { fields: { keepPhotos: [keep!.url] }, files: [photo(png(16, 16), 'image/png')] });
    expect(res2.statusCode, res2.body).toBe(200);
    const after = res2.json<{ review: MyReview }>().review;
    expect(after.photos.map((x) => x.url)).toEqual([keep!.url, expect.stringMatching(/\.png$/)]);
    expect((await reviewRows(p.id))[0]!.photo_count).toBe(2);
    expect(fs.existsSync(path.join(t.config.uploadDir, drop!.url.replace('/uploads/', '')))).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: drop!.url })).statusCode).toBe(404);

    // Without keepPhotos all stay; with an empty one none do.
    expect((await edit(c, review.id)).json<{ review: MyReview }>().review.photos).toHaveLength(2);
    expect((await edit(c, review.id, { fields: { keepPhotos: '' } })).json<{ review: MyReview }>().review.photos).toHaveLength(0);
    expect((await reviewRows(p.id))[0]!.photo_count).toBe(0);
  });

  it('four photos, a file that is no image, an image too large in pixels: 400 with the sentence, and no file left behind', async () => {
    const p = await product();
    const c = await customer();
    await makePaidOrder(t, { userId: c.id, productId: p.id });
    const before = filesNow();
    const four = await write(c, p.id, { files: Array.from({ length: 4 }, () => photo(png(8, 8), 'image/png')) });
    expect(four.statusCode).toBe(400);
    expect(four.json()).toEqual({ error: REVIEW_MESSAGES.tooManyPhotos });
    const text = await write(c, p.id, {
      files: [photo(png(8, 8), 'image/png'), photo(Buffer.from('#!/bin/sh\necho hello\n'), 'image/png')],
    });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toEqual({ error: ADMIN_MESSAGES.imageType });
    const huge = await write(c, p.id, { files: [photo(png(9000, 9000), 'image/png')] });
    expect(huge.statusCode).toBe(400);
    expect(huge.json()).toEqual({ error: ADMIN_MESSAGES.imageDimensions(9000, 9000) });
    expect(filesNow()).toEqual(before);
    expect(await reviewRows(p.id)).toEqual([]);
  });

  it('an edit keeping three and adding one is refused (at most three), and a refused write removes the files it stored', async () => {
    const p = await product();
    const c = await customer();
    await makePaidOrder(t, { userId: c.id, productId: p.id });
    const review = (await write(c, p.id, { files: [1, 2, 3].map(() => photo(png(8, 8), 'image/png')) })).json<{ review: MyReview }>()
      .review;
    expect(review.photos).toHaveLength(3);
    const before = filesNow();
    const res = await edit(c, review.id, { files: [photo(png(8, 8), 'image/png')] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: REVIEW_MESSAGES.tooManyPhotos });
    expect(filesNow()).toEqual(before);
    // A second review of the product (409) with a photo leaves no file either.
    const again = await write(c, p.id, { files: [photo(png(8, 8), 'image/png')] });
    expect(again.statusCode).toBe(409);
    expect(filesNow()).toEqual(before);
  });
});

describe('reviews without an order (when the owner allows them)', () => {
  it('off by default: 403; on: not verified, the spam guard applies, and at most three a day per account however many race', async () => {
    const products = await Promise.all(Array.from({ length: 8 }, (_, i) => product(`Loose ${i}`)));
    const c = await customer();
    expect((await write(c, products[0]!.id, { fields: { elapsedMs: 5000 } })).statusCode).toBe(403);
    await saveReviewSettings(t.db, { allowWithoutOrder: true }, { actorId: null });
    expect((await c.client.get(`/api/account/reviews/product/${products[0]!.id}`)).json<ReviewFormState>()).toMatchObject({
      canWrite: true,
      verified: false,
    });
    const fast = await write(c, products[0]!.id, { fields: { elapsedMs: 300 } });
    expect(fast.statusCode).toBe(400);
    expect(fast.json()).toEqual({ error: AUTH_MESSAGES.tryAgain });
    expect((await write(c, products[0]!.id, { fields: { elapsedMs: 5000, website: 'http://spam.example' } })).statusCode).toBe(400);
    const answers = await Promise.all(products.map((p) => write(c, p.id, { fields: { elapsedMs: 5000 } })));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(REVIEW_LIMITS.withoutOrderPerDay);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused).toHaveLength(products.length - REVIEW_LIMITS.withoutOrderPerDay);
    expect(refused[0]!.json()).toEqual({ error: REVIEW_MESSAGES.tooManyWithoutOrder });
    const mine = await t.db.selectFrom('reviews').selectAll().where('user_id', '=', c.id).execute();
    expect(mine).toHaveLength(REVIEW_LIMITS.withoutOrderPerDay);
    expect(mine.every((r) => r.order_id === null)).toBe(true);
    // A bought product is not limited by it.
    const bought = await product('Bought');
    await makePaidOrder(t, { userId: c.id, productId: bought.id });
    expect((await write(c, bought.id)).statusCode).toBe(201);
  });
});

describe('writes from one address', () => {
  it('at most the limit in 15 minutes however many race; the rest answer 429 with when to try again and store nothing', async () => {
    const limit = t.config.reviewWriteLimitPerIp;
    const products = await Promise.all(Array.from({ length: limit + 3 }, (_, i) => product(`Limit ${i}`)));
    const c = await customer();
    for (const p of products) await makePaidOrder(t, { userId: c.id, productId: p.id });
    const ip = nextIp();
    const answers = await Promise.all(products.map((p) => write(c, p.id, { ip })));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(limit);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.json<{ error: string }>().error).toMatch(
      /^Too many reviews sent from this address\. Please wait 15 minutes and try again\.$/,
    );
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(await t.db.selectFrom('reviews').select('id').where('user_id', '=', c.id).execute()).toHaveLength(limit);
    // An edit counts too; another address is not held back by this one.
    const [first] = await t.db.selectFrom('reviews').select('id').where('user_id', '=', c.id).execute();
    const again = await sendReview(t.app, {
      method: 'PUT',
      url: `/api/account/reviews/${first!.id}`,
      fields: reviewFields(),
      cookies: c.cookies,
      ip,
    });
    expect(again.statusCode).toBe(429);
    expect((await edit(c, first!.id)).statusCode).toBe(200);
  });
});

describe('guards', () => {
  it('the account routes spelled otherwise (percent-encoded, //, /./, trailing slash) still need sign-in', async () => {
    const p = await product();
    const guest = new TestClient(t.app, nextIp());
    for (const url of [
      `/api/account/reviews/product/${p.id}`,
      `/api/account/review%73/product/${p.id}`,
      `/api/%61ccount/reviews/product/${p.id}`,
      `/api/account//reviews/product/${p.id}`,
      `/api/account/./reviews/product/${p.id}`,
      `/api/account/reviews/product/${p.id}/`,
      '/api/account/reviews/',
      '/api/account//reviews',
    ]) {
      expect([401, 404], `GET ${url}`).toContain((await guest.get(url)).statusCode);
      const res = await sendReview(t.app, { method: 'POST', url, ip: nextIp() });
      expect([401, 404], `POST ${url}`).toContain(res.statusCode);
    }
    expect(await reviewRows(p.id)).toEqual([]);
  });

  it('an admin acting as the customer reads their form but cannot write or edit in their name', async () => {
    const p = await product();
    const c = await customer();
    await makePaidOrder(t, { userId: c.id, productId: p.id });
    const review = (await write(c, p.id)).json<{ review: MyReview }>().review;
    const admin = new TestClient(t.app, nextIp());
    expect((await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
    expect((await admin.post('/api/impersonation', { userId: c.id })).statusCode).toBe(200);
    const actingAs = { id: c.id, email: c.email, client: admin, cookies: admin.cookies };
    expect((await admin.get(`/api/account/reviews/product/${p.id}`)).json<ReviewFormState>()).toMatchObject({ review: { id: review.id } });
    const res = await edit(actingAs, review.id, { fields: { rating: 1, title: 'Not theirs' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: REVIEW_WRITE_MESSAGES.notWhileImpersonating });
    const other = await product('Other');
    await makePaidOrder(t, { userId: c.id, productId: other.id });
    expect((await write(actingAs, other.id)).statusCode).toBe(403);
    expect(await reviewRows(other.id)).toEqual([]);
    expect((await reviewRows(p.id))[0]).toMatchObject({ rating: 5, edited_at: null });
  });

  it('writes from one address are limited (429 with Retry-After), counted before anything is stored', async () => {
    const p = await product();
    const c = await customer();
    const ip = nextIp();
    const answers = await Promise.all(Array.from({ length: 24 }, () => write(c, p.id, { ip })));
    const limited = answers.filter((a) => a.statusCode === 429);
    expect(limited).toHaveLength(4);
    expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThan(0);
    expect(answers.filter((a) => a.statusCode === 403)).toHaveLength(20);
  });
});
