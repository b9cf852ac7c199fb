import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_CACHE_MS } from './routes.js';
import { TestClient } from '../test/http-client.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { createProduct } from '../db/seed/factories.js';
import { ProductPage, Product, Category } from '../../shared/schemas/catalog.js';
import { seedProducts } from '../db/seed/catalog-data.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe(`catalogue API (${process.env.TEST_DB ?? 'sqlite'})`, () => {
  it('lists the seeded products in shop order: leading number first, then price', async () => {
    const res = await get('/api/products?pageSize=100');
    expect(res.statusCode).toBe(200);
    const page = ProductPage.parse(res.json());
    expect(page.total).toBe(seedProducts.length);
    const numbered = page.items.filter((p) => /^\d+\s*-/.test(p.name));
    const rest = page.items.slice(numbered.length);
    expect(numbered.length).toBeGreaterThan(3);
    const nums = numbered.map((p) => Number(/^(\d+)/.exec(p.name)![1]));
    expect(nums).toEqual([...nums].sort((a, b) => a - b));
    expect(rest.every((p) => !/^\d+\s*-/.test(p.name))).toBe(true);
    const prices = rest.map((p) => p.priceCents);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it('paginates', async () => {
    const first = ProductPage.parse((await get('/api/products?pageSize=5&page=1')).json());
    const second = ProductPage.parse((await get('/api/products?pageSize=5&page=2')).json());
    expect(first.items).toHaveLength(5);
    expect(first.totalPages).toBe(Math.ceil(seedProducts.length / 5));
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id);
    const ids = new Set([...first.items, ...second.items].map((p) => p.id));
    expect(ids.size).toBe(10);
  });

  it('searches name and description case-insensitively, combined with the category', async () => {
    await createProduct(t.db, { id: 'search-a', name: 'Zebra Sponge', description: 'plain', categoryId: 'cleaners' });
    await createProduct(t.db, { id: 'search-b', name: 'Plain pad', description: 'Loved by ZEBRAS', categoryId: 'mops' });
    const all = ProductPage.parse((await get('/api/products?search=zEbRa')).json());
    expect(all.items.map((p) => p.id).sort()).toEqual(['search-a', 'search-b']);
    const mops = ProductPage.parse((await get('/api/products?search=zebra&category=mops')).json());
    expect(mops.items.map((p) => p.id)).toEqual(['search-b']);
  });

  it('treats LIKE wildcards in the search as plain text', async () => {
    await createProduct(t.db, { id: 'pct', name: '100% Cotton Rag', description: 'x' });
    const res = ProductPage.parse((await get('/api/products?search=' + encodeURIComponent('100%'))).json());
    expect(res.items.map((p) => p.id)).toEqual(['pct']);
    const none = ProductPage.parse((await get('/api/products?search=' + encodeURIComponent('_____%%%'))).json());
    expect(none.items).toHaveLength(0);
  });

  it('filters by category', async () => {
    const res = ProductPage.parse((await get('/api/products?category=mops&pageSize=100')).json());
    expect(res.items.length).toBeGreaterThan(0);
    expect(res.items.every((p) => p.category === 'mops')).toBe(true);
  });

  it('answers 400 with a clear message for bad queries, never 500', async () => {
    for (const [url, message] of [
      ['/api/products?page=0', 'page must be at least 1'],
      ['/api/products?page=abc', 'page must be a number'],
      ['/api/products?pageSize=1000', 'pageSize cannot exceed 100'],
      ['/api/products?category=Bad%20Cat', 'Category can only contain lowercase letters, numbers, and hyphens'],
      ['/api/products?featured=maybe', "featured must be 'true' or 'false'"],
      ['/api/products?search=' + 'x'.repeat(101), 'Search text cannot exceed 100 characters'],
    ] as const) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error, url).toContain(message);
    }
    const unknown = await get('/api/products?sort=price');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatch(/sort/);
  });

  it('answers a product by id and 404 for an unknown id', async () => {
    const res = await get('/api/products/sweep-and-mop');
    expect(res.statusCode).toBe(200);
    const product = Product.parse(res.json().product);
    expect(product.id).toBe('sweep-and-mop');
    const missing = await get('/api/products/no-such-product');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Product not found' });
    const tooLong = await get('/api/products/' + 'a'.repeat(101));
    expect(tooLong.statusCode).toBe(400);
  });

  it('keeps dimensions only when all three are stored', async () => {
    await createProduct(t.db, { id: 'dims', dimensions: { length: 10, width: 5, height: 2 }, weightLbs: 1.5 });
    const p = Product.parse((await get('/api/products/dims')).json().product);
    expect(p.dimensions).toEqual({ length: 10, width: 5, height: 2 });
    expect(p.weightLbs).toBe(1.5);
    await t.db.updateTable('products').set({ height_in: null }).where('id', '=', 'dims').execute();
    // Written behind the server's back: once its second is up the cached answer is re-read (the
    // read that notices may still get the last answer, so the others never wait for the database).
    await new Promise((r) => setTimeout(r, CATALOGUE_CACHE_MS + 50));
    await get('/api/products/dims');
    await expect.poll(async () => Product.parse((await get('/api/products/dims')).json().product).dimensions, { timeout: 500 }).toBeNull();
  });

  it('serves catalogue answers from a one-second cache that a back-office change clears at once', async () => {
    await createProduct(t.db, { id: 'cached', name: 'Cached Cloth', inventory: 5, categoryId: 'cleaning-cloths' });
    expect((await get('/api/products/cached')).json().product.name).toBe('Cached Cloth');
    const admin = new TestClient(t.app, '10.9.9.9');
    await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    const put = await admin.request('PUT', '/api/admin/products/cached', {
      name: 'Renamed Cloth',
      description: 'Renamed by the owner.',
      priceCents: 999,
      category: 'cleaning-cloths',
    });
    expect(put.statusCode).toBe(200);
    expect((await get('/api/products/cached')).json().product.name).toBe('Renamed Cloth');
    expect((await get('/api/products?search=renamed')).json().total).toBe(1);
    // An unknown id is not cached as a product, and still answers 404.
    expect((await get('/api/products/no-such-product')).statusCode).toBe(404);
    expect((await get('/api/products/no-such-product')).statusCode).toBe(404);
  });

  it('answers at most 4 featured products', async () => {
    const res = await get('/api/products/featured');
    const items = Product.array().parse(res.json().items);
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThanOrEqual(4);
    expect(items.every((p) => p.featured)).toBe(true);
  });

  it('lists the 7 categories with the spec ids, accessories named Other', async () => {
    const items = Category.array().parse((await get('/api/categories')).json().items);
    expect(items.map((c) => c.id)).toEqual([
      'cleaning-cloths',
      'mops',
      'cleaners',
      'glass-cleaning',
      'commercial',
      'accessories',
      'bundles',
    ]);
    expect(items.find((c) => c.id === 'accessories')!.name).toBe('Other');
  });

  it('answers the public settings and never the secrets', async () => {
    await t.db.updateTable('settings').set({ value: 'secret-key' }).where('key', '=', 'shipstation_api_key').execute();
    const res = await get('/api/settings');
    const { settings } = res.json();
    expect(settings.contact_hours).toBe('Mon-Fri, 9am-5pm EST');
    expect(settings.homepage_hero_title).toBeTruthy();
    expect(JSON.stringify(settings)).not.toContain('secret-key');
    expect(settings).not.toHaveProperty('shipstation_api_key');
    expect(settings).not.toHaveProperty('power_automate_endpoint');
  });

  it('lists FAQs in at least 3 categories', async () => {
    const { items } = (await get('/api/faqs')).json();
    expect(items.length).toBeGreaterThan(5);
    expect(new Set(items.map((f: { category: string }) => f.category)).size).toBeGreaterThanOrEqual(3);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await get('/api/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found' });
  });
});
