import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, MOBILE, WIDTHS, baseUrl, launchBrowser, openPage, screenshot, settle } from './browser.js';

/**
 * Issue [2/8], the product page's last mile (decision 0043): a shared `?variant=` link drawn by the
 * server with that version (read here with scripts off), sizes priced per unit instead of a "was"
 * price that was never charged, a phone's sticky bar that names the version in full and never
 * covers the picker, and the first picture asked for first.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const CLEANER = '/products/concentrated-cleaner';
const LAVENDER_32 = 'var_concentrated-cleaner-lavender-32-oz';
const LEMON_32 = 'var_concentrated-cleaner-lemon-32-oz';
const BAG = '/products/mesh-laundry-bag';
const GREY_LARGE = 'var_mesh-laundry-bag-grey-large';

const price = (page: Page) => page.locator('[data-variant-price]').first();
const radio = (page: Page, group: string, value: string) =>
  page.getByRole('group', { name: new RegExp(`^${group}:`) }).getByRole('radio', { name: new RegExp(`^${value}`) });

/** The server's HTML alone: no script runs. */
async function withoutScripts(viewport = DESKTOP) {
  const context = await browser.newContext({ viewport, baseURL: baseUrl(), javaScriptEnabled: false });
  return { context, page: await context.newPage() };
}

