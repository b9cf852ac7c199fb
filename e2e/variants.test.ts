import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { WIDTHS, baseUrl, launchBrowser, openPage, screenshot, settle } from './browser.js';
import { CUSTOMER, fillCheckoutForm, payButtonToCardPage, payWithTestCard, signInThroughForm } from './helpers.js';
import { orderNumberLabel } from '../src/shared/order-words.js';

/**
 * Issue [6/6]: a product sold in versions. The seeded cleaner comes by Scent (Unscented, Lavender,
 * Lemon) and Size (16 oz, 32 oz), Lemon 32 oz sold out. A shopper picks by keyboard and by touch;
 * price, SKU, picture and stock line follow with no page load, the address names the variant, and
 * the cart, the order and Reorder keep each version apart.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const CLEANER = { id: 'concentrated-cleaner', name: 'Concentrated All-Purpose Cleaner' };
const price = (page: Page) => page.locator('[data-variant-price]').first().textContent();
const sku = (page: Page) => page.locator('[data-variant-sku]').first().textContent();
const valueLabel = (page: Page, value: string) => page.locator('[data-variant-picker] label', { hasText: new RegExp(`^${value}`) });
const option = (page: Page, group: string, value: string) =>
  page.getByRole('group', { name: new RegExp(`^${group}:`) }).getByRole('radio', { name: new RegExp(`^${value}`) });

/** A phone: touch events, errors collected as openPage does. */
async function touchPage(viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, baseURL: baseUrl(), hasTouch: true, isMobile: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  return { context, page, errors };
}

/** What the shop says can be bought of a variant now (the product's JSON, as the page reads it). */
async function availableOf(page: Page, variantId: string): Promise<number> {
  const res = await page.request.get('/api/products/concentrated-cleaner');
  const body = (await res.json()) as { variants: { id: string; available: number }[] };
  return body.variants.find((v) => v.id === variantId)!.available;
}

