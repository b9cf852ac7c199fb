import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, type TestClient } from '../test/http-client.js';
import { createProduct } from '../db/seed/factories.js';
import { PRODUCT_CARD_FIELDS } from '../../shared/product-card.js';

/**
 * Several images per product, each with its alt text, through the admin API (decision 0017), and
 * "You may also like" beside a product: the API answer and the product page's embedded data.
 */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const edit = { description: 'Made by the images test.', priceCents: 1299, category: 'cleaning-cloths' };
const base = { ...edit, inventory: 10 };
const dataOf = (html: string) =>
  JSON.parse(/<script id="__INITIAL_DATA__" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!) as {
    key: unknown[];
    data: unknown;
  }[];

async function newProduct(body: Record<string, unknown>): Promise<string> {
  const res = await admin.post('/api/admin/products', { ...base, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().product.id as string;
}

describe('product images with alt text', () => {
  it('keeps each image with its alt text, in the order the owner sets, on every answer', async () => {
    const id = await newProduct({
      name: 'Gallery Cloth',
      images: ['/uploads/products/a.png', '/uploads/products/b.png', '/uploads/products/c.png'],
      imageAlts: ['  Blue cloth, folded  ', '', 'Cloth wiping a window'],
    });
    const shown = (await t.app.inject(`/api/products/${id}`)).json().product;
    expect(shown.images).toEqual(['/uploads/products/a.png', '/uploads/products/b.png', '/uploads/products/c.png']);
    expect(shown.imageAlts).toEqual(['Blue cloth, folded', '', 'Cloth wiping a window']);

    // Reordered (c first) and one removed (b): the alt texts travel with their images.
    const put = await admin.request('PUT', `/api/admin/products/${id}`, {
      ...edit,
      name: 'Gallery Cloth',
      images: ['/uploads/products/c.png', '/uploads/products/a.png'],
      imageAlts: ['Cloth wiping a window', 'Blue cloth, folded'],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().product).toMatchObject({
      images: ['/uploads/products/c.png', '/uploads/products/a.png'],
      imageAlts: ['Cloth wiping a window', 'Blue cloth, folded'],
    });
    const row = await t.db.selectFrom('products').select(['images', 'image_alts']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.image_alts)).toEqual(['Cloth wiping a window', 'Blue cloth, folded']);

    // The shop list and the admin list carry them too.
    const list = (await t.app.inject('/api/products?search=Gallery%20Cloth')).json();
    expect(list.items.find((p: { id: string }) => p.id === id)?.imageAlts).toEqual(['Cloth wiping a window', 'Blue cloth, folded']);
    const adminList = (await admin.get('/api/admin/products?search=Gallery')).json();
    expect(adminList.items.find((p: { id: string }) => p.id === id)?.imageAlts).toEqual(['Cloth wiping a window', 'Blue cloth, folded']);

    // An edit without images keeps them and their alt texts; images without alt texts have none.
    await admin.request('PUT', `/api/admin/products/${id}`, { ...edit, name: 'Gallery Cloth 2' });
    expect((await t.app.inject(`/api/products/${id}`)).json().product.imageAlts).toEqual(['Cloth wiping a window', 'Blue cloth, folded']);
    await admin.request('PUT', `/api/admin/products/${id}`, { ...edit, name: 'Gallery Cloth 2', images: ['/uploads/products/a.png'] });
    expect((await t.app.inject(`/api/products/${id}`)).json().product).toMatchObject({
      images: ['/uploads/products/a.png'],
      imageAlts: [''],
    });
  });

  it('refuses alt texts that do not match the images, too long, or too many images', async () => {
    const send = (body: Record<string, unknown>) => admin.post('/api/admin/products', { ...base, name: 'Refused', ...body });
    const mismatch = await send({ images: ['/uploads/products/a.png', '/uploads/products/b.png'], imageAlts: ['only one'] });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error).toContain('Send one alt text per image');
    const alone = await send({ imageAlts: ['no image'] });
    expect(alone.statusCode).toBe(400);
    expect(alone.json().error).toContain('Send the images with their alt texts');
    const long = await send({ images: ['/uploads/products/a.png'], imageAlts: ['x'.repeat(201)] });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toContain('Alt text cannot exceed 200 characters');
    const many = await send({ images: Array.from({ length: 11 }, (_, i) => `/uploads/products/${i}.png`) });
    expect(many.statusCode).toBe(400);
    expect(many.json().error).toContain('A product can have at most 10 images');
    expect(await t.db.selectFrom('products').select('id').where('name', '=', 'Refused').execute()).toEqual([]);
  });

  it('reads a product stored before alt texts existed as one empty alt text per image', async () => {
    await createProduct(t.db, { id: 'old-photos', images: ['/images/placeholder.svg', '/images/placeholder.svg?2'] });
    const row = await t.db.selectFrom('products').select('image_alts').where('id', '=', 'old-photos').executeTakeFirstOrThrow();
    expect(row.image_alts).toBe('[]');
    expect((await t.app.inject('/api/products/old-photos')).json().product.imageAlts).toEqual(['', '']);
  });
});

describe('you may also like', () => {
  it('answers up to four other products of the category, those in stock first, as cards', async () => {
    expect((await admin.post('/api/admin/categories', { id: 'related-test', name: 'Related Test', description: null })).statusCode).toBe(
      201,
    );
    const cat = { category: 'related-test' };
    // Shop order is by price: the sold-out one is the cheapest, so only "in stock first" puts it last.
    const soldOut = await newProduct({ ...cat, name: 'Rel Sold Out', priceCents: 100, inventory: 0 });
    const main = await newProduct({ ...cat, name: 'Rel Main', priceCents: 500 });
    const b = await newProduct({ ...cat, name: 'Rel B', priceCents: 200 });
    const c = await newProduct({ ...cat, name: 'Rel C', priceCents: 300 });
    await newProduct({ name: 'Rel Elsewhere', priceCents: 250 });

    const res = await t.app.inject(`/api/products/${main}/related`);
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as Record<string, unknown>[];
    expect(items.map((p) => p.id)).toEqual([b, c, soldOut]);
    // `held` is there only while other checkouts keep some of a product's units, `rating` only with a published review (none here).
    for (const item of items)
      expect(Object.keys(item).sort()).toEqual(PRODUCT_CARD_FIELDS.filter((f) => f !== 'held' && f !== 'rating').sort());

    // Five others in stock: four, the sold-out one left out.
    const d = await newProduct({ ...cat, name: 'Rel D', priceCents: 400 });
    const e = await newProduct({ ...cat, name: 'Rel E', priceCents: 600 });
    await new Promise((r) => setTimeout(r, 1100)); // past the answer's one-second cache
    const four = (await t.app.inject(`/api/products/${main}/related`)).json().items as { id: string }[];
    expect(four.map((p) => p.id)).toEqual([b, c, d, e]);

    // The product page has them in its first data, under the key the browser reads.
    const page = await t.app.inject({ method: 'GET', url: `/products/${main}`, headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    const embedded = dataOf(page.body).find((entry) => entry.key[0] === 'products' && entry.key[1] === 'related');
    expect(embedded?.key).toEqual(['products', 'related', main]);
    expect((embedded?.data as { items: { id: string }[] }).items.map((p) => p.id)).toEqual([b, c, d, e]);
  });

  it('is empty for a product without a category, and 404 for an unknown product', async () => {
    const alone = await newProduct({ name: 'No Category', category: null });
    expect((await t.app.inject(`/api/products/${alone}/related`)).json()).toEqual({ items: [] });
    const unknown = await t.app.inject('/api/products/no-such-product/related');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('Product not found');
  });
});