describe('a shared link to one version, before any script runs', () => {
  it('shows that version: price, unit price, options, SKU, picture and Add to Cart', async () => {
    const { context, page } = await withoutScripts();
    await page.goto(`${CLEANER}?variant=${LAVENDER_32}`);
    expect(await price(page).textContent()).toContain('$25.99');
    expect(await price(page).locator('[data-unit-price] [aria-hidden]').textContent()).toBe('$0.81 / oz');
    expect(await radio(page, 'Scent', 'Lavender').isChecked()).toBe(true);
    expect(await radio(page, 'Size', '32 oz').isChecked()).toBe(true);
    expect(await page.locator('[data-variant-sku]').textContent()).toBe('ECO-CL-LAV-032');
    const picture = page.getByTestId('gallery-main');
    expect(await picture.getAttribute('src')).toBe('/images/products/concentrated-cleaner-lavender.svg');
    expect(await picture.getAttribute('fetchpriority')).toBe('high');
    expect(await page.getByRole('button', { name: 'Add to Cart' }).first().isEnabled()).toBe(true);
    // In the head, before the styles and scripts (React also writes one beside the picture).
    expect(await page.locator('head link[rel="preload"][as="image"]').getAttribute('href')).toBe(
      '/images/products/concentrated-cleaner-lavender.svg',
    );
    await screenshot(page, 'last-mile-linked-variant-no-scripts-1280');

    // The sold-out version: Add to Cart is off and the stock line says why.
    await page.goto(`${CLEANER}?variant=${LEMON_32}`);
    expect(await price(page).textContent()).toContain('$25.99');
    expect(await radio(page, 'Scent', 'Lemon').isChecked()).toBe(true);
    expect(await page.getByRole('button', { name: 'Add to Cart' }).first().isDisabled()).toBe(true);

    // An unknown id, or another product's: the product's first version, no error.
    for (const bad of ['nope', GREY_LARGE]) {
      const res = await page.goto(`${CLEANER}?variant=${bad}`);
      expect(res?.status()).toBe(200);
      expect(await price(page).textContent()).toContain('$14.99');
      expect(await radio(page, 'Scent', 'Unscented').isChecked()).toBe(true);
      expect(await radio(page, 'Size', '16 oz').isChecked()).toBe(true);
    }
    await context.close();
  });

  it('once the scripts run, the same version stays chosen (no flash to the default)', async () => {
    const { page, context, errors } = await openPage(browser, MOBILE);
    await page.goto(`${BAG}?variant=${GREY_LARGE}`);
    expect(await price(page).textContent()).toContain('$8.99');
    expect(await radio(page, 'Colour', 'Grey').isChecked()).toBe(true);
    expect(await radio(page, 'Size', 'Large').isChecked()).toBe(true);
    expect(await page.getByTestId('gallery-main').getAttribute('src')).toBe('/images/products/mesh-laundry-bag-grey.svg');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('unit prices', () => {
  for (const [label, viewport] of WIDTHS) {
    it(`per size beside the price and in the cart line, with no made-up "was" price (${label})`, async () => {
      const { page, context, errors } = await openPage(browser, viewport);
      await page.goto(CLEANER);
      expect(await price(page).locator('[data-unit-price] [aria-hidden]').textContent()).toBe('$0.94 / oz');
      expect(await price(page).locator('[data-unit-price] .sr-only').textContent()).toBe('$0.94 per oz');
      await page.locator('[data-variant-picker] label', { hasText: /^32 oz/ }).click();
      await expect.poll(() => price(page).textContent()).toContain('$24.99');
      expect(await price(page).locator('[data-unit-price] [aria-hidden]').textContent()).toBe('$0.78 / oz');
      // The seeded $29.98 was two 16 oz bottles, never this bottle's price.
      expect(await price(page).locator('s').count()).toBe(0);
      await screenshot(page, `last-mile-unit-price-${label}`);

      await page.getByRole('button', { name: 'Add to Cart' }).first().click();
      await page.getByText('Added to cart').first().waitFor();
      await page.goto('/cart');
      const line = page.locator('li', { has: page.getByRole('link', { name: /Concentrated All-Purpose Cleaner/ }) }).first();
      await line.locator('[data-unit-price]').waitFor();
      expect(await line.locator('[data-unit-price]').textContent()).toContain('$0.78 / oz');
      await screenshot(page, `last-mile-cart-unit-price-${label}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

/** Where the phone's bar, the picker and the page's own buttons are now, and whether the bar should show. */
function layout(page: Page) {
  return page.evaluate(() => {
    const rect = (el: Element | null) => el?.getBoundingClientRect() ?? null;
    const inView = (r: DOMRect | null) => r !== null && r.bottom > 0 && r.top < window.innerHeight && r.height > 0;
    const bar = document.querySelector<HTMLElement>('[data-sticky-buy-bar]');
    const picker = rect(document.querySelector('[data-variant-picker]'));
    const buttons = [...document.querySelectorAll('button')].find(
      (b) => b.textContent?.trim() === 'Add to Cart' && !b.closest('[data-sticky-buy-bar]'),
    );
    const own = rect(buttons?.parentElement ?? null);
    const footer = rect(document.querySelector('body footer'));
    const barShown = bar !== null && getComputedStyle(bar).display !== 'none';
    const barRect = barShown ? bar.getBoundingClientRect() : null;
    const variant = bar?.querySelector<HTMLElement>('[data-sticky-variant]');
    return {
      barShown,
      shouldShow: !inView(picker) && !inView(own) && !inView(footer),
      overlapsPicker: barRect !== null && picker !== null && barRect.top < picker.bottom && barRect.bottom > picker.top,
      variantText: variant?.textContent ?? null,
      variantCut: variant ? variant.scrollWidth > variant.clientWidth + 1 || variant.scrollHeight > variant.clientHeight + 1 : false,
    };
  });
}

/** A phone 390 px wide with a short screen (browser bars shown): the picker starts below the first screen. */
const SHORT_PHONE = { width: 390, height: 560 };

describe("a phone's sticky bar", () => {
  for (const [path, label, viewport] of [
    [`${BAG}?variant=${GREY_LARGE}`, 'Grey, Large', MOBILE],
    [`${CLEANER}?variant=${LAVENDER_32}`, 'Lavender, 32 oz', MOBILE],
    [`${BAG}?variant=${GREY_LARGE}`, 'Grey, Large', SHORT_PHONE],
  ] as const) {
    it(`never covers the picker, and names the version in full when it shows (${label}, 390×${viewport.height})`, async () => {
      const { page, context, errors } = await openPage(browser, viewport, { touch: true });
      await page.goto(path);
      await settle(page);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      let shownOnce = false;
      for (let y = 0; y < height; y += 90) {
        await page.evaluate((to) => window.scrollTo(0, to), y);
        await settle(page);
        // The bar follows the observer: wait for it to agree with where things are, then check it.
        await expect
          .poll(async () => {
            const l = await layout(page);
            return l.barShown === l.shouldShow;
          })
          .toBe(true);
        const l = await layout(page);
        expect(l.overlapsPicker, `at ${y}px`).toBe(false);
        if (l.barShown) {
          expect(l.variantText).toBe(label);
          expect(l.variantCut).toBe(false);
          if (!shownOnce)
            await page.screenshot({
              path: `test-results/screenshots/last-mile-sticky-bar-${label.replace(/\W+/g, '-').toLowerCase()}-screen-390x${viewport.height}.png`,
            });
          shownOnce = true;
        }
      }
      // On a short screen the bar offers Add to Cart until the picker comes into view.
      if (viewport === SHORT_PHONE) expect(shownOnce).toBe(true);
      await page.evaluate(() => window.scrollTo(0, 0));
      await settle(page);
      // First screen: on a tall phone the picker is in view and the bar does not show over it.
      if (viewport === MOBILE) await expect.poll(async () => (await layout(page)).barShown).toBe(false);
      await page.screenshot({
        path: `test-results/screenshots/last-mile-first-screen-${label.replace(/\W+/g, '-').toLowerCase()}-390x${viewport.height}.png`,
      });
      await screenshot(page, `last-mile-product-${label.replace(/\W+/g, '-').toLowerCase()}-390x${viewport.height}`);
      await page.setViewportSize(DESKTOP);
      await settle(page);
      await screenshot(page, `last-mile-product-${label.replace(/\W+/g, '-').toLowerCase()}-1280`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
