import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { checkShopChanges } from '../http/shop-changes.js';
import { createProduct } from '../db/seed/factories.js';
import { seedProducts } from '../db/seed/catalog-data.js';
import type { ProductPage } from '../../shared/schemas/catalog.js';
import { insertReview, makePaidOrder } from '../test/reviews.js';
import { REVIEW_LIMITS, REVIEW_SORTS, averageOf, type PublicReview, type ReviewPage, type ReviewSort } from '../../shared/reviews.js';

/**
 * GET /api/products/:id/reviews (issue [6/8]): published reviews only, in each order the product
 * page offers, filtered by stars, a page at a time; the totals from the product's ratings row; the
 * shop's photos hidden never shown; a bad query a 400 with its sentence, an unknown or draft product
 * a 404.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const DB = process.env.TEST_DB ?? 'sqlite';
const get = (url: string) => t.app.inject({ method: 'GET', url });
async function page(productId: string, query = ''): Promise<ReviewPage> {
  const res = await get(`/api/products/${encodeURIComponent(productId)}/reviews${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReviewPage;
}
/** Every page of a listing, one after the other. */
async function all(productId: string, query: string): Promise<{ pages: ReviewPage[]; items: PublicReview[] }> {
  const pages: ReviewPage[] = [];
  for (let n = 1; n <= 20; n++) {
    const p = await page(productId, `?page=${n}${query}`);
    pages.push(p);
    if (n * p.pageSize >= p.total) break;
  }
  return { pages, items: pages.flatMap((p) => p.items) };
}

const PHOTO = { url: '/uploads/reviews/a.jpg', width: 800, height: 600 };
const MINUTE = 60_000;

type Made = { id: string; rating: number; at: number; status: 'published' | 'pending' | 'hidden'; photos: boolean; photosHidden: boolean };

/**
 * A product with 27 reviews: 23 published (of every star, some at the same moment, some with
 * photos, one whose photos the shop hid, one verified with a variant and a reply), 2 pending, 2 hidden.
 */
async function productWithReviews(): Promise<{ productId: string; made: Made[] }> {
  const product = await createProduct(t.db, { name: 'Reviewed Cleaner', priceCents: 1500 });
  const base = Date.parse('2026-06-01T12:00:00.000Z');
  const ratings = [5, 4, 5, 3, 1, 2, 5, 4, 4, 5, 3, 2, 1, 5, 5, 4, 3, 5, 2, 4, 5, 1, 4];
  const made: Made[] = [];
  const buyer = await makePaidOrder(t, { productId: product.id });
  for (const [i, rating] of ratings.entries()) {
    // Reviews 6 and 7 share one moment, as 12 and 13 do: the id decides between them.
    const at = base + (i === 7 ? 6 : i === 13 ? 12 : i) * MINUTE;
    const photos = i % 5 === 0;
    const photosHidden = i === 10;
    const id = await insertReview(t, {
      productId: product.id,
      rating,
      at: new Date(at),
      title: `Review ${i}`,
      ...(photos || photosHidden ? { photos: [PHOTO, { ...PHOTO, url: `/uploads/reviews/b${i}.jpg` }] } : {}),
      photosHidden,
      ...(i === 3 ? { orderId: buyer.orderId, variantLabel: 'Lavender, 32 oz', reply: 'Thank you for writing.' } : {}),
    });
    made.push({ id, rating, at, status: 'published', photos: photos || photosHidden, photosHidden });
  }
  for (const [i, status] of (['pending', 'pending', 'hidden', 'hidden'] as const).entries()) {
    // Newer than every published one and all 1 star: they would lead "newest" and "lowest" if counted.
    const at = base + (100 + i) * MINUTE;
    const id = await insertReview(t, { productId: product.id, rating: 1, at: new Date(at), status, photos: [PHOTO] });
    made.push({ id, rating: 1, at, status, photos: true, photosHidden: false });
  }
  return { productId: product.id, made };
}

const newestFirst = (a: Made, b: Made) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const EXPECTED: Record<ReviewSort, (a: Made, b: Made) => number> = {
  newest: newestFirst,
  highest: (a, b) => b.rating - a.rating || newestFirst(a, b),
  lowest: (a, b) => a.rating - b.rating || newestFirst(a, b),
  photos: newestFirst,
};

