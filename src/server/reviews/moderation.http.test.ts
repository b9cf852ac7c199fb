import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { insertReview, makePaidOrder, ratingsBesideHandCount } from '../test/reviews.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { spellings } from '../security/path-spellings.js';
import { REVIEW_LIMITS, REVIEW_MESSAGES, type AdminReview } from '../../shared/reviews.js';

/**
 * Issue [6/8] item 4, moderation that is fair: approve, hide only for a stated reason (kept and
 * audited), one public reply, photos hidden apart from the words, bulk approve and hide, a queue
 * with filters; nothing changes a rating, the words or "Verified buyer". Hidden reviews leave the
 * product's average. Only the owner reaches any of it, however the path is spelled.
 */
let t: TestApp;
let admin: TestClient;
let adminId: string;
let customer: TestClient;
const guest = () => new TestClient(t.app, '10.67.9.9');

beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app, '10.67.0.1');
  expect((await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
  adminId = (await t.db.selectFrom('users').select('id').where('email', '=', DEMO_ADMIN.email.toLowerCase()).executeTakeFirstOrThrow()).id;
  const c = await createUser(t.db, { fullName: 'Casey Customer' });
  customer = new TestClient(t.app, '10.67.0.2');
  expect((await customer.signIn(c.email, c.password)).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

const ratings = (productId: string) =>
  t.db.selectFrom('product_ratings').selectAll().where('product_id', '=', productId).executeTakeFirstOrThrow();
const row = (id: string) => t.db.selectFrom('reviews').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const audits = (action: string, reviewId: string) =>
  t.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', action)
    .execute()
    .then((rows) => rows.filter((r) => JSON.parse(r.details ?? '{}').reviewId === reviewId));
const act = (id: string, what: 'approve' | 'hide' | 'reply' | 'photos', body: unknown = {}) =>
  admin.post(`/api/admin/reviews/${id}/${what}`, body);

describe(`hiding and approving on ${testDialect()}`, () => {
  it('hides only for a stated reason, keeps the reason and note (audited), and a hidden review leaves the average; approval brings it back', async () => {
    const p = await createProduct(t.db, { name: 'Hide Test Cleaner' });
    const buyer = await createUser(t.db, { fullName: 'Bo Buyer' });
    const { orderId, orderNumber } = await makePaidOrder(t, { userId: buyer.id, productId: p.id, shipped: new Date() });
    const five = await insertReview(t, { productId: p.id, rating: 5, userId: buyer.id, orderId, body: 'Works on every counter.' });
    await insertReview(t, { productId: p.id, rating: 1 });
    expect(await ratings(p.id)).toMatchObject({ review_count: 2, rating_sum: 6 });
    const publishedAt = (await row(five)).published_at;

    // No reason, an empty one, a reason the shop may not give ("rating"), or a note too long: 400 with the sentence, nothing changes.
    for (const body of [{}, { reason: '' }, { reason: 'rating' }, { reason: 'low-rating', note: 'one star' }, { note: 'spam' }]) {
      const res = await act(five, 'hide', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toContain(REVIEW_MESSAGES.hideReasonRequired);
    }
    const long = await act(five, 'hide', { reason: 'spam', note: 'x'.repeat(REVIEW_LIMITS.hideNoteMax + 1) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toContain(REVIEW_MESSAGES.hideNoteTooLong);
    expect((await row(five)).status).toBe('published');

    const hidden = await act(five, 'hide', { reason: 'personal-data', note: '  Shows a phone number  ' });
    expect(hidden.statusCode, hidden.body).toBe(200);
    const review = hidden.json().review as AdminReview;
    expect(review).toMatchObject({
      id: five,
      status: 'hidden',
      hiddenReason: 'personal-data',
      hiddenNote: 'Shows a phone number',
      rating: 5,
      verified: true,
      orderId,
      orderNumber,
      product: { id: p.id, name: 'Hide Test Cleaner' },
      email: buyer.email,
      userId: buyer.id,
    });
    expect(await row(five)).toMatchObject({ hidden_reason: 'personal-data', hidden_by: adminId, rating: 5, order_id: orderId });
    expect(await ratings(p.id)).toMatchObject({ review_count: 1, rating_sum: 1, stars_5: 0, stars_1: 1 });
    const [audit, ...more] = await audits('review.hidden', five);
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ actor_user_id: adminId, target_user_id: buyer.id });
    expect(JSON.parse(audit!.details!)).toMatchObject({
      reviewId: five,
      productId: p.id,
      reason: 'personal-data',
      note: 'Shows a phone number',
    });
    // The same hide again changes nothing and records nothing.
    expect((await act(five, 'hide', { reason: 'personal-data', note: 'Shows a phone number' })).statusCode).toBe(200);
    expect(await audits('review.hidden', five)).toHaveLength(1);

    const approved = await act(five, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().review).toMatchObject({ status: 'published', hiddenReason: null, hiddenNote: null, publishedAt });
    expect(await ratings(p.id)).toMatchObject({ review_count: 2, rating_sum: 6 });
    expect(await audits('review.approved', five)).toHaveLength(1);
    // Approving a published review again: no change, no second audit row.
    expect((await act(five, 'approve')).statusCode).toBe(200);
    expect(await audits('review.approved', five)).toHaveLength(1);
  });

  it('approves a pending review (held for approval), dating its publication then; the ratings count it from then', async () => {
    const p = await createProduct(t.db, { name: 'Pending Test Brush' });
    const pending = await insertReview(t, { productId: p.id, rating: 4, status: 'pending' });
    expect(await ratings(p.id)).toMatchObject({ review_count: 0 });
    const before = (await ratings(p.id)).updated_at;
    const res = await act(pending, 'approve');
    expect(res.statusCode).toBe(200);
    expect(res.json().review.publishedAt).toEqual(expect.any(String));
    const r = await ratings(p.id);
    expect(r).toMatchObject({ review_count: 1, rating_sum: 4, stars_4: 1 });
    expect(r.updated_at >= before).toBe(true);
  });

  it('has no way to change a rating, the words or "Verified buyer"', async () => {
    const p = await createProduct(t.db, { name: 'Immutable Soap' });
    const id = await insertReview(t, { productId: p.id, rating: 2, title: 'Meh', body: 'It was fine, I suppose.' });
    const before = await row(id);
    for (const [method, url, body] of [
      ['PUT', `/api/admin/reviews/${id}`, { rating: 5 }],
      ['PATCH', `/api/admin/reviews/${id}`, { rating: 5 }],
      ['POST', `/api/admin/reviews/${id}`, { rating: 5 }],
      ['POST', `/api/admin/reviews/${id}/rating`, { rating: 5 }],
      ['POST', `/api/admin/reviews/${id}/verify`, { verified: true }],
    ] as const)
      expect((await admin.request(method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    // Extra fields on the actions are ignored.
    expect(
      (await act(id, 'hide', { reason: 'spam', rating: 5, title: 'Great', body: 'x', orderId: 'order_x', verified: true })).statusCode,
    ).toBe(200);
    expect((await act(id, 'approve', { rating: 5 })).statusCode).toBe(200);
    const after = await row(id);
    expect({ rating: after.rating, title: after.title, body: after.body, order_id: after.order_id }).toEqual({
      rating: before.rating,
      title: before.title,
      body: before.body,
      order_id: null,
    });
  });

  it('answers 404 for an unknown review on every action', async () => {
    for (const what of ['approve', 'hide', 'reply', 'photos'] as const) {
      const res = await act('rev_nope', what, { reason: 'spam', text: 'Thanks', hidden: true });
      expect(res.statusCode, what).toBe(404);
      expect(res.json().error).toBe(REVIEW_MESSAGES.reviewNotFound);
    }
  });
});

describe(`the shop’s reply and photos on ${testDialect()}`, () => {
  it('replies once: thirty replies at once make one 200 and the rest 409, one audit row; an empty or long reply is refused', async () => {
    const p = await createProduct(t.db, { name: 'Reply Test Mop' });
    const id = await insertReview(t, { productId: p.id, rating: 3 });
    expect((await act(id, 'reply', { text: '   ' })).json().error).toContain(REVIEW_MESSAGES.replyRequired);
    const long = await act(id, 'reply', { text: 'x'.repeat(REVIEW_LIMITS.replyMax + 1) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toContain(REVIEW_MESSAGES.replyTooLong);
    const stamped = (await ratings(p.id)).updated_at;

    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => act(id, 'reply', { text: `Thank you, reply ${i}` })));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(29);
    for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json().error).toBe(REVIEW_MESSAGES.alreadyReplied);
    const winner = answers.find((a) => a.statusCode === 200)!.json().review as AdminReview;
    expect(winner.reply).toMatchObject({ text: expect.stringMatching(/^Thank you, reply \d+$/), by: DEMO_ADMIN.email.toLowerCase() });
    expect((await row(id)).reply_text).toBe(winner.reply!.text);
    expect(await audits('review.replied', id)).toHaveLength(1);
    // The product's page is drawn again: its ratings row is stamped.
    expect((await ratings(p.id)).updated_at >= stamped).toBe(true);
    expect((await act(id, 'reply', { text: 'Another' })).statusCode).toBe(409);
  });

  it('hides the photos apart from the words, and shows them again; each audited once', async () => {
    const p = await createProduct(t.db, { name: 'Photo Test Cloth' });
    const photos = [
      { url: '/uploads/reviews/a.jpg', width: 800, height: 600 },
      { url: '/uploads/reviews/b.jpg', width: 600, height: 800 },
    ];
    const id = await insertReview(t, { productId: p.id, rating: 5, photos });
    expect((await act(id, 'photos', {})).statusCode).toBe(400);
    expect((await act(id, 'photos', { hidden: 'yes' })).statusCode).toBe(400);
    const hidden = await act(id, 'photos', { hidden: true });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(hidden.json().review).toMatchObject({ status: 'published', photosHidden: true, photos });
    expect(await ratings(p.id)).toMatchObject({ review_count: 1, rating_sum: 5 });
    expect((await act(id, 'photos', { hidden: true })).statusCode).toBe(200);
    expect(await audits('review.photos_hidden', id)).toHaveLength(1);
    expect((await act(id, 'photos', { hidden: false })).json().review.photosHidden).toBe(false);
    expect(await audits('review.photos_shown', id)).toHaveLength(1);
  });
});

describe(`bulk moderation and the queue on ${testDialect()}`, () => {
  it('approves and hides many at once, counting each review changed; the ratings match a hand count', async () => {
    const a = await createProduct(t.db, { name: 'Bulk A' });
    const b = await createProduct(t.db, { name: 'Bulk B' });
    const pending = [
      await insertReview(t, { productId: a.id, rating: 5, status: 'pending' }),
      await insertReview(t, { productId: a.id, rating: 2, status: 'pending' }),
      await insertReview(t, { productId: b.id, rating: 4, status: 'pending' }),
    ];
    const published = await insertReview(t, { productId: b.id, rating: 3 });
    const hidden = await insertReview(t, { productId: b.id, rating: 1, status: 'hidden' });

    const approve = await admin.post('/api/admin/reviews/bulk', {
      action: 'approve',
      ids: [...pending, published, hidden, 'rev_unknown', pending[0]],
    });
    expect(approve.statusCode, approve.body).toBe(200);
    expect(approve.json().changed).toBe(4);
    expect((approve.json().reviews as AdminReview[]).map((r) => r.status)).toEqual(Array(5).fill('published'));
    for (const p of [a, b]) {
      const { stored, counted } = await ratingsBesideHandCount(t.db, p.id);
      expect(stored).toEqual(counted);
    }
    expect((await ratings(b.id)).review_count).toBe(3);
    expect((await admin.post('/api/admin/reviews/bulk', { action: 'approve', ids: pending })).json().changed).toBe(0);

    // Hide needs a reason; at most 100 at once; at least one.
    const noReason = await admin.post('/api/admin/reviews/bulk', { action: 'hide', ids: pending });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error).toContain(REVIEW_MESSAGES.hideReasonRequired);
    expect(
      (await admin.post('/api/admin/reviews/bulk', { action: 'approve', ids: Array.from({ length: 101 }, (_, i) => `rev_${i}`) }))
        .statusCode,
    ).toBe(400);
    expect((await admin.post('/api/admin/reviews/bulk', { action: 'approve', ids: [] })).statusCode).toBe(400);
    expect((await admin.post('/api/admin/reviews/bulk', { action: 'delete', ids: pending })).statusCode).toBe(400);

    const hide = await admin.post('/api/admin/reviews/bulk', {
      action: 'hide',
      ids: [...pending, published],
      reason: 'off-topic',
      note: 'About shipping',
    });
    expect(hide.statusCode, hide.body).toBe(200);
    expect(hide.json().changed).toBe(4);
    for (const id of [...pending, published]) {
      expect(await row(id)).toMatchObject({ status: 'hidden', hidden_reason: 'off-topic', hidden_note: 'About shipping' });
      const [audit] = await audits('review.hidden', id);
      expect(JSON.parse(audit!.details!)).toMatchObject({ reason: 'off-topic', note: 'About shipping', bulk: true });
    }
    for (const p of [a, b]) {
      const { stored, counted } = await ratingsBesideHandCount(t.db, p.id);
      expect(stored).toEqual(counted);
    }
    expect(await ratings(a.id)).toMatchObject({ review_count: 0, rating_sum: 0 });
  });

  it('two owners’ bulk actions over the same products at once change each review once', async () => {
    const products = [await createProduct(t.db, { name: 'Race A' }), await createProduct(t.db, { name: 'Race B' })];
    const ids: string[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(await insertReview(t, { productId: products[i % 2]!.id, rating: 1 + (i % 5), status: 'pending' }));
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        admin.post('/api/admin/reviews/bulk', { action: 'approve', ids: i % 2 ? ids : [...ids].reverse() }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(answers.reduce((n, r) => n + (r.json().changed as number), 0)).toBe(12);
    for (const p of products) {
      const { stored, counted } = await ratingsBesideHandCount(t.db, p.id);
      expect(counted.count).toBe(6);
      expect(stored).toEqual(counted);
    }
    let approvedAudits = 0;
    for (const id of ids) approvedAudits += (await audits('review.approved', id)).length;
    expect(approvedAudits).toBe(12);
  });

  it('lists the queue newest first with filters, paging, counts per status, product names and order numbers', async () => {
    const p = await createProduct(t.db, { name: 'Queue Product' });
    const other = await createProduct(t.db, { name: 'Queue Other' });
    const buyer = await createUser(t.db, { fullName: 'Queue Buyer' });
    const { orderId, orderNumber } = await makePaidOrder(t, { userId: buyer.id, productId: p.id });
    const at = (min: number) => new Date(Date.UTC(2030, 0, 1, 12, min));
    const made = {
      pending5: await insertReview(t, { productId: p.id, rating: 5, status: 'pending', at: at(1), userId: buyer.id, orderId }),
      pending2: await insertReview(t, {
        productId: p.id,
        rating: 2,
        status: 'pending',
        at: at(2),
        photos: [{ url: '/uploads/reviews/q.jpg', width: 10, height: 10 }],
      }),
      published4: await insertReview(t, { productId: p.id, rating: 4, at: at(3) }),
      hidden1: await insertReview(t, { productId: p.id, rating: 1, status: 'hidden', hiddenReason: 'abuse', at: at(4) }),
      otherPending: await insertReview(t, { productId: other.id, rating: 5, status: 'pending', at: at(5) }),
    };
    const list = async (query: string) => {
      const res = await admin.get(`/api/admin/reviews?productId=${p.id}&${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { items: AdminReview[]; total: number; page: number; pageSize: number; counts: Record<string, number> };
    };
    const all = await list('');
    expect(all.items.map((r) => r.id)).toEqual([made.hidden1, made.published4, made.pending2, made.pending5]);
    expect(all.counts).toEqual({ pending: 2, published: 1, hidden: 1 });
    expect(all.total).toBe(4);
    expect(all.items.find((r) => r.id === made.pending5)).toMatchObject({
      orderNumber,
      orderId,
      verified: true,
      product: { name: 'Queue Product' },
    });
    expect(all.items.find((r) => r.id === made.hidden1)).toMatchObject({ hiddenReason: 'abuse' });

    expect((await list('status=pending')).items.map((r) => r.id)).toEqual([made.pending2, made.pending5]);
    expect((await list('status=pending')).counts).toEqual({ pending: 2, published: 1, hidden: 1 });
    expect((await list('photos=with')).items.map((r) => r.id)).toEqual([made.pending2]);
    expect((await list('photos=with')).items[0]!.photos).toEqual([{ url: '/uploads/reviews/q.jpg', width: 10, height: 10 }]);
    expect((await list('rating=4')).items.map((r) => r.id)).toEqual([made.published4]);
    expect((await list('status=hidden&rating=1')).total).toBe(1);
    const page2 = await list('pageSize=3&page=2');
    expect(page2).toMatchObject({ page: 2, pageSize: 3, total: 4 });
    expect(page2.items.map((r) => r.id)).toEqual([made.pending5]);
    expect((await list('page=9')).items).toEqual([]);

    // Without the product filter, the pending count includes the other product's.
    const everything = (await admin.get('/api/admin/reviews?status=pending&pageSize=100')).json();
    expect(everything.items.map((r: AdminReview) => r.id)).toContain(made.otherPending);

    for (const bad of [
      'status=gone',
      'rating=6',
      'rating=0',
      'photos=some',
      'pageSize=101',
      'page=0',
      'page=x',
      `productId=${'x'.repeat(65)}`,
    ]) {
      const res = await admin.get(`/api/admin/reviews?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error, bad).toEqual(expect.any(String));
    }
  });
});

describe(`review settings on ${testDialect()}`, () => {
  it('reads the defaults, saves a change (audited), refuses days out of range with the sentence', async () => {
    expect((await admin.get('/api/admin/review-settings')).json()).toEqual({
      moderation: 'publish',
      requestAfterDays: 10,
      allowWithoutOrder: false,
    });
    const saved = await admin.request('PUT', '/api/admin/review-settings', { moderation: 'hold', allowWithoutOrder: true });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ moderation: 'hold', requestAfterDays: 10, allowWithoutOrder: true });
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['details', 'actor_user_id'])
      .where('action', '=', 'settings.changed')
      .execute();
    expect(audit.some((a) => a.actor_user_id === adminId && a.details?.includes('reviews.moderation'))).toBe(true);
    for (const days of [0, 61, 'ten', 2.5]) {
      const res = await admin.request('PUT', '/api/admin/review-settings', { requestAfterDays: days });
      expect(res.statusCode, String(days)).toBe(400);
      expect(res.json().error).toContain(REVIEW_MESSAGES.requestDaysRange);
    }
    expect((await admin.request('PUT', '/api/admin/review-settings', { moderation: 'later' })).statusCode).toBe(400);
    expect((await admin.request('PUT', '/api/admin/review-settings', { moderation: 'publish', allowWithoutOrder: false })).statusCode).toBe(
      200,
    );
  });
});

describe(`the guard on ${testDialect()}`, () => {
  it('turns a guest (401) and a customer (403) away from every route, however the path is spelled; nothing changes', async () => {
    const p = await createProduct(t.db, { name: 'Guarded Product' });
    const id = await insertReview(t, { productId: p.id, rating: 1, status: 'pending' });
    const before = await row(id);
    const routes: { method: string; path: string; body?: unknown }[] = [
      { method: 'GET', path: '/api/admin/reviews' },
      { method: 'POST', path: `/api/admin/reviews/${id}/approve`, body: {} },
      { method: 'POST', path: `/api/admin/reviews/${id}/hide`, body: { reason: 'spam' } },
      { method: 'POST', path: `/api/admin/reviews/${id}/reply`, body: { text: 'Hi' } },
      { method: 'POST', path: `/api/admin/reviews/${id}/photos`, body: { hidden: true } },
      { method: 'POST', path: '/api/admin/reviews/bulk', body: { action: 'approve', ids: [id] } },
      { method: 'GET', path: '/api/admin/reviews/figures' },
      { method: 'GET', path: '/api/admin/review-settings' },
      { method: 'PUT', path: '/api/admin/review-settings', body: { moderation: 'hold' } },
    ];
    const wrong: string[] = [];
    for (const r of routes) {
      for (const [who, client, expected] of [
        ['guest', guest(), 401],
        ['customer', customer, 403],
      ] as const) {
        // As written, and with a letter of the surface percent-encoded: the router decodes it to the route, the surface refuses.
        for (const url of [r.path, r.path.replace('/api/admin/', '/api/%61dmin/')]) {
          const res = await client.request(r.method, url, r.body);
          if (res.statusCode !== expected) wrong.push(`${who} ${r.method} ${url}: ${res.statusCode}`);
        }
        // Every other spelling ('//', '/./', a trailing slash, upper case, …): never an answer, never a 5xx.
        for (const url of spellings(r.path)) {
          const res = await client.request(r.method, url, r.body);
          if (res.statusCode < 300 || res.statusCode >= 500) wrong.push(`${who} ${r.method} ${url}: ${res.statusCode}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // The spellings the brief names, for the customer: refused.
    for (const url of ['/api/admin//reviews', '/api/%61dmin/reviews', '/api/admin/./reviews', '/api/admin/reviews/'])
      expect([403, 404], url).toContain((await customer.get(url)).statusCode);
    expect(await row(id)).toEqual(before);
    // A write from another site is refused even for the owner.
    const cross = await admin.post(`/api/admin/reviews/${id}/approve`, {}, { origin: 'https://evil.example' });
    expect(cross.statusCode).toBe(403);
    expect((await row(id)).status).toBe('pending');
  });
});
