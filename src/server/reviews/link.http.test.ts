import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct, createUser, createVariant } from '../db/seed/factories.js';
import { makePaidOrder, makeReviewLink, reviewFields, sendReview, type TestReviewFile } from '../test/reviews.js';
import { png } from '../test/images.js';
import { newToken } from '../lib/tokens.js';
import { saveReviewSettings } from './settings.js';
import { readRatingSummary } from './ratings.js';
import { REVIEW_MESSAGES, type MyReview, type ReviewFormState } from '../../shared/reviews.js';

/**
 * Issue [6/8]: a request e-mail's signed link. It writes one review, for its product only, while
 * its order still stands; it edits that review until it expires; it signs nobody in.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
afterEach(async () => {
  await saveReviewSettings(t.db, { moderation: 'publish' }, { actorId: null });
});

let ipCount = 0;
const nextIp = () => `10.62.${Math.floor(++ipCount / 250)}.${ipCount % 250}`;

const DAY = 86_400_000;
const url = (token: string) => `/api/reviews/link/${token}`;
const send = (method: 'POST' | 'PUT', token: string, o: { fields?: Record<string, unknown>; files?: TestReviewFile[] } = {}) =>
  sendReview(t.app, {
    method,
    url: url(token),
    fields: { ...reviewFields(), ...(o.fields as Record<string, string | undefined>) },
    files: o.files,
    ip: nextIp(),
  });
const read = (token: string, query = '') => t.app.inject({ method: 'GET', url: `${url(token)}${query}`, remoteAddress: nextIp() });
const reviewRows = (productId: string) => t.db.selectFrom('reviews').selectAll().where('product_id', '=', productId).execute();
const linkRow = (requestId: string, productId: string) =>
  t.db
    .selectFrom('review_links')
    .selectAll()
    .where('request_id', '=', requestId)
    .where('product_id', '=', productId)
    .executeTakeFirstOrThrow();
const product = (name = 'Window Squeegee') => createProduct(t.db, { name, priceCents: 1200, inventory: 40 });

/** A guest's shipped order of the product (and of `more`), and a link to review the product. */
async function guestLink(o: { name?: string; email?: string; more?: string[]; expiresAt?: Date } = {}) {
  const p = await product();
  const order = await makePaidOrder(t, {
    productId: p.id,
    moreProductIds: o.more,
    email: o.email ?? 'Pat.Guest@Example.com',
    name: o.name ?? 'Pat Guest',
    shipped: new Date(Date.now() - 12 * DAY),
  });
  const link = await makeReviewLink(t, { orderId: order.orderId, productId: p.id, expiresAt: o.expiresAt });
  return { product: p, ...order, ...link };
}

