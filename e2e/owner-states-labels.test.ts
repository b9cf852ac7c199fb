import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { WIDTHS, launchBrowser, openPage, screenshot, settle } from './browser.js';
import { ADMIN, SHIPPING_ADDRESS, call, signInThroughForm, toast, toggle } from './helpers.js';

/**
 * Issue [1/8], the owner's order states and labels: the status menu offers only what the server
 * allows, a label bought is printed from the shop (one order, and after a bulk purchase), voiding
 * it puts back the status it had, a cancelled order is not offered a label, and sales by product
 * show each version sold.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const UNSCENTED_32 = 'var_concentrated-cleaner-unscented-32-oz';
const LEMON_16 = 'var_concentrated-cleaner-lemon-16-oz';
/** Two versions of the cleaner (the sales table's version lines), or a pack of cloths. */
const TWO_VERSIONS = [
  { productId: 'concentrated-cleaner', variantId: UNSCENTED_32, quantity: 1 },
  { productId: 'concentrated-cleaner', variantId: LEMON_16, quantity: 1 },
];
const CLOTHS = [{ productId: 'cloth-5-pack', quantity: 1 }];

/** A guest's paid order, paid on the test card page. */
async function paidOrder(page: Page, email: string, items: object[] = CLOTHS): Promise<string> {
  const res = await page.request.post('/api/create-checkout-session', {
    headers: { origin: inject('baseUrl') },
    data: {
      items,
      customerEmail: email,
      shippingAddress: SHIPPING_ADDRESS,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
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

async function enableShipStation(page: Page): Promise<void> {
  await page.goto('/admin?tab=settings');
  await page.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab', { name: 'Integrations' }).click();
  const enable = page.getByRole('switch', { name: 'Enable ShipStation' });
  await enable.waitFor({ state: 'attached' });
  if (await enable.isChecked()) return;
  await toggle(page, enable);
  await page.getByLabel('API key').fill('ss-key');
  await page.getByRole('button', { name: 'Save Integration Settings' }).click();
  await page
    .getByText(/saved successfully/)
    .first()
    .waitFor();
}

const short = (id: string) => id.slice(-8).toUpperCase();

async function openOrder(page: Page, orderId: string): Promise<void> {
  await page.goto('/admin?tab=orders');
  const search = page.getByRole('searchbox', { name: 'Search orders' });
  await search.fill(short(orderId));
  await search.press('Enter');
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: short(orderId), exact: true }) });
  await row.getByRole('button', { name: /^View order/ }).click();
  await page.getByRole('heading', { name: 'Shipping service' }).waitFor();
}

