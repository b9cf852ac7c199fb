import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { createProduct } from '../db/seed/factories.js';
import { insertReview } from '../test/reviews.js';
import { checkShopChanges } from '../http/shop-changes.js';
import { transactionWithRetry } from '../db/locks.js';
import { lockProductRating, refreshProductRating } from './ratings.js';
import type { ProductDetail } from '../../shared/page-declaration.js';
import type { ProductCardPage } from '../../shared/product-card.js';
import type { ReviewPage } from '../../shared/reviews.js';

/**
 * Issue [6/8], point 7: product pages stay cached; a new or moderated review refreshes that
 * product's page and the lists showing its stars, not the whole shop. A review write stamps its
 * product's ratings row (reviews/ratings.ts); the shop-change watcher reads the rows stamped in the
 * last moments and drops what shows that product only (http/shop-changes.ts, a `ratings` change).
 *
 * "Not re-rendered" is proven as the page cache's own test does: products renamed behind the
 * shop's back (a database write no signal follows) show their new name only where a page or list
 * was drawn again.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const DB = process.env.TEST_DB ?? 'sqlite';
const html = (url: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
const api = async <T>(url: string): Promise<T> => {
  const res = await t.app.inject({ method: 'GET', url });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json() as T;
};
const dataOf = (body: string) =>
  JSON.parse(/<script id="__INITIAL_DATA__" type="application\/json">(.*?)<\/script>/s.exec(body)![1]!) as {
    key: string[];
    data: unknown;
  }[];

/** The product page's own data in its HTML. */
const detailIn = (body: string) => dataOf(body).find((d) => d.key[0] === 'products' && d.key[1] === 'detail')!.data as ProductDetail;
/** A product's card among a page's lists, in its HTML. */
const cardIn = (body: string, id: string) =>
  dataOf(body)
    .flatMap((d) => (d.data as { items?: { id: string; name: string; rating?: { average: number; count: number } }[] }).items ?? [])
    .find((i) => i.id === id);

/**
 * Polls `read` until it answers `want` and answers what it saw last. The shop redraws within a second
 * (a poll, the kept page's STOCK_STALE_MS, one render); five are allowed, as the suite shares the
 * machine with the other files' servers and databases.
 */
async function withinASecond<T>(read: () => Promise<T>, want: T): Promise<T> {
  const started = Date.now();
  let seen = await read();
  while (JSON.stringify(seen) !== JSON.stringify(want) && Date.now() - started < 5000) {
    await new Promise((r) => setTimeout(r, 20));
    seen = await read();
  }
  return seen;
}

const rename = (id: string, name: string) => t.db.updateTable('products').set({ name }).where('id', '=', id).execute();