describe(`a product's reviews (${DB})`, () => {
  let productId: string;
  let made: Made[];
  let published: Made[];
  beforeAll(async () => {
    ({ productId, made } = await productWithReviews());
    published = made.filter((m) => m.status === 'published');
  });

  it('counts the published reviews only: pending and hidden ones leave the count, the stars and the average', async () => {
    const first = await page(productId);
    const stars = [1, 2, 3, 4, 5].map((s) => published.filter((m) => m.rating === s).length);
    const sum = published.reduce((n, m) => n + m.rating, 0);
    expect(first.summary).toEqual({ count: published.length, average: averageOf(sum, published.length), stars });
    // 82 stars over 23 reviews; the four unpublished 1-star ones counted too would make it 3.2.
    expect(first.summary.average).toBe(3.6);
    expect(first).toMatchObject({ total: published.length, page: 1, pageSize: REVIEW_LIMITS.pageSize, sort: 'newest', rating: null });
    const hiddenOrPending = new Set(made.filter((m) => m.status !== 'published').map((m) => m.id));
    for (const sort of REVIEW_SORTS) {
      const { items } = await all(productId, `&sort=${sort}`);
      expect(
        items.some((r) => hiddenOrPending.has(r.id)),
        sort,
      ).toBe(false);
    }
  });

  it.each(REVIEW_SORTS)('lists "%s" in its order, page by page, every review once', async (sort) => {
    const want = published.filter((m) => sort !== 'photos' || (m.photos && !m.photosHidden)).sort(EXPECTED[sort]);
    const { pages, items } = await all(productId, `&sort=${sort}`);
    expect(items.map((r) => r.id)).toEqual(want.map((m) => m.id));
    for (const p of pages) {
      expect(p.total).toBe(want.length);
      expect(p.sort).toBe(sort);
      expect(p.items.length).toBeLessThanOrEqual(REVIEW_LIMITS.pageSize);
    }
    expect(pages.slice(0, -1).every((p) => p.items.length === REVIEW_LIMITS.pageSize)).toBe(true);
  });

  it.each([1, 2, 3, 4, 5])('filters to %i stars in every order, newest first, with that star’s count as the total', async (rating) => {
    const want = published.filter((m) => m.rating === rating).sort(newestFirst);
    for (const sort of ['newest', 'highest', 'lowest'] as const) {
      const { pages, items } = await all(productId, `&sort=${sort}&rating=${rating}`);
      expect(
        items.map((r) => r.id),
        sort,
      ).toEqual(want.map((m) => m.id));
      expect(pages[0]!.total).toBe(want.length);
      expect(pages[0]!.rating).toBe(rating);
      expect(pages[0]!.summary.count).toBe(published.length);
    }
    const photos = await all(productId, `&sort=photos&rating=${rating}`);
    expect(photos.items.map((r) => r.id)).toEqual(want.filter((m) => m.photos && !m.photosHidden).map((m) => m.id));
  });

  it('shows a review as shoppers see it: the badge from its order, the variant bought, the reply, photos unless hidden; never its author', async () => {
    const { items } = await all(productId, '&sort=newest');
    const verified = items.filter((r) => r.verified);
    expect(verified.map((r) => r.title)).toEqual(['Review 3']);
    expect(verified[0]).toMatchObject({ variantLabel: 'Lavender, 32 oz', reply: { text: 'Thank you for writing.' }, editedAt: null });
    for (const r of items) {
      expect(Object.keys(r).sort()).toEqual(
        ['body', 'displayName', 'editedAt', 'id', 'photos', 'publishedAt', 'rating', 'reply', 'title', 'variantLabel', 'verified'].sort(),
      );
      const m = made.find((x) => x.id === r.id)!;
      expect(r.publishedAt).toBe(new Date(m.at).toISOString());
      // The photos the shop hid are not sent at all; the others in their order.
      expect(r.photos).toEqual(m.photos && !m.photosHidden ? [PHOTO, { ...PHOTO, url: `/uploads/reviews/b${r.title.slice(7)}.jpg` }] : []);
    }
    expect(JSON.stringify(items)).not.toMatch(/@example\.com|user_/);
  });

  it('answers past the last page with no reviews and the same total', async () => {
    const past = await page(productId, '?page=9');
    expect(past.items).toEqual([]);
    expect(past.total).toBe(published.length);
    expect((await page(productId, '?page=9&sort=lowest')).items).toEqual([]);
  });

  it('refuses a query it cannot read, with the sentence of the field', async () => {
    const cases: [string, string][] = [
      ['page=0', 'page must be a whole number from 1'],
      ['page=abc', 'page must be a whole number from 1'],
      ['page=1.5', 'page must be a whole number from 1'],
      ['page=10001', 'page cannot exceed 10,000'],
      ['sort=best', 'sort must be one of: newest, highest, lowest, photos'],
      ['sort=Newest', 'sort must be one of: newest, highest, lowest, photos'],
      ['rating=0', 'rating must be a whole number from 1 to 5'],
      ['rating=6', 'rating must be a whole number from 1 to 5'],
      ['rating=4.5', 'rating must be a whole number from 1 to 5'],
      ['rating=five', 'rating must be a whole number from 1 to 5'],
      ['sort=newest&sort=highest', 'sort must be one of: newest, highest, lowest, photos'],
      ['page=1&page=2', 'page must be a whole number from 1'],
      ['rating=%00', 'Text cannot contain NUL characters'],
    ];
    for (const [query, error] of cases) {
      const res = await get(`/api/products/${productId}/reviews?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual({ error });
    }
  });

  it('answers 404 for an unknown product and for a draft, and the same for the product however its path is spelled', async () => {
    const draft = await createProduct(t.db, { name: 'Draft With Review' });
    await insertReview(t, { productId: draft.id, rating: 5 });
    await t.db.updateTable('products').set({ status: 'draft' }).where('id', '=', draft.id).execute();
    for (const url of [
      '/api/products/no-such-product/reviews',
      `/api/products/${draft.id}/reviews`,
      `/api/products/${'x'.repeat(101)}/reviews`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(url.includes('xxxx') ? 400 : 404);
      expect(res.body).not.toContain('Draft With Review');
    }
    const plain = await get(`/api/products/${productId}/reviews?sort=highest`);
    // A letter written as its escape is the same product; a dot segment, a doubled slash or a
    // trailing one is no route of this API, and never a 500.
    const encoded = await get(`/api/products/${productId.replace(/^p/, '%70')}/reviews?sort=highest`);
    expect(encoded.statusCode).toBe(200);
    expect(encoded.body).toBe(plain.body);
    for (const url of [
      `/api/products/${productId}/reviews/`,
      `/api/products//${productId}/reviews`,
      `/api/products/./${productId}/reviews`,
      `/api/products/${productId}/./reviews`,
      `/api/products/${productId}/reviews/x`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBeLessThan(500);
      if (res.statusCode === 200) expect(res.body, url).toBe((await get(`/api/products/${productId}/reviews`)).body);
    }
  });

  it('answers fifty shoppers at once alike, and another product’s reviews are its own', async () => {
    const other = await createProduct(t.db, { name: 'Other Reviewed' });
    await insertReview(t, { productId: other.id, rating: 2, title: 'Not this one' });
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => get(`/api/products/${i % 2 ? other.id : productId}/reviews`)));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(new Set(answers.filter((_, i) => i % 2 === 0).map((a) => a.body)).size).toBe(1);
    const theirs = answers[1]!.json() as ReviewPage;
    expect(theirs.items.map((r) => r.title)).toEqual(['Not this one']);
    expect(theirs.summary).toEqual({ count: 1, average: 2, stars: [0, 1, 0, 0, 0] });
  });

  it('a product without reviews answers an empty page and a zero summary', async () => {
    const none = await createProduct(t.db, { name: 'Unreviewed' });
    expect(await page(none.id, '?sort=photos&rating=3')).toEqual({
      summary: { count: 0, average: 0, stars: [0, 0, 0, 0, 0] },
      items: [],
      total: 0,
      page: 1,
      pageSize: REVIEW_LIMITS.pageSize,
      sort: 'photos',
      rating: 3,
    });
  });

  it('the product page’s data carries the stars and the first page, newest first, as the list answers it', async () => {
    const detail = (await get(`/api/products/${productId}`)).json() as {
      product: { rating?: unknown };
      rating: unknown;
      reviews: ReviewPage;
    };
    const list = await page(productId);
    expect(detail.reviews).toEqual(list);
    expect(detail.rating).toEqual(list.summary);
    expect(detail.product.rating).toEqual({ average: list.summary.average, count: list.summary.count });
  });
});

