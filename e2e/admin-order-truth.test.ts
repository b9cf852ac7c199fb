import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, CUSTOMER, SHIPPING_ADDRESS, call, signInThroughForm } from './helpers.js';
import { DESKTOP, MOBILE, launchBrowser, openPage, screenshot, settle } from './browser.js';

/**
 * Issue 28 (search, honest tracking, packing slip, phone): the owner finds orders by product and
 * city, is told when a search is too long, prints a packing slip with the shop's return address
 * and the customer's order number (with and without the total), and on a phone sees the selected
 * tab and the order list before the charts. The customer's order says "Order reference", not
 * "Tracking", before any label.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A paid checkout of one product shipped to `city`, by the signed-in customer's page. */
async function paidOrderTo(page: Page, productId: string, city: string): Promise<string> {
  const res = await page.request.post('/api/create-checkout-session', {
    headers: { origin: inject('baseUrl') },
    data: { items: [{ productId, quantity: 1 }], customerEmail: CUSTOMER.email, shippingAddress: { ...SHIPPING_ADDRESS, city } },
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

const rowOf = (page: Page, orderId: string) => page.getByRole('row').filter({ hasText: orderId.slice(-8).toUpperCase() });

async function search(page: Page, text: string): Promise<void> {
  const box = page.getByRole('search');
  await box.getByLabel('Search orders').fill(text);
  await box.getByRole('button', { name: 'Search', exact: true }).click();
}

describe("the owner's busy day: finding, packing, and a phone", () => {
  it('search by product and city, the over-long search, the packing slip with and without total, the phone tab strip and list', async () => {
    const customer = await openPage(browser, DESKTOP);
    await signInThroughForm(customer.page, CUSTOMER);
    const klamath = await paidOrderTo(customer.page, 'cloth-12-pack', 'Klamath Falls');
    const astoria = await paidOrderTo(customer.page, 'cloth-40-pack', 'Astoria');

    // The customer's order before any label: its reference, no tracking number.
    await customer.page.goto('/orders');
    const card = customer.page.getByTestId('order-card').filter({ hasText: klamath.slice(-8) });
    await card.waitFor();
    expect(await card.innerText()).toContain('Order reference: EC');
    expect(await card.innerText()).not.toMatch(/Tracking/);
    await customer.page.setViewportSize(MOBILE);
    await settle(customer.page);
    await card.screenshot({ path: 'test-results/screenshots/truth-customer-order-reference-390.png' });

    const { page, errors } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, ADMIN);
    const saved = await call(page, 'PUT', '/api/admin/settings/general', {
      contact_email: 'hello@ecoclean.example',
      contact_phone: '(555) 123-4567',
      contact_hours: 'Mon-Fri, 9am-5pm EST',
      shop_return_address: 'EcoClean Returns\n12 Green Lane\nPortland, OR 97201',
    });
    expect(saved.status).toBe(200);

    // Search by city, then by product (SKU and name words): the right order, not the other.
    await page.goto('/admin?tab=orders');
    await search(page, 'klamath');
    await rowOf(page, klamath).first().waitFor();
    await rowOf(page, astoria).first().waitFor({ state: 'detached' });
    await screenshot(page, 'truth-search-city-1280');
    await search(page, 'ECO-CC-040');
    await rowOf(page, astoria).first().waitFor();
    await rowOf(page, klamath).first().waitFor({ state: 'detached' });
    await search(page, '40-Pack cleaning');
    await rowOf(page, astoria).first().waitFor();
    await rowOf(page, klamath).first().waitFor({ state: 'detached' });

    // A search longer than the limit says so under the box, and the list is not replaced.
    await search(page, 'x'.repeat(140));
    const message = page.locator('#order-search-error');
    await message.waitFor();
    expect(await message.innerText()).toBe('Search text cannot exceed 100 characters');
    expect(await page.getByLabel('Search orders').getAttribute('aria-invalid')).toBe('true');
    expect(new URL(page.url()).searchParams.get('q')).toBe('40-Pack cleaning');
    await screenshot(page, 'truth-search-too-long-1280');
    // Straight from a link, the server's 400 shows in the same place.
    await page.goto(`/admin?tab=orders&q=${'y'.repeat(120)}`);
    await page.locator('#order-search-error').waitFor();
    expect(await page.locator('#order-search-error').innerText()).toBe('Search text cannot exceed 100 characters');

    // The packing slip: the shop and its return address, #NUMBER as on the receipt, statuses in words.
    await page.goto(`/admin?tab=orders&view=packing&order=${klamath}`);
    const number = `#${klamath.slice(-8).toUpperCase()}`;
    await page.getByTestId('slip-order-number').waitFor();
    expect(await page.getByTestId('slip-order-number').innerText()).toBe(number);
    const returnAddress = page.locator('address[aria-label="Return address"]');
    expect(await returnAddress.innerText()).toContain('EcoClean');
    expect(await returnAddress.innerText()).toContain('12 Green Lane');
    expect(await page.getByTestId('slip-status').innerText()).toBe('Paid, to ship');
    expect(await page.getByRole('tabpanel').innerText()).not.toMatch(/\bcompleted\b|partially_refunded/);
    await page.getByTestId('slip-total').waitFor();
    await screenshot(page, 'truth-packing-slip-total-1280');
    await page.getByLabel('Gift: leave the order total off this slip').check();
    expect(await page.getByTestId('slip-total').count()).toBe(0);
    expect(await page.getByRole('tabpanel').innerText()).not.toContain('Order total');
    await screenshot(page, 'truth-packing-slip-gift-1280');
    // The printed document leaves it off too.
    const popup = page.waitForEvent('popup');
    await page.evaluate(() => {
      window.print = () => undefined;
    });
    await page.getByRole('button', { name: 'Print' }).click();
    const printed = await popup;
    await printed.waitForLoadState();
    const printedText = await printed.locator('body').innerText();
    expect(printedText).toContain(number);
    expect(printedText).toContain('12 Green Lane');
    expect(printedText).toContain('Paid, to ship');
    expect(printedText).not.toContain('Order total');
    await printed.close();

    // A phone: the slip, then the tab strip with a far tab selected, then the orders screen.
    await page.setViewportSize(MOBILE);
    await settle(page);
    await screenshot(page, 'truth-packing-slip-gift-390');
    for (const tab of ['email', 'homepage', 'categories']) {
      await page.goto(`/admin?tab=${tab}`);
      const selected = page.getByRole('tablist', { name: 'Admin sections' }).getByRole('tab', { selected: true });
      await selected.waitFor();
      await settle(page);
      const box = (await selected.boundingBox())!;
      expect(box.x, `${tab} tab starts on screen`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${tab} tab ends on screen`).toBeLessThanOrEqual(MOBILE.width);
      if (tab === 'email') await screenshot(page, 'truth-tab-strip-email-390');
    }
    // Changing tab with the keyboard keeps the new one in view.
    const strip = page.getByRole('tablist', { name: 'Admin sections' });
    await strip.getByRole('tab', { selected: true }).focus();
    await page.keyboard.press('End');
    await strip.getByRole('tab', { name: 'Email', selected: true }).waitFor();
    await settle(page);
    const end = (await strip.getByRole('tab', { selected: true }).boundingBox())!;
    expect(end.x + end.width).toBeLessThanOrEqual(MOBILE.width);

    await page.goto('/admin?tab=orders');
    const listHeading = page.getByRole('heading', { name: 'Orders', exact: true, level: 2 });
    const overviewHeading = page.getByRole('heading', { name: 'Overview', exact: true });
    await listHeading.waitFor();
    await overviewHeading.waitFor();
    await settle(page);
    const listY = (await listHeading.boundingBox())!.y;
    const overviewY = (await overviewHeading.boundingBox())!.y;
    expect(listY).toBeLessThan(overviewY);
    const orderTab = (await strip.getByRole('tab', { name: 'Orders', selected: true }).boundingBox())!;
    expect(orderTab.x).toBeGreaterThanOrEqual(0);
    await screenshot(page, 'truth-orders-list-first-390');
    await search(page, 'astoria');
    await rowOf(page, astoria).first().waitFor();
    await screenshot(page, 'truth-search-city-390');

    // At the desktop width the overview stays above the list.
    await page.setViewportSize(DESKTOP);
    await settle(page);
    expect((await listHeading.boundingBox())!.y).toBeGreaterThan((await overviewHeading.boundingBox())!.y);

    // A label, then the address changes: the edit form warns before saving, the order after.
    const settings = await call(page, 'PUT', '/api/admin/settings/integrations', {
      shipstation_api_key: 'ss-key',
      shipstation_api_secret: 'ss-secret',
      shipstation_enabled: true,
      shipstation_api_version: 'v2',
    });
    expect(settings.status).toBe(200);
    expect((await call(page, 'POST', `/api/admin/orders/${klamath}/shipstation`)).status).toBe(200);
    await page.goto(`/admin?tab=orders&view=details&order=${klamath}`);
    const tracking = page.getByTestId('admin-tracking');
    await tracking.waitFor();
    expect(await tracking.innerText()).toMatch(/tracking number: \S+/i);
    expect(await tracking.getByRole('link').count()).toBe(1);
    expect(await page.getByTestId('label-address-warning').count()).toBe(0);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit Order' }).waitFor();
    expect(await page.getByTestId('label-address-notice').count()).toBe(0);
    await page.locator('#order-city').fill('Coos Bay');
    await page.getByTestId('label-address-notice').waitFor();
    await screenshot(page, 'truth-edit-address-after-label-1280');
    await page.waitForTimeout(1200);
    await page.getByRole('button', { name: 'Update Order' }).click();
    await page.getByText('Order updated', { exact: true }).first().waitFor();
    await page.goto(`/admin?tab=orders&view=details&order=${klamath}`);
    await page.getByTestId('label-address-warning').waitFor();
    expect(await page.getByTestId('label-address-warning').innerText()).toContain('Void the label and buy a new one');
    expect(await page.getByRole('tabpanel').innerText()).toContain(`Order reference`);
    await screenshot(page, 'truth-order-address-warning-1280');
    await page.setViewportSize(MOBILE);
    await settle(page);
    await screenshot(page, 'truth-order-address-warning-390');

    expect(errors).toEqual([]);
    expect(customer.errors).toEqual([]);
  });
});
