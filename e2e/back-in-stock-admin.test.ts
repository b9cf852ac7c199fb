import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN, call, signInThroughForm } from './helpers.js';
import { DESKTOP, launchBrowser, openPage, screenshotBothWidths, settle } from './browser.js';
import { BACK_IN_STOCK_ADMIN_TEXT } from '../src/shared/schemas/inventory.js';
import { NOTIFY_ME } from '../src/client/catalog/stock-text.js';

/**
 * What shoppers wait for (issue [2/8], decision 0041): a shopper asks to be told when the sold-out
 * Lemon 32 oz is back (the form names it), and the owner's Products tab shows how many wait for
 * which product and version, and since when.
 */
const RUN = Date.now().toString(36);
const LEMON = 'var_concentrated-cleaner-lemon-32-oz';
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

describe('back-in-stock requests', () => {
  it('a shopper asks for the variant the form names; the owner sees who waits for what', async () => {
    // The shopper's side: the form names the version chosen, and takes the address.
    const shopper = await openPage(browser, DESKTOP);
    shopper.context.setDefaultTimeout(15_000);
    await shopper.page.goto(`/products/concentrated-cleaner?variant=${LEMON}`);
    await shopper.page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    const form = shopper.page.getByRole('region', { name: NOTIFY_ME.titleFor('Lemon, 32 oz') });
    await form.waitFor();
    await form.getByLabel(NOTIFY_ME.emailLabel).fill(`lemon-${RUN}@example.com`);
    const answered = shopper.page.waitForResponse((r) => r.url().endsWith('/api/products/concentrated-cleaner/notify'));
    await form.getByRole('button', { name: NOTIFY_ME.submit }).click();
    expect((await answered).status()).toBe(202);
    await form.getByRole('status').waitFor();
    await settle(shopper.page);
    await screenshotBothWidths(shopper.page, 'notify-me-variant');
    expect(shopper.errors).toEqual([]);

    // Two more wait for a product of this run.
    const name = `Awaited Sponge ${RUN}`;
    const created = await call(admin.page, 'POST', '/api/admin/products', {
      name,
      description: 'Sold out for the journey.',
      priceCents: 700,
      inventory: 0,
    });
    expect(created.status).toBe(201);
    const productId = String((created.json.product as { id: string }).id);
    for (const who of ['a', 'b']) {
      const res = await shopper.page.request.post(`/api/products/${productId}/notify`, {
        headers: { origin: inject('baseUrl') },
        data: { email: `${who}-${RUN}@example.com` },
      });
      expect(res.status()).toBe(202);
    }

    const { page, errors } = admin;
    await page.goto('/admin?tab=products');
    const panel = page.getByRole('region', { name: BACK_IN_STOCK_ADMIN_TEXT.title });
    const sponge = panel.getByRole('row').filter({ hasText: name });
    await sponge.waitFor();
    expect(await sponge.textContent()).toContain('2');
    const lemon = panel.getByRole('row').filter({ hasText: 'Concentrated All-Purpose Cleaner — Lemon, 32 oz' });
    await lemon.waitFor();
    expect(await panel.textContent()).not.toContain('@example.com');
    await panel.scrollIntoViewIfNeeded();
    await settle(page);
    await screenshotBothWidths(page, 'back-in-stock-panel');
    expect(errors).toEqual([]);
  });
});
