import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN, call, signInThroughForm } from './helpers.js';
import { DESKTOP, MOBILE, baseUrl, launchBrowser, openPage, settle } from './browser.js';
import {
  freeShippingMinimumCents,
  siteDescription,
  shippingRatesText,
  taxRuleText,
  type FactShippingOption,
} from '../src/shared/shop-facts.js';
import { formatCents } from '../src/shared/money.js';

/**
 * Issue 18, items 2 and 6: what the shop says about its rules is what they are (the FAQ's
 * shipping and tax answers, the site description), the hero has no third-party video unless the
 * owner sets one, and a picture whose file is missing reads "Image not available" in the
 * server's HTML, before (and without) any script.
 */
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/shots/D';
const MISSING = '/uploads/products/lost-photo.png';
/** The first featured card on the home page, and its product page. */
const PRODUCT_ID = 'cloth-10-pack';

type AdminProduct = {
  id: string;
  name: string;
  description: string;
  priceCents: number;
  inventory: number;
  category: string | null;
  featured: boolean;
  images: string[];
  sku: string | null;
  brand: string | null;
  stripePriceId: string | null;
  weightLbs: number | null;
  dimensions: { length?: number | null; width?: number | null; height?: number | null } | null;
};
type ShippingOption = FactShippingOption & { id: string; enabled: boolean; description: string | null };

let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };
let original: AdminProduct;

async function saveProduct(images: string[]): Promise<void> {
  // Every field as the shop has it (a PUT replaces them all, stock aside: it moves by adjustment only), only the pictures changed.
  const { name, description, priceCents, category, featured, sku, brand, stripePriceId, weightLbs, dimensions } = original;
  const body = { name, description, priceCents, category, featured, sku, brand, stripePriceId, weightLbs, dimensions, images };
  const res = await call(admin.page, 'PUT', `/api/admin/products/${PRODUCT_ID}`, body);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
}

async function shippingOptions(): Promise<ShippingOption[]> {
  const res = await call(admin.page, 'GET', '/api/admin/shipping-options');
  expect(res.status).toBe(200);
  return (res.json.items as ShippingOption[]).filter((o) => o.enabled);
}

/** A browser with scripts turned off: what a shopper sees before the page's scripts run. */
async function withoutScripts(viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, baseURL: baseUrl(), javaScriptEnabled: false });
  return { context, page: await context.newPage() };
}

/** Pictures the browser tried and failed to load: drawn as its broken-image icon. */
function brokenImages(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('main img')]
      .map((img) => img as HTMLImageElement)
      .filter((img) => img.getAttribute('src') && img.complete && img.naturalWidth === 0)
      .map((img) => img.getAttribute('src')!),
  );
}

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await launchBrowser();
  admin = await openPage(browser, DESKTOP);
  await signInThroughForm(admin.page, ADMIN);
  // The admin list has the recorded stock (the shop's page shows what is left after open checkouts).
  const res = await call(admin.page, 'GET', `/api/admin/products?search=${PRODUCT_ID}`);
  expect(res.status).toBe(200);
  original = (res.json.items as AdminProduct[]).find((p) => p.id === PRODUCT_ID)!;
  expect(original.images.length).toBeGreaterThan(0);
  // The product's only picture is an upload whose file is gone (the shop's uploads folder has no such file).
  expect(fs.existsSync(`${inject('dataDir')}/uploads/products/lost-photo.png`)).toBe(false);
  await saveProduct([MISSING]);
});

afterAll(async () => {
  if (original) await saveProduct(original.images);
  await admin?.context.close();
  await browser?.close();
});

