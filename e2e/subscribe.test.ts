import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DESKTOP, MOBILE, launchBrowser, openPage, screenshotWithPictures } from './browser.js';
import { fillCheckoutForm, payWithTestCard } from './helpers.js';
import {
  everyWeeksText,
  ONE_TIME_PURCHASE,
  subscribeChoiceText,
  SUBSCRIPTION_MESSAGES,
  SUBSCRIPTION_TEXTS,
  subscriptionLineText,
} from '../src/shared/subscription-words.js';

/**
 * Subscribe and save, as a shopper does it (issue [4/8], items 2 and 3): on the product page they
 * choose "Subscribe and save 10%" every 4 weeks and add it to the cart; the cart line says so; the
 * checkout shows the subscription terms next to Pay, refuses to pay until the shopper ticks the box
 * themselves, then pays on the test card page; the confirmation names the line's interval and discount.
 * A guest with a new e-mail each time (their account is made at payment), at both widths.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const RUN = Date.now().toString(36);
/** The seeded cleaner: 10% off every 2, 4, 6 or 8 weeks, 15% from the 4th delivery. */
const CLEANER = { id: 'concentrated-cleaner', name: 'Concentrated All-Purpose Cleaner' };
const LAVENDER_16 = 'var_concentrated-cleaner-lavender-16-oz';
const LINE_TEXT = subscriptionLineText(4, 10);

describe('subscribe and save from the product page to the confirmation', () => {
  for (const [label, viewport] of [
    ['1280', DESKTOP],
    ['390', MOBILE],
  ] as const) {
    it(`guest at ${label}: subscribe every 4 weeks, agree to the terms, pay, see the line on the confirmation`, async () => {
      const { page, context, errors } = await openPage(browser, viewport);
      try {
        await page.goto(`/products/${CLEANER.id}`);
        await page.getByRole('heading', { level: 1, name: CLEANER.name }).waitFor();
        // A version other than the first (Lavender, 16 oz): the plan is the product's, for each version.
        await page.locator('[data-variant-picker] label', { hasText: /^Lavender/ }).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('variant'), { timeout: 10_000 }).toBe(LAVENDER_16);
        const choice = page.locator('[data-purchase-choice]');
        // One-time purchase is chosen until the shopper chooses otherwise.
        await expect.poll(() => choice.getByRole('radio', { name: new RegExp(`^${ONE_TIME_PURCHASE}`) }).isChecked()).toBe(true);
        await choice.getByRole('radio', { name: new RegExp(`^${subscribeChoiceText(10)}`) }).check();
        await choice.getByLabel(SUBSCRIPTION_TEXTS.deliverEvery).selectOption({ label: everyWeeksText(4) });
        await expect.poll(() => choice.getByRole('radio', { name: new RegExp(`^${subscribeChoiceText(10)}`) }).isChecked()).toBe(true);
        // The price per delivery is the chosen version's less 10%, and the later discount is told.
        const price = Number(/\$(\d+\.\d\d)/.exec((await page.locator('[data-variant-price]').first().textContent()) ?? '')?.[1]);
        const perDelivery = `$${(Math.round(price * 100 * 0.9) / 100).toFixed(2)}`;
        await expect.poll(() => choice.locator('[data-subscription-price]').textContent()).toContain(perDelivery);
        await expect.poll(() => choice.textContent()).toContain('15% off from the 4th delivery');
        await screenshotWithPictures(page, `subscribe-product-${label}`);

        await page.locator('main').getByRole('button', { name: 'Add to Cart' }).first().click();
        await page.getByText('Added to cart', { exact: true }).first().waitFor();

        await page.goto('/cart');
        const line = page.locator('main li').filter({ hasText: CLEANER.name }).first();
        await line.locator('[data-subscription-line]').waitFor();
        expect(await line.locator('[data-subscription-line]').textContent()).toBe(LINE_TEXT);
        await expect.poll(() => line.textContent()).toContain(`${perDelivery} each`);
        await screenshotWithPictures(page, `subscribe-cart-${label}`);

        await page.locator('main').getByRole('link', { name: 'Proceed to Checkout' }).click();
        // A new e-mail each attempt: the first payment makes its account (a guest with an account signs in).
        await fillCheckoutForm(page, `subscriber-${RUN}-${label}-${Math.random().toString(36).slice(2, 7)}@example.com`);
        const terms = page.locator('[data-subscription-terms]');
        await terms.waitFor();
        const termsText = (await terms.textContent()) ?? '';
        expect(termsText).toContain(`${everyWeeksText(4)}: ${CLEANER.name}`);
        expect(termsText).toContain(`We charge ${perDelivery} for each delivery`);
        expect(termsText).toContain('until you cancel');
        expect(termsText).toContain('First renewal:');
        expect(termsText).toContain('Cancel any time online');
        const consent = terms.getByRole('checkbox', { name: SUBSCRIPTION_TEXTS.agree });
        expect(await consent.isChecked()).toBe(false);

        // Pay without ticking the box: refused at the box, and the page stays.
        const pay = page.locator('main').getByRole('button', { name: /^Pay \$[\d,.]+/ });
        await expect.poll(() => pay.isEnabled(), { timeout: 10_000 }).toBe(true);
        await pay.click();
        await terms.getByRole('alert').filter({ hasText: SUBSCRIPTION_MESSAGES.consentMissing }).waitFor();
        expect(new URL(page.url()).pathname).toBe('/checkout');
        await screenshotWithPictures(page, `subscribe-checkout-terms-${label}`);

        await consent.check();
        await pay.click();
        await page.waitForURL(/\/pay\//);
        await page.getByLabel('Card number').waitFor();
        const orderId = await payWithTestCard(page);
        expect(orderId).not.toBe('');
        const items = page.getByRole('region', { name: 'Items' });
        const bought = items.locator('li').filter({ hasText: CLEANER.name }).first();
        await bought.locator('[data-subscription-line]').waitFor();
        expect(await bought.locator('[data-subscription-line]').textContent()).toBe(LINE_TEXT);
        await page.locator('[data-subscription-started]').waitFor();
        await screenshotWithPictures(page, `subscribe-confirmation-${label}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