describe('a request link writes once', () => {
  it('the form: verified, the variant bought, the shipping name by default; nobody is signed in by it', async () => {
    const p = await product();
    const variant = await createVariant(t.db, p.id, { options: ['Lemon, 16 oz'] });
    const order = await makePaidOrder(t, { productId: p.id, variantId: variant, name: 'Robin van Dijk', shipped: new Date() });
    const { token } = await makeReviewLink(t, { orderId: order.orderId, productId: p.id });
    const res = await read(token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.json<ReviewFormState>()).toMatchObject({
      product: { id: p.id },
      variantLabel: 'Lemon, 16 oz',
      verified: true,
      canWrite: true,
      reason: null,
      defaultDisplayName: 'Robin D.',
      review: null,
    });
  });

  it('creates once: verified, the link marked used and its request as having led to a review; a second create is 409 linkUsed', async () => {
    const l = await guestLink();
    const res = await send('POST', l.token, { fields: { rating: 4 } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['set-cookie']).toBeUndefined();
    const { review, message } = res.json<{ review: MyReview; message: string }>();
    expect(message).toBe(REVIEW_MESSAGES.thanksPublished);
    expect(review).toMatchObject({ productId: l.product.id, verified: true, status: 'published', rating: 4 });
    const [row] = await reviewRows(l.product.id);
    expect(row).toMatchObject({
      author_key: 'email:pat.guest@example.com',
      user_id: null,
      order_id: l.orderId,
      source: 'link',
      request_id: l.requestId,
    });
    expect(await linkRow(l.requestId, l.product.id)).toMatchObject({ review_id: review.id });
    expect((await linkRow(l.requestId, l.product.id)).used_at).not.toBeNull();
    const request = await t.db.selectFrom('review_requests').selectAll().where('id', '=', l.requestId).executeTakeFirstOrThrow();
    expect(request.first_review_at).not.toBeNull();

    const again = await send('POST', l.token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: REVIEW_MESSAGES.linkUsed });
    expect(await reviewRows(l.product.id)).toHaveLength(1);
    // The link now opens the review it made, to edit.
    expect((await read(l.token)).json<ReviewFormState>()).toMatchObject({ canWrite: true, review: { id: review.id } });
  });

  it('twenty submits of one link at once: one 201, the rest 409 linkUsed, one review counted once', async () => {
    const l = await guestLink();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send('POST', l.token, { fields: { rating: (i % 5) + 1 } })));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    const refused = answers.filter((a) => a.statusCode !== 201);
    expect(refused.map((a) => a.statusCode)).toEqual(Array(19).fill(409));
    for (const a of refused) expect(a.json()).toEqual({ error: REVIEW_MESSAGES.linkUsed });
    const rows = await reviewRows(l.product.id);
    expect(rows).toHaveLength(1);
    expect(await readRatingSummary(t.db, l.product.id)).toMatchObject({ count: 1, average: rows[0]!.rating });
  });

  it('two links of the same guest for one product (two orders): the second is refused 409 alreadyReviewed', async () => {
    const l = await guestLink({ email: 'twice@example.com' });
    const second = await makePaidOrder(t, { productId: l.product.id, email: 'twice@example.com' });
    const other = await makeReviewLink(t, { orderId: second.orderId, productId: l.product.id });
    expect((await send('POST', l.token)).statusCode).toBe(201);
    expect((await read(other.token)).json<ReviewFormState>()).toMatchObject({ canWrite: false, reason: REVIEW_MESSAGES.alreadyReviewed });
    const res = await send('POST', other.token);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: REVIEW_MESSAGES.alreadyReviewed });
  });

  it('an order with an account: the review is the account’s (it edits it there, and cannot write a second one)', async () => {
    const user = await createUser(t.db, { fullName: 'Alex Kim' });
    const p = await product();
    const order = await makePaidOrder(t, { userId: user.id, productId: p.id, shipped: new Date() });
    const { token } = await makeReviewLink(t, { orderId: order.orderId, productId: p.id });
    expect((await read(token)).json<ReviewFormState>().defaultDisplayName).toBe('Alex K.');
    const res = await send('POST', token, { fields: { displayName: 'Alex K.' } });
    expect(res.statusCode).toBe(201);
    expect((await reviewRows(p.id))[0]).toMatchObject({ author_key: `user:${user.id}`, user_id: user.id });
    const client = new TestClient(t.app, nextIp());
    await client.signIn(user.email, user.password);
    const form = (await client.get(`/api/account/reviews/product/${p.id}`)).json<ReviewFormState>();
    expect(form.review?.id).toBe(res.json<{ review: MyReview }>().review.id);
    const second = await sendReview(t.app, {
      method: 'POST',
      url: `/api/account/reviews/product/${p.id}`,
      cookies: client.cookies,
      ip: nextIp(),
    });
    expect(second.statusCode).toBe(409);
  });

  it('already reviewed from the account: the link says so and refuses', async () => {
    const user = await createUser(t.db, {});
    const p = await product();
    const order = await makePaidOrder(t, { userId: user.id, productId: p.id });
    const client = new TestClient(t.app, nextIp());
    await client.signIn(user.email, user.password);
    expect(
      (await sendReview(t.app, { method: 'POST', url: `/api/account/reviews/product/${p.id}`, cookies: client.cookies, ip: nextIp() }))
        .statusCode,
    ).toBe(201);
    const { token } = await makeReviewLink(t, { orderId: order.orderId, productId: p.id });
    expect((await read(token)).json<ReviewFormState>()).toMatchObject({
      canWrite: false,
      reason: REVIEW_MESSAGES.alreadyReviewed,
      review: null,
    });
    const res = await send('POST', token);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: REVIEW_MESSAGES.alreadyReviewed });
  });

  it('with photos, and under hold moderation: pending, thanksPending, the stars unchanged', async () => {
    await saveReviewSettings(t.db, { moderation: 'hold' }, { actorId: null });
    const l = await guestLink();
    const res = await send('POST', l.token, { files: [{ content: png(20, 10), type: 'image/png' }] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: REVIEW_MESSAGES.thanksPending,
      review: { status: 'pending', photos: [{ width: 20, height: 10 }] },
    });
    expect(await readRatingSummary(t.db, l.product.id)).toMatchObject({ count: 0 });
  });
});

