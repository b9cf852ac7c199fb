import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DESKTOP, MOBILE, launchBrowser, openPage, quiet, screenshot } from './browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('storefront journeys', () => {
  it('home → shop → search and category → product → add to cart → back', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await page.goto('/');
    await expect(page.locator('h1').first().textContent()).resolves.toBeTruthy();
    await page.getByRole('heading', { name: 'Featured Products' }).waitFor();
    const featured = page.locator('section', { has: page.getByRole('heading', { name: 'Featured Products' }) }).getByRole('link');
    expect(await featured.count()).toBeGreaterThan(0);
    // Shop By Category tiles leave out the accessories category ("Other").
    const categories = page.locator('section', { has: page.getByRole('heading', { name: 'Shop By Category' }) });
    await categories.getByRole('link', { name: /Cleaning Cloths/ }).waitFor();
    expect(await categories.getByRole('link', { name: /^Other/ }).count()).toBe(0);
    await screenshot(page, 'home-1280');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shop' }).click();
    await page.waitForURL('**/products');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const firstCard = page
      .locator('main')
      .getByRole('link', { name: /^1 - Reusable Cleaning Cloth/ })
      .first();
    await firstCard.waitFor();

    // Search is case-insensitive over name and description.
    await page.getByRole('searchbox', { name: 'Search products' }).fill('SWEEP');
    await page.waitForURL(/search=SWEEP/);
    await page
      .getByRole('link', { name: /Sweep & Mop Tool/ })
      .first()
      .waitFor();
    await page.getByRole('searchbox', { name: 'Search products' }).fill('zzzz-nothing');
    await page.getByText('No products found').waitFor();
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.waitForURL((u) => !u.search.includes('search='));
    // The URL changes before React commits the new list: wait for the page itself.
    await page
      .locator('main')
      .getByRole('link', { name: /^1 - Reusable Cleaning Cloth/ })
      .first()
      .waitFor();
    expect(await page.getByRole('searchbox', { name: 'Search products' }).inputValue()).toBe('');

    // Category tabs are bound to ?category=.
    await page.getByRole('navigation', { name: 'Product categories' }).getByRole('link', { name: 'Mops', exact: true }).click();
    await page.waitForURL(/category=mops/);
    await page
      .getByRole('link', { name: /Sweep & Mop Tool/ })
      .first()
      .click();
    await page.waitForURL('**/products/sweep-and-mop');
    await page.getByRole('heading', { level: 1, name: 'Sweep & Mop Tool' }).waitFor();
    await page.getByText('$49.99').first().waitFor();
    await screenshot(page, 'product-1280');

    await page.getByRole('button', { name: 'Increase quantity' }).click();
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.getByText('Added to cart').waitFor();
    await page.getByRole('link', { name: 'Cart, 2 items' }).waitFor();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '{}'));
    expect(stored.items[0].product.id).toBe('sweep-and-mop');
    expect(stored.items[0].quantity).toBe(2);

    // The stored cart survives a reload of a server-rendered page.
    await page.reload();
    await page.getByRole('link', { name: 'Cart, 2 items' }).waitFor();

    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(/\/products\?category=mops/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows Product Not Found and Page Not Found with their links', async () => {
    const { page, context } = await openPage(browser, DESKTOP);
    const res = await page.goto('/products/does-not-exist');
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Product Not Found' }).waitFor();
    await page.getByRole('link', { name: 'Return to Shop' }).click();
    await page.waitForURL('**/products');

    const missing = await page.goto('/no/such/page');
    expect(missing?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    expect(await page.locator('main').getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/auth');
    await page.locator('main').getByRole('link', { name: 'Return Home' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });

  it('low stock shows "Only N left" and the quantity stops at the inventory', async () => {
    const { page, context } = await openPage(browser, DESKTOP);
    await page.goto('/products/bulk-1000-pack');
    await page.getByText('Only 5 left').first().waitFor();
    const plus = page.getByRole('button', { name: 'Increase quantity' });
    for (let i = 0; i < 8; i++) if (await plus.isEnabled()) await plus.click();
    expect(await page.getByRole('spinbutton').inputValue()).toBe('5');
    await context.close();
  });

  it('Buy Now goes straight to checkout with the product', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await page.goto('/products/laundry-powder');
    await page.getByRole('heading', { level: 1, name: 'Laundry Powder (2 lb)' }).waitFor();
    await page.getByRole('button', { name: 'Buy Now' }).click();
    await page.waitForURL('**/checkout');
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    await page.getByText('Laundry Powder (2 lb)').first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('FAQ: filter by category, one answer open at a time', async () => {
    const { page, context } = await openPage(browser, DESKTOP);
    await page.goto('/faq');
    const questions = page.locator('main button[aria-expanded]');
    await questions.first().waitFor();
    const total = await questions.count();
    const filters = page.locator('main button[aria-pressed]');
    expect(await filters.first().textContent()).toBe('All');
    await filters.nth(1).click();
    await page.waitForFunction((n) => document.querySelectorAll('main button[aria-expanded]').length < n, total);
    await filters.first().click();
    await page.waitForFunction((n) => document.querySelectorAll('main button[aria-expanded]').length === n, total);
    await questions.nth(0).click();
    expect(await questions.nth(0).getAttribute('aria-expanded')).toBe('true');
    await questions.nth(1).click();
    expect(await questions.nth(1).getAttribute('aria-expanded')).toBe('true');
    expect(await questions.nth(0).getAttribute('aria-expanded')).toBe('false');
    await context.close();
  });

  it('footer dialogs and the mobile menu work at 390 px', async () => {
    const { page, context, errors } = await openPage(browser, MOBILE);
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const mobileNav = page.getByRole('navigation', { name: 'Mobile' });
    await mobileNav.getByRole('link', { name: 'FAQ' }).click();
    await page.waitForURL('**/faq');
    expect(await page.getByRole('navigation', { name: 'Mobile' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Privacy Policy' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/sell|rent/i);
    await dialog.getByRole('button', { name: /close/i }).first().click();
    await dialog.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('pages carry their metadata before any script runs', async () => {
    const { page, context } = await openPage(browser, DESKTOP, { scripts: false });
    await context.route('**/*.js', (route) => route.abort());
    await page.goto('/products/sweep-and-mop');
    expect(await page.title()).toBe('Sweep & Mop Tool | EcoClean');
    const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(ld.some((s) => s.includes('"@type":"Product"'))).toBe(true);
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toMatch(/\/products\/sweep-and-mop$/);
    // The page itself is rendered by the server: readable with scripts off.
    expect(await page.locator('main h1').textContent()).toBe('Sweep & Mop Tool');
    expect(await page.locator('main').textContent()).toContain('$49.99');
    await page.goto('/');
    expect(await page.locator('main').textContent()).toContain('Featured Products');
    await context.close();
  });

  it('every storefront page renders without errors at 1280 px and 390 px (screenshots kept)', async () => {
    const pages = ['/', '/products', '/products/cloth-10-pack', '/about', '/faq', '/contact', '/privacy', '/terms', '/cart', '/nope'];
    for (const viewport of [DESKTOP, MOBILE]) {
      const { page, context, errors } = await openPage(browser, viewport);
      for (const path of pages) {
        await page.goto(path);
        await page.locator('main h1').first().waitFor();
        await quiet(page);
        // No horizontal scrolling on any width.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} at ${viewport.width}px overflows`).toBeLessThanOrEqual(1);
        await screenshot(page, `${path === '/' ? 'home' : path.slice(1).replace(/\//g, '_')}-${viewport.width}`);
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
