import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN, call, SHIPPING_ADDRESS, signInThroughForm, toast } from './helpers.js';
import { DESKTOP, dialogShots, launchBrowser, openPage, screenshotBothWidths, settle } from './browser.js';
import { HOLDS_MESSAGES } from '../src/shared/schemas/holds.js';

/**
 * The owner sees what unpaid checkouts hold and ends one (issue [2/8], decision 0042): the Products
 * tab's "Held in checkouts" panel lists the hold with its units, checkout and e-mail; "End hold"
 * asks first, then the checkout ends and its units are on sale again.
 */
const RUN = Date.now().toString(36);
let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await openPage(browser, DESKTOP);
  admin.context.setDefaultTimeout(15_000);
  await signInThroughForm(admin.page, ADMIN);
});
afterAll(async () => {
  await browser?.close();
});

describe('holds in the back office', () => {
  it('lists a checkout’s hold and ends it after a confirmation', async () => {
    const { page, errors } = admin;
    const name = `Held Jar ${RUN}`;
    const created = await call(page, 'POST', '/api/admin/products', {
      name,
      description: 'A jar the holds journey holds.',
      priceCents: 1500,
      inventory: 3,
      sku: `HOLD-${RUN}`,
    });
    expect(created.status).toBe(201);
    const productId = String((created.json.product as { id: string }).id);

    // A guest starts a checkout of two and leaves it unpaid.
    const shopper = await openPage(browser, DESKTOP);
    const email = `holder-${RUN}@example.com`;
    const res = await shopper.page.request.post('/api/create-checkout-session', {
      headers: { origin: inject('baseUrl') },
      data: { items: [{ productId, quantity: 2 }], customerEmail: email, shippingAddress: SHIPPING_ADDRESS },
    });
    expect(res.status()).toBe(200);
    const { orderId } = (await res.json()) as { orderId: string };
    const order = await call(page, 'GET', `/api/admin/orders/${orderId}`);
    const orderNumber = String((order.json.order as { orderNumber: string }).orderNumber);

    await page.goto('/admin?tab=products');
    const panel = page.getByRole('region', { name: HOLDS_MESSAGES.title });
    const row = panel.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    expect(await row.textContent()).toContain(email);
    expect(await row.textContent()).toContain(`#${orderNumber}`);
    expect(await row.textContent()).toContain(HOLDS_MESSAGES.keeping);
    await panel.scrollIntoViewIfNeeded();
    await settle(page);
    await screenshotBothWidths(page, 'holds-panel');

    await row.getByRole('button', { name: `${HOLDS_MESSAGES.endButton} of checkout #${orderNumber}` }).click();
    const dialog = page.getByRole('dialog', { name: HOLDS_MESSAGES.endButton });
    await dialog.getByText(HOLDS_MESSAGES.confirm(orderNumber, 2)).waitFor();
    await dialogShots(page, dialog.getByRole('button', { name: HOLDS_MESSAGES.endButton }), 'holds-end-confirm');
    await dialog.getByRole('button', { name: HOLDS_MESSAGES.endButton }).click();
    await toast(page, HOLDS_MESSAGES.ended(orderNumber)).waitFor();
    await row.waitFor({ state: 'detached' });

    // The checkout has ended: the units are on sale again.
    const stock = await call(page, 'GET', `/api/admin/products/${productId}/stock`);
    expect(stock.json.stock).toMatchObject({ onHand: 3, reserved: 0, available: 3 });
    const ended = await call(page, 'GET', `/api/admin/orders/${orderId}`);
    expect(ended.json.order).toMatchObject({ status: 'cancelled' });
    expect(errors).toEqual([]);
    await shopper.context.close();
  });
});
