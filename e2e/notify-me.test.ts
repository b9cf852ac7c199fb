import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN, call, signInThroughForm } from './helpers.js';
import { DESKTOP, launchBrowser, openPage, screenshotBothWidths } from './browser.js';
import { NOTIFY_ME, STOCK_LINE } from '../src/client/catalog/stock-text.js';

/**
 * "Notify me when it's back" (issue "[2/6] Stock with one owner", decision 0022): a sold-out
 * product offers it, with no account; the shopper leaves an e-mail and sees the shop's answer;
 * when the owner receives stock, that address gets one back-in-stock e-mail.
 */
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

const shots = (page: Page, name: string) => screenshotBothWidths(page, `notify-me-${name}`);

type OutboxEntry = { to: string; templateId: string | null; subject: string };

/** The back office's e-mail outbox, newest first (GET /api/admin/email-outbox). */
async function outbox(): Promise<OutboxEntry[]> {
  const res = await call(admin.page, 'GET', '/api/admin/email-outbox?page=1&pageSize=100');
  expect(res.status).toBe(200);
  return res.json.items as OutboxEntry[];
}

async function adjust(productId: string, body: { reason: string; quantity: number }): Promise<void> {
  const res = await call(admin.page, 'POST', `/api/admin/products/${encodeURIComponent(productId)}/stock`, body);
  expect(res.status).toBe(200);
}

describe('notify me when it is back', () => {
  it('a sold-out product takes an e-mail, and restocking it sends that address one e-mail', async () => {
    const name = `Notify Journey Squeegee ${Date.now().toString(36)}`;
    const created = await call(admin.page, 'POST', '/api/admin/products', {
      name,
      description: 'A product of the notify-me browser journey.',
      priceCents: 1299,
      inventory: 4,
    });
    expect(created.status).toBe(201);
    const productId = String((created.json.product as { id: string }).id);
    await adjust(productId, { reason: 'counted', quantity: 0 });
    const email = `waiting.${Date.now().toString(36)}@example.com`;

    const { context, page, errors } = await openPage(browser, DESKTOP);
    context.setDefaultTimeout(15_000);
    await page.goto(`/products/${productId}`);
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.getByText(STOCK_LINE.outOfStock, { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Add to Cart' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Buy Now' }).isDisabled()).toBe(true);
    const form = page.getByRole('region', { name: NOTIFY_ME.title });
    await form.waitFor();
    const field = form.getByLabel(NOTIFY_ME.emailLabel);
    await page.waitForFunction(() => !document.querySelector('main fieldset[disabled]'));
    await shots(page, 'form');

    // The shared schema checks the address in the browser first.
    await field.fill('not-an-address');
    await form.getByRole('button', { name: NOTIFY_ME.submit }).click();
    await form.getByRole('alert').getByText('Enter a valid e-mail address').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await shots(page, 'invalid');

    await field.fill(email);
    const answered = page.waitForResponse((r) => r.url().endsWith(`/api/products/${productId}/notify`));
    await form.getByRole('button', { name: NOTIFY_ME.submit }).click();
    expect((await answered).status()).toBe(202);
    await form.getByRole('status').getByText("We'll e-mail you when it's back in stock.").waitFor();
    await shots(page, 'saved');

    // The same address again (a second tab, a double submit): the same answer, one request.
    await page.reload();
    await form.getByLabel(NOTIFY_ME.emailLabel).fill(email.toUpperCase());
    const again = page.waitForResponse((r) => r.url().endsWith(`/api/products/${productId}/notify`));
    await form.getByRole('button', { name: NOTIFY_ME.submit }).click();
    expect((await again).status()).toBe(202);
    await form.getByRole('status').getByText("We'll e-mail you when it's back in stock.").waitFor();

    // The owner receives 3: the address gets one back-in-stock e-mail.
    await adjust(productId, { reason: 'received', quantity: 3 });
    await expect
      .poll(async () => (await outbox()).filter((m) => m.to === email && m.templateId === 'back-in-stock').length, { timeout: 10_000 })
      .toBe(1);
    // More stock later sends nothing more: the request was answered.
    await adjust(productId, { reason: 'received', quantity: 2 });
    expect((await outbox()).filter((m) => m.to === email).length).toBe(1);

    // The page offers it again.
    await page.reload();
    await page.getByText(STOCK_LINE.inStock(5), { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Add to Cart' }).isDisabled()).toBe(false);
    expect(await page.getByRole('region', { name: NOTIFY_ME.title }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('offers the product as soon as it comes back while the page is open, and says so to a form sent from a page that missed it', async () => {
    const name = `Notify Journey Duster ${Date.now().toString(36)}`;
    const created = await call(admin.page, 'POST', '/api/admin/products', {
      name,
      description: 'A product of the notify-me browser journey.',
      priceCents: 599,
      inventory: 0,
    });
    expect(created.status).toBe(201);
    const productId = String((created.json.product as { id: string }).id);

    // A live page hears the restock by itself: the form gives way to Add to Cart.
    const live = await openPage(browser, DESKTOP);
    live.context.setDefaultTimeout(15_000);
    await live.page.goto(`/products/${productId}`);
    await live.page.getByRole('region', { name: NOTIFY_ME.title }).waitFor();

    // A page that cannot hear it (offline a moment, the watch refused): the form stays open.
    const { context, page, errors } = await openPage(browser, DESKTOP);
    context.setDefaultTimeout(15_000);
    await page.route('**/api/stock/watch**', (route) => route.abort());
    await page.goto(`/products/${productId}`);
    const form = page.getByRole('region', { name: NOTIFY_ME.title });
    await form.waitFor();
    await page.waitForFunction(() => !document.querySelector('main fieldset[disabled]'));

    await adjust(productId, { reason: 'received', quantity: 7 });
    await live.page.getByText(STOCK_LINE.inStock(7), { exact: true }).waitFor();
    expect(await live.page.getByRole('button', { name: 'Add to Cart' }).isDisabled()).toBe(false);
    expect(await live.page.getByRole('region', { name: NOTIFY_ME.title }).count()).toBe(0);
    expect(live.errors).toEqual([]);
    await live.context.close();

    // The page that missed it is told when it sends the form, and asks again.
    await form.getByLabel(NOTIFY_ME.emailLabel).fill('late.shopper@example.com');
    const answered = page.waitForResponse((r) => r.url().endsWith(`/api/products/${productId}/notify`));
    await form.getByRole('button', { name: NOTIFY_ME.submit }).click();
    expect((await answered).status()).toBe(409);
    await page.getByText(STOCK_LINE.inStock(7), { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Add to Cart' }).isDisabled()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
