import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { WIDTHS, launchBrowser, openPage, screenshot, settle } from './browser.js';
import { ADMIN, fakes, fillCheckoutForm, payButtonToCardPage, payWithTestCard, signInThroughForm, toast, toggle } from './helpers.js';

/**
 * Issue [6/6], the owner's end of a version sold: a shopper pays for the cleaner in Lavender, 32 oz
 * with a coupon; the owner finds the order, reads the line's title, size and SKU, and buys its
 * ShipStation label, which carries the version's SKU and weight.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const LAVENDER_32 = 'var_concentrated-cleaner-lavender-32-oz';
type ShipStationRequest = {
  method: string;
  path: string;
  body: { shipments?: { items?: { sku?: string; name?: string; quantity?: number }[] }[] } | null;
};

/** The shopper picks Lavender, 32 oz on the product page and pays for it with a coupon through the pages. */
async function paidOrder(page: Page, email: string): Promise<string> {
  await page.goto(`/products/concentrated-cleaner?variant=${LAVENDER_32}`);
  await page
    .getByRole('radio', { name: /^Lavender/ })
    .first()
    .waitFor();
  expect(
    await page
      .getByRole('radio', { name: /^Lavender/ })
      .first()
      .isChecked(),
  ).toBe(true);
  expect(
    await page
      .getByRole('radio', { name: /^32 oz/ })
      .first()
      .isChecked(),
  ).toBe(true);
  await page.getByRole('button', { name: 'Add to Cart' }).first().click();
  await page.getByText('Added to cart').first().waitFor();
  await page.goto('/cart');
  await page.getByLabel('Coupon code').fill('SAVE5');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByText('Coupon Applied!').first().waitFor();
  await page.getByRole('link', { name: 'Proceed to Checkout' }).first().click();
  await fillCheckoutForm(page, email);
  const { payButton, cardPage } = await payButtonToCardPage(page);
  expect(cardPage).toBe(payButton);
  return payWithTestCard(page);
}

describe('the owner ships a version', () => {
  for (const [label, viewport] of WIDTHS) {
    it(`reads the version on the order and buys its label with the version's SKU (${label})`, async () => {
      // A guest, new to the shop: the coupon is theirs to use once.
      const customer = await openPage(browser, viewport);
      const orderId = await paidOrder(customer.page, `variant-label-${label}@example.com`);

      const { page, context, errors } = await openPage(browser, viewport);
      await signInThroughForm(page, ADMIN);
      await page.goto('/admin?tab=settings');
      await page.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab', { name: 'Integrations' }).click();
      const enable = page.getByRole('switch', { name: 'Enable ShipStation' });
      await enable.waitFor({ state: 'attached' });
      if (!(await enable.isChecked())) {
        await toggle(page, enable);
        await page.getByLabel('API key').fill('ss-key');
        await page.getByRole('button', { name: 'Save Integration Settings' }).click();
        await page
          .getByText(/saved successfully/)
          .first()
          .waitFor();
      }

      await page.goto('/admin?tab=orders');
      const search = page.getByRole('searchbox', { name: 'Search orders' });
      await search.fill(orderId.slice(-8).toUpperCase());
      await search.press('Enter');
      const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: orderId.slice(-8).toUpperCase(), exact: true }) });
      await row.getByRole('button', { name: /^View order/ }).click();
      const details = page.locator('main');
      await details.getByText('Scent: Lavender · Size: 32 oz').first().waitFor();
      await details.getByText('ECO-CL-LAV-032').first().waitFor();
      await settle(page);
      await screenshot(page, `variants-owner-order-${label}`);

      const before = (await fakes<ShipStationRequest[]>('/shipstation/requests')).length;
      await details.getByRole('button', { name: 'Send to ShipStation' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Buy label' }).click();
      await toast(page, 'Sent to ShipStation').waitFor();
      const sent = (await fakes<ShipStationRequest[]>('/shipstation/requests')).slice(before);
      const items = sent.flatMap((r) => r.body?.shipments?.flatMap((s) => s.items ?? []) ?? []);
      expect(items.map((i) => [i.sku, i.quantity])).toEqual([['ECO-CL-LAV-032', 1]]);
      expect(items[0]?.name).toContain('Lavender, 32 oz');
      expect(errors).toEqual([]);
      expect(customer.errors).toEqual([]);
      await context.close();
      await customer.context.close();
    });
  }
});
