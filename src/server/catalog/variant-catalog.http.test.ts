import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createCategory, createProduct, createVariant } from '../db/seed/factories.js';
import { noteShopChange } from '../http/shop-changes.js';
import { refreshProductCopies } from './variants.js';
import { lockStock, recordMovement } from '../inventory/stock.js';
import { transactionWithRetry } from '../db/locks.js';
import { ProductPage } from '../../shared/schemas/catalog.js';
import { ProductResponse, RelatedProductsResponse } from '../../client/lib/response-schemas.js';

/**
 * What the storefront reads of a product sold in variants (issue [6/6], decision 0036): the product
 * page's options and enabled variants with their own stock, the lists' "From" price and sole variant,
 * what can be bought (never a switched-off variant's units), the search by option value and SKU, the
 * ProductGroup a search engine reads, one cached page for every `?variant=`, and "Notify me" per variant.
 */
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' };
const address = { name: 'Vera Variant', address: '4 Option Ave', city: 'Portland', state: 'OR', zip: '97201', country: 'US' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: LIMITS });
});
afterAll(async () => {
  await t?.close();
});

let ipCount = 0;
const nextIp = () => `10.81.${Math.floor(++ipCount / 250)}.${ipCount % 250}`;
const html = (url: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
const detail = async (id: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/products/${encodeURIComponent(id)}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const list = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/products?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return ProductPage.parse(res.json());
};
const jsonLd = (body: string): Record<string, unknown>[] =>
  [...body.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!));

/**
 * A Concentrated Cleaner in Scent × Size: the first variant (made with the product) is Lavender
 * 500 ml; Lemon 1 L is switched off with 7 units on the shelf.
 */
async function cleaner(o: { name?: string; categoryId?: string; sku?: string } = {}) {
  const tag = Math.random().toString(36).slice(2, 7);
  const p = await createProduct(t.db, {
    name: o.name ?? 'Concentrated Cleaner',
    priceCents: 1200,
    inventory: 10,
    sku: `QZV-LAV-500-${tag}`,
    categoryId: o.categoryId ?? 'cleaners',
    images: ['/images/cleaner.jpg', '/images/cleaner-1l.jpg'],
  });
  const first = `var_${p.id}`;
  await t.db
    .insertInto('product_options')
    .values([
      { product_id: p.id, position: 1, name: 'Scent', values: JSON.stringify(['Lavender', 'Lemon']) },
      { product_id: p.id, position: 2, name: 'Size', values: JSON.stringify(['500 ml', '1 L']) },
    ])
    .execute();
  await t.db.updateTable('product_variants').set({ option1: 'Lavender', option2: '500 ml' }).where('id', '=', first).execute();
  const big = await createVariant(t.db, p.id, {
    options: ['Lavender', '1 L'],
    priceCents: 2000,
    sku: `QZV-LAV-1L-${tag}`,
    inventory: 5,
    position: 1,
  });
  await t.db
    .updateTable('product_variants')
    .set({ image: '/images/cleaner-1l.jpg', compare_at_cents: 2400 })
    .where('id', '=', big)
    .execute();
  const lemon = await createVariant(t.db, p.id, {
    options: ['Lemon', '500 ml'],
    priceCents: 1200,
    sku: `QZV-LEM-500-${tag}`,
    inventory: 0,
    position: 2,
  });
  const off = await createVariant(t.db, p.id, {
    options: ['Lemon', '1 L'],
    priceCents: 2500,
    sku: `QZV-LEM-1L-${tag}`,
    inventory: 7,
    position: 3,
    enabled: false,
  });
  await noteShopChange(t.db);
  return { p, first, big, lemon, off, tag };
}