describe(`a review refreshes its product's pages and lists, nothing else (${DB})`, () => {
  it('publishing a review on A redraws A’s page and the lists showing A; B’s page is the one kept', async () => {
    // A and B in categories of their own: neither page shows the other among "You may also like".
    const a = await createProduct(t.db, { name: 'Cache Review A', categoryId: 'bundles', priceCents: 4100 });
    const b = await createProduct(t.db, { name: 'Cache Review B', categoryId: 'commercial', priceCents: 4200 });
    const list = `/products?search=${encodeURIComponent('Cache Review')}`;
    const pages = { a: `/products/${a.id}`, b: `/products/${b.id}`, list };
    await checkShopChanges(t.db);

    const before = { a: await html(pages.a), b: await html(pages.b), list: await html(pages.list) };
    for (const res of Object.values(before)) expect(res.statusCode).toBe(200);
    expect(before.b.body).not.toContain(`"${a.id}"`);
    expect(detailIn(before.a.body).rating.count).toBe(0);
    expect(cardIn(before.list.body, a.id)).toBeDefined();
    expect(cardIn(before.list.body, a.id)!.rating).toBeUndefined();
    const reviewsBefore = await api<ReviewPage>(`/api/products/${a.id}/reviews`);
    expect(reviewsBefore.total).toBe(0);

    // Renamed behind the shop's back: a page drawn again shows the new name, a kept one the old.
    await rename(a.id, 'Cache Review A (renamed)');
    await rename(b.id, 'Cache Review B (renamed)');
    // The review, as every review write makes it: the ratings row locked, the review, the sums refreshed.
    await insertReview(t, { productId: a.id, rating: 4, title: 'Fresh review of A' });
    // The watcher polls on its own too (every 250 ms): this looks now rather than wait for it.
    await checkShopChanges(t.db);
    const aShows = async () => {
      const d = detailIn((await html(pages.a)).body);
      return { count: d.rating.count, card: d.product.rating ?? null, first: d.reviews.items[0]?.title ?? null, name: d.product.name };
    };
    expect(
      await withinASecond(aShows, {
        count: 1,
        card: { average: 4, count: 1 },
        first: 'Fresh review of A',
        name: 'Cache Review A (renamed)',
      }),
    ).toEqual({ count: 1, card: { average: 4, count: 1 }, first: 'Fresh review of A', name: 'Cache Review A (renamed)' });
    expect(await withinASecond(async () => cardIn((await html(pages.list)).body, a.id)?.rating ?? null, { average: 4, count: 1 })).toEqual({
      average: 4,
      count: 1,
    });
    // The API's answers too: the list of reviews, the product, the shop list's card.
    expect((await api<ReviewPage>(`/api/products/${a.id}/reviews`)).items.map((r) => r.title)).toEqual(['Fresh review of A']);
    expect((await api<ProductDetail>(`/api/products/${a.id}`)).rating.count).toBe(1);
    const listed = await api<ProductCardPage>(`/api/products?search=${encodeURIComponent('Cache Review')}`);
    expect(listed.items.find((p) => p.id === a.id)?.rating).toEqual({ average: 4, count: 1 });

    // B's page is the very one kept: not drawn again (its old name, the same bytes and ETag).
    const bAfter = await html(pages.b);
    expect(bAfter.body.includes('Cache Review B (renamed)'), 'B drawn again').toBe(false);
    expect(bAfter.headers.etag).toBe(before.b.headers.etag);
    expect(bAfter.body).toBe(before.b.body);
    // The shop list's index read A's stars again, not the catalogue: B's card keeps its old name there.
    expect(listed.items.find((p) => p.id === b.id)?.name).toBe('Cache Review B');
  });

  it('an edit that leaves the stars as they were still redraws the page: the stamp is part of what is compared', async () => {
    const c = await createProduct(t.db, { name: 'Cache Review Edited', categoryId: 'bundles' });
    const id = await insertReview(t, { productId: c.id, rating: 5, title: 'Before the edit' });
    await checkShopChanges(t.db);
    const path = `/products/${c.id}`;
    expect(detailIn((await html(path)).body).reviews.items[0]!.title).toBe('Before the edit');
    // Its author changes the title; the count, the sum and every star stay the same.
    await transactionWithRetry(t.db, async (trx) => {
      const now = new Date().toISOString();
      await lockProductRating(trx, t.dialect, c.id, now);
      await trx.updateTable('reviews').set({ title: 'After the edit', edited_at: now, updated_at: now }).where('id', '=', id).execute();
      await refreshProductRating(trx, c.id, now);
    });
    await checkShopChanges(t.db);
    expect(await withinASecond(async () => detailIn((await html(path)).body).reviews.items[0]!.title, 'After the edit')).toBe(
      'After the edit',
    );
    expect((await api<ReviewPage>(`/api/products/${c.id}/reviews`)).items[0]!.title).toBe('After the edit');
  });

  it('hiding a review takes it and its star off the page, and puts the product in its place in "Top rated"', async () => {
    const top = await createProduct(t.db, { name: 'Cache Review Top', categoryId: 'bundles' });
    const second = await createProduct(t.db, { name: 'Cache Review Second', categoryId: 'bundles' });
    const hide = await insertReview(t, { productId: top.id, rating: 5, title: 'Spam in five stars' });
    await insertReview(t, { productId: top.id, rating: 1 });
    for (let i = 0; i < 3; i++) await insertReview(t, { productId: second.id, rating: 2 });
    await checkShopChanges(t.db);
    const order = async () =>
      (await api<ProductCardPage>(`/api/products?sort=rating&search=${encodeURIComponent('Cache Review')}`)).items.map((p) => p.id);
    // top: 3.0 of 2; second: 2.0 of 3.
    expect((await order()).indexOf(top.id)).toBeLessThan((await order()).indexOf(second.id));
    await transactionWithRetry(t.db, async (trx) => {
      const now = new Date().toISOString();
      await lockProductRating(trx, t.dialect, top.id, now);
      await trx
        .updateTable('reviews')
        .set({ status: 'hidden', hidden_reason: 'spam', hidden_at: now, updated_at: now })
        .where('id', '=', hide)
        .execute();
      await refreshProductRating(trx, top.id, now);
    });
    await checkShopChanges(t.db);
    // top: 1.0 of 1, now below second.
    const after = await withinASecond(async () => {
      const ids = await order();
      return ids.indexOf(top.id) > ids.indexOf(second.id);
    }, true);
    expect(after).toBe(true);
    const page = detailIn((await html(`/products/${top.id}`)).body);
    expect(page.rating).toEqual({ count: 1, average: 1, stars: [1, 0, 0, 0, 0] });
    expect(page.reviews.items.map((r) => r.title)).not.toContain('Spam in five stars');
  });

  it('the owner hiding a review through the back office redraws that product only: the admin surface does not clear the shop', async () => {
    const a = await createProduct(t.db, { name: 'Cache Moderated A', categoryId: 'bundles', priceCents: 4300 });
    const b = await createProduct(t.db, { name: 'Cache Moderated B', categoryId: 'commercial', priceCents: 4400 });
    const id = await insertReview(t, { productId: a.id, rating: 5, title: 'Buy my other thing' });
    await checkShopChanges(t.db);
    const before = { a: await html(`/products/${a.id}`), b: await html(`/products/${b.id}`) };
    expect(detailIn(before.a.body).rating.count).toBe(1);
    await rename(a.id, 'Cache Moderated A (renamed)');
    await rename(b.id, 'Cache Moderated B (renamed)');

    const admin = new TestClient(t.app);
    await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    const hidden = await admin.post(`/api/admin/reviews/${id}/hide`, { reason: 'spam', note: 'A link to another shop' });
    expect(hidden.statusCode, hidden.body).toBe(200);
    // No wait for the watcher's poll: this process looked before the answer left, so A's page is
    // stale already and drawn again within the page cache's STOCK_STALE_MS.
    const aShows = async () => {
      const d = detailIn((await html(`/products/${a.id}`)).body);
      return { count: d.rating.count, name: d.product.name };
    };
    expect(await withinASecond(aShows, { count: 0, name: 'Cache Moderated A (renamed)' })).toEqual({
      count: 0,
      name: 'Cache Moderated A (renamed)',
    });
    // B's page is the very one kept (a whole-shop clear would have drawn it again with its new name).
    const bAfter = await html(`/products/${b.id}`);
    expect(bAfter.body.includes('Cache Moderated B (renamed)'), 'B drawn again').toBe(false);
    expect(bAfter.headers.etag).toBe(before.b.headers.etag);
    // The owner's settings are another matter: saving them still clears every cache, as any back-office write.
    expect((await admin.request('PUT', '/api/admin/review-settings', { moderation: 'publish' })).statusCode).toBe(200);
    expect((await html(`/products/${b.id}`)).body).toContain('Cache Moderated B (renamed)');
  });
});