describe("the owner's order states and labels", () => {
  for (const [label, viewport] of WIDTHS) {
    it(`offers only allowed moves, prints labels, voids back, refuses a cancelled order's label (${label})`, async () => {
      const customer = await openPage(browser, viewport);
      const [one, cancelled, bulkA, bulkB] = [
        await paidOrder(customer.page, `states-one-${label}@example.com`, TWO_VERSIONS),
        await paidOrder(customer.page, `states-cancelled-${label}@example.com`),
        await paidOrder(customer.page, `states-bulk-a-${label}@example.com`),
        await paidOrder(customer.page, `states-bulk-b-${label}@example.com`),
      ];

      const { page, context, errors } = await openPage(browser, viewport);
      await signInThroughForm(page, ADMIN);
      await enableShipStation(page);

      // A paid order: its menu has no "pending" (waiting for payment) any more.
      await openOrder(page, one);
      const details = page.locator('main');
      const menu = details.getByRole('combobox', { name: 'Change status' });
      await expect
        .poll(() => menu.locator('option').allTextContents())
        .toEqual(['processing', 'shipped', 'delivered', 'cancelled', 'completed']);

      await details.getByRole('button', { name: 'Send to ShipStation' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Buy label' }).click();
      await toast(page, 'Sent to ShipStation').waitFor();
      const print = details.getByRole('link', { name: /^Print label/ });
      await print.waitFor();
      expect(await print.getAttribute('href')).toBe(`/api/admin/orders/${one}/label`);
      expect(await print.getAttribute('target')).toBe('_blank');
      // The link opens the label PDF (ShipStation's download, through the shop's admin-only address).
      const pdf = await page.request.get(`/api/admin/orders/${one}/label`);
      expect(pdf.status()).toBe(200);
      expect(pdf.headers()['content-type']).toBe('application/pdf');
      expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
      await settle(page);
      await screenshot(page, `owner-states-print-label-${label}`);

      // Voiding puts back the status it had before the label: paid, not yet prepared (completed).
      await details.getByRole('button', { name: 'Void label' }).click();
      const voidDialog = page.getByRole('dialog');
      await voidDialog.getByText('goes back to the status it had before the label').waitFor();
      await voidDialog.getByRole('button', { name: 'Void label' }).click();
      await toast(page, 'Label voided').waitFor();
      await details.getByRole('button', { name: 'Send to ShipStation' }).waitFor();
      await expect.poll(() => menu.inputValue()).toBe('completed');
      expect(await details.getByRole('link', { name: /^Print label/ }).count()).toBe(0);

      // A cancelled order (cancelled by the owner elsewhere): no label offered, and why.
      expect((await call(page, 'PATCH', `/api/admin/orders/${cancelled}/status`, { status: 'cancelled' })).status).toBe(200);
      await openOrder(page, cancelled);
      await details
        .getByTestId('label-refusal')
        .getByText('This order is cancelled: it cannot be marked shipped or given a label.')
        .waitFor();
      expect(await details.getByRole('button', { name: 'Send to ShipStation' }).count()).toBe(0);
      await expect.poll(() => menu.locator('option').allTextContents()).toEqual(['processing', 'cancelled', 'completed']);
      await settle(page);
      await screenshot(page, `owner-states-cancelled-${label}`);

      // Bulk: two labels bought at once, then printed from the list.
      await page.goto('/admin?tab=orders');
      for (const id of [bulkA, bulkB]) {
        const search = page.getByRole('searchbox', { name: 'Search orders' });
        await search.fill(short(id));
        await search.press('Enter');
        await page.getByRole('checkbox', { name: `Select order ${short(id)}` }).check();
      }
      const bar = page.getByRole('region', { name: 'Bulk actions' });
      await bar.getByText('2 orders selected').waitFor();
      await bar.getByRole('button', { name: 'Buy labels' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Buy labels' }).click();
      const results = page.getByRole('dialog', { name: 'Shipping labels' });
      await results.getByText('2 of 2 done').waitFor();
      await results.getByRole('button', { name: 'Close', exact: true }).last().click();
      const toPrint = page.getByRole('region', { name: 'Print labels' });
      for (const id of [bulkA, bulkB]) {
        const link = toPrint.getByRole('link', { name: new RegExp(`^Print label #${short(id)}`) });
        expect(await link.getAttribute('href')).toBe(`/api/admin/orders/${id}/label`);
        expect((await page.request.get(`/api/admin/orders/${id}/label`)).headers()['content-type']).toBe('application/pdf');
      }
      await settle(page);
      await screenshot(page, `owner-states-bulk-print-${label}`);

      // Sales by product: each version of the cleaner on its own line under the product.
      await page.goto('/admin?tab=orders');
      const sales = page.getByRole('region', { name: 'Sales by product table' });
      await sales.waitFor();
      await sales.getByRole('rowheader', { name: /Concentrated All-Purpose Cleaner, Unscented, 32 oz/ }).waitFor();
      await sales.getByRole('rowheader', { name: /Concentrated All-Purpose Cleaner, Lemon, 16 oz/ }).waitFor();
      await settle(page);
      await screenshot(page, `owner-states-sales-by-variant-${label}`);

      expect(errors).toEqual([]);
      expect(customer.errors).toEqual([]);
      await context.close();
      await customer.context.close();
    });
  }
});
