import crypto from 'node:crypto';
import fs from 'node:fs';
import nodePath from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { ADMIN, call, signInThroughForm } from './helpers.js';
import { DESKTOP, MOBILE, baseUrl, launchBrowser, openPage, quiet, screenshot } from './browser.js';
import { pagePath } from '../src/shared/pages.js';
import { VARIANT_SUFFIX } from '../src/shared/image-variants.js';

/**
 * Issue 27, "Images at the size shown": a 4,000 × 3,000 camera photo uploaded by the owner is
 * downloaded by a 390 px phone as a copy of the size it is drawn at, a tenth of the bytes or less,
 * on the product page (gallery and related products) and in the shop list.
 */
const RUN = Date.now().toString(36);
const CATEGORY = `sizes-${RUN}`;

let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };
/** Each uploaded original's address and size. */
const originals = new Map<string, number>();
let productId = '';

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await openPage(browser, DESKTOP);
  await signInThroughForm(admin.page, ADMIN);
});
afterAll(async () => {
  await admin?.context.close();
  await browser?.close();
});

/** Random pixels compress as badly as a real photo's: some 4–5 MB at 4,000 × 3,000. */
async function cameraPhoto(): Promise<Buffer> {
  const [width, height] = [4000, 3000];
  return sharp(crypto.randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 50 })
    .toBuffer();
}

/**
 * Opens `path` in a fresh 390 px phone, scrolls every lazy picture into view, and answers the
 * uploaded pictures it downloaded: address and bytes (a screenshot named `shot` is kept).
 */
async function phoneDownloads(path: string, shot: string): Promise<{ url: string; bytes: number }[]> {
  const phone = await openPage(browser, MOBILE);
  const pending: Promise<{ url: string; bytes: number }>[] = [];
  phone.page.on('response', (res: Response) => {
    const url = new URL(res.url());
    if (res.request().resourceType() === 'image' && url.pathname.startsWith('/uploads/')) {
      pending.push(res.body().then((body) => ({ url: url.pathname, bytes: body.length })));
    }
  });
  await phone.page.goto(path);
  await phone.page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 400) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  await quiet(phone.page);
  const downloads = await Promise.all(pending);
  await screenshot(phone.page, shot);
  expect(phone.errors).toEqual([]);
  await phone.context.close();
  return downloads;
}

/** What the same page downloaded before there were variants: each picture's original, once. */
function before(downloads: { url: string }[]): number {
  const shown = new Set(downloads.map((d) => d.url.replace(VARIANT_SUFFIX, '.jpg')));
  // Both products' photos: the product page's gallery and its related product, or the two cards.
  expect([...shown].sort()).toEqual([...originals.keys()].sort());
  return [...shown].reduce((sum, url) => sum + originals.get(url)!, 0);
}

async function uploadPhoto(photo: Buffer, name: string): Promise<string> {
  const started = Date.now();
  const res = await admin.page.request.post('/api/admin/uploads?kind=products', {
    multipart: { file: { name, mimeType: 'image/jpeg', buffer: photo } },
    headers: { origin: baseUrl() },
  });
  console.log(`Uploaded ${name}, ${photo.length} bytes, in ${Date.now() - started} ms`);
  expect(res.status()).toBe(201);
  return ((await res.json()) as { url: string }).url;
}

describe('images at the size shown', () => {
  it('the owner uploads a 4,000 × 3,000 camera photo for each of two products', async () => {
    const urls: string[] = [];
    for (const name of ['cloth.jpg', 'brush.jpg']) {
      const photo = await cameraPhoto();
      const url = await uploadPhoto(photo, name);
      originals.set(url, photo.length);
      urls.push(url);
    }
    expect(
      (await call(admin.page, 'POST', '/api/admin/categories', { id: CATEGORY, name: `Sizes ${RUN}`, description: null })).status,
    ).toBe(201);
    const base = { description: 'Photographed with a camera.', category: CATEGORY, inventory: 5 };
    const first = await call(admin.page, 'POST', '/api/admin/products', {
      ...base,
      images: [urls[0]],
      name: `Camera Cloth ${RUN}`,
      priceCents: 1200,
    });
    const second = await call(admin.page, 'POST', '/api/admin/products', {
      ...base,
      images: [urls[1]],
      name: `Camera Brush ${RUN}`,
      priceCents: 900,
    });
    expect([first.status, second.status]).toEqual([201, 201]);
    productId = (first.json.product as { id: string }).id;
  });

  it('a 390 px phone downloads a tenth of the bytes or less on the product page and in the shop list', async () => {
    const pages = {
      'product page': `/products/${productId}`,
      'shop list': `${pagePath('shop')}?category=${CATEGORY}`,
    };
    for (const [name, path] of Object.entries(pages)) {
      const downloads = await phoneDownloads(path, `image-sizes-${name.replace(' ', '-')}-390`);
      const after = downloads.reduce((sum, d) => sum + d.bytes, 0);
      const was = before(downloads);
      console.log(
        `${name} at 390 px: uploaded-image bytes before ${was}, after ${after} (${((100 * after) / was).toFixed(1)} %): ${downloads
          .map((d) => `${d.url.split('/').pop()} ${d.bytes}`)
          .join(', ')}`,
      );
      // Only variants (WebP, the browser supports it), never the original.
      expect(downloads.length).toBeGreaterThan(0);
      for (const d of downloads) expect(d.url).toMatch(/-w\d+\.webp$/);
      expect(after).toBeLessThanOrEqual(was / 10);
    }
  });

  it('keeps the alt texts and the original as the fallback address', async () => {
    const phone = await openPage(browser, MOBILE);
    await phone.page.goto(`/products/${productId}`);
    const main = phone.page.getByTestId('gallery-main');
    await expect.poll(() => main.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await main.getAttribute('alt')).toBe(`Camera Cloth ${RUN}`);
    expect(await main.getAttribute('src')).toBe([...originals.keys()][0]);
    expect(await main.evaluate((img: HTMLImageElement) => new URL(img.currentSrc).pathname)).toMatch(/-w640\.webp$/);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });

  it('shows the original while a photo uploaded before has no copies yet', async () => {
    const photo = await sharp(crypto.randomBytes(900 * 600 * 3), { raw: { width: 900, height: 600, channels: 3 } })
      .jpeg()
      .toBuffer();
    const url = await uploadPhoto(photo, 'older.jpg');
    // As if uploaded before copies existed: the server makes them at its next start.
    const folder = nodePath.join(inject('dataDir'), 'uploads', 'products');
    const name = nodePath.basename(url, '.jpg');
    for (const file of fs.readdirSync(folder)) if (file.startsWith(`${name}-w`)) fs.rmSync(nodePath.join(folder, file));
    const created = await call(admin.page, 'POST', '/api/admin/products', {
      description: 'Uploaded long ago.',
      category: CATEGORY,
      images: [url],
      inventory: 5,
      name: `Older Sponge ${RUN}`,
      priceCents: 700,
    });
    const phone = await openPage(browser, MOBILE);
    await phone.page.goto(`/products/${(created.json.product as { id: string }).id}`);
    const main = phone.page.getByTestId('gallery-main');
    await expect.poll(() => main.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(900);
    expect(await main.evaluate((img: HTMLImageElement) => new URL(img.currentSrc).pathname)).toBe(url);
    expect(await phone.page.getByText('Image not available').count()).toBe(0);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });
});
