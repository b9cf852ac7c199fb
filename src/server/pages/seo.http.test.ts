import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { seedProducts } from '../db/seed/catalog-data.js';
import { TestClient } from '../test/http-client.js';
import { DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import * as responseSchemas from '../../client/lib/response-schemas.js';
import { initialDataSchema, toResponseShape } from '../../client/lib/initial-data.js';
import { CART_COOKIE, encodeCartCookie } from '../../shared/cart-cookie.js';
import { Quote, QuoteInput } from '../../shared/schemas/checkout.js';
import { noteShopChange } from '../http/shop-changes.js';
import { createProduct, createVariant } from '../db/seed/factories.js';
import { insertReview } from '../test/reviews.js';
import { REVIEW_LIMITS } from '../../shared/reviews.js';
import type { ProductDetail } from '../../shared/page-declaration.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

function jsonLd(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!));
}

describe('search-engine pages written by the server', () => {
  it('home has title, description, canonical and Organization JSON-LD, and pre-filled data', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<title>EcoClean | Eco-Friendly Cleaning Products</title>');
    // The free-shipping minimum as the enabled shipping options have it (shop-facts.ts), not the specification's "$100".
    expect(res.body).toContain(
      '<meta name="description" content="Eco-friendly cleaning products: reusable cleaning cloths, sweep-and-mop tools, refills, laundry powder and concentrated cleaner. Free shipping on orders with a subtotal of $50.00 or more." />',
    );
    expect(res.body).toContain('<link rel="canonical" href="http://shop.test/" />');
    expect(res.body).toContain('<meta property="og:image" content="http://shop.test/og-image.png" />');
    expect(jsonLd(res.body).map((l) => l['@type'])).toContain('Organization');
    const data = JSON.parse(/<script id="__INITIAL_DATA__" type="application\/json">(.*?)<\/script>/s.exec(res.body)![1]!);
    expect(data.map((d: { key: unknown[] }) => d.key[0])).toEqual(['settings', 'products', 'categories', 'session']);
  });

  // The browser trusts this data without loading zod (hydrate-initial-data.ts); this is its check.
  it("every server-rendered page's data matches the API's response schemas", async () => {
    const product = seedProducts[0]!;
    const pages = [
      '/',
      '/products',
      `/products?category=${product.categoryId}`,
      '/products?search=cloth',
      `/products/${product.id}`,
      '/faq',
      '/about',
      '/contact',
      '/cart',
    ];
    // The cart and checkout as drawn from the cart cookie, with a coupon and its free gift.
    const cartCookie = `${CART_COOKIE}=${encodeCartCookie({ lines: [[product.id, 2, 'One Size', 'Default']], couponCode: 'FREEGIFT' })}`;
    const requests = [
      ...pages.map((url) => ({ url, cookie: '' })),
      { url: '/cart', cookie: cartCookie },
      { url: '/checkout', cookie: cartCookie },
    ];
    let cartsSeen = 0;
    for (const { url, cookie } of requests) {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', cookie } });
      expect(res.statusCode, url).toBe(200);
      const entries = JSON.parse(/<script id="__INITIAL_DATA__" type="application\/json">(.*?)<\/script>/s.exec(res.body)![1]!) as {
        key: unknown[];
        data: unknown;
      }[];
      for (const { key, data } of entries) {
        if (key[0] === 'session') continue;
        if (key[0] === 'missing-images') {
          // Not an answer: the paths of the page's images whose files are missing (image-files.ts).
          expect(Array.isArray(data) && data.every((p) => typeof p === 'string'), `${url}: missing images`).toBe(true);
          continue;
        }
        if (key[0] === 'cart') {
          // Not an answer but what the cookie says is in the cart: the lines and coupon the
          // browser asks the quote for, and the quote for them beside it when there are lines.
          cartsSeen++;
          const contents = QuoteInput.strict().safeParse(data);
          expect(contents.success, `${url}: the cart's contents: ${contents.error?.message}`).toBe(true);
          expect(Object.keys(data as object).sort(), `${url}: the cart's contents`).toEqual(['couponCode', 'lines']);
          const { lines, couponCode } = data as { lines: unknown[]; couponCode: string | null };
          if (lines.length)
            expect(
              entries.map((e) => e.key),
              `${url}: the quote for the cart`,
            ).toContainEqual(['cart-quote', lines, couponCode, null]);
          continue;
        }
        const schema = key[0] === 'cart-quote' ? Quote : initialDataSchema(key, responseSchemas);
        expect(schema, `${url}: no response schema for ${JSON.stringify(key)}`).toBeDefined();
        const parsed = schema!.safeParse(toResponseShape(key, data));
        expect(parsed.success, `${url} ${JSON.stringify(key)}: ${parsed.error?.message}`).toBe(true);
      }
    }
    // The two drawn from the cookie, and the empty cart drawn for /cart without one.
    expect(cartsSeen).toBe(3);
  });

  it('a product page has Product JSON-LD with price and availability, and breadcrumbs', async () => {
    const product = seedProducts.find((p) => p.id === 'sweep-and-mop') ?? seedProducts[0]!;
    const res = await get(`/products/${product.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<title>${product.name.replace(/&/g, '&amp;')} | EcoClean</title>`);
    expect(res.body).toContain(`<link rel="canonical" href="http://shop.test/products/${product.id}" />`);
    const lds = jsonLd(res.body);
    const ld = lds.find((l) => l['@type'] === 'Product') as { offers: Record<string, string>; name: string };
    expect(ld.name).toBe(product.name);
    expect(ld.offers.price).toBe((product.priceCents / 100).toFixed(2));
    expect(ld.offers.priceCurrency).toBe('USD');
    expect(ld.offers.availability).toBe('https://schema.org/InStock');
    const crumbs = lds.find((l) => l['@type'] === 'BreadcrumbList') as { itemListElement: { name: string }[] };
    expect(crumbs.itemListElement.map((c) => c.name)[0]).toBe('Home');
    expect(crumbs.itemListElement.at(-1)!.name).toBe(product.name);
  });

  it('an unknown product answers 404 and is not indexed', async () => {
    const res = await get('/products/nope');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('noindex');
    expect(res.body).toContain('Product Not Found');
  });

  it('the FAQ page carries FAQPage JSON-LD with every question', async () => {
    const res = await get('/faq');
    const faq = jsonLd(res.body).find((l) => l['@type'] === 'FAQPage') as { mainEntity: unknown[] };
    const count = (await t.db.selectFrom('faqs').select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n;
    expect(faq.mainEntity).toHaveLength(Number(count));
  });

  it('cart and checkout are noindex; unknown pages answer 404', async () => {
    // An empty checkout is sent to the cart by the server: nothing to paint first.
    const empty = await get('/checkout');
    expect(empty.statusCode).toBe(302);
    expect(empty.headers.location).toBe('/cart');
    const cookie = `${CART_COOKIE}=${encodeCartCookie({ lines: [[seedProducts[0]!.id, 1, 'One Size', 'Default']], couponCode: null })}`;
    for (const path of ['/cart', '/checkout']) {
      const res = await t.app.inject({ method: 'GET', url: path, headers: { accept: 'text/html', cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<meta name="robots" content="noindex, nofollow" />');
      expect(res.headers['x-robots-tag']).toBe('noindex');
    }
    const missing = await get('/this/does/not/exist');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Page Not Found');
  });

  it('escapes what it writes into the page', async () => {
    await t.db
      .updateTable('settings')
      .set({ value: '</script><script>alert(1)</script>' })
      .where('key', '=', 'homepage_hero_title')
      .execute();
    // Written behind the back office's back: say so, as its routes do.
    await noteShopChange(t.db);
    const res = await get('/');
    expect(res.body).not.toContain('<script>alert(1)</script>');
    expect(res.body).toContain('\\u003c/script\\u003e');
  });

  it('robots.txt disallows the private paths with crawl delay 1 and names the sitemap', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    for (const p of ['/admin/', '/checkout', '/cart', '/auth', '/reset-password']) {
      expect(res.body).toContain(`Disallow: ${p}\n`);
    }
    expect(res.body).toContain('Crawl-delay: 1');
    expect(res.body).toContain('Sitemap: http://shop.test/sitemap.xml');
  });

  it('sitemap.xml lists the pages with the spec priorities and every product weekly at 0.8', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    const priority = (loc: string) =>
      new RegExp(
        `<loc>${loc.replace(/[.?]/g, '\\$&')}</loc>(?:<lastmod>[^<]+</lastmod>)?<changefreq>([a-z]+)</changefreq><priority>([0-9.]+)</priority>`,
      )
        .exec(res.body)
        ?.slice(1);
    expect(priority('http://shop.test/')?.[1]).toBe('1.0');
    expect(priority('http://shop.test/products')?.[1]).toBe('0.9');
    expect(priority('http://shop.test/about')?.[1]).toBe('0.8');
    expect(priority('http://shop.test/contact')?.[1]).toBe('0.7');
    expect(priority('http://shop.test/faq')?.[1]).toBe('0.6');
    expect(priority(`http://shop.test/products/${seedProducts[0]!.id}`)).toEqual(['weekly', '0.8']);
    expect(res.body.match(/<loc>http:\/\/shop\.test\/products\//g)).toHaveLength(seedProducts.length);
  });

  it('sends security headers on pages and API answers', async () => {
    for (const url of ['/', '/api/products']) {
      const res = await get(url);
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      // This test shop is served over plain http: no HSTS there.
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
  });

  it("a signed-in visitor's page carries their session privately; others get none", async () => {
    const initial = (html: string) =>
      JSON.parse(/<script id="__INITIAL_DATA__" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!) as {
        key: string[];
        data: { user: { email: string } };
      }[];
    const anon = await get('/');
    expect(initial(anon.body).find((d) => d.key[0] === 'session')?.data).toEqual({ user: null, impersonatorEmail: null });
    const c = new TestClient(t.app);
    await c.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    const mine = await c.get('/', { accept: 'text/html' });
    // The page every visitor gets (drawn signed out), and beside it this visitor's session.
    expect(initial(mine.body)).toEqual(initial(anon.body));
    const viewer = JSON.parse(/<script id="__VIEWER_SESSION__" type="application\/json">(.*?)<\/script>/s.exec(mine.body)![1]!) as {
      user: { email: string };
    };
    expect(viewer.user.email).toBe(DEMO_CUSTOMER.email);
    expect(anon.body).not.toContain('__VIEWER_SESSION__');
    expect(mine.headers['cache-control']).toBe('private, no-cache');
    expect(mine.headers['vary']).toContain('Cookie');
  });

  it('refuses a mutating request from another site', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/cart/quote',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(403);
  });

  /** The product page's own data, as the server drew the page from it (and the browser paints it). */
  const detailOf = (html: string) =>
    (
      JSON.parse(/<script id="__INITIAL_DATA__" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!) as {
        key: unknown[];
        data: unknown;
      }[]
    ).find((d) => d.key[0] === 'products' && d.key[1] === 'detail')!.data as ProductDetail;
  const ldReviewsOf = (detail: ProductDetail) =>
    detail.reviews.items.slice(0, REVIEW_LIMITS.jsonLdReviews).map((r) => ({
      '@type': 'Review',
      author: { '@type': 'Person', name: r.displayName },
      datePublished: r.publishedAt,
      name: r.title,
      reviewBody: r.body,
      reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 1 },
    }));

  it("a reviewed product's JSON-LD has the page's average and count, and the first reviews the page shows", async () => {
    const product = await createProduct(t.db, { name: 'Rated For Search', priceCents: 2100 });
    const ratings = [5, 4, 3, 5, 5, 2, 4];
    const base = Date.parse('2026-05-01T10:00:00.000Z');
    for (const [i, rating] of ratings.entries())
      await insertReview(t, {
        productId: product.id,
        rating,
        at: new Date(base + i * 3_600_000),
        title: `Search review ${i}`,
        displayName: `Reader ${i}`,
      });
    // Neither counted nor shown: held for approval, and hidden by the shop.
    await insertReview(t, { productId: product.id, rating: 1, status: 'pending', title: 'Held back' });
    await insertReview(t, { productId: product.id, rating: 1, status: 'hidden', title: 'Hidden away' });
    await noteShopChange(t.db);
    const res = await get(`/products/${product.id}`);
    expect(res.statusCode).toBe(200);
    const detail = detailOf(res.body);
    const ld = jsonLd(res.body).find((l) => l['@type'] === 'Product')!;
    // The figures the page shows (its data), and what they are: 28 stars over 7 reviews.
    expect(ld.aggregateRating).toEqual({
      '@type': 'AggregateRating',
      ratingValue: detail.rating.average,
      reviewCount: detail.rating.count,
      bestRating: 5,
      worstRating: 1,
    });
    expect([detail.rating.average, detail.rating.count]).toEqual([4, 7]);
    // The page's first reviews, newest first: the last five written.
    expect(ld.review).toEqual(ldReviewsOf(detail));
    expect((ld.review as { name: string }[]).map((r) => r.name)).toEqual([6, 5, 4, 3, 2].map((i) => `Search review ${i}`));
    expect(JSON.stringify(ld)).not.toMatch(/Held back|Hidden away/);
  });

  it('a product sold in versions carries the rating on its group, also on a version’s own page; a product without reviews has none', async () => {
    const cleaner = await createProduct(t.db, { name: 'Rated In Two Sizes', priceCents: 1200 });
    await createVariant(t.db, cleaner.id, { options: ['1 L'], priceCents: 2000 });
    for (const rating of [5, 4, 4]) await insertReview(t, { productId: cleaner.id, rating });
    await noteShopChange(t.db);
    const res = await get(`/products/${cleaner.id}`);
    const detail = detailOf(res.body);
    expect(detail.variants).toHaveLength(2);
    expect([detail.rating.average, detail.rating.count]).toEqual([4.3, 3]);
    const group = jsonLd(res.body).find((l) => l['@type'] === 'ProductGroup')!;
    expect(group.aggregateRating).toMatchObject({ ratingValue: detail.rating.average, reviewCount: detail.rating.count });
    expect(group.review).toEqual(ldReviewsOf(detail));
    const variant = detail.variants[1]!;
    const linked = await get(`/products/${cleaner.id}?variant=${encodeURIComponent(variant.id)}`);
    const one = jsonLd(linked.body).find((l) => l['@type'] === 'Product')!;
    expect(one.aggregateRating).toBeUndefined();
    expect((one.isVariantOf as Record<string, unknown>).aggregateRating).toEqual(group.aggregateRating);

    const plain = await createProduct(t.db, { name: 'Unrated For Search' });
    await insertReview(t, { productId: plain.id, rating: 5, status: 'pending' });
    await noteShopChange(t.db);
    const none = await get(`/products/${plain.id}`);
    expect(detailOf(none.body).rating.count).toBe(0);
    const lds = jsonLd(none.body);
    expect(lds.find((l) => l['@type'] === 'Product')).toBeDefined();
    expect(JSON.stringify(lds)).not.toMatch(/aggregateRating|"review"/);
  });
});
