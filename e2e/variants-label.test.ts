import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { WIDTHS, launchBrowser, openPage, screenshot, settle } from './browser.js';
import { ADMIN, SHIPPING_ADDRESS, fakes, signInThroughForm, toast, toggle } from './helpers.js';

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

async function paidOrder(page: Page, email: string): Promise<string> {
  const res = await page.request.post('/api/create-checkout-session', {
    headers: { origin: inject('baseUrl') },
    data: {
      items: [{ productId: 'concentrated-cleaner', variantId: LAVENDER_32, quantity: 1 }],
      customerEmail: email,
      shippingAddress: SHIPPING_ADDRESS,
      appliedCouponCode: 'SAVE5',
    },
  });
  expect(res.status()).toBe(200);
  const { url, orderId } = (await res.json()) as { url: string; orderId: string };
  await page.goto(url);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Demo Customer');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await page.waitForURL(/order-confirmation|success|thank-you/);
  return orderId;
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
      await details.getByText('Concentrated All-Purpose Cleaner — Lavender, 32 oz').first().waitFor();
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
