import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN, call, signInThroughForm, toast } from './helpers.js';
import { DESKTOP, dialogShots, launchBrowser, openPage } from './browser.js';
import { SKU_MESSAGES } from '../src/shared/schemas/admin/products.js';

/**
 * One SKU, one stocked item (decision 0037), at 1280 and 390 px: the owner adds a product with a
 * SKU that a variant of another product already holds (typed in another case, with spaces), and
 * the form says so at the SKU field, naming that product and variant; with a SKU of its own it
 * saves. Editing it to take another product's SKU is refused the same way, at the field.
 */
const RUN = Date.now().toString(36).toUpperCase();
const HOLDER = `Concentrated Cleaner ${RUN}`;
const TAKEN = `ECO-CL-LAV-032-${RUN}`;
const PLAIN = `Plain Scrubber ${RUN}`;
const PLAIN_SKU = `SCRUB-${RUN}`;
const NAME = `Copycat Cleaner ${RUN}`;

let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await openPage(browser, DESKTOP);
  admin.context.setDefaultTimeout(15_000);
  await signInThroughForm(admin.page, ADMIN);

  // Set-up this journey does not test: a product with options whose Lavender / 32 oz variant holds TAKEN, and a plain one.
  const { page } = admin;
  const holder = await call(page, 'POST', '/api/admin/products', {
    name: HOLDER,
    description: 'Holds a SKU.',
    priceCents: 1499,
    inventory: 5,
  });
  expect(holder.status).toBe(201);
  const holderId = (holder.json as { product: { id: string } }).product.id;
  const set = await call(page, 'PUT', `/api/admin/products/${holderId}/variants`, {
    options: [
      { name: 'Scent', values: ['Lavender'] },
      { name: 'Size', values: ['16 oz', '32 oz'] },
    ],
    variants: [
      { id: `var_${holderId}`, options: ['Lavender', '16 oz'], sku: `ECO-CL-LAV-016-${RUN}`, priceCents: 1499, enabled: true },
      { options: ['Lavender', '32 oz'], sku: TAKEN, priceCents: 2499, enabled: true, openingStock: 4 },
    ],
  });
  expect(set.status).toBe(200);
  const plain = await call(page, 'POST', '/api/admin/products', {
    name: PLAIN,
    description: 'Holds a SKU.',
    priceCents: 300,
    inventory: 5,
    sku: PLAIN_SKU,
  });
  expect(plain.status).toBe(201);
});
afterAll(async () => {
  await browser?.close();
});

describe('a SKU belongs to one stocked item', () => {
  it("the product form refuses another product's SKU at the SKU field, on Add and on Edit", async () => {
    const { page, errors } = admin;
    await page.goto('/admin?tab=products');
    await page.getByRole('button', { name: 'Add Product' }).click();
    const add = page.getByRole('dialog', { name: 'Add Product' });
    await add.getByLabel('Name').fill(NAME);
    await add.getByLabel('Description').fill('Tries a SKU that is taken.');
    await add.getByLabel('Price ($)').fill('24.99');
    await add.getByLabel('Inventory').fill('10');
    const typed = `  ${TAKEN.toLowerCase()} `;
    await add.getByLabel('SKU').fill(typed);
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/admin/products') && r.request().method() === 'POST');
    await add.getByRole('button', { name: 'Save Product' }).click();
    expect((await refused).status()).toBe(409);

    const message = SKU_MESSAGES.inUse(TAKEN.toLowerCase(), `${HOLDER} — Lavender, 32 oz`);
    const sku = add.getByLabel('SKU');
    const said = add.locator('#product-sku-error');
    await said.getByText(message, { exact: true }).waitFor();
    expect(await sku.getAttribute('aria-invalid')).toBe('true');
    expect(await sku.getAttribute('aria-describedby')).toContain('product-sku-error');
    // The dialog stays open with what was typed; nothing was made.
    expect(await add.getByLabel('Name').inputValue()).toBe(NAME);
    const listed = await call(page, 'GET', `/api/admin/products?search=${encodeURIComponent(NAME)}`);
    expect((listed.json as { total: number }).total).toBe(0);
    await dialogShots(page, said, 'sku-unique-add-refused');

    // A SKU of its own saves, and the message goes once the field is changed.
    await sku.fill(`ECO-CL-COPY-${RUN}`);
    await said.waitFor({ state: 'detached' });
    await add.getByRole('button', { name: 'Save Product' }).click();
    await toast(page, 'Product has been saved successfully.').waitFor();

    // ---- Edit: another product's SKU (a plain product's: named by the product alone) is refused at the field.
    await page.getByRole('button', { name: `Edit ${NAME}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Product' });
    const editSku = edit.getByLabel('SKU');
    expect(await editSku.inputValue()).toBe(`ECO-CL-COPY-${RUN}`);
    await editSku.fill(` ${PLAIN_SKU.toLowerCase()}`);
    const edited = page.waitForResponse((r) => r.url().includes('/api/admin/products/') && r.request().method() === 'PUT');
    await edit.getByRole('button', { name: 'Save Product' }).click();
    expect((await edited).status()).toBe(409);
    const editSaid = edit.locator('#product-sku-error');
    await editSaid.getByText(SKU_MESSAGES.inUse(PLAIN_SKU.toLowerCase(), PLAIN), { exact: true }).waitFor();
    await dialogShots(page, editSaid, 'sku-unique-edit-refused');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    const kept = await call(page, 'GET', `/api/admin/products?search=${encodeURIComponent(NAME)}`);
    expect((kept.json as { items: { sku: string | null }[] }).items.map((p) => p.sku)).toEqual([`ECO-CL-COPY-${RUN}`]);

    expect(errors).toEqual([]);
  });
});
