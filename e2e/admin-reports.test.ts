import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, CUSTOMER, checkout, signInThroughForm, toast } from './helpers.js';
import { DESKTOP, launchBrowser, openPage, screenshotBothWidths, settle } from './browser.js';

/**
 * Reports by period (issue [4/6]): the owner sets the shop's time zone, picks a custom period on
 * the Orders overview, reads its sales by product, downloads that period's CSV, and filters the
 * order list by dates.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const ZONE = 'America/Chicago';
/** 'YYYY-MM-DD' of the day `daysAgo` days before today, where the shop is. */
function shopDay(daysAgo = 0): string {
  const d = new Date(Date.now() - daysAgo * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
}

/** Both widths from the top of the page, the pointer out of the way (no tooltip), charts drawn without animation. */
async function shots(page: Page, name: string) {
  await page.mouse.move(0, 0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await settle(page);
  await screenshotBothWidths(page, `reports-${name}`);
}

describe('reports by period', () => {
  it('sets the time zone, picks a custom period, reads sales by product and downloads its CSV', async () => {
    const customer = await openPage(browser, DESKTOP);
    await signInThroughForm(customer.page, CUSTOMER);
    const orderId = await checkout(customer.page, true);

    const { page, errors } = await openPage(browser, DESKTOP);
    // The charts skip their entry animation, so a screenshot after a resize shows them drawn.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await signInThroughForm(page, ADMIN);

    // Settings › General: a name no one knows is refused where it was typed; a real one is saved.
    await page.goto('/admin?tab=settings&section=general');
    const zone = page.getByLabel('Shop time zone');
    await zone.waitFor();
    expect(await zone.inputValue()).toBe('America/New_York');
    expect(await zone.getAttribute('maxlength')).toBe('64');
    await zone.fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Save Time Zone' }).click();
    await page.getByText('Unknown time zone: choose one from the list').first().waitFor();
    expect(await zone.getAttribute('aria-invalid')).toBe('true');
    await zone.fill(ZONE);
    await page.getByRole('button', { name: 'Save Time Zone' }).click();
    await toast(page, "The shop's days now follow this time zone.").waitFor();
    await shots(page, 'settings-time-zone');

    // The overview: a custom period of the last three days, its days in the shop's time zone.
    await page.goto('/admin?tab=orders');
    const overview = page.getByRole('region', { name: 'Overview' });
    await overview.getByTestId('overview-period').waitFor();
    expect(await overview.getByTestId('overview-period').innerText()).toContain('America/Chicago');
    await overview.getByLabel('Period').selectOption('custom');
    const from = overview.getByLabel('From', { exact: true });
    const to = overview.getByLabel('To', { exact: true });
    // A period that runs backwards says so, and nothing is asked of the server.
    await from.fill(shopDay(0));
    await to.fill(shopDay(2));
    await overview.getByRole('button', { name: 'Apply' }).click();
    await overview.getByText('The start date must be on or before the end date').waitFor();
    await from.fill(shopDay(2));
    await to.fill(shopDay(0));
    const answered = page.waitForResponse((r) => r.url().includes('/api/admin/orders/overview') && r.url().includes(`from=${shopDay(2)}`));
    await overview.getByRole('button', { name: 'Apply' }).click();
    expect((await answered).status()).toBe(200);
    expect(new URL(page.url()).searchParams.get('periodFrom')).toBe(shopDay(2));
    await overview.getByText('Orders, ', { exact: false }).first().waitFor();

    // Sales by product: the customer's two 5-packs are there.
    const sales = overview.getByRole('region', { name: /^Sales by product, / });
    await sales.waitFor();
    const rows = sales.getByRole('row');
    expect(await rows.count()).toBeGreaterThan(1);
    const body = await sales.innerText();
    expect(body).toMatch(/units sold/i);
    const units = await page.request.get(`/api/admin/orders/overview?from=${shopDay(2)}&to=${shopDay(0)}`);
    const products = ((await units.json()) as { products: { name: string; units: number }[] }).products;
    expect(products.reduce((n, p) => n + p.units, 0)).toBeGreaterThanOrEqual(2);
    expect(body).toContain(products[0]!.name);
    await overview.scrollIntoViewIfNeeded();
    await shots(page, 'overview-custom-period');

    // The period's orders as CSV: the order is in it, its dates as a spreadsheet reads them.
    const downloading = page.waitForEvent('download');
    await overview.getByRole('link', { name: /^Orders CSV/ }).click();
    const download = await downloading;
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    const [header, ...lines] = csv.trim().split('\r\n');
    expect(header).toContain('Shipping address');
    expect(header).toContain('Payment date');
    expect(header).toContain('Carrier');
    const line = lines.find((l) => l.includes(orderId));
    expect(line).toBeDefined();
    expect(line).toMatch(new RegExp(`,${orderId},${shopDay(0)} \\d{2}:\\d{2},`));
    expect(line).not.toMatch(/\d{2}:\d{2}:\d{2}\.\d{3}Z/);
    const customers = overview.getByRole('link', { name: /^Customers CSV/ });
    expect(await customers.getAttribute('href')).toBe(`/api/admin/exports/customers.csv?from=${shopDay(2)}&to=${shopDay(0)}`);

    // The order list's own date filter; its export links carry the period.
    const list = page.getByRole('form', { name: 'Orders placed' });
    await list.getByLabel('From', { exact: true }).fill(shopDay(0));
    await list.getByLabel('To', { exact: true }).fill(shopDay(0));
    await list.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL((u) => u.searchParams.get('from') === shopDay(0));
    await page.getByRole('button', { name: 'Clear dates' }).waitFor();
    await page.getByText(orderId.slice(-8).toUpperCase()).first().waitFor();
    expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toContain(`from=${shopDay(0)}&to=${shopDay(0)}`);
    await page.getByRole('heading', { name: 'Orders', exact: true }).scrollIntoViewIfNeeded();
    await shots(page, 'order-list-period');

    expect(errors).toEqual([]);
  });
});
