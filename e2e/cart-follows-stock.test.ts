import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN, call, checkout, signInThroughForm, toast } from './helpers.js';
import { DESKTOP, launchBrowser, openPage, screenshotBothWidths } from './browser.js';
import { CART_STOCK_MESSAGES, CHECKOUT_MESSAGES } from '../src/shared/checkout-text.js';
import { STOCK_LINE } from '../src/client/catalog/stock-text.js';
import { ADD_TO_CART_MESSAGES } from '../src/client/cart/use-add-to-cart.js';

/**
 * The shopper's side of stock with one owner (issue "[2/6] Stock with one owner", decision 0022):
 * Add to Cart takes what is left and says so, the cart lowers a line the owner's count made too
 * large, the checkout page stops before Pay, and the product page says when every unit is in
 * other shoppers' checkouts. Each journey has a product of its own, so only it moves its stock.
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

const shots = (page: Page, name: string) => screenshotBothWidths(page, `cart-follows-stock-${name}`);

async function createProduct(label: string, inventory: number): Promise<{ id: string; name: string }> {
  const name = `${label} ${Date.now().toString(36)}`;
  const res = await call(admin.page, 'POST', '/api/admin/products', {
    name,
    description: 'A product of the cart-follows-stock browser journeys.',
    priceCents: 899,
    inventory,
  });
  expect(res.status).toBe(201);
  return { id: String((res.json.product as { id: string }).id), name };
}

/** The owner counts the shelf: the level becomes `quantity`. */
async function countShelf(productId: string, quantity: number): Promise<void> {
  const res = await call(admin.page, 'POST', `/api/admin/products/${encodeURIComponent(productId)}/stock`, { reason: 'counted', quantity });
  expect(res.status).toBe(200);
}

async function shopper(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const s = await openPage(browser, DESKTOP);
  s.context.setDefaultTimeout(15_000);
  return s;
}

/** Opens the product page and picks a quantity with the stepper, as a person does. */
async function openProduct(page: Page, product: { id: string; name: string }, quantity: number): Promise<void> {
  await page.goto(`/products/${product.id}`);
  await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
  for (let i = 1; i < quantity; i++) await page.getByRole('button', { name: 'Increase quantity' }).click();
  expect(await page.getByRole('spinbutton').inputValue()).toBe(String(quantity));
}

