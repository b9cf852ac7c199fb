import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct, createVariant } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { seedProducts } from '../db/seed/catalog-data.js';
import { UNIT_MESSAGES } from '../../shared/unit-price.js';
import { IMAGE_SIZES, imageVariants } from '../../shared/image-variants.js';

/**
 * The product page's last mile (issue [2/8], decision 0043): a link to one version is drawn with
 * that version (its offer, its picture in the link preview), previews get a picture they can draw,
 * the first screen's picture is preloaded, and sizes carry a price per unit instead of a "was"
 * price that was never charged.
 */
let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app, '10.43.0.1');
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
const jsonLd = (html: string): Array<Record<string, unknown>> =>
  [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!));
const meta = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key.replace(/[:]/g, '\\:')}" content="([^"]*)" />`).exec(html)?.[1];
const preload = (html: string) => /<link rel="preload" as="image"[^>]*>/.exec(html)?.[0];

const CLEANER = '/products/concentrated-cleaner';
const LAVENDER_32 = 'var_concentrated-cleaner-lavender-32-oz';

describe('a link to one version', () => {
  it('is drawn with that version: its offer in the structured data, its picture in the preview and the preload', async () => {
    const res = await get(`${CLEANER}?variant=${LAVENDER_32}`);
    expect(res.statusCode).toBe(200);
    const [product] = jsonLd(res.body);
    expect(product).toMatchObject({
      '@type': 'Product',
      name: 'Concentrated All-Purpose Cleaner — Lavender, 32 oz',
      sku: 'ECO-CL-LAV-032',
      inProductGroupWithID: 'concentrated-cleaner',
      offers: { price: '25.99', url: `http://shop.test${CLEANER}?variant=${LAVENDER_32}`, availability: 'https://schema.org/InStock' },
      isVariantOf: { '@type': 'ProductGroup', productGroupID: 'concentrated-cleaner' },
    });
    expect((product!.isVariantOf as { hasVariant: unknown[] }).hasVariant).toHaveLength(6);
    expect(meta(res.body, 'og:image')).toBe('http://shop.test/images/products/concentrated-cleaner-lavender.png');
    expect(meta(res.body, 'twitter:image')).toBe('http://shop.test/images/products/concentrated-cleaner-lavender.png');
    expect(meta(res.body, 'og:image:width')).toBe('800');
    expect(preload(res.body)).toBe(
      '<link rel="preload" as="image" href="/images/products/concentrated-cleaner-lavender.svg" fetchpriority="high" />',
    );
    // One page per version, each kept: the canonical link stays the product's.
    expect(res.body).toContain(`<link rel="canonical" href="http://shop.test${CLEANER}" />`);
  });

  it('naming no version, an unknown one or another product’s, is the product’s page, without an error', async () => {
    for (const query of ['', '?variant=nope', '?variant=var_mesh-laundry-bag', '?variant=%3Cscript%3E']) {
      const res = await get(`${CLEANER}${query}`);
      expect(res.statusCode, query).toBe(200);
      const [group] = jsonLd(res.body);
      expect(group!['@type'], query).toBe('ProductGroup');
      expect(meta(res.body, 'og:image'), query).toBe('http://shop.test/images/products/concentrated-cleaner.png');
      expect(preload(res.body), query).toContain('href="/images/products/concentrated-cleaner.svg"');
      expect(res.body).not.toContain('<script>');
    }
  });
});

describe('link previews and the first picture', () => {
  it('name a picture a previewer can draw: every seeded SVG has its PNG copy beside it', async () => {
    const dir = path.resolve('public/images/products');
    for (const p of seedProducts) {
      for (const image of p.images) expect(fs.existsSync(path.join(dir, path.basename(image).replace(/\.svg$/, '.png'))), image).toBe(true);
    }
    const res = await get('/products/sweep-and-mop');
    expect(meta(res.body, 'og:image')).toBe('http://shop.test/images/products/sweep-and-mop.png');
    expect(meta(res.body, 'og:image:height')).toBe('800');
  });

  it("an uploaded photo: its 1280-pixel copy in the preview, its WebP copies at the gallery's size preloaded", async () => {
    const photo = '/uploads/products/mop-photo.jpg';
    const p = await createProduct(t.db, { name: 'Photo Mop', images: [photo] });
    const res = await get(`/products/${p.id}`);
    expect(res.statusCode).toBe(200);
    expect(meta(res.body, 'og:image')).toBe('http://shop.test/uploads/products/mop-photo-w1280.jpg');
    expect(meta(res.body, 'og:image:width')).toBeUndefined();
    const link = preload(res.body)!;
    expect(link).toContain(`imagesrcset="${imageVariants(photo)!.webp}"`);
    expect(link).toContain(`imagesizes="${IMAGE_SIZES.gallery}"`);
    expect(link).toContain('fetchpriority="high"');
  });

  it('the home page preloads its hero picture; a page without a first picture preloads none', async () => {
    const home = await get('/');
    expect(preload(home.body)).toBe('<link rel="preload" as="image" href="/images/hero.svg" fetchpriority="high" />');
    expect(meta(home.body, 'og:image')).toBe('http://shop.test/og-image.png');
    expect(meta(home.body, 'og:image:width')).toBe('1200');
    expect(preload((await get('/faq')).body)).toBeUndefined();
    expect(preload((await get('/products/no-such-thing')).body)).toBeUndefined();
  });
});

