import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, MOBILE, launchBrowser, openPage, screenshot, settle } from './browser.js';
import { CUSTOMER, checkout, signInThroughForm } from './helpers.js';

/**
 * Issue 29, "Truth and clarity", as the shopper meets it: pay, the confirmation says the shipping
 * method and estimate and spells the order number one way; /orders and the dashboard say the order
 * is paid and being prepared (never "Completed"), and the dashboard's counts add up.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Delivery = { method: string; estimatedDays: string } | null;

/** Every spelling of an order number the issue found, other than the receipt's `#AX3N0EWV`. */
function otherSpellings(orderId: string): RegExp[] {
  const tail8 = orderId.slice(-8);
  const tail6 = orderId.slice(-6);
  return [new RegExp(`#${tail8.toLowerCase()}\\b`), new RegExp(`#${tail6}\\b`, 'i')].filter(
    // `#AX3N0EWV` itself contains no `#3n0ewv`; a tail that is all digits reads the same either way.
    (re) => !re.test(`#${tail8.toUpperCase()}`),
  );
}

async function expectOneSpelling(page: Page, orderId: string): Promise<void> {
  const text = (await page.locator('main').textContent()) ?? '';
  expect(text).toContain(`#${orderId.slice(-8).toUpperCase()}`);
  for (const re of otherSpellings(orderId)) expect(text).not.toMatch(re);
}

async function both(page: Page, name: string, check: () => Promise<void>): Promise<void> {
  await settle(page);
  await check();
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize(MOBILE);
  await settle(page);
  await check();
  await screenshot(page, `${name}-390`);
  await page.setViewportSize(DESKTOP);
}

describe('a just-paid order, as the shopper reads it', () => {
  it('confirmation with method and estimate, one order number, "being prepared", counts that add up', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, CUSTOMER);
    const orderId = await checkout(page, true, [{ productId: 'cloth-5-pack', quantity: 1 }]);
    const number = `#${orderId.slice(-8).toUpperCase()}`;

    // The confirmation page the payment lands on.
    await page.getByRole('heading', { level: 1, name: 'Order Confirmed' }).waitFor();
    const { order } = (await (await page.request.get(`/api/orders/${orderId}`)).json()) as { order: { delivery: Delivery } };
    expect(order.delivery).not.toBeNull();
    await both(page, 'order-truth-confirmation', async () => {
      expect(await page.getByTestId('order-number').textContent()).toBe(number);
      expect(await page.getByTestId('shipping-method').textContent()).toBe(order.delivery!.method);
      expect(await page.getByTestId('delivery-estimate').textContent()).toMatch(/\S/);
      const status = page.locator('main').getByTestId('order-status');
      expect(await status.textContent()).toBe('Paid, being prepared');
      await expectOneSpelling(page, orderId);
      expect(await page.locator('main').textContent()).not.toContain('Completed');
    });

    // /orders: the same number and words.
    await page.goto('/orders');
    const card = page.getByTestId('order-card').filter({ hasText: number });
    await card.waitFor();
    await both(page, 'order-truth-orders', async () => {
      expect(await card.getByTestId('order-number').textContent()).toBe(number);
      expect(await card.getByTestId('order-status').textContent()).toBe('Paid, being prepared');
      await expectOneSpelling(page, orderId);
      expect(await page.locator('main').textContent()).not.toContain('Completed');
    });

    // The dashboard: the recent order says so, and the counts add up to the total.
    await page.goto('/dashboard');
    const recent = page.getByTestId('recent-orders');
    await recent.waitFor();
    await page.getByTestId('order-counts').waitFor();
    await both(page, 'order-truth-dashboard', async () => {
      const row = recent.locator('li').filter({ hasText: number });
      expect(await row.getByTestId('order-status').textContent()).toBe('Paid, being prepared');
      const total = Number(await page.getByTestId('stat-cards').locator('p.text-3xl').first().textContent());
      const counts = await page
        .getByTestId('order-counts')
        .locator('li')
        .evaluateAll((lis) => lis.map((li) => Number(li.querySelector('span.font-semibold')?.textContent ?? 'NaN')));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(total);
      expect(await page.getByTestId('order-count-preparing').textContent()).toMatch(/\d+ Paid, being prepared$/);
      await expectOneSpelling(page, orderId);
      expect(await recent.textContent()).not.toContain('Completed');
      // The demo customer's reward coupons (850 points earned: two).
      expect(
        await page
          .getByRole('region', { name: 'Loyalty Program' })
          .getByText(/^REWARD-DEMO000\d$/)
          .count(),
      ).toBe(2);
    });

    expect(errors).toEqual([]);
    await context.close();
  });
});
