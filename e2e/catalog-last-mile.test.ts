import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, MOBILE, launchBrowser, openPage, screenshot, settle } from './browser.js';
import { SHOP_MESSAGES } from '../src/client/catalog/components/shop-not-there.js';
import { PRODUCT_NOT_FOUND_MESSAGES } from '../src/client/catalog/product-page.js';

/** Issue 29, the shop list and product pages (decision 0033): paging, categories, focus, pages that are not there. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? '');
const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

describe('shop list last mile', () => {
  for (const [label, viewport] of [
    ['1280', DESKTOP],
    ['390', MOBILE],
  ] as const) {
    it(`paging and footer category links take the shopper to the top of the list, its heading focused (${label})`, async () => {
      const { page, context, errors } = await openPage(browser, viewport);
      await page.goto('/products');
      const next = page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Next' });
      await next.scrollIntoViewIfNeeded();
      expect(await scrollY(page)).toBeGreaterThan(300);
      // By keyboard: the pager's Next link, Enter.
      await next.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/page=2/);
      await page.getByText(/Page 2 of/).waitFor();
      await expect.poll(() => scrollY(page)).toBe(0);
      await expect.poll(() => focusedText(page)).toBe('Shop All Products');
      await screenshot(page, `catalog-paged-${label}`);

      // Previous, by mouse.
      const previous = page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Previous' });
      await previous.scrollIntoViewIfNeeded();
      await previous.click();
      await page.waitForURL((u) => !u.search.includes('page='));
      await expect.poll(() => scrollY(page)).toBe(0);

      // A category link in the footer: the page stays /products, only the query changes.
      const footerMops = page.locator('footer').getByRole('link', { name: /Mops/ }).first();
      await footerMops.scrollIntoViewIfNeeded();
      await footerMops.click();
      await page.waitForURL(/category=mops/);
      await expect.poll(() => scrollY(page)).toBe(0);
      await expect.poll(() => focusedText(page)).toBe('Mops');
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('on a phone the chosen category names the heading and breadcrumb (server-drawn too) and its tab is in view', async () => {
    // The server's HTML alone: heading and breadcrumb name the category.
    const bare = await openPage(browser, MOBILE, { scripts: false });
    await bare.context.route('**/*.js', (route) => route.abort());
    await bare.page.goto('/products?category=commercial');
    expect(await bare.page.getByRole('heading', { level: 1 }).textContent()).toBe('Commercial');
    expect(await bare.page.getByRole('navigation', { name: 'Breadcrumb' }).textContent()).toContain('Commercial');
    await bare.context.close();

    const { page, context, errors } = await openPage(browser, MOBILE);
    await page.goto('/');
    const tiles = page.locator('section', { has: page.getByRole('heading', { name: 'Shop By Category' }) });
    await tiles.getByRole('link', { name: /Commercial/ }).click();
    await page.waitForURL(/category=commercial/);
    // The URL changes before React commits the new page: wait for the heading itself.
    await page.getByRole('heading', { level: 1, name: 'Commercial', exact: true }).waitFor();
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    expect((await crumbs.textContent())?.replace(/\s+/g, ' ')).toMatch(/Home.*Shop.*Commercial/);
    const tabs = page.getByRole('navigation', { name: 'Product categories' });
    const active = tabs.locator('[aria-current="page"]');
    expect(await active.textContent()).toBe('Commercial');
    // The active tab lies within the tabs' visible box (they scroll sideways on a phone).
    await expect
      .poll(async () => {
        const [box, tab] = await Promise.all([tabs.boundingBox(), active.boundingBox()]);
        return box && tab ? tab.x >= box.x && tab.x + tab.width <= box.x + box.width : false;
      })
      .toBe(true);
    expect(await tabs.evaluate((n) => n.scrollWidth > n.clientWidth)).toBe(true);
    await settle(page);
    await page.screenshot({ path: 'test-results/screenshots/catalog-category-phone-390.png' });
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const [label, viewport] of [
    ['1280', DESKTOP],
    ['390', MOBILE],
  ] as const) {
    it(`product cards show keyboard focus on home, shop and related products (${label})`, async () => {
      const { page, context, errors } = await openPage(browser, viewport);
      for (const url of ['/', '/products', '/products/1']) {
        if (url === '/products/1') {
          await page.goto('/products');
          await page.locator('main article a').first().click();
          await page.waitForURL(/\/products\/[^?]+$/);
          await page.getByRole('heading', { name: 'You may also like' }).waitFor();
        } else await page.goto(url);
        const cards =
          url === '/products/1'
            ? page.locator('section', { has: page.getByRole('heading', { name: 'You may also like' }) })
            : page.locator('main');
        const link = cards.locator('article h2 a, article h3 a').first();
        await link.waitFor();
        // Tab until the card's link has focus (keyboard, not .focus(): :focus-visible is what is drawn).
        await page.locator('body').focus();
        let reached = false;
        for (let i = 0; i < 80 && !reached; i++) {
          await page.keyboard.press('Tab');
          reached = await link.evaluate((a) => a === document.activeElement);
        }
        expect(reached, url).toBe(true);
        const outline = await link.evaluate((a) => {
          const style = getComputedStyle(a.closest('article')!);
          return { width: parseFloat(style.outlineWidth), style: style.outlineStyle };
        });
        expect(outline.style, url).toBe('solid');
        expect(outline.width, url).toBeGreaterThanOrEqual(2);
        const article = link.locator('xpath=ancestor::article');
        await article.scrollIntoViewIfNeeded();
        await settle(page);
        const box = (await article.boundingBox())!;
        await page.screenshot({
          path: `test-results/screenshots/catalog-card-focus-${url === '/' ? 'home' : url === '/products' ? 'shop' : 'related'}-${label}.png`,
          clip: { x: Math.max(0, box.x - 12), y: Math.max(0, box.y - 12), width: box.width + 24, height: Math.min(box.height + 24, 700) },
        });
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  for (const [label, viewport] of [
    ['1280', DESKTOP],
    ['390', MOBILE],
  ] as const) {
    it(`an unknown product, category or page says so with a way back, answered 404 (${label})`, async () => {
      const { page, context, errors } = await openPage(browser, viewport);
      // The browser logs the 404 answer of a page as a failed resource; nothing else may be logged.
      const product = await page.goto('/products/no-such-product');
      expect(product?.status()).toBe(404);
      await page.getByRole('heading', { level: 1, name: PRODUCT_NOT_FOUND_MESSAGES.title }).waitFor();
      await page.getByText(PRODUCT_NOT_FOUND_MESSAGES.text).waitFor();
      await page.getByRole('heading', { name: PRODUCT_NOT_FOUND_MESSAGES.others }).waitFor();
      expect(await page.locator('main article').count()).toBeGreaterThan(0);
      await screenshot(page, `catalog-product-not-found-${label}`);
      const search = page.locator('main').getByRole('searchbox', { name: 'Search products' });
      await search.fill('mop');
      await search.press('Enter');
      await page.waitForURL(/\/products\?search=mop/);
      await page.locator('main article').first().waitFor();

      const category = await page.goto('/products?category=no-such-category');
      expect(category?.status()).toBe(404);
      await page.getByRole('heading', { name: SHOP_MESSAGES.categoryNotFound }).waitFor();
      await page.getByText(SHOP_MESSAGES.categoryNotFoundText).waitFor();
      await screenshot(page, `catalog-category-not-found-${label}`);
      await page.getByRole('link', { name: SHOP_MESSAGES.allProducts }).click();
      await page.waitForURL((u) => u.pathname === '/products' && u.search === '');
      await page.getByRole('heading', { level: 1, name: 'Shop All Products' }).waitFor();

      const paged = await page.goto('/products?page=99');
      expect(paged?.status()).toBe(404);
      await page.getByRole('heading', { name: SHOP_MESSAGES.pageNotFound }).waitFor();
      const last = await page.getByText(/This list ends at page \d+\./).textContent();
      const lastPage = Number(/(\d+)/.exec(last ?? '')?.[1]);
      await screenshot(page, `catalog-page-not-found-${label}`);
      await page.getByRole('link', { name: SHOP_MESSAGES.lastPage(lastPage) }).click();
      await page.getByText(`Page ${lastPage} of ${lastPage}`).waitFor();
      expect(errors).toEqual([]);
      await context.close();
    });
  }
  it('the header offers search on every page at 1280 px, and in the menu at 390 px, which Escape closes', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await page.goto('/about');
    const field = page.getByRole('banner').getByRole('searchbox', { name: 'Search the shop' });
    await field.fill('mop');
    await field.press('Enter');
    await page.waitForURL(/\/products\?search=mop/);
    await page.locator('main article').first().waitFor();
    // Name matches first: the first card's name holds the text.
    expect((await page.locator('main article h2').first().textContent())?.toLowerCase()).toContain('mop');
    await screenshot(page, 'catalog-header-search-1280');

    await page.setViewportSize(MOBILE);
    await page.goto('/faq');
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    expect(await page.getByRole('banner').getByRole('searchbox', { name: 'Search the shop' }).isVisible()).toBe(false);
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const phoneField = page.locator('#mobile-menu').getByRole('searchbox', { name: 'Search the shop' });
    await phoneField.waitFor();
    await settle(page);
    await page.screenshot({ path: 'test-results/screenshots/catalog-menu-search-390.png' });
    // Escape, from inside the menu: it closes and focus is back on its button.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('#mobile-menu').isHidden()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-controls'))).toBe('mobile-menu');
    await page.keyboard.press('Enter');
    await phoneField.fill('cloth');
    await phoneField.press('Enter');
    await page.waitForURL(/\/products\?search=cloth/);
    await expect.poll(() => page.locator('#mobile-menu').isHidden()).toBe(true);
    await page.locator('main article').first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