describe('a link is refused outside its own', () => {
  it('another product’s id with the token, an unknown token, a malformed one: 404 linkUnknown, nothing written', async () => {
    const l = await guestLink({ more: [(await product('Other')).id] });
    const other = (
      await t.db
        .selectFrom('order_items')
        .select('product_id')
        .where('order_id', '=', l.orderId)
        .where('product_id', '<>', l.product.id)
        .executeTakeFirstOrThrow()
    ).product_id;
    const wrong = await read(l.token, `?productId=${other}`);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json()).toEqual({ error: REVIEW_MESSAGES.linkUnknown });
    const post = await send('POST', l.token, { fields: { productId: other } });
    expect(post.statusCode).toBe(404);
    expect(await reviewRows(other)).toEqual([]);
    expect(await reviewRows(l.product.id)).toEqual([]);
    for (const token of [newToken(), 'not-a-token', `${l.token.slice(0, -1)}%2F`, `${l.token}x`]) {
      const res = await read(token);
      expect(res.statusCode, token).toBe(404);
      expect(res.json()).toEqual({ error: REVIEW_MESSAGES.linkUnknown });
      expect((await send('POST', token)).statusCode, token).toBe(404);
      expect((await send('PUT', token)).statusCode, token).toBe(404);
    }
    // With its own product named, it works.
    expect((await send('POST', l.token, { fields: { productId: l.product.id } })).statusCode).toBe(201);
  });

  it('expired: 410 linkExpired to read, write and edit', async () => {
    const l = await guestLink({ expiresAt: new Date(Date.now() - 1000) });
    for (const res of [await read(l.token), await send('POST', l.token), await send('PUT', l.token)]) {
      expect(res.statusCode).toBe(410);
      expect(res.json()).toEqual({ error: REVIEW_MESSAGES.linkExpired });
    }
    expect(await reviewRows(l.product.id)).toEqual([]);
  });

  it('an order cancelled or refunded in full since the e-mail: the link cannot write (403 needsOrder)', async () => {
    for (const change of [{ status: 'cancelled' as const }, { refunded_cents: 2500, payment_status: 'refunded' as const }]) {
      const l = await guestLink();
      await t.db.updateTable('orders').set(change).where('id', '=', l.orderId).execute();
      expect((await read(l.token)).json<ReviewFormState>()).toMatchObject({
        canWrite: false,
        verified: false,
        reason: REVIEW_MESSAGES.needsOrder,
      });
      const res = await send('POST', l.token);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: REVIEW_MESSAGES.needsOrder });
      expect(await reviewRows(l.product.id)).toEqual([]);
    }
  });

  it('cross-site: a write naming another Origin is refused', async () => {
    const l = await guestLink();
    const res = await t.app.inject({
      method: 'POST',
      url: url(l.token),
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: JSON.stringify(reviewFields()),
    });
    expect(res.statusCode).toBe(403);
    expect(await reviewRows(l.product.id)).toEqual([]);
  });
});

describe('a link edits the review it made', () => {
  it('until it expires: marked edited, the stars recounted; someone else’s (unused) token edits nothing', async () => {
    const l = await guestLink();
    const made = (await send('POST', l.token, { fields: { rating: 5 } })).json<{ review: MyReview }>().review;
    const res = await send('PUT', l.token, { fields: { rating: 3, title: 'Good, not great', body: 'The blade wore down after a month.' } });
    expect(res.statusCode, res.body).toBe(200);
    const { review, message } = res.json<{ review: MyReview; message: string }>();
    expect(message).toBe(REVIEW_MESSAGES.edited);
    expect(review).toMatchObject({ id: made.id, rating: 3, title: 'Good, not great', verified: true });
    expect(review.editedAt).not.toBeNull();
    expect(await readRatingSummary(t.db, l.product.id)).toMatchObject({ count: 1, average: 3 });

    // Another customer's link (not used yet) has no review to edit; it cannot reach this one.
    const stranger = await guestLink({ email: 'stranger@example.com' });
    const theirs = await send('PUT', stranger.token, { fields: { rating: 1 } });
    expect(theirs.statusCode).toBe(404);
    expect((await reviewRows(l.product.id))[0]).toMatchObject({ rating: 3 });

    await t.db
      .updateTable('review_links')
      .set({ expires_at: new Date(Date.now() - 1).toISOString() })
      .where('request_id', '=', l.requestId)
      .execute();
    const late = await send('PUT', l.token, { fields: { rating: 1 } });
    expect(late.statusCode).toBe(410);
    expect((await reviewRows(l.product.id))[0]).toMatchObject({ rating: 3 });
  });

  it('a bad field is 400 with its sentence, on the link too', async () => {
    const l = await guestLink();
    const res = await send('POST', l.token, { fields: { body: 'too short' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: REVIEW_MESSAGES.bodyTooShort });
    // The link is still unused.
    expect((await linkRow(l.requestId, l.product.id)).used_at).toBeNull();
  });
});
