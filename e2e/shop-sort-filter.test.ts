import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, MOBILE, launchBrowser, openPage, screenshot } from './browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The prices of the cards on the page, in order, in cents. */
async function cardPrices(page: Page): Promise<number[]> {
  const texts = await page.locator('main article p.text-lg').allTextContents();
  return texts.map((t) => Math.round(Number(t.replace(/[^0-9.]/g, '')) * 100));
}

/** The card prices once they satisfy `ok` (the list follows the URL after its fetch). */
async function pricesWhen(page: Page, ok: (prices: number[]) => boolean): Promise<number[]> {
  let prices: number[] = [];
  await expect.poll(async () => ok((prices = await cardPrices(page))), { timeout: 5000 }).toBe(true);
  return prices;
}

const ascending = (list: number[]) => list.every((v, i) => i === 0 || list[i - 1]! <= v);
const descending = (list: number[]) => list.every((v, i) => i === 0 || list[i - 1]! >= v);

describe('shop order and price range', () => {
  it('sorts by price and newest, filters by a price range, keeps both in the URL and across categories and pages', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await page.goto('/products');
    const sort = page.getByLabel('Sort by');
    await sort.selectOption('price-asc');
    await page.waitForURL(/sort=price-asc/);
    const low = await pricesWhen(page, (p) => p.length > 3 && ascending(p));

    await sort.selectOption('price-desc');
    await page.waitForURL(/sort=price-desc/);
    const high = await pricesWhen(page, (p) => p.length > 3 && descending(p) && p[0]! > low[0]!);
    expect(high[0]).toBeGreaterThan(high[high.length - 1]!);

    await page.getByLabel('Lowest price in dollars').fill('10');
    await page.getByLabel('Highest price in dollars').fill('20');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/minPrice=10&maxPrice=20/);
    const ranged = await pricesWhen(page, (p) => p.length > 0 && p.every((c) => c >= 1000 && c <= 2000));
    expect(descending(ranged), ranged.join(',')).toBe(true);
    await screenshot(page, 'shop-sorted-ranged-1280');

    // A category keeps the order and the range.
    await page.getByRole('link', { name: 'Cleaning Cloths', exact: true }).first().click();
    await page.waitForURL(/category=cleaning-cloths/);
    expect(page.url()).toContain('sort=price-desc');
    expect(page.url()).toContain('minPrice=10');

    // A range the wrong way round is refused in place.
    await page.getByLabel('Lowest price in dollars').fill('30');
    await page.getByLabel('Highest price in dollars').fill('5');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('alert').filter({ hasText: 'The lowest price cannot be more than the highest.' }).waitFor();
    expect(page.url()).toContain('minPrice=10');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is drawn by the server in the chosen order, and the form works without scripts', async () => {
    const { page, context } = await openPage(browser, MOBILE, { scripts: false });
    await context.route('**/*.js', (route) => route.abort());
    await page.goto('/products?sort=price-desc');
    const desc = await cardPrices(page);
    expect(desc.length).toBeGreaterThan(3);
    expect(descending(desc)).toBe(true);
    await page.getByLabel('Sort by').selectOption('price-asc');
    await page.getByLabel('Lowest price in dollars').fill('5');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/sort=price-asc/);
    const asc = await cardPrices(page);
    expect(ascending(asc), asc.join(',')).toBe(true);
    expect(asc.every((c) => c >= 500)).toBe(true);
    await screenshot(page, 'shop-sorted-390-noscript');
    await context.close();

    const phone = await openPage(browser, MOBILE);
    await phone.page.goto('/products?sort=newest&maxPrice=15');
    await phone.page.getByLabel('Sort by').waitFor();
    expect(await phone.page.getByLabel('Sort by').inputValue()).toBe('newest');
    expect(await phone.page.getByLabel('Highest price in dollars').inputValue()).toBe('15');
    await screenshot(phone.page, 'shop-sorted-390');
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });
});