describe(`the shop list's "Top rated" order (${DB})`, () => {
  type Item = ProductPage['items'][number];
  const list = async (query: string) => {
    const res = await get(`/api/products?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ProductPage;
  };
  /** Every product of a query, page after page. */
  const everyItem = async (query: string, pageSize = 7) => {
    const items: Item[] = [];
    for (let n = 1; n < 50; n++) {
      const p = await list(`${query}&pageSize=${pageSize}&page=${n}`);
      items.push(...p.items);
      if (n >= p.totalPages) break;
    }
    return items;
  };
  /** The rule, from the shop order: average high to low, then more reviews, then shop order; unrated last. */
  const topRated = (shopOrder: Item[]) =>
    shopOrder
      .map((p, i) => ({ p, i }))
      .sort((x, y) => {
        const a = x.p.rating;
        const b = y.p.rating;
        if (!a || !b) return a ? -1 : b ? 1 : x.i - y.i;
        return b.average - a.average || b.count - a.count || x.i - y.i;
      })
      .map((x) => x.p.id);

  beforeAll(async () => {
    // Ties of each kind among the seed's products: the same average of more and fewer reviews, the
    // same average and count (shop order decides), an average rounded alike from different sums.
    const reviews: [number, number[]][] = [
      [0, [4, 4]],
      [1, [4, 4, 4]],
      [2, [5]],
      [5, [4, 4]],
      [8, [3, 5, 4, 5]],
      [12, [1]],
      [15, [5, 4]],
      [20, [2, 3, 2]],
    ];
    for (const [i, ratings] of reviews) for (const rating of ratings) await insertReview(t, { productId: seedProducts[i]!.id, rating });
    // Held back and hidden: they rank nobody.
    await insertReview(t, { productId: seedProducts[3]!.id, rating: 5, status: 'pending' });
    await insertReview(t, { productId: seedProducts[4]!.id, rating: 5, status: 'hidden' });
    await checkShopChanges(t.db);
  });

  it('orders the whole list by average, then count, then shop order, unrated last, page after page', async () => {
    const shop = await everyItem('sort=shop', 100);
    const want = topRated(shop);
    const pending = shop.find((p) => p.id === seedProducts[3]!.id)!;
    expect(pending.rating).toBeUndefined();
    expect(want.slice(0, 3)).toEqual([seedProducts[2]!.id, ...want.slice(1, 3)]);
    expect((await everyItem('sort=rating')).map((p) => p.id)).toEqual(want);
    expect((await list('sort=rating&pageSize=100')).items.map((p) => p.id)).toEqual(want);
    // The cards carry the stars they are ordered by.
    const first = (await list('sort=rating&pageSize=1')).items[0]!;
    expect(first).toMatchObject({ id: seedProducts[2]!.id, rating: { average: 5, count: 1 } });
  });

  it('keeps the order within a category, a search and a price range', async () => {
    // Shop order is the whole list's (a search in shop order ranks names first: decision 0033).
    const shop = await everyItem('sort=shop', 100);
    const category = seedProducts[0]!.categoryId;
    for (const query of [`category=${category}`, 'search=cloth', 'minPrice=5&maxPrice=40', `category=${category}&search=pack&minPrice=1`]) {
      const found = new Set((await everyItem(query, 100)).map((p) => p.id));
      expect(found.size, query).toBeGreaterThan(1);
      const want = topRated(shop.filter((p) => found.has(p.id)));
      expect(
        (await everyItem(`${query}&sort=rating`, 5)).map((p) => p.id),
        query,
      ).toEqual(want);
    }
  });

  it('the shop page drawn by the server for ?sort=rating embeds the same order', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/products?sort=rating', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    const data = JSON.parse(/<script id="__INITIAL_DATA__" type="application\/json">(.*?)<\/script>/s.exec(res.body)![1]!) as {
      key: unknown[];
      data: { items?: { id: string; rating?: unknown }[] };
    }[];
    const embedded = data.find((d) => d.key[0] === 'products' && d.key[1] === 'list')!;
    expect((embedded.key[2] as { sort?: string }).sort).toBe('rating');
    const api = await list('sort=rating');
    expect(embedded.data.items!.map((p) => p.id)).toEqual(api.items.map((p) => p.id));
    expect(embedded.data.items![0]!.rating).toEqual(api.items[0]!.rating);
  });
});
