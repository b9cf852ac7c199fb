import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { ADMIN, CUSTOMER, HUMAN_PAUSE_MS, call, checkout, signInThroughForm, toast, toggle } from './helpers.js';
import fs from 'node:fs';
import path from 'node:path';
import { DESKTOP, MOBILE, launchBrowser, openPage, screenshotBothWidths, settle } from './browser.js';
import { VARIANT_MESSAGES, type AdminProductVariants } from '../src/shared/schemas/admin/variants.js';
import type { OrderView } from '../src/shared/schemas/orders.js';
import type { StockHistoryPage } from '../src/shared/schemas/inventory.js';

/**
 * Products with options in the back office (issue [6/6], slice 4), at 1280 and 390 px: the owner
 * creates a product, gives it two options (Colour × Size, six variants: its old variant keeps its
 * stock as the first combination), prices them, switches one off; counts one variant's shelf and
 * finds it under the low-stock filter; creates an order for a variant; prints a packing slip with
 * Size, Color and SKU; refunds one variant's unit back to its own stock; gives a variant away with
 * a coupon.
 */
const RUN = Date.now().toString(36);
const NAME = `Variant Journey Bag ${RUN}`;
const SKU = `VJ-${RUN}`.toUpperCase();
const title = (label: string) => `${NAME} — ${label}`;
let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };
let productId: string;
/** The variants' ids by label, once saved. */
const ids = new Map<string, string>();

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await openPage(browser, DESKTOP);
  admin.context.setDefaultTimeout(15_000);
  await signInThroughForm(admin.page, ADMIN);
});
afterAll(async () => {
  await browser?.close();
});

async function variantsOf(page: Page): Promise<AdminProductVariants> {
  const res = await call(page, 'GET', `/api/admin/products/${productId}/variants`);
  expect(res.status).toBe(200);
  return res.json as unknown as AdminProductVariants;
}
async function onHand(page: Page, label: string): Promise<number> {
  const res = await call(page, 'GET', `/api/admin/variants/${ids.get(label)}/stock`);
  expect(res.status).toBe(200);
  return (res.json as unknown as StockHistoryPage).stock.onHand;
}

const SHOTS_DIR = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';

/**
 * The open dialog `dialog` (here often one opened over another, which browser.ts's dialogShots
 * cannot tell apart) at 1280 and 390 px, scrolled to `at`, as `<name>-<width>.png`; nothing in it may
 * scroll sideways.
 */
async function dialogShots(page: Page, dialog: Locator, at: Locator, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  for (const [size, viewport] of [
    ['1280', DESKTOP],
    ['390', MOBILE],
  ] as const) {
    await page.setViewportSize(viewport);
    await at.scrollIntoViewIfNeeded();
    await settle(page);
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${size}.png`) });
    const sideways = await dialog.evaluate((d) =>
      [d, ...d.querySelectorAll<HTMLElement>('*')]
        .filter((el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className.toString().split(' ').slice(0, 3).join('.')}`),
    );
    expect(sideways, `${name} at ${size} px`).toEqual([]);
  }
  await page.setViewportSize(DESKTOP);
  await settle(page);
}

/** Types a value into an option's value input and presses Enter, as the owner adds a chip. */
async function addValues(dialog: Locator, option: string, values: string[]): Promise<void> {
  const input = dialog.getByRole('textbox', { name: `Values of ${option}: type one and press Enter` });
  for (const v of values) {
    await input.fill(v);
    await input.press('Enter');
    await dialog
      .getByRole('list', { name: `Values of ${option}` })
      .getByText(v, { exact: true })
      .waitFor();
  }
}