describe('products in several versions', () => {
  for (const [label, viewport] of WIDTHS) {
    it(`picks a version by ${label === '390' ? 'touch' : 'keyboard'}: price, SKU, picture and stock follow with no page load; the link opens that version (${label})`, async () => {
      // The phone is a touch screen: its choices are taps.
      const { page, context, errors } = label === '390' ? await touchPage(viewport) : await openPage(browser, viewport);
      await page.goto(`/products/${CLEANER.id}`);
      await page.getByRole('heading', { level: 1, name: CLEANER.name }).waitFor();
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      // The first version that can be bought is chosen: Unscented 16 oz.
      expect(await price(page)).toContain('$14.99');
      expect(await sku(page)).toBe('ECO-CL-016');
      expect(await option(page, 'Scent', 'Unscented').isChecked()).toBe(true);
      await settle(page);
      await screenshot(page, `variants-product-${label}`);

      const documents: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'document') documents.push(r.url());
      });
      // The address follows each choice (replaced in place: no navigation to wait for).
      const shows = (variant: string) =>
        expect.poll(() => new URL(page.url()).searchParams.get('variant'), { timeout: 10_000 }).toBe(variant);
      if (label === '390') {
        await valueLabel(page, 'Lavender').tap();
        await shows('var_concentrated-cleaner-lavender-16-oz');
        await valueLabel(page, '32 oz').tap();
      } else {
        // Keyboard: into the Scent group, arrow to Lavender; then the Size group, arrow to 32 oz.
        await option(page, 'Scent', 'Unscented').focus();
        await page.keyboard.press('ArrowRight');
        await shows('var_concentrated-cleaner-lavender-16-oz');
        expect(await option(page, 'Scent', 'Lavender').isChecked()).toBe(true);
        await page.keyboard.press('Tab');
        await page.keyboard.press('ArrowRight');
      }
      await shows('var_concentrated-cleaner-lavender-32-oz');
      expect(await price(page)).toContain('$25.99');
      expect(await sku(page)).toBe('ECO-CL-LAV-032');
      // Six of Lavender 32 oz seeded (fewer when a journey before this one on the same shop bought
      // some): at or below its threshold, the page says how many are left now.
      const left = await availableOf(page, 'var_concentrated-cleaner-lavender-32-oz');
      expect(left).toBeLessThanOrEqual(6);
      await page
        .getByText(new RegExp(`Only ${left} left|${left} available`))
        .first()
        .waitFor();
      expect(await page.locator('main img[src*="concentrated-cleaner-lavender"]').count()).toBeGreaterThan(0);
      expect(documents).toEqual([]);

      // Lemon 32 oz is sold out: shown struck through, chosen it cannot be added and offers Notify me.
      expect(await page.locator('[data-variant-picker] label[data-state="sold-out"]', { hasText: 'Lemon' }).count()).toBe(1);
      if (label === '390') await valueLabel(page, 'Lemon').tap();
      else await valueLabel(page, 'Lemon').click();
      await shows('var_concentrated-cleaner-lemon-32-oz');
      await page.getByText('Out of stock').first().waitFor();
      expect(await page.getByRole('button', { name: 'Add to Cart' }).first().isDisabled()).toBe(true);
      // The request is for Lemon 32 oz, and the form says so.
      await page.getByRole('heading', { name: 'Notify me when Lemon, 32 oz is back' }).waitFor();
      await settle(page);
      await screenshot(page, `variants-sold-out-${label}`);

      // A link to a version opens it, and the canonical link does not split by version.
      await page.goto(`/products/${CLEANER.id}?variant=var_concentrated-cleaner-lavender-16-oz`);
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      await page.waitForFunction(() => document.querySelector('[data-variant-sku]')?.textContent === 'ECO-CL-LAV-016');
      expect(await price(page)).toContain('$15.99');
      expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toMatch(/\/products\/concentrated-cleaner$/);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('two versions are two lines in the cart; the order, My Orders and Reorder name each (1280)', async () => {
    const { page, context, errors } = await openPage(browser, WIDTHS[0]![1]);
    await signInThroughForm(page, CUSTOMER);
    const add = async (variant: string) => {
      await page.goto(`/products/${CLEANER.id}?variant=${variant}`);
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      await page.waitForURL(new RegExp(variant));
      await page.getByRole('button', { name: 'Add to Cart' }).first().click();
      await page.getByText('Added to cart').first().waitFor();
    };
    await add('var_concentrated-cleaner-lavender-16-oz');
    await add('var_concentrated-cleaner-unscented-32-oz');
    await page.goto('/cart');
    const lavender = page.getByRole('link', { name: 'Concentrated All-Purpose Cleaner — Lavender, 16 oz' }).first();
    const big = page.getByRole('link', { name: 'Concentrated All-Purpose Cleaner — Unscented, 32 oz' }).first();
    await lavender.waitFor();
    await big.waitFor();
    expect(await lavender.getAttribute('href')).toContain('?variant=var_concentrated-cleaner-lavender-16-oz');
    await settle(page);
    await screenshot(page, 'variants-cart-1280');

    // Paid with a coupon through the pages: cart → checkout → card page; the confirmation names each version.
    await page.getByLabel('Coupon code').fill('SAVE5');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Coupon Applied!').first().waitFor();
    await page.getByRole('link', { name: 'Proceed to Checkout' }).first().click();
    await fillCheckoutForm(page, CUSTOMER.email);
    const { payButton, cardPage } = await payButtonToCardPage(page);
    // $15.99 + $24.99 − $5.00 coupon, shipping $5.99, 8% tax: charged what the Pay button said.
    expect(cardPage).toBe(payButton);
    expect(payButton).toBe('$45.33');
    const orderId = await payWithTestCard(page);
    // Each line is the product over its own options (decision 0044).
    await page.getByText('Scent: Lavender · Size: 16 oz').first().waitFor();
    await page.getByText('Scent: Unscented · Size: 32 oz').first().waitFor();
    await settle(page);
    await screenshot(page, 'variants-confirmation-1280');

    // My Orders names both; Reorder puts the same two versions back in the cart.
    await page.goto('/dashboard');
    const number = orderNumberLabel(orderId);
    await page.getByRole('button', { name: `Reorder order ${number}` }).click();
    await page.getByText('Items Added to Cart').waitFor();
    await page.goto('/cart');
    await page.getByRole('link', { name: 'Concentrated All-Purpose Cleaner — Lavender, 16 oz' }).first().waitFor();
    await page.getByRole('link', { name: 'Concentrated All-Purpose Cleaner — Unscented, 32 oz' }).first().waitFor();
    await page.goto('/orders');
    await page.getByText('Scent: Lavender · Size: 16 oz').first().waitFor();
    await settle(page);
    await screenshot(page, 'variants-my-orders-1280');

    // The shop list says "From $14.99" and a search for a scent or a version's SKU finds the cleaner.
    await page.goto('/products?search=lavender');
    await page.getByRole('link', { name: CLEANER.name }).first().waitFor();
    await page.getByText('From $14.99').first().waitFor();
    await page.goto('/products?search=ECO-CL-LEM-016');
    await page.getByRole('link', { name: CLEANER.name }).first().waitFor();
    await page
      .getByRole('link', { name: /Choose options/ })
      .first()
      .waitFor();
    await settle(page);
    await screenshot(page, 'variants-shop-list-1280');
    expect(errors).toEqual([]);
    await context.close();
  });
});
