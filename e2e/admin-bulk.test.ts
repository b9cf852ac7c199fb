import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, CUSTOMER, call, checkout, signInThroughForm } from './helpers.js';
import { DESKTOP, MOBILE, launchBrowser, openPage, screenshot, settle } from './browser.js';

/**
 * The owner's busy day, in bulk (issue 28): select two orders, print their packing slips in one
 * view, change their status without e-mailing anyone; find products by name and mark two
 * featured at once; and a new order arriving in the open list, which refreshes every 30 s,
 * without losing the selection. At 1280 and 390 px.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function orderNumberOf(page: Page, id: string): Promise<string> {
  const res = await call(page, 'GET', `/api/admin/orders/${id}`);
  return String((res.json.order as { orderNumber: string }).orderNumber);
}

async function createProduct(page: Page, name: string, sku: string): Promise<string> {
  const res = await call(page, 'POST', '/api/admin/products', {
    name,
    description: 'A product of the bulk browser journey.',
    priceCents: 1234,
    inventory: 12,
    sku,
  });
  expect(res.status).toBe(201);
  return String((res.json.product as { id: string }).id);
}

for (const [size, viewport] of [
  ['1280', DESKTOP],
  ['390', MOBILE],
] as const) {
  describe(`work in bulk at ${size} px`, () => {
    it('selects two orders, prints their slips, changes their status quietly, sees a new order arrive; bulk-features found products', async () => {
      const customer = await openPage(browser, DESKTOP);
      await signInThroughForm(customer.page, CUSTOMER);
      const first = await checkout(customer.page, true);
      const second = await checkout(customer.page, true);

      const { page, errors } = await openPage(browser, viewport);
      await signInThroughForm(page, ADMIN);
      const [n1, n2] = [await orderNumberOf(page, first), await orderNumberOf(page, second)];

      await page.goto('/admin?tab=orders');
      const box1 = page.getByRole('checkbox', { name: `Select order ${n1}` });
      const box2 = page.getByRole('checkbox', { name: `Select order ${n2}` });
      await box1.check();
      await box2.check();
      const bar = page.getByRole('region', { name: 'Bulk actions' });
      await expect.poll(() => bar.innerText()).toContain('2 orders selected');
      await settle(page);
      await screenshot(page, `bulk-orders-selected-${size}`);

      // One print view, a slip per order, each on its own page; printed, only the slips show.
      await bar.getByRole('button', { name: 'Print packing slips' }).click();
      await page.getByRole('heading', { name: 'Packing slips' }).waitFor();
      await expect.poll(() => page.getByRole('heading', { name: 'Packing Slip', exact: true }).count()).toBe(2);
      await expect.poll(() => page.getByText('Ship To').count()).toBe(2);
      await settle(page);
      await screenshot(page, `bulk-slips-${size}`);
      await page.emulateMedia({ media: 'print' });
      await settle(page);
      await screenshot(page, `bulk-slips-print-${size}`);
      expect(await page.getByRole('button', { name: /Print all/ }).isVisible()).toBe(false);
      expect(await page.getByRole('banner').isVisible()).toBe(false);
      if (size === '1280') {
        // One print job, one page per slip: the printed document has two pages.
        const pdf = (await page.pdf({ format: 'Letter' })).toString('latin1');
        expect(pdf.match(/\/Type\s*\/Page[^s]/g)?.length).toBe(2);
      }
      await page.emulateMedia({ media: 'screen' });
      await page.getByRole('button', { name: 'Back to orders' }).first().click();

      // Back in the list, the selection is kept; the status changes without e-mailing anyone.
      await expect.poll(() => box1.isChecked()).toBe(true);
      await bar.getByLabel('Set status').selectOption('processing');
      await bar.getByLabel('Notify the customers').uncheck();
      await bar.getByRole('button', { name: 'Apply' }).click();
      const confirm = page.getByRole('dialog', { name: 'Change the status of the selected orders?' });
      await expect.poll(() => confirm.innerText()).toContain('No customer will be e-mailed');
      await confirm.getByRole('button', { name: 'Change status' }).click();
      const results = page.getByRole('dialog', { name: 'Status change' });
      await expect.poll(() => results.innerText()).toContain('2 of 2 done');
      await settle(page);
      await page.screenshot({ path: `test-results/screenshots/bulk-status-results-${size}.png` });
      await results.getByRole('button', { name: 'Close' }).last().click();
      for (const id of [first, second]) {
        const o = (await call(page, 'GET', `/api/admin/orders/${id}`)).json.order as { status: string };
        expect(o.status).toBe('processing');
        const events = (await call(page, 'GET', `/api/admin/orders/${id}/events`)).json.events as {
          type: string;
          data?: { templateId?: string };
        }[];
        expect(events.some((e) => e.type === 'email.queued' && e.data?.templateId === 'order-status-update')).toBe(false);
      }

      // A new order arrives while the list is open with a selection: counted, highlighted, selection kept.
      await box1.check();
      const third = await checkout(customer.page, true);
      const n3 = await orderNumberOf(page, third);
      await page.getByText('1 new order').waitFor({ timeout: 45_000 });
      await expect.poll(() => box1.isChecked()).toBe(true);
      expect(await page.getByRole('checkbox', { name: `Select order ${n3}` }).isVisible()).toBe(true);
      await settle(page);
      await screenshot(page, `bulk-new-order-${size}`);
      await page.getByRole('button', { name: 'Clear selection' }).click();

      // Products: search by name, select two, mark them featured at once.
      const tag = `Bulkjourney${size}`;
      const ids = [await createProduct(page, `${tag} Cloth`, `BJ-${size}-1`), await createProduct(page, `${tag} Mop`, `BJ-${size}-2`)];
      await page.goto('/admin?tab=products');
      await page.getByLabel('Search products').fill(tag.toLowerCase());
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      // The search's result, not the list before it (which, newest first, also shows both): every row is one of the two.
      await expect.poll(() => page.getByRole('checkbox', { name: /^Select (?!all )/ }).count()).toBe(2);
      expect(await page.getByRole('checkbox', { name: /^Select Bulkjourney/ }).count()).toBe(2);
      // On a phone the table's heading is hidden: "Select all on this page" stands above the cards.
      const selectAll = page.getByRole('checkbox', {
        name: size === '1280' ? 'Select all products on this page' : 'Select all on this page',
        exact: true,
      });
      // While the list sorted anew is on its way, the old one stays on screen, and "select all" waits for the new.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/api\/admin\/products\?.*sort=name/, async (route) => {
        await held;
        await route.continue();
      });
      await page.getByLabel('Sort').selectOption('name');
      await expect.poll(() => selectAll.isDisabled()).toBe(true);
      await screenshot(page, `bulk-products-sorting-${size}`);
      release();
      await selectAll.check();
      await page.unroute(/\/api\/admin\/products\?.*sort=name/);
      const productBar = page.getByRole('region', { name: 'Bulk actions' });
      await expect.poll(() => productBar.innerText()).toContain('2 products selected');
      await settle(page);
      await screenshot(page, `bulk-products-selected-${size}`);
      await productBar.getByRole('button', { name: 'Mark featured', exact: true }).click();
      const done = page.getByRole('dialog', { name: 'Mark featured' });
      await expect.poll(() => done.innerText()).toContain('2 of 2 done');
      await done.getByRole('button', { name: 'Close' }).last().click();
      const list = (await call(page, 'GET', `/api/admin/products?search=${tag}`)).json.items as { id: string; featured: boolean }[];
      expect(list.filter((p) => ids.includes(p.id)).every((p) => p.featured)).toBe(true);
      await expect.poll(() => page.getByRole('cell', { name: 'Yes' }).count()).toBe(2);
      await settle(page);
      await screenshot(page, `bulk-products-featured-${size}`);

      // Settings → Notifications: the shop's own e-mails, each switched on or off, sent to the contact address.
      await page.goto('/admin?tab=settings&section=notifications');
      const panel = page.getByRole('tabpanel', { name: 'Notifications' });
      await expect.poll(() => panel.innerText()).toContain('Sent to');
      const newOrders = panel.getByRole('switch', { name: 'E-mail me each paid order' });
      expect(await newOrders.isChecked()).toBe(true);
      await newOrders.uncheck({ force: true });
      await panel.getByRole('button', { name: 'Save Notification Settings' }).click();
      await page.getByText('Notification settings have been saved successfully.').first().waitFor();
      const saved = (await call(page, 'GET', '/api/admin/settings')).json.settings as Record<string, string>;
      expect(saved.shop_email_new_order).toBe('false');
      await settle(page);
      await screenshot(page, `bulk-notification-settings-${size}`);
      await newOrders.check({ force: true });
      await panel.getByRole('button', { name: 'Save Notification Settings' }).click();
      await expect
        .poll(async () => ((await call(page, 'GET', '/api/admin/settings')).json.settings as Record<string, string>).shop_email_new_order)
        .toBe('true');

      expect(errors).toEqual([]);
      await page.context().close();
      await customer.context.close();
    }, 150_000);
  });
}
