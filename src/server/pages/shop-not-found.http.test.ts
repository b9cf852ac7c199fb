import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';

/**
 * What the server writes when a shop URL names something that is not there (decision 0033): the
 * page says so in its own words, with a way back, and answers 404 so it is not indexed or linked.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });

describe('shop pages for things that are not there', () => {
  // The tests' server has no rendering bundle: the words on the page are held by e2e/catalog-last-mile.test.ts.
  it('an unknown product answers 404, not indexed', async () => {
    const res = await get('/products/no-such-product');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<meta name="robots" content="noindex');
    expect(res.body).toContain('<title>Product Not Found');
  });

  it('an unknown category answers 404, not indexed', async () => {
    const res = await get('/products?category=no-such-category');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<meta name="robots" content="noindex');
    expect(res.body).toContain('<title>Category Not Found');
  });

  it('a page past the last answers 404, the last page 200', async () => {
    const res = await get('/products?page=99');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<meta name="robots" content="noindex');
    expect(res.body).toContain('<title>Page Not Found');
    expect((await get('/products?page=1')).statusCode).toBe(200);
    // The same past a category's last page.
    expect((await get('/products?category=mops&page=50')).statusCode).toBe(404);
  });

  it('a known category, and an empty search in it, answer 200 under the category’s name', async () => {
    const category = await t.db.selectFrom('categories').select(['id', 'name']).orderBy('sort_order').executeTakeFirstOrThrow();
    const res = await get(`/products?category=${category.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<title>${category.name} | Shop`);
    // No products in an existing category is an empty list, not a missing page.
    const empty = await get(`/products?category=${category.id}&search=zzzz-nothing`);
    expect(empty.statusCode).toBe(200);
  });
});