describe('a product with options in the back office', () => {
  it('is created, given two options making six variants, priced, one switched off; its old stock stays on the first', async () => {
    const { page, errors } = admin;
    // A SKU another product uses: the variants editor must say so, at that SKU.
    const other = await call(page, 'POST', '/api/admin/products', {
      name: `Other Product ${RUN}`,
      description: 'Holds a SKU.',
      priceCents: 100,
      inventory: 1,
      sku: `${SKU}-TAKEN`,
    });
    expect(other.status).toBe(201);

    // ---- Add Product: today's form exactly, no options.
    await page.goto('/admin?tab=products');
    await page.getByRole('button', { name: 'Add Product' }).click();
    const add = page.getByRole('dialog', { name: 'Add Product' });
    expect(await add.getByRole('button', { name: 'Add options' }).count()).toBe(0);
    await add.getByLabel('Name').fill(NAME);
    await add.getByLabel('Description').fill('A mesh laundry bag made by the variants journey.');
    await add.getByLabel('Price ($)').fill('12.00');
    await add.getByLabel('Inventory').fill('20');
    await add.getByLabel('SKU').fill(SKU);
    const created = page.waitForResponse((r) => r.url().endsWith('/api/admin/products') && r.request().method() === 'POST');
    await add.getByRole('button', { name: 'Save Product' }).click();
    productId = ((await (await created).json()) as { product: { id: string } }).product.id;
    await toast(page, 'Product has been saved successfully.').waitFor();

    // ---- Edit: one version, with its price, SKU and stock; "Add options" opens the editor.
    await page.getByRole('button', { name: `Edit ${NAME}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Product' });
    await edit.getByTestId('stock-level').getByText('On hand 20 · 0 in checkouts · 20 available').waitFor();
    expect(await edit.getByLabel('Price ($)').inputValue()).toBe('12.00');
    await dialogShots(page, edit, edit.getByRole('button', { name: 'Add options' }), 'variants-admin-product-one-version');
    await edit.getByRole('button', { name: 'Add options' }).click();
    const dialog = page.getByRole('dialog', { name: 'Options and variants' });
    // The first option is there to fill in, its name focused.
    const firstName = dialog.getByLabel('Name of option 1');
    await expect.poll(() => firstName.evaluate((el) => el === document.activeElement)).toBe(true);
    await firstName.fill('Colour');
    await addValues(dialog, 'Colour', ['Blue', 'Grey', 'Green']);
    // The product's own variant took Blue; the other colours are offered, not made.
    await dialog.getByText('2 combinations have no variant yet: Grey; Green.').waitFor();
    await dialog.getByRole('button', { name: 'Add another option' }).click();
    await dialog.getByLabel('Name of option 2').fill('Size');
    await addValues(dialog, 'Size', ['Small', 'Large']);
    // A value twice is refused where it is typed.
    const sizeInput = dialog.getByRole('textbox', { name: 'Values of Size: type one and press Enter' });
    await sizeInput.fill('large');
    await sizeInput.press('Enter');
    await dialog.getByText(VARIANT_MESSAGES.valueTwice('Size', 'large')).waitFor();
    expect(await sizeInput.getAttribute('aria-invalid')).toBe('true');
    await sizeInput.fill('');
    await dialog
      .getByText('5 combinations have no variant yet: Blue, Large; Grey, Small; Grey, Large; Green, Small; Green, Large.')
      .waitFor();
    await dialog.getByRole('button', { name: 'Create 5 variants' }).click();
    // The first new variant's SKU takes the focus.
    await expect.poll(() => dialog.getByLabel('SKU of Blue, Large').evaluate((el) => el === document.activeElement)).toBe(true);
    const groups = dialog.getByRole('list', { name: 'Variants' }).getByRole('group');
    expect(await groups.evaluateAll((gs) => gs.map((g) => g.querySelector('p')?.textContent))).toEqual([
      'Blue, Small',
      'Blue, Large',
      'Grey, Small',
      'Grey, Large',
      'Green, Small',
      'Green, Large',
    ]);
    // The old variant keeps its SKU, price and 20 units; the new ones take the price and an opening stock.
    const blueSmall = dialog.getByRole('group', { name: 'Blue, Small' });
    expect(await dialog.getByLabel('SKU of Blue, Small').inputValue()).toBe(SKU);
    await blueSmall.getByText('20 on hand').waitFor();
    expect(await blueSmall.getByLabel('Opening stock of Blue, Small').count()).toBe(0);
    expect(await dialog.getByLabel('Price ($) of Grey, Large').inputValue()).toBe('12.00');

    for (const [label, code] of [
      ['Blue, Large', 'BLU-L'],
      ['Grey, Small', 'GRY-S'],
      ['Grey, Large', 'GRY-L'],
      ['Green, Small', 'GRN-S'],
      ['Green, Large', 'GRN-L'],
    ] as const) {
      await dialog.getByLabel(`SKU of ${label}`).fill(`${SKU}-${code}`);
      await dialog.getByLabel(`Opening stock of ${label}`).fill('30');
      if (label.endsWith('Large')) {
        await dialog.getByLabel(`Price ($) of ${label}`).fill('15.00');
        await dialog.getByLabel(`Weight (lbs) of ${label}`).fill('1.5');
      }
    }
    await dialog.getByLabel('Compare-at ($) of Blue, Large').fill('18.00');
    await toggle(page, dialog.getByRole('switch', { name: 'On sale: Green, Large' }));
    await dialog.getByRole('group', { name: 'Green, Large' }).getByText('Off', { exact: true }).waitFor();

    // Removing a value asks first (nothing is removed on Cancel).
    await dialog.getByRole('button', { name: 'Remove Green from Colour' }).click();
    const ask = page.getByRole('dialog', { name: 'Remove Green?' });
    await ask.getByText(/with its 2 variants: Green, Small; Green, Large/).waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => groups.count()).toBe(6);

    // A mistake the form catches (a compare-at price below the price), then one only the server knows (a SKU in use).
    await dialog.getByLabel('Compare-at ($) of Grey, Small').fill('5.00');
    await dialog.getByLabel('SKU of Grey, Large').fill(`${SKU}-TAKEN`);
    await dialog.getByRole('button', { name: 'Save options and variants' }).click();
    await dialog.getByText(VARIANT_MESSAGES.compareAtNotAbove).waitFor();
    expect(await dialog.getByLabel('Compare-at ($) of Grey, Small').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('Compare-at ($) of Grey, Small').fill('');
    await dialog.getByRole('button', { name: 'Save options and variants' }).click();
    await dialog.getByText(VARIANT_MESSAGES.skuInUse(`${SKU}-TAKEN`, `Other Product ${RUN}`)).waitFor();
    const taken = dialog.getByLabel('SKU of Grey, Large');
    expect(await taken.getAttribute('aria-invalid')).toBe('true');
    expect(await taken.getAttribute('aria-describedby')).toBe('variant-3-sku-error');
    await taken.fill(`${SKU}-GRY-L`);
    await dialogShots(page, dialog, dialog.getByRole('heading', { name: 'Options', exact: true }), 'variants-admin-editor-options');
    await dialogShots(page, dialog, dialog.getByRole('group', { name: 'Grey, Large' }), 'variants-admin-editor-grid');

    const put = page.waitForRequest((r) => r.url().endsWith(`/api/admin/products/${productId}/variants`) && r.method() === 'PUT');
    await dialog.getByRole('button', { name: 'Save options and variants' }).click();
    const body = (await put).postDataJSON() as { options: unknown; variants: Record<string, unknown>[] };
    expect(body.options).toEqual([
      { name: 'Colour', values: ['Blue', 'Grey', 'Green'] },
      { name: 'Size', values: ['Small', 'Large'] },
    ]);
    expect(body.variants[0]).toEqual(expect.objectContaining({ id: `var_${productId}`, options: ['Blue', 'Small'], sku: SKU }));
    expect(body.variants[0]).not.toHaveProperty('openingStock');
    expect(body.variants[1]).toEqual(
      expect.objectContaining({ options: ['Blue', 'Large'], priceCents: 1500, compareAtCents: 1800, weightLbs: 1.5, openingStock: 30 }),
    );
    await toast(page, 'Options and variants saved').waitFor();

    const set = await variantsOf(page);
    for (const v of set.variants) ids.set(v.label, v.id);
    expect(set.variants.map((v) => [v.label, v.sku, v.priceCents, v.enabled, v.stock.onHand])).toEqual([
      ['Blue, Small', SKU, 1200, true, 20],
      ['Blue, Large', `${SKU}-BLU-L`, 1500, true, 30],
      ['Grey, Small', `${SKU}-GRY-S`, 1200, true, 30],
      ['Grey, Large', `${SKU}-GRY-L`, 1500, true, 30],
      ['Green, Small', `${SKU}-GRN-S`, 1200, true, 30],
      ['Green, Large', `${SKU}-GRN-L`, 1500, false, 30],
    ]);
    expect(ids.get('Blue, Small')).toBe(`var_${productId}`);

    // ---- The product dialog now shows the variants; price, SKU and threshold are per variant.
    await edit.getByRole('heading', { name: 'Options and variants' }).waitFor();
    expect(await edit.getByLabel('Price ($)').count()).toBe(0);
    expect(await edit.getByLabel('SKU', { exact: true }).count()).toBe(0);
    const summary = edit.getByRole('table', { name: 'Variants' });
    await summary.getByRole('row').filter({ hasText: 'Green, Large' }).getByText('Off', { exact: true }).waitFor();
    await dialogShots(page, edit, summary, 'variants-admin-product-with-options');
    // Saving the product changes neither price nor SKU (it sends what the server holds).
    await edit.getByLabel('Description').fill('A mesh laundry bag in three colours and two sizes.');
    const saved = page.waitForRequest((r) => r.url().endsWith(`/api/admin/products/${productId}`) && r.method() === 'PUT');
    await edit.getByRole('button', { name: 'Save Product' }).click();
    expect((await saved).postDataJSON()).toMatchObject({ priceCents: 1200, sku: null });
    await toast(page, 'Product has been saved successfully.').waitFor();
    expect(errors).toEqual([]);
  });

  it('counts one variant’s shelf, sets its threshold and finds it under the low-stock filter', async () => {
    const { page, errors } = admin;
    await page.goto(`/admin?tab=products&q=${encodeURIComponent(SKU)}`);
    const row = page.getByRole('row').filter({ hasText: NAME });
    await row.getByText('6 variants').waitFor();
    await row.getByText('$12.00–$15.00').waitFor();
    await row.getByRole('button', { name: `Edit ${NAME}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Product' });
    // "Stock" on a variant's row picks it in the Stock section.
    await edit.getByRole('button', { name: 'Stock of Grey, Small' }).click();
    expect(await edit.getByLabel('Variant', { exact: true }).inputValue()).toBe(ids.get('Grey, Small'));
    const level = edit.getByTestId('stock-level');
    await level.getByText('On hand 30 · 0 in checkouts · 30 available').waitFor();
    await edit.getByLabel('Reason').selectOption('counted');
    await edit.getByLabel('Quantity').fill('3');
    await edit.getByRole('button', { name: 'Save adjustment' }).click();
    await toast(page, 'Stock updated').waitFor();
    await level.getByText('On hand 3 · 0 in checkouts · 3 available').waitFor();
    await level.getByText('Low', { exact: true }).waitFor();
    const history = edit.getByRole('table', { name: 'Stock history, newest first' });
    await expect.poll(() => history.locator('tbody tr').count()).toBe(2);
    await edit.getByRole('heading', { name: 'Stock history of Grey, Small' }).waitFor();
    // Its threshold, saved at once.
    await edit.getByLabel('Low-stock threshold').fill('4');
    await edit.getByRole('button', { name: 'Save threshold' }).click();
    await toast(page, 'Threshold saved').waitFor();
    expect(await onHand(page, 'Grey, Small')).toBe(3);
    expect(await onHand(page, 'Grey, Large')).toBe(30);
    await dialogShots(page, edit, edit.getByLabel('Variant', { exact: true }), 'variants-admin-stock');
    await edit.getByRole('button', { name: 'Close' }).first().click();
    await edit.waitFor({ state: 'hidden' });

    // The low-stock filter: the product, with the variant that is low; it opens that variant's stock.
    await page.getByLabel('Stock', { exact: true }).selectOption('low');
    await page.waitForURL(/stock=low/);
    const low = row.getByRole('list', { name: `Low variants of ${NAME}` });
    await low.getByRole('button', { name: /^Grey, Small: 3 on hand/ }).waitFor();
    // The Inventory column gives the lowest variant's level (what the alert and the stock order go by).
    await row.getByText('Low', { exact: true }).waitFor();
    await row.getByText('lowest variant').waitFor();
    await screenshotBothWidths(page, 'variants-admin-products-low');
    await low.getByRole('button', { name: /^Grey, Small: 3 on hand/ }).click();
    const again = page.getByRole('dialog', { name: 'Edit Product' });
    await again.getByRole('heading', { name: 'Stock history of Grey, Small' }).waitFor();
    await again.getByRole('button', { name: 'Close' }).first().click();
    expect(errors).toEqual([]);
  });

  it('creates an order for a variant: the search lists each variant, the order takes its stock', async () => {
    const { page, errors } = admin;
    await page.goto('/admin?tab=orders');
    await page.getByRole('button', { name: 'Create Order' }).first().click();
    await page.getByRole('heading', { name: 'Create Order' }).waitFor();
    await page.getByLabel('Customer e-mail').fill(`variants-${RUN}@example.com`);
    await page.getByLabel('Add a product').fill(NAME);
    const found = page.getByRole('list', { name: 'Matching products' });
    const greyLarge = found.getByRole('button', { name: new RegExp(`^${title('Grey, Large')}`) });
    await greyLarge.getByText(`SKU ${SKU}-GRY-L · 30 in stock`).waitFor();
    await greyLarge.getByText('$15.00').waitFor();
    // Switched off: not offered.
    expect(await found.getByRole('button', { name: new RegExp(title('Green, Large')) }).count()).toBe(0);
    await screenshotBothWidths(page, 'variants-admin-order-search');
    await greyLarge.click();
    await page.getByLabel(title('Grey, Large'), { exact: true }).fill('2');
    for (const [field, value] of [
      ['name', 'Vera Variant'],
      ['address', '3 Mesh Lane'],
      ['city', 'Salem'],
      ['zip', '97301'],
    ] as const)
      await page.locator(`#order-${field}`).fill(value);
    await page.locator('#order-state').selectOption('OR');
    expect(await page.getByTestId('order-lines-total').innerText()).toBe('$32.40');
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    const created = page.waitForResponse((r) => r.url().endsWith('/api/admin/orders') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Create Order' }).click();
    const res = await created;
    expect(res.request().postDataJSON()).toMatchObject({ lines: [{ productId, variantId: ids.get('Grey, Large'), quantity: 2 }] });
    expect(res.status()).toBe(201);
    const order = ((await res.json()) as { order: OrderView }).order;
    expect(order.items).toEqual([expect.objectContaining({ variantId: ids.get('Grey, Large'), sku: `${SKU}-GRY-L`, quantity: 2 })]);
    await toast(page, 'Order created').waitFor();
    expect(await onHand(page, 'Grey, Large')).toBe(28);
    expect(await onHand(page, 'Grey, Small')).toBe(3);

    // Its packing slip: the variant's SKU.
    await page.goto(`/admin?tab=orders&view=packing&order=${order.id}`);
    const slip = page.getByRole('table', { name: 'Items to pack' });
    await slip.getByText(`${SKU}-GRY-L`).waitFor();
    expect(errors).toEqual([]);
  });

  it('prints a paid order’s packing slip with Size, Color and SKU, and refunds one variant’s unit to its own stock', async () => {
    const { page, errors } = admin;
    const customer = await openPage(browser, DESKTOP);
    customer.context.setDefaultTimeout(15_000);
    await signInThroughForm(customer.page, CUSTOMER);
    const items = [
      { productId, variantId: ids.get('Blue, Large')!, quantity: 1 },
      { productId, variantId: ids.get('Grey, Small')!, quantity: 1 },
    ];
    const orderId = await checkout(customer.page, true, items);
    await customer.context.close();
    expect(await onHand(page, 'Blue, Large')).toBe(29);
    expect(await onHand(page, 'Grey, Small')).toBe(2);

    // ---- The packing slip: each line's title, size, colour and SKU.
    await page.goto(`/admin?tab=orders&view=packing&order=${orderId}`);
    const slip = page.getByRole('table', { name: 'Items to pack' });
    await slip.waitFor();
    const rows = await slip.evaluate((t) =>
      [...t.querySelectorAll('tbody tr')].map((tr) =>
        [...tr.querySelectorAll('td')].slice(1, 4).map((td) => (td.textContent ?? '').trim()),
      ),
    );
    // The product's own option names and values (decision 0044).
    expect(rows).toEqual([
      [NAME, 'Colour: Blue · Size: Large', `${SKU}-BLU-L`],
      [NAME, 'Colour: Grey · Size: Small', `${SKU}-GRY-S`],
    ]);
    await screenshotBothWidths(page, 'variants-admin-packing-slip');

    // ---- The order's details name the variants.
    await page.goto(`/admin?tab=orders&view=details&order=${orderId}`);
    await page.getByText(`SKU ${SKU}-GRY-S · Colour: Grey · Size: Small`).waitFor();
    await screenshotBothWidths(page, 'variants-admin-order-details');

    // ---- Refund: the lines per variant; Grey, Small's unit goes back to Grey, Small only.
    const number = ((await call(page, 'GET', `/api/admin/orders/${orderId}`)).json.order as { orderNumber: string }).orderNumber;
    await page
      .getByRole('region', { name: /^Payment status/ })
      .getByRole('button', { name: 'Refund' })
      .click();
    const dialog = page.getByRole('dialog', { name: `Refund order ${number}` });
    const blue = dialog.getByLabel(title('Blue, Large'), { exact: true });
    const grey = dialog.getByLabel(title('Grey, Small'), { exact: true });
    expect([await blue.inputValue(), await grey.inputValue()]).toEqual(['1', '1']);
    await blue.fill('0');
    await dialog.getByLabel(/^Amount/).fill('12.00');
    await dialogShots(page, dialog, grey, 'variants-admin-refund');
    const sent = page.waitForRequest((r) => r.url().endsWith(`/api/admin/orders/${orderId}/refunds`) && r.method() === 'POST');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog.getByRole('group', { name: 'Confirm the refund' }).getByRole('button', { name: 'Refund $12.00' }).click();
    const refund = (await sent).postDataJSON() as { amountCents: number; returnLines: unknown[] };
    expect(refund.amountCents).toBe(1200);
    // One return line per variant sold, each naming its variant (in the order's line order).
    expect(refund.returnLines).toHaveLength(2);
    expect(refund.returnLines).toEqual(
      expect.arrayContaining([
        { productId, variantId: ids.get('Blue, Large'), quantity: 0 },
        { productId, variantId: ids.get('Grey, Small'), quantity: 1 },
      ]),
    );
    await toast(page, 'Refund sent').waitFor();
    expect(await onHand(page, 'Grey, Small')).toBe(3);
    expect(await onHand(page, 'Blue, Large')).toBe(29);

    // ---- Grey, Small has been sold now: removing Grey offers to switch it off instead.
    await page.goto(`/admin?tab=products&q=${encodeURIComponent(SKU)}`);
    await page.getByRole('button', { name: `Edit ${NAME}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Product' });
    await edit.getByRole('button', { name: 'Edit options and variants' }).click();
    const editor = page.getByRole('dialog', { name: 'Options and variants' });
    await editor.getByRole('group', { name: 'Grey, Small' }).getByText('Sold', { exact: true }).waitFor();
    expect(await editor.getByRole('button', { name: 'Remove Grey, Small' }).count()).toBe(0);
    await editor.getByRole('button', { name: 'Remove Grey from Colour' }).click();
    const ask = page.getByRole('dialog', { name: 'Switch off Grey instead?' });
    await ask
      .getByText(
        /^Grey, Small and Grey, Large have been sold, so they stay in the shop’s records\. Keep Grey and switch off its 2 variants/,
      )
      .waitFor();
    await dialogShots(page, ask, ask.getByRole('button', { name: 'Switch off Grey' }), 'variants-admin-switch-off');
    await ask.getByRole('button', { name: 'Switch off Grey' }).click();
    await editor.getByRole('group', { name: 'Grey, Small' }).getByText('Off', { exact: true }).waitFor();
    await editor.getByRole('group', { name: 'Grey, Large' }).getByText('Off', { exact: true }).waitFor();
    await editor.getByRole('button', { name: 'Cancel' }).click();
    expect((await variantsOf(page)).variants.find((v) => v.label === 'Grey, Small')?.enabled).toBe(true);
    expect(errors).toEqual([]);
  });

  it('gives a chosen variant away with a coupon', async () => {
    const { page, errors } = admin;
    await page.goto('/admin?tab=coupons');
    await page.getByRole('button', { name: 'Add Coupon' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Coupon' });
    const code = `GIFT-${RUN}`.toUpperCase();
    await dialog.getByLabel('Code').fill(code);
    await dialog.getByLabel('Discount value (%)').fill('0');
    await dialog.getByLabel('Free product').selectOption(productId);
    await dialog.getByLabel('Free variant').selectOption(ids.get('Blue, Large')!);
    await dialogShots(page, dialog, dialog.getByLabel('Free variant'), 'variants-admin-coupon');
    const posted = page.waitForRequest((r) => r.url().endsWith('/api/admin/coupons') && r.method() === 'POST');
    await dialog.getByRole('button', { name: 'Save Coupon' }).click();
    expect((await posted).postDataJSON()).toMatchObject({ freeProductId: productId, freeVariantId: ids.get('Blue, Large') });
    await toast(page, 'Coupon created successfully').waitFor();
    await page.getByRole('row').filter({ hasText: code }).getByText(title('Blue, Large')).waitFor();
    expect(errors).toEqual([]);
  });
});
