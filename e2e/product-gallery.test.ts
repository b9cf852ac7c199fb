import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN, call, signInThroughForm } from './helpers.js';
import { DESKTOP, MOBILE, baseUrl, launchBrowser, openPage } from './browser.js';
import { formatCents } from '../src/shared/money.js';

/**
 * Issue 18, item 9 (the product page): several pictures per product, each with its alt text,
 * uploaded and put in order in the admin product dialog; the gallery on the product page
 * (keyboard and touch); "You may also like" from the same category, in stock first; and the
 * free-shipping progress line on the product page and in the cart.
 */
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots/G';
const RUN = Date.now().toString(36);
const CATEGORY = `gallery-${RUN}`;
const PRICE_CENTS = 3000;

let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };
let productId = '';
let productName = '';
const related: { inStock: string; soldOut: string } = { inStock: '', soldOut: '' };

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await launchBrowser();
  admin = await openPage(browser, DESKTOP);
  await signInThroughForm(admin.page, ADMIN);
});
afterAll(async () => {
  await admin?.context.close();
  await browser?.close();
});

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  if (fullPage) {
    // Lazy pictures load as they come into view: scroll them all in first, as a shopper would.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForTimeout(400);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(200);
  }
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });
}

/** A small solid PNG of one colour (the upload route checks the bytes, not the name). */
function png(rgb: [number, number, number]): Buffer {
  const crc32 = (buf: Buffer) => {
    let c = ~0;
    for (const byte of buf) {
      c ^= byte;
      for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    }
    return ~c >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const size = 16;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A browser page that has started the app (the same wait as openPage), with touch when asked. */
async function shopperPage(viewport: { width: number; height: number }, hasTouch = false) {
  const context = await browser.newContext({ viewport, baseURL: baseUrl(), hasTouch, isMobile: hasTouch });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  const open = async (url: string) => {
    await page.goto(url);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  };
  return { context, page, errors, open };
}

const freeShipping = (page: Page) => page.getByTestId('free-shipping');

describe('product gallery, related products and free-shipping progress', () => {
  it('the owner uploads two images with alt text and puts them in order in the product dialog', async () => {
    const { page } = admin;
    // The category and two more products in it, for "You may also like".
    expect((await call(page, 'POST', '/api/admin/categories', { id: CATEGORY, name: `Gallery ${RUN}`, description: null })).status).toBe(
      201,
    );
    const base = { description: 'Made by the gallery journey.', category: CATEGORY, images: ['/images/placeholder.svg'] };
    const soldOut = await call(page, 'POST', '/api/admin/products', {
      ...base,
      name: `Sold Out Cloth ${RUN}`,
      priceCents: 500,
      inventory: 0,
    });
    const inStock = await call(page, 'POST', '/api/admin/products', {
      ...base,
      name: `In Stock Cloth ${RUN}`,
      priceCents: 900,
      inventory: 7,
    });
    related.soldOut = (soldOut.json.product as { id: string }).id;
    related.inStock = (inStock.json.product as { id: string }).id;

    await page.goto('/admin?tab=products');
    await page.getByRole('button', { name: 'Add Product' }).click();
    const dialog = page.getByRole('dialog');
    productName = `Gallery Cloth ${RUN}`;
    await dialog.getByLabel('Name').fill(productName);
    await dialog.getByLabel('Description').fill('A cloth with two pictures.');
    await dialog.getByLabel('Price ($)').fill((PRICE_CENTS / 100).toFixed(2));
    await dialog.getByLabel('Inventory').fill('20');
    await dialog.getByLabel('Category').selectOption(CATEGORY);
    await dialog.getByLabel('Add images').setInputFiles([
      { name: 'green.png', mimeType: 'image/png', buffer: png([0x2f, 0x8f, 0x4f]) },
      { name: 'red.png', mimeType: 'image/png', buffer: png([0xc0, 0x30, 0x30]) },
    ]);
    const list = dialog.getByRole('list', { name: 'Product images' });
    await list.locator('li').nth(1).waitFor();
    expect(await list.locator('li').count()).toBe(2);
    await dialog.getByLabel('Alt text for image 1 (main)').fill('Green cloth, folded');
    await dialog.getByLabel('Alt text for image 2').fill('Red cloth on a counter');
    const [green, red] = await list.locator('img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('src')));
    await dialog.getByText('Alt text for image 2').scrollIntoViewIfNeeded();
    await shot(page, 'admin-dialog-1280', false);

    // The red picture becomes the main one; focus stays with it (its other arrow, the first being disabled).
    await dialog.getByRole('button', { name: 'Move image 2 up' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move image 1 down');
    expect(await dialog.getByLabel('Alt text for image 1 (main)').inputValue()).toBe('Red cloth on a counter');
    expect(await dialog.getByRole('button', { name: 'Move image 1 up' }).isDisabled()).toBe(true);

    // Remove and add back works too: a third picture is removed again before saving.
    await dialog.getByLabel('Add images').setInputFiles({ name: 'blue.png', mimeType: 'image/png', buffer: png([0x30, 0x50, 0xc0]) });
    await list.locator('li').nth(2).waitFor();
    await dialog.getByRole('button', { name: 'Remove image 3' }).click();
    await expect.poll(() => list.locator('li').count()).toBe(2);

    const created = page.waitForResponse((r) => r.url().endsWith('/api/admin/products') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Save Product' }).click();
    const res = await created;
    expect(res.status()).toBe(201);
    const { product } = (await res.json()) as { product: { id: string; images: string[]; imageAlts: string[] } };
    expect(product.images).toEqual([red, green]);
    expect(product.imageAlts).toEqual(['Red cloth on a counter', 'Green cloth, folded']);
    productId = product.id;

    // Reopened, the dialog shows them as saved.
    await page.getByRole('button', { name: `Edit ${productName}` }).click();
    await expect.poll(() => page.getByRole('dialog').getByLabel('Alt text for image 2').inputValue()).toBe('Green cloth, folded');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(admin.errors).toEqual([]);
  });

  it('the product page shows the gallery, turned by keyboard, and "You may also like" in stock first', async () => {
    const html = await (await fetch(`${baseUrl()}/products/${productId}`)).text();
    // Server-rendered: the first picture with its alt text and the related products, before any script.
    expect(html).toContain('alt="Red cloth on a counter"');
    expect(html).toContain('You may also like');
    // The free-shipping rule is in it too (the cart is the browser's: the line follows it once the page runs).
    expect(html).toContain('Free shipping on orders with a subtotal of $50.00 or more.');
    expect(html.indexOf(`In Stock Cloth ${RUN}`)).toBeGreaterThan(-1);
    expect(html.indexOf(`In Stock Cloth ${RUN}`)).toBeLessThan(html.indexOf(`Sold Out Cloth ${RUN}`));

    const { page, errors, context, open } = await shopperPage(DESKTOP);
    await open(`/products/${productId}`);
    const main = page.getByTestId('gallery-main');
    expect(await main.getAttribute('alt')).toBe('Red cloth on a counter');

    const first = page.getByRole('button', { name: 'Show image 1 of 2: Red cloth on a counter' });
    const second = page.getByRole('button', { name: 'Show image 2 of 2: Green cloth, folded' });
    expect(await first.getAttribute('aria-current')).toBe('true');
    // The thumbnails are one tab stop: the chosen one.
    expect(await first.getAttribute('tabindex')).toBe('0');
    expect(await second.getAttribute('tabindex')).toBe('-1');
    await first.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => main.getAttribute('alt')).toBe('Green cloth, folded');
    expect(await second.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await second.getAttribute('aria-current')).toBe('true');
    await page.getByText('Image 2 of 2').waitFor();
    await page.keyboard.press('ArrowRight'); // wraps round
    await expect.poll(() => main.getAttribute('alt')).toBe('Red cloth on a counter');
    await page.keyboard.press('End');
    await expect.poll(() => main.getAttribute('alt')).toBe('Green cloth, folded');
    await page.getByRole('button', { name: 'Previous image' }).click();
    await expect.poll(() => main.getAttribute('alt')).toBe('Red cloth on a counter');

    const section = page.getByRole('region', { name: 'You may also like' });
    const names = await section.getByRole('heading', { level: 3 }).allTextContents();
    expect(names).toEqual([`In Stock Cloth ${RUN}`, `Sold Out Cloth ${RUN}`]);
    expect(names).not.toContain(productName);
    await shot(page, 'product-1280');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the free-shipping line follows the cart on the product page and in the cart', async () => {
    const settings = (await (await fetch(`${baseUrl()}/api/settings`)).json()) as { settings: Record<string, string> };
    const minimum = Number(settings.settings.free_shipping_minimum_cents);
    // As seeded: free shipping from $50.00, so one $30.00 cloth is short of it and two are past it.
    expect(minimum).toBe(5000);

    const { page, errors, context, open } = await shopperPage(DESKTOP);
    await open(`/products/${productId}`);
    await expect.poll(() => freeShipping(page).textContent()).toBe('Free shipping on orders with a subtotal of $50.00 or more.');
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await expect.poll(() => freeShipping(page).textContent()).toBe(`Add ${formatCents(minimum - PRICE_CENTS)} more for free shipping`);
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await expect.poll(() => freeShipping(page).textContent()).toBe("You've got free shipping");

    await open('/cart');
    await expect.poll(() => freeShipping(page).textContent()).toBe("You've got free shipping");
    await shot(page, 'cart-1280');
    await page.getByRole('button', { name: 'Decrease quantity' }).click();
    await expect.poll(() => freeShipping(page).textContent()).toBe('Add $20.00 more for free shipping');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a phone, a swipe turns the gallery; the page, cart and dialog fit 390 px', async () => {
    const { page, errors, context, open } = await shopperPage(MOBILE, true);
    await open(`/products/${productId}`);
    const main = page.getByTestId('gallery-main');
    expect(await main.getAttribute('alt')).toBe('Red cloth on a counter');
    const box = (await main.boundingBox())!;
    const cdp = await context.newCDPSession(page);
    const y = box.y + box.height / 2;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: box.x + box.width * 0.8, y }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: box.x + box.width * 0.5, y: y + 4 }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: box.x + box.width * 0.2, y: y + 6 }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect.poll(() => main.getAttribute('alt')).toBe('Green cloth, folded');
    // A mostly vertical drag scrolls the page and leaves the picture alone.
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: box.x + box.width / 2, y }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: box.x + box.width / 2 + 30, y: y - 120 }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.waitForTimeout(200);
    expect(await main.getAttribute('alt')).toBe('Green cloth, folded');
    await shot(page, 'product-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await expect.poll(() => freeShipping(page).textContent()).toBe('Add $20.00 more for free shipping');
    await open('/cart');
    await expect.poll(() => freeShipping(page).textContent()).toBe('Add $20.00 more for free shipping');
    await shot(page, 'cart-390');
    expect(errors).toEqual([]);
    await context.close();

    const phoneAdmin = await browser.newContext({ viewport: MOBILE, baseURL: baseUrl(), storageState: await admin.context.storageState() });
    const adminPage = await phoneAdmin.newPage();
    await adminPage.goto('/admin?tab=products');
    await adminPage.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await adminPage.getByRole('button', { name: `Edit ${productName}` }).click();
    const dialog = adminPage.getByRole('dialog');
    await dialog.getByLabel('Alt text for image 2').scrollIntoViewIfNeeded();
    await shot(adminPage, 'admin-dialog-390', false);
    await phoneAdmin.close();
  });
});