describe(`the storefront's reads of products with variants (${process.env.TEST_DB ?? 'sqlite'})`, () => {
  it('answers the product with its options and enabled variants, each with its own stock; a switched-off variant is neither shown nor counted', async () => {
    const { p, first, big, lemon, off, tag } = await cleaner();
    const body = await detail(p.id);
    // With its stars and first reviews (issue [6/8]): none yet; and its stock's stamp (the page's watch starts from it).
    expect(Object.keys(body)).toEqual(['product', 'options', 'variants', 'stock', 'rating', 'reviews', 'stockStamp']);
    expect(body.rating).toEqual({ count: 0, average: 0, stars: [0, 0, 0, 0, 0] });
    // The client's schema reads it as it is.
    expect(ProductResponse.safeParse(body).success).toBe(true);
    expect(body.product).toMatchObject({ id: p.id, priceCents: 1200, maxPriceCents: 2000, soleVariantId: null, sku: null });
    // 10 + 5 + 0 can be bought: the 7 units of the switched-off Lemon 1 L are the shelf's, not the shop's.
    expect(body.product.inventory).toBe(15);
    expect(body.options).toEqual([
      { name: 'Scent', values: ['Lavender', 'Lemon'] },
      { name: 'Size', values: ['500 ml', '1 L'] },
    ]);
    const none = { reserved: 0, reservedUntil: null, lowStockThreshold: 10 };
    expect(body.variants).toEqual([
      {
        id: first,
        options: ['Lavender', '500 ml'],
        label: 'Lavender, 500 ml',
        sku: `QZV-LAV-500-${tag}`,
        priceCents: 1200,
        compareAtCents: null,
        image: null,
        available: 10,
        unitQuantity: null,
        unit: null,
        stock: none,
        // No subscription plan offered (issue [4/8]).
        subscription: null,
      },
      {
        id: big,
        options: ['Lavender', '1 L'],
        label: 'Lavender, 1 L',
        sku: `QZV-LAV-1L-${tag}`,
        priceCents: 2000,
        compareAtCents: 2400,
        image: '/images/cleaner-1l.jpg',
        available: 5,
        unitQuantity: null,
        unit: null,
        stock: none,
        // No subscription plan offered (issue [4/8]).
        subscription: null,
      },
      {
        id: lemon,
        options: ['Lemon', '500 ml'],
        label: 'Lemon, 500 ml',
        sku: `QZV-LEM-500-${tag}`,
        priceCents: 1200,
        compareAtCents: null,
        image: null,
        available: 0,
        unitQuantity: null,
        unit: null,
        stock: none,
        // No subscription plan offered (issue [4/8]).
        subscription: null,
      },
    ]);
    expect(body.variants.map((v: { id: string }) => v.id)).not.toContain(off);
    expect(body.stock).toEqual(none);

    // The back office still sees every unit on the shelf.
    const row = await t.db.selectFrom('products').select('inventory').where('id', '=', p.id).executeTakeFirstOrThrow();
    expect(Number(row.inventory)).toBe(22);

    // A product without options: one variant, no options, and the Product it always was.
    const plain = await createProduct(t.db, { name: 'Plain Brush', priceCents: 700, inventory: 4, sku: 'QZV-PLAIN' });
    const plainBody = await detail(plain.id);
    expect(plainBody.product).toMatchObject({ inventory: 4, maxPriceCents: null, soleVariantId: `var_${plain.id}`, sku: 'QZV-PLAIN' });
    expect(plainBody.options).toEqual([]);
    expect(plainBody.variants).toEqual([
      {
        id: `var_${plain.id}`,
        options: [],
        label: '',
        sku: 'QZV-PLAIN',
        priceCents: 700,
        compareAtCents: null,
        image: null,
        available: 4,
        unitQuantity: null,
        unit: null,
        stock: none,
        subscription: null,
      },
    ]);
    expect((await t.app.inject({ method: 'GET', url: '/api/products/no-such-product' })).statusCode).toBe(404);
  });

  it('lists and cards carry the "From" price and the sole variant, and count no switched-off variant\'s units', async () => {
    const category = await createCategory(t.db, { name: 'Variant Shelf' });
    const { p } = await cleaner({ name: 'Shelf Cleaner', categoryId: category.id });
    const plain = await createProduct(t.db, { name: 'Shelf Cloth', priceCents: 300, inventory: 3, categoryId: category.id });
    const page = await list(`category=${category.id}`);
    const byId = new Map(page.items.map((i) => [i.id, i]));
    expect(byId.get(p.id)).toMatchObject({ priceCents: 1200, maxPriceCents: 2000, soleVariantId: null, inventory: 15 });
    expect(byId.get(plain.id)).toMatchObject({ priceCents: 300, maxPriceCents: null, soleVariantId: `var_${plain.id}`, inventory: 3 });

    // "You may also like" cards: the same figures.
    const related = RelatedProductsResponse.parse((await t.app.inject({ method: 'GET', url: `/api/products/${plain.id}/related` })).json());
    expect(related.items).toEqual([
      {
        id: p.id,
        name: 'Shelf Cleaner',
        priceCents: 1200,
        maxPriceCents: 2000,
        images: ['/images/cleaner.jpg', '/images/cleaner-1l.jpg'],
        inventory: 15,
        soleVariantId: null,
      },
    ]);

    // The shop page's embedded cards too.
    const res = await html(`/products?category=${category.id}`);
    const entries = JSON.parse(/<script id="__INITIAL_DATA__" type="application\/json">(.*?)<\/script>/s.exec(res.body)![1]!) as {
      key: unknown[];
      data: { items?: Record<string, unknown>[] };
    }[];
    const cards = entries.find((e) => e.key[0] === 'products' && e.key[1] === 'list')!.data.items!;
    expect(cards.find((c) => c.id === p.id)).toEqual({
      id: p.id,
      name: 'Shelf Cleaner',
      priceCents: 1200,
      maxPriceCents: 2000,
      images: ['/images/cleaner.jpg', '/images/cleaner-1l.jpg'],
      inventory: 15,
      soleVariantId: null,
    });

    // Switched on, the Lemon 1 L's 7 units are on sale: the index follows the catalogue's write.
    await t.db.updateTable('product_variants').set({ enabled: 1 }).where('product_id', '=', p.id).execute();
    await refreshProductCopies(t.db, p.id);
    await noteShopChange(t.db);
    expect((await list(`category=${category.id}`)).items.find((i) => i.id === p.id)).toMatchObject({ inventory: 22, maxPriceCents: 2500 });
    expect((await detail(p.id)).product.inventory).toBe(22);
  });

  it('a checkout holding units of one variant lowers only that variant, on the product page and in the lists', async () => {
    const { p, first, big } = await cleaner({ name: 'Held Cleaner' });
    const c = new TestClient(t.app, nextIp());
    const res = await c.post('/api/create-checkout-session', {
      items: [{ productId: p.id, variantId: big, quantity: 2 }],
      customerEmail: 'held@example.com',
      shippingAddress: address,
    });
    expect(res.statusCode, res.body).toBe(200);
    // Another shopper's view (the product was never asked for before: nothing cached).
    const body = await detail(p.id);
    const shown = new Map(body.variants.map((v: { id: string; available: number; stock: unknown }) => [v.id, v]));
    expect(shown.get(first)).toMatchObject({ available: 10, stock: { reserved: 0, reservedUntil: null } });
    const held = shown.get(big) as { available: number; stock: { reserved: number; reservedUntil: string | null } };
    expect(held.available).toBe(3);
    expect(held.stock.reserved).toBe(2);
    expect(Date.parse(held.stock.reservedUntil!)).toBeGreaterThan(Date.now());
    expect(body.product.inventory).toBe(13);
    expect(body.stock.reserved).toBe(2);
    await expect
      .poll(async () => (await list('search=held%20cleaner')).items.find((i) => i.id === p.id)?.inventory, { timeout: 3000, interval: 100 })
      .toBe(13);
  });

  it("finds a product by an option value or an enabled variant's SKU; names still rank first; the index follows variant changes", async () => {
    const { p, big, off, tag } = await cleaner({ name: 'Search Cleaner' });
    const soap = await createProduct(t.db, { name: 'Lavender Soap', priceCents: 2900, description: 'A bar.' });
    const ids = async (search: string) => (await list(`search=${encodeURIComponent(search)}&pageSize=100`)).items.map((i) => i.id);
    // The soap's name holds the word: it ranks above the cleaner, found by its option's value.
    expect((await ids('lavender')).filter((id) => id === p.id || id === soap.id)).toEqual([soap.id, p.id]);
    expect(await ids('LEMON')).toContain(p.id);
    expect(await ids('1 l')).toContain(p.id);
    expect(await ids(`qzv-lav-1l-${tag}`)).toEqual([p.id]);
    expect(await ids(`QZV-LAV-500-${tag}`)).toEqual([p.id]);
    // A switched-off variant's SKU finds nothing; neither does a text across two values.
    expect(await ids(`QZV-LEM-1L-${tag}`)).toEqual([]);
    expect(await ids('lavenderlemon')).toEqual([]);
    expect(await ids(`${tag}qzv`)).toEqual([]);
    // A one-variant product is found by its SKU.
    const plain = await createProduct(t.db, { name: 'Plain Sponge', sku: `QZV-SPONGE-${tag}` });
    expect(await ids(`qzv-sponge-${tag}`)).toEqual([plain.id]);

    // The back office switches variants over: the index reads the product again.
    await t.db.updateTable('product_variants').set({ enabled: 0 }).where('id', '=', big).execute();
    await t.db.updateTable('product_variants').set({ enabled: 1 }).where('id', '=', off).execute();
    await refreshProductCopies(t.db, p.id);
    await noteShopChange(t.db);
    expect(await ids(`QZV-LAV-1L-${tag}`)).toEqual([]);
    expect(await ids(`QZV-LEM-1L-${tag}`)).toEqual([p.id]);
  });

  it('writes a ProductGroup for search engines, keeps one cached page for every ?variant=, and says "From" in the description', async () => {
    const { p, first, big, lemon } = await cleaner({ name: 'Group Cleaner' });
    const res = await html(`/products/${p.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<link rel="canonical" href="http://shop.test/products/${p.id}" />`);
    expect(res.body).toMatch(/<meta name="description" content="[^"]*From \$12\.00\." \/>/);
    const lds = jsonLd(res.body);
    expect(lds.map((l) => l['@type'])).toEqual(['ProductGroup', 'BreadcrumbList']);
    const group = lds[0] as Record<string, unknown> & { hasVariant: Record<string, unknown>[] };
    expect(group).toMatchObject({
      '@context': 'https://schema.org',
      name: 'Group Cleaner',
      url: `http://shop.test/products/${p.id}`,
      productGroupID: p.id,
      variesBy: ['https://schema.org/size'],
      image: ['http://shop.test/images/cleaner.jpg', 'http://shop.test/images/cleaner-1l.jpg'],
    });
    const offer = (id: string, price: string, inStock: boolean) => ({
      '@type': 'Offer',
      url: `http://shop.test/products/${p.id}?variant=${id}`,
      priceCurrency: 'USD',
      price,
      availability: inStock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
    });
    expect(group.hasVariant).toEqual([
      {
        '@type': 'Product',
        name: 'Group Cleaner — Lavender, 500 ml',
        sku: expect.stringMatching(/^QZV-LAV-500-/),
        image: 'http://shop.test/images/cleaner.jpg',
        size: '500 ml',
        offers: offer(first, '12.00', true),
      },
      {
        '@type': 'Product',
        name: 'Group Cleaner — Lavender, 1 L',
        sku: expect.stringMatching(/^QZV-LAV-1L-/),
        image: 'http://shop.test/images/cleaner-1l.jpg',
        size: '1 L',
        offers: offer(big, '20.00', true),
      },
      {
        '@type': 'Product',
        name: 'Group Cleaner — Lemon, 500 ml',
        sku: expect.stringMatching(/^QZV-LEM-500-/),
        image: 'http://shop.test/images/cleaner.jpg',
        size: '500 ml',
        offers: offer(lemon, '12.00', false),
      },
    ]);

    // A Colour option maps to schema.org's color.
    await t.db.updateTable('product_options').set({ name: 'Colour' }).where('product_id', '=', p.id).where('position', '=', 1).execute();
    await noteShopChange(t.db);
    const recoloured = jsonLd((await html(`/products/${p.id}`)).body)[0] as { variesBy: string[]; hasVariant: Record<string, unknown>[] };
    expect(recoloured.variesBy).toEqual(['https://schema.org/color', 'https://schema.org/size']);
    expect(recoloured.hasVariant[2]).toMatchObject({ color: 'Lemon', size: '500 ml' });

    // A link to a version is drawn with it chosen (decision 0043): a cached page of its own.
    const a = await html(`/products/${p.id}?variant=${first}`);
    const b = await html(`/products/${p.id}?variant=${big}`);
    const bare = await html(`/products/${p.id}`);
    expect(a.statusCode).toBe(200);
    expect(a.headers.etag).toBeDefined();
    expect(b.headers.etag).not.toBe(a.headers.etag);
    expect(b.body).toContain('$20.00');
    expect(bare.statusCode).toBe(200);
  });

  it('"Notify me" waits for one variant, refuses another product\'s or a switched-off one, and links to the variant', async () => {
    const { p, first, big, lemon, off } = await cleaner({ name: 'Notify Cleaner' });
    const other = await createProduct(t.db, { name: 'Other Thing', inventory: 0 });
    const shopper = new TestClient(t.app, nextIp());
    const notify = (body: Record<string, unknown>, id = p.id) => shopper.post(`/api/products/${id}/notify`, body);
    // A new and an already-waiting address are answered alike (decision 0041).
    expect((await notify({ email: 'lemon@example.com', variantId: lemon })).statusCode).toBe(202);
    expect((await notify({ email: 'lemon@example.com', variantId: lemon })).statusCode).toBe(202);
    // In stock: the first variant (no variant named) and Lavender 1 L.
    expect((await notify({ email: 'x@example.com' })).statusCode).toBe(409);
    expect((await notify({ email: 'x@example.com', variantId: big })).statusCode).toBe(409);
    expect((await notify({ email: 'x@example.com', variantId: `var_${other.id}` })).statusCode).toBe(404);
    expect((await notify({ email: 'x@example.com', variantId: lemon }, other.id)).statusCode).toBe(404);
    expect((await notify({ email: 'x@example.com', variantId: off })).statusCode).toBe(404);
    expect((await notify({ email: 'x@example.com', variantId: 'v'.repeat(121) })).statusCode).toBe(400);
    expect((await notify({ email: 'x@example.com', variantId: '' })).statusCode).toBe(400);

    // Lemon 500 ml comes back: one e-mail, whose link chooses the variant.
    await transactionWithRetry(t.db, async (trx) => {
      const stock = (await lockStock(trx, t.dialect, [p.id])).get(lemon)!;
      await recordMovement(trx, stock, { kind: 'received', quantity: 3, actor: { userId: null, label: 'Test' } });
    });
    const sent = await t.db
      .selectFrom('email_outbox')
      .select(['to_address', 'text'])
      .where('template_id', '=', 'back-in-stock')
      .where('to_address', '=', 'lemon@example.com')
      .execute();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain(`/products/${p.id}?variant=${lemon}`);
    expect(first).toBe(`var_${p.id}`);
  });
});
