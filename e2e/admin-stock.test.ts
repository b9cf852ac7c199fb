import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { ADMIN, call, signInThroughForm, toast } from './helpers.js';
import { DESKTOP, dialogShots, launchBrowser, openPage, screenshotBothWidths } from './browser.js';
import { INVENTORY_MESSAGES, type StockHistoryPage } from '../src/shared/schemas/inventory.js';

/**
 * The owner's stock (issue "[2/6] Stock with one owner"): a new product's opening stock and
 * threshold, the edit dialog's read-only level, Adjust stock (received, then a shelf count) with
 * the history it leaves, a save that sends no stock figure, and the Products tab's stock filter,
 * order and badges.
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

async function stockOf(page: Page, id: string): Promise<StockHistoryPage> {
  const res = await call(page, 'GET', `/api/admin/products/${id}/stock`);
  expect(res.status).toBe(200);
  return res.json as unknown as StockHistoryPage;
}

/** The history table's rows as text, cell by cell (header row left out). */
async function historyRows(dialog: Locator): Promise<string[][]> {
  const table = dialog.getByRole('table', { name: 'Stock history, newest first' });
  await table.waitFor();
  return table.evaluate((t) =>
    [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())),
  );
}

describe('stock in the back office', () => {
  it('opens with its stock, is adjusted (received, then counted) and shows the history; saving sends no stock', async () => {
    const { page, errors } = admin;
    const name = `Stock Journey Sponge ${RUN}`;

    // ---- Add Product: Inventory is the opening stock, the threshold defaults to 10.
    await page.goto('/admin?tab=products');
    await page.getByRole('button', { name: 'Add Product' }).click();
    const add = page.getByRole('dialog', { name: 'Add Product' });
    expect(await add.getByLabel('Low-stock threshold').inputValue()).toBe('10');
    await add.getByLabel('Name').fill(name);
    await add.getByLabel('Description').fill('A sponge made by the stock journey.');
    await add.getByLabel('Price ($)').fill('3.50');
    await add.getByLabel('Inventory').fill('12');
    await add.getByLabel('Low-stock threshold').fill('8');
    const created = page.waitForResponse((r) => r.url().endsWith('/api/admin/products') && r.request().method() === 'POST');
    await add.getByRole('button', { name: 'Save Product' }).click();
    const createdRes = await created;
    expect(createdRes.status()).toBe(201);
    const productId = ((await createdRes.json()) as { product: { id: string } }).product.id;
    await toast(page, 'Product has been saved successfully.').waitFor();
    const opening = await stockOf(page, productId);
    expect(opening.stock).toMatchObject({ onHand: 12, reserved: 0, available: 12, lowStockThreshold: 8 });
    expect(opening.items.map((m) => [m.kind, m.quantity, m.levelAfter, m.actor])).toEqual([['opening', 12, 12, ADMIN.email]]);

    // ---- Edit: the level is read-only, no inventory field; the history has the opening row.
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Product' });
    const level = dialog.getByTestId('stock-level');
    await level.getByText('On hand 12 · 0 in checkouts · 12 available').waitFor();
    expect(await dialog.getByLabel('Inventory').count()).toBe(0);
    expect(await dialog.getByLabel('Low-stock threshold').inputValue()).toBe('8');
    expect(await historyRows(dialog)).toEqual([[expect.any(String), 'Opening stock', '+12', '12', ADMIN.email, '—']]);

    // ---- A mistake first: no quantity (the form's message), then more damaged than there is (the server's, at the field).
    const quantity = dialog.getByLabel('Quantity');
    const save = dialog.getByRole('button', { name: 'Save adjustment' });
    await save.click();
    await dialog.getByText(INVENTORY_MESSAGES.quantityNeeded).waitFor();
    expect(await quantity.getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('Reason').selectOption('damaged');
    await quantity.fill('20');
    await save.click();
    await dialog.getByText(INVENTORY_MESSAGES.belowZero(12, -20)).waitFor();
    expect((await stockOf(page, productId)).stock.onHand).toBe(12);

    // ---- Received +5, with a note.
    await dialog.getByLabel('Reason').selectOption('received');
    await quantity.fill('5');
    await dialog.getByLabel('Note (optional)').fill('Supplier delivery');
    await save.click();
    await toast(page, 'Stock updated').waitFor();
    await level.getByText('On hand 17 · 0 in checkouts · 17 available').waitFor();
    expect(await quantity.inputValue()).toBe('');
    await expect.poll(async () => (await historyRows(dialog)).length).toBe(2);
    expect((await historyRows(dialog))[0]).toEqual([expect.any(String), 'Received', '+5', '17', ADMIN.email, 'Supplier delivery']);

    // ---- Counted 6 on the shelf: the level becomes 6 (a change of −11), at or below the threshold: Low.
    await dialog.getByLabel('Reason').selectOption('counted');
    await quantity.fill('6');
    await save.click();
    await level.getByText('On hand 6 · 0 in checkouts · 6 available').waitFor();
    await level.getByText('Low', { exact: true }).waitFor();
    await expect.poll(async () => (await historyRows(dialog)).length).toBe(3);
    const rows = await historyRows(dialog);
    expect(rows.map((r) => r.slice(1, 4))).toEqual([
      ['Counted', '−11', '6'],
      ['Received', '+5', '17'],
      ['Opening stock', '+12', '12'],
    ]);
    expect(rows[0]![5]).toBe('Counted 6');
    const after = await stockOf(page, productId);
    expect(after.stock).toMatchObject({ onHand: 6, available: 6, alertState: 'low' });
    expect(after.items.map((m) => [m.kind, m.quantity, m.levelAfter])).toEqual([
      ['counted', -11, 6],
      ['received', 5, 17],
      ['opening', 12, 12],
    ]);
    await dialogShots(page, dialog.getByRole('heading', { name: 'Adjust stock' }), 'admin-stock-dialog');
    await dialogShots(page, dialog.getByRole('table', { name: 'Stock history, newest first' }), 'admin-stock-history');
    await dialogShots(page, dialog.getByTestId('stock-level'), 'admin-stock-level');

    // ---- Save Product: a new price and threshold, never a stock figure; the level stays.
    await dialog.getByLabel('Price ($)').fill('3.75');
    await dialog.getByLabel('Low-stock threshold').fill('5');
    const put = page.waitForRequest((r) => r.url().endsWith(`/api/admin/products/${productId}`) && r.method() === 'PUT');
    await dialog.getByRole('button', { name: 'Save Product' }).click();
    const body = (await put).postDataJSON() as Record<string, unknown>;
    expect(body).not.toHaveProperty('inventory');
    expect(body).toMatchObject({ priceCents: 375, lowStockThreshold: 5 });
    await toast(page, 'Product has been saved successfully.').waitFor();
    expect((await stockOf(page, productId)).stock).toMatchObject({ onHand: 6, lowStockThreshold: 5 });

    // The server refuses a stock figure on a product save (what an old form would send).
    const refused = await call(page, 'PUT', `/api/admin/products/${productId}`, {
      name,
      description: 'A sponge made by the stock journey.',
      priceCents: 375,
      inventory: 99,
    });
    expect(refused.status).toBe(400);
    expect((await stockOf(page, productId)).stock.onHand).toBe(6);
    expect(errors).toEqual([]);
  });

  it('the Products tab filters by stock, sorts lowest first and flags Low and Sold out', async () => {
    const { page, errors } = admin;
    const make = async (label: string, inventory: number, lowStockThreshold: number) => {
      const res = await call(page, 'POST', '/api/admin/products', {
        name: `Stock Filter ${label} ${RUN}`,
        description: 'A product of the stock filter journey.',
        priceCents: 500,
        inventory,
        lowStockThreshold,
      });
      expect(res.status).toBe(201);
      return { id: (res.json.product as { id: string }).id, name: `Stock Filter ${label} ${RUN}` };
    };
    const plenty = await make('Plenty', 400, 10);
    const low = await make('Low', 3, 10);
    const gone = await make('Gone', 1, 10);
    // Sold out by a count of the shelf.
    expect((await call(page, 'POST', `/api/admin/products/${gone.id}/stock`, { reason: 'counted', quantity: 0 })).status).toBe(200);

    const row = (p: { name: string }) => page.getByRole('row').filter({ hasText: p.name });
    await page.goto('/admin?tab=products');
    await row(plenty).waitFor();
    expect(
      await row(plenty)
        .getByText(/^(Low|Sold out)$/)
        .count(),
    ).toBe(0);
    await row(low).getByText('Low', { exact: true }).waitFor();
    await row(gone).getByText('Sold out', { exact: true }).waitFor();

    // Low stock: at or below the threshold, sold out included; the URL keeps it.
    await page.getByLabel('Stock', { exact: true }).selectOption('low');
    await page.waitForURL(/stock=low/);
    await row(low).waitFor();
    await row(gone).waitFor();
    await expect.poll(() => row(plenty).count()).toBe(0);
    await page.reload();
    expect(await page.getByLabel('Stock', { exact: true }).inputValue()).toBe('low');
    await row(low).waitFor();

    // Sold out only.
    await page.getByLabel('Stock', { exact: true }).selectOption('out');
    await page.waitForURL(/stock=out/);
    await row(gone).waitFor();
    await expect.poll(() => row(low).count()).toBe(0);

    // All, lowest stock first: no row above has more than the row under it.
    await page.getByLabel('Stock', { exact: true }).selectOption('all');
    await page.getByLabel('Sort').selectOption('stock-asc');
    await page.waitForURL(/sort=stock-asc/);
    await page.getByRole('table', { name: 'Products, lowest stock first' }).waitFor();
    // (The last page stays on screen, marked busy, until the new one arrives.)
    await row(low).waitFor();
    await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
    const levels = await page
      .getByRole('table', { name: 'Products, lowest stock first' })
      .evaluate((t) =>
        [...t.querySelectorAll('tbody tr')].map((tr) =>
          Number((tr.querySelector('td[data-label="Inventory"]')?.textContent ?? '').replace(/\D/g, '')),
        ),
      );
    expect(levels.length).toBeGreaterThan(2);
    expect([...levels].sort((a, b) => a - b)).toEqual(levels);
    expect(levels[0]).toBe(0);
    await page.getByLabel('Stock', { exact: true }).selectOption('low');
    await row(gone).waitFor();
    await screenshotBothWidths(page, 'admin-stock-products-low');
    expect(errors).toEqual([]);
  });
});