describe('the cart follows stock', () => {
  it('Add to Cart takes what is left and says how many it took', async () => {
    const product = await createProduct('Follow Stock Sponge', 20);
    const { context, page, errors } = await shopper();
    // A page that has not heard of the count (its stock watch cut off, as on a flaky connection):
    // an open page normally shows it within a second (e2e/held-stock.test.ts).
    await page.route('**/api/stock/watch?*', (route) => route.abort());
    await openProduct(page, product, 5);
    // The page was opened with 20; the owner counts 2 while it stays open.
    await countShelf(product.id, 2);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await toast(page, ADD_TO_CART_MESSAGES.addedSome(2, 5, 2)).waitFor();
    await toast(page, ADD_TO_CART_MESSAGES.cartHoldsAll(product.name, 2)).waitFor();
    await page.getByRole('link', { name: 'Cart, 2 items' }).waitFor();
    // The page shows the stock it was told.
    await page.getByText(STOCK_LINE.inStock(2)).waitFor();
    await page.getByText('Only 2 left', { exact: true }).waitFor();
    await shots(page, 'added-some');

    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await toast(page, ADD_TO_CART_MESSAGES.noneAdded(2)).waitFor();
    await page.getByRole('link', { name: 'Cart, 2 items' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the cart lowers a line to what is left (removes it at 0), and checkout stops before Pay', async () => {
    const product = await createProduct('Follow Stock Brush', 20);
    const { context, page, errors } = await shopper();
    await openProduct(page, product, 5);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await toast(page, ADD_TO_CART_MESSAGES.added).waitFor();
    await page.getByRole('link', { name: 'Cart, 5 items' }).waitFor();

    // (a) The owner counts 2 on the shelf; the shopper reloads the cart.
    await countShelf(product.id, 2);
    await page.goto('/cart');
    await page.getByText(CART_STOCK_MESSAGES.lowered(product.name, 2)).waitFor();
    await page.getByText(CART_STOCK_MESSAGES.cartUpdatedTitle).waitFor();
    const line = page.getByLabel(`Quantity of ${product.name}`);
    await expect.poll(() => line.inputValue()).toBe('2');
    await page.getByRole('link', { name: 'Cart, 2 items' }).waitFor();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '{}') as { items: { quantity: number }[] });
    expect(stored.items.map((i) => i.quantity)).toEqual([2]);
    await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor();
    await shots(page, 'cart-lowered');

    // The owner counts 1 while the shopper is on the way: the checkout page says so before Pay.
    await countShelf(product.id, 1);
    await page.getByRole('link', { name: 'Proceed to Checkout' }).click();
    await page.waitForURL('**/checkout');
    await page.getByText(CART_STOCK_MESSAGES.checkoutShortTitle, { exact: true }).waitFor();
    await page.getByText(CHECKOUT_MESSAGES.outOfStock(product.name, 1)).waitFor();
    const pay = page.getByRole('button', { name: /^Pay \$/ });
    expect(await pay.isDisabled()).toBe(true);
    await shots(page, 'checkout-short');
    await page.getByRole('button', { name: CART_STOCK_MESSAGES.fitCart }).click();
    await page.getByText(CART_STOCK_MESSAGES.lowered(product.name, 1)).waitFor();
    await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('button')].some((b) => /^Pay \$/.test(b.textContent ?? '') && !b.disabled),
    );
    expect(await page.getByText(CART_STOCK_MESSAGES.checkoutShortTitle, { exact: true }).count()).toBe(0);
    await shots(page, 'checkout-fitted');

    // Sold out: the line goes, and the cart says why.
    await countShelf(product.id, 0);
    await page.goto('/cart');
    await page.getByText(CART_STOCK_MESSAGES.removed(product.name)).waitFor();
    await page.getByRole('heading', { name: 'Your cart is empty' }).waitFor();
    await shots(page, 'cart-removed');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a shopper back from the payment page is not cut by their own checkout's reservation", async () => {
    const product = await createProduct('Follow Stock Cloth', 3);
    const { context, page, errors } = await shopper();
    await openProduct(page, product, 3);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await toast(page, ADD_TO_CART_MESSAGES.added).waitFor();
    await page.goto('/checkout');
    const main = page.locator('main');
    await main.getByLabel('First Name').fill('Pat');
    await main.getByLabel('Last Name').fill('Buyer');
    await main.getByLabel('Email Address').fill('pat.buyer@example.com');
    await main.getByLabel('Street Address').fill('12 Fern Way');
    await main.getByLabel('City').fill('Portland');
    await main.getByLabel('State').selectOption('OR');
    await main.getByLabel('ZIP Code').fill('97201');
    await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor();
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    await page.waitForURL(/\/pay\//);

    // Back with the browser: the 3 units are this shopper's own, kept by their open checkout, and
    // the quote counts them as theirs (as creating a checkout does, ending that one first).
    const quoted = await page.evaluate(async (productId) => {
      const res = await fetch('/api/cart/quote', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          lines: [{ productId, quantity: 3, size: 'One Size', color: 'Default' }],
          couponCode: null,
          shippingOptionId: null,
        }),
      });
      return ((await res.json()) as { lines: { inventory: number; insufficientStock: boolean }[] }).lines[0];
    }, product.id);
    expect(quoted).toMatchObject({ inventory: 3, insufficientStock: false });
    await page.goBack();
    await page.waitForURL('**/checkout');
    await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('button')].some((b) => /^Pay \$/.test(b.textContent ?? '') && !b.disabled),
    );
    expect(await page.getByText(CART_STOCK_MESSAGES.checkoutShortTitle, { exact: true }).count()).toBe(0);
    await page.goto('/cart');
    await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor();
    expect(await page.getByLabel(`Quantity of ${product.name}`).inputValue()).toBe('3');
    expect(await page.getByText(CART_STOCK_MESSAGES.cartUpdatedTitle).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the product page tells the truth about stock', () => {
  it("says when every unit is in other shoppers' checkouts, with Add to Cart and Buy Now off", async () => {
    const product = await createProduct('Follow Stock Mop Head', 2);
    // Another shopper's checkout keeps both units (unpaid).
    const other = await shopper();
    await checkout(other.page, false, [{ productId: product.id, quantity: 2 }]);
    await other.context.close();

    const { context, page, errors } = await shopper();
    await page.goto(`/products/${product.id}`);
    await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
    const line = page.getByText(/^All 2 left are in other shoppers' checkouts — some may be back by \d{1,2}:\d{2}/);
    await line.waitFor();
    expect(await page.getByRole('button', { name: 'Add to Cart' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Buy Now' }).isDisabled()).toBe(true);
    // The buttons point at the words that say why.
    const describedBy = await page.getByRole('button', { name: 'Buy Now' }).getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(await line.textContent());
    // Units in checkouts may come back: no "Notify me" (that is for a sold-out product).
    expect(await page.getByRole('heading', { name: "Notify me when it's back" }).count()).toBe(0);
    await shots(page, 'product-reserved');
    expect(errors).toEqual([]);
    await context.close();
  });
});
