import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DESKTOP, MOBILE, launchBrowser, openPage, screenshot } from './browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const CARD_FIELDS = ['id', 'images', 'inventory', 'maxPriceCents', 'name', 'priceCents', 'soleVariantId'];
/**
 * `held` only while checkouts hold what is left of a product (a file before this one in the worker's
 * shop may have left one); `rating` only for a product with a published review (the seed has some).
 */
const OPTIONAL_CARD_FIELDS = ['held', 'rating'];

type Card = { id: string; name: string; priceCents: number; inventory: number; soleVariantId: string | null; images: unknown };

/**
 * The shop list's first data is embedded cut to what its cards read (src/shared/product-card.ts):
 * the page must still start without asking the API for it, and a card must still add to the cart.
 */
describe('the shop list from its embedded cards', () => {
  for (const [viewport, width] of [
    [DESKTOP, 1280],
    [MOBILE, 390],
  ] as const) {
    it(`draws /products from the page's own data and adds a card to the cart (${width} px)`, async () => {
      const { page, context, errors } = await openPage(browser, viewport);
      const apiCalls: string[] = [];
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (url.pathname.startsWith('/api/products') || url.pathname === '/api/categories') apiCalls.push(url.pathname + url.search);
      });
      await page.goto('/products');
      const embedded = await page.evaluate(() => JSON.parse(document.getElementById('__INITIAL_DATA__')?.textContent ?? '[]'));
      const list = embedded.find((e: { key: unknown[] }) => e.key[0] === 'products' && e.key[1] === 'list');
      expect(list.data.items.length).toBe(24);
      for (const item of list.data.items) {
        const keys = Object.keys(item);
        expect(keys.filter((k) => !OPTIONAL_CARD_FIELDS.includes(k)).sort()).toEqual(CARD_FIELDS);
      }

      const cards = page.locator('main article');
      expect(await cards.count()).toBe(24);
      const first = list.data.items[0] as { name: string; priceCents: number };
      await expect(cards.first().getByRole('heading').textContent()).resolves.toBe(first.name);
      await expect(cards.first().textContent()).resolves.toContain(`$${(first.priceCents / 100).toFixed(2)}`);
      // The cards below the fold load their images lazily: bring them in before the picture.
      for (let y = 0; y < (await page.evaluate(() => document.body.scrollHeight)); y += 500) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        await page.waitForTimeout(50);
      }
      await page.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0));
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `shop-list-${width}`);
      if (process.env.SHOTS_A) await page.screenshot({ path: `${process.env.SHOTS_A}/products-${width}.png`, fullPage: true });

      // The first card with an Add to Cart button: in stock, one version (other journeys in this
      // worker's shop may have added products newer than the seed's).
      const items = list.data.items as Card[];
      const addable = items.findIndex((p) => p.soleVariantId !== null && p.inventory > 0);
      expect(addable).toBeGreaterThanOrEqual(0);
      const chosen = items[addable]!;
      await cards
        .nth(addable)
        .getByRole('button', { name: /Add to Cart/ })
        .click();
      await page.getByText('Added to cart').first().waitFor();
      await page.getByRole('link', { name: 'Cart, 1 item' }).waitFor();
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '{}'));
      // The line names the variant it sells (the card's one version).
      expect(stored.items[0].product).toEqual({
        id: chosen.id,
        name: chosen.name,
        priceCents: chosen.priceCents,
        images: chosen.images,
        variantId: chosen.soleVariantId,
      });

      // Nothing was asked for at start-up: the list and the tabs came with the page.
      expect(apiCalls).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