describe('a picture whose file is missing, with scripts off', () => {
  for (const [label, viewport] of [
    ['1280', DESKTOP],
    ['390', MOBILE],
  ] as const) {
    it(`says "Image not available" on the product page and the first featured card, never a broken icon (${label} px)`, async () => {
      const { context, page } = await withoutScripts(viewport);
      try {
        await page.goto(`/products/${PRODUCT_ID}`);
        await expect.poll(() => page.evaluate(() => document.documentElement.dataset.hydrated ?? 'no scripts')).toBe('no scripts');
        const main = page.locator('main');
        await main.getByRole('heading', { level: 1, name: original.name }).waitFor();
        await main.getByRole('img', { name: `${original.name}: Image not available` }).waitFor();
        expect(await main.getByText('Image not available', { exact: true }).first().isVisible()).toBe(true);
        expect(await page.locator(`img[src="${MISSING}"]`).count()).toBe(0);
        expect(await brokenImages(page)).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/product-missing-image-noscript-${label}.png`, fullPage: label === '390' });

        await page.goto('/');
        const featured = page.locator('section[aria-labelledby="featured-title"]');
        await featured.getByRole('heading', { name: original.name }).waitFor();
        await featured.getByRole('img', { name: `${original.name}: Image not available` }).waitFor();
        expect(await page.locator(`img[src="${MISSING}"]`).count()).toBe(0);
        expect(await brokenImages(page)).toEqual([]);
        await featured.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/home-featured-missing-image-noscript-${label}.png` });
      } finally {
        await context.close();
      }
    });
  }

  it('stays the placeholder once the scripts run (hydration draws the same), with no console error', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    try {
      await page.goto(`/products/${PRODUCT_ID}`);
      await page
        .locator('main')
        .getByRole('img', { name: `${original.name}: Image not available` })
        .waitFor();
      expect(await page.locator(`img[src="${MISSING}"]`).count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('what the shop says about its rules', () => {
  it('the FAQ’s shipping and tax answers and the site description are the shop’s real options and tax rule', async () => {
    const options = await shippingOptions();
    const free = freeShippingMinimumCents(options);
    expect(free).not.toBeNull();

    // Without scripts: the server's HTML already holds the answers, worked out from the options.
    const bare = await withoutScripts();
    try {
      await bare.page.goto('/faq');
      const text = (await bare.page.locator('main').textContent()) ?? '';
      expect(text).toContain(shippingRatesText(options));
      expect(text).toContain(taxRuleText(options));
      expect(text).toContain(`Orders with a subtotal of ${formatCents(free!)} or more can choose Free Shipping`);
      expect(text).not.toContain('{{');
      // The home page's description is the site description (the FAQ page has its own).
      await bare.page.goto('/');
      const description = await bare.page.locator('meta[name="description"]').getAttribute('content');
      expect(description).toBe(siteDescription({ free_shipping_minimum_cents: String(free) }));
      expect(description).toContain(`Free shipping on orders with a subtotal of ${formatCents(free!)} or more.`);
    } finally {
      await bare.context.close();
    }

    // With scripts, as a shopper reads it: open the tax question.
    for (const [label, viewport] of [
      ['1280', DESKTOP],
      ['390', MOBILE],
    ] as const) {
      const { context, page, errors } = await openPage(browser, viewport);
      try {
        await page.goto('/faq');
        await page.getByRole('button', { name: 'How much does shipping cost?' }).click();
        await page.getByRole('region', { name: 'How much does shipping cost?' }).getByText(shippingRatesText(options)).waitFor();
        await page.getByRole('button', { name: 'Do you charge sales tax?' }).click();
        const answer = page.getByRole('region', { name: 'Do you charge sales tax?' });
        await answer.getByText(/Sales tax of 8% is charged on your order subtotal minus any discount, plus shipping/).waitFor();
        expect(await answer.textContent()).toContain(taxRuleText(options));
        // The chevrons turn in 150 ms: the picture after they settle.
        await settle(page);
        await page.screenshot({ path: `${SHOTS}/faq-${label}.png`, fullPage: true });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it('the owner raises the free-shipping minimum: the FAQ and the description say so at once', async () => {
    const all = (await call(admin.page, 'GET', '/api/admin/shipping-options')).json.items as ShippingOption[];
    const freeOption = all.find((o) => o.enabled && o.priceCents === 0)!;
    const { id, ...body } = freeOption;
    const put = (minimumOrderCents: number | null) =>
      call(admin.page, 'PUT', `/api/admin/shipping-options/${id}`, { ...body, minimumOrderCents });
    expect((await put(8000)).status).toBe(200);
    try {
      const bare = await withoutScripts();
      try {
        await bare.page.goto('/faq');
        expect(await bare.page.locator('main').textContent()).toContain(
          'Orders with a subtotal of $80.00 or more can choose Free Shipping',
        );
        await bare.page.goto('/');
        expect(await bare.page.locator('meta[name="description"]').getAttribute('content')).toMatch(
          /Free shipping on orders with a subtotal of \$80\.00 or more\.$/,
        );
      } finally {
        await bare.context.close();
      }
    } finally {
      expect((await put(freeOption.minimumOrderCents)).status).toBe(200);
    }
  });

  it('the owner edits the tax answer as written, placeholder and all, and is told what the placeholders show', async () => {
    for (const [label, viewport] of [
      ['1280', DESKTOP],
      ['390', MOBILE],
    ] as const) {
      await admin.page.setViewportSize(viewport);
      await admin.page.goto('/admin?tab=faqs');
      await admin.page.getByRole('button', { name: 'Edit FAQ: Do you charge sales tax?' }).click();
      const dialog = admin.page.getByRole('dialog', { name: 'Edit FAQ' });
      expect(await dialog.getByLabel('Answer').inputValue()).toBe('Yes. {{tax_rule}}');
      await dialog.getByText('{{shipping_rates}}, {{free_shipping}} and {{tax_rule}} show the shop’s current shipping rates').waitFor();
      await admin.page.screenshot({ path: `${SHOTS}/admin-faq-dialog-${label}.png` });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    }
    await admin.page.setViewportSize(DESKTOP);
    expect(admin.errors).toEqual([]);
  });

  it('the hero shows its picture, with no video to play', async () => {
    for (const [label, viewport] of [
      ['1280', DESKTOP],
      ['390', MOBILE],
    ] as const) {
      const { context, page, errors } = await openPage(browser, viewport);
      try {
        await page.goto('/');
        const hero = page.locator('section[aria-labelledby="hero-title"]');
        await hero.getByRole('img', { name: 'Clean Home, Less Waste' }).waitFor();
        expect(await page.getByRole('button', { name: 'Play video' }).count()).toBe(0);
        expect(await page.locator('iframe').count()).toBe(0);
        expect(await brokenImages(page)).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/home-hero-${label}.png` });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});