describe('unit prices instead of a "was" price', () => {
  it('the seed gives sizes, and no made-up compare-at price', async () => {
    const res = await admin.get('/api/products/concentrated-cleaner');
    expect(res.statusCode).toBe(200);
    const variants = res.json().variants as { id: string; compareAtCents: number | null; unitQuantity: number; unit: string }[];
    expect(variants.map((v) => [v.unitQuantity, v.unit])).toEqual([
      [16, 'oz'],
      [32, 'oz'],
      [16, 'oz'],
      [32, 'oz'],
      [16, 'oz'],
      [32, 'oz'],
    ]);
    expect(variants.every((v) => v.compareAtCents === null)).toBe(true);
    const cloths = (await admin.get('/api/products/cloth-10-pack')).json().variants;
    expect(cloths[0]).toMatchObject({ unitQuantity: 10, unit: 'count' });
    expect((await admin.get('/api/products/laundry-powder')).json().variants[0]).toMatchObject({ unitQuantity: 2, unit: 'lb' });
  });

  it('the cart prices a line with its size', async () => {
    const res = await admin.post('/api/cart/quote', {
      lines: [
        {
          productId: 'concentrated-cleaner',
          variantId: 'var_concentrated-cleaner-unscented-32-oz',
          quantity: 1,
          size: '32 oz',
          color: 'Default',
        },
      ],
      couponCode: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().lines[0]).toMatchObject({ priceCents: 2499, unitQuantity: 32, unit: 'oz' });
  });

  it('the owner sets a size per variant, checked; a real compare-at price still stands', async () => {
    const p = await createProduct(t.db, { name: 'Refill Soap', priceCents: 900 });
    const big = await createVariant(t.db, p.id, { options: ['1 l'], priceCents: 1500 });
    await t.db.insertInto('product_options').values({ product_id: p.id, position: 1, name: 'Size', values: '["500 ml","1 l"]' }).execute();
    await t.db.updateTable('product_variants').set({ option1: '500 ml' }).where('id', '=', `var_${p.id}`).execute();
    const variant = (over: Record<string, unknown>) => ({ id: big, options: ['1 l'], priceCents: 1500, enabled: true, ...over });
    const body = (over: Record<string, unknown>) => ({
      options: [{ name: 'Size', values: ['500 ml', '1 l'] }],
      variants: [{ id: `var_${p.id}`, options: ['500 ml'], priceCents: 900, enabled: true, unitQuantity: 500, unit: 'ml' }, variant(over)],
    });
    for (const [over, error] of [
      [{ unitQuantity: 1 }, UNIT_MESSAGES.both],
      [{ unit: 'l' }, UNIT_MESSAGES.both],
      [{ unitQuantity: 0, unit: 'l' }, UNIT_MESSAGES.quantity],
      [{ unitQuantity: 1.2345, unit: 'l' }, UNIT_MESSAGES.quantityDecimals],
      [{ unitQuantity: 200_000, unit: 'l' }, UNIT_MESSAGES.quantityTooLarge],
      [{ unitQuantity: 1, unit: 'bottles' }, UNIT_MESSAGES.unit],
      [{ unitQuantity: '1', unit: 'l' }, UNIT_MESSAGES.quantity],
    ] as const) {
      const res = await admin.request('PUT', `/api/admin/products/${p.id}/variants`, body(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().error, JSON.stringify(over)).toContain(error);
    }
    const saved = await admin.request(
      'PUT',
      `/api/admin/products/${p.id}/variants`,
      body({ unitQuantity: 1, unit: 'l', compareAtCents: 1800 }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().variants.map((v: { unitQuantity: number; unit: string }) => [v.unitQuantity, v.unit])).toEqual([
      [500, 'ml'],
      [1, 'l'],
    ]);
    const shown = (await admin.get(`/api/products/${p.id}`)).json().variants;
    expect(shown[1]).toMatchObject({ unitQuantity: 1, unit: 'l', compareAtCents: 1800, priceCents: 1500 });
    // Cleared: both left out.
    const cleared = await admin.request('PUT', `/api/admin/products/${p.id}/variants`, body({}));
    expect(cleared.json().variants[1]).toMatchObject({ unitQuantity: null, unit: null });
  });
});
