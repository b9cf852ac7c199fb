import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN, call, fillCheckoutForm, payButtonToCardPage, payWithTestCard, signInThroughForm, toast } from './helpers.js';
import { DESKTOP, launchBrowser, openPage, screenshotBothWidths } from './browser.js';
import { CART_STOCK_MESSAGES, NO_ORDER_NAMED_TEXTS } from '../src/shared/checkout-text.js';
import { ADD_TO_CART_MESSAGES } from '../src/client/cart/use-add-to-cart.js';
import { CARD_MESSAGES } from '../src/server/payments/test-checkout-page.js';

/**
 * Issue [2/8] "The last mile", for a shopper (decision 0044): a line names the product's own
 * options and nothing for a product without; lowering the cart to stock says when free shipping
 * is lost, and a quantity typed above stock says why it was cut; the card page lists the order;
 * Back after paying says "already paid" with a link to the order; a bare /thank-you shows the
 * ways to an order. Each journey has a product of its own, so only it moves its stock.
 */
let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };
const RUN = Date.now().toString(36);

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await openPage(browser, DESKTOP);
  admin.context.setDefaultTimeout(15_000);
  await signInThroughForm(admin.page, ADMIN);
});
afterAll(async () => {
  await browser?.close();
});

async function createProduct(label: string, priceCents: number, inventory: number): Promise<{ id: string; name: string }> {
  const name = `${label} ${RUN}`;
  const res = await call(admin.page, 'POST', '/api/admin/products', {
    name,
    description: 'A product of the last-mile browser journeys.',
    priceCents,
    inventory,
  });
  expect(res.status).toBe(201);
  return { id: String((res.json.product as { id: string }).id), name };
}

async function countShelf(productId: string, quantity: number): Promise<void> {
  const res = await call(admin.page, 'POST', `/api/admin/products/${encodeURIComponent(productId)}/stock`, { reason: 'counted', quantity });
  expect(res.status).toBe(200);
}

async function addFromPage(page: Page, product: { id: string; name: string }, quantity: number): Promise<void> {
  await page.goto(`/products/${product.id}`);
  await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
  for (let i = 1; i < quantity; i++) await page.getByRole('button', { name: 'Increase quantity' }).click();
  await page.getByRole('button', { name: 'Add to Cart' }).first().click();
  await toast(page, ADD_TO_CART_MESSAGES.added).first().waitFor();
}

describe('the last mile, for a shopper', () => {
  it('the cart names options, says free shipping was lost when lowered to stock, and why a typed quantity was cut', async () => {
    const product = await createProduct('Last Mile Scrubber', 900, 20);
    const { context, page, errors } = await openPage(browser, DESKTOP);
    context.setDefaultTimeout(15_000);
    // Five at $9.00 and a $15.99 cleaner: $60.99, over the seeded $50.00 free-shipping minimum.
    await addFromPage(page, product, 5);
    // A version of a product sold with options: its line names them.
    await page.goto('/products/concentrated-cleaner?variant=var_concentrated-cleaner-lavender-16-oz');
    await page.getByRole('heading', { level: 1, name: 'Concentrated All-Purpose Cleaner' }).waitFor();
    await page.getByRole('button', { name: 'Add to Cart' }).first().click();
    await toast(page, ADD_TO_CART_MESSAGES.added).first().waitFor();

    // The owner counts 3 on the shelf: $27.00 of it is left, $42.99 with the cleaner.
    await countShelf(product.id, 3);
    await page.goto('/cart');
    await page.getByText(CART_STOCK_MESSAGES.lowered(product.name, 3)).waitFor();
    await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor();
    await page.getByTestId('lost-free-shipping').waitFor();
    expect(await page.getByTestId('lost-free-shipping').textContent()).toBe(CART_STOCK_MESSAGES.lostFreeShipping(5000));

    // Options: the cleaner's own names and values; nothing on a product without options.
    const options = page.locator('main [data-line-options]');
    await expect.poll(() => options.allTextContents()).toEqual(['Scent: Lavender · Size: 16 oz']);
    expect(await page.locator('main').innerText()).not.toContain('Color: Default');

    // A quantity typed above the shelf: cut to it, and the line says why.
    const line = page.getByLabel(`Quantity of ${product.name}`);
    await line.fill('9');
    await page.getByText(CART_STOCK_MESSAGES.onlyInStock(3), { exact: true }).waitFor();
    // The field settles on what the cart holds once the shopper leaves it; the reason stays.
    await line.blur();
    await expect.poll(() => line.inputValue()).toBe('3');
    await page.getByRole('link', { name: 'Cart, 4 items' }).first().waitFor();
    await page.getByText(CART_STOCK_MESSAGES.onlyInStock(3), { exact: true }).waitFor();
    await screenshotBothWidths(page, 'last-mile-cart-lowered');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the card page lists the order; Back after paying says it is already paid, with the way to the order', async () => {
    const product = await createProduct('Last Mile Sponge', 700, 20);
    const { context, page, errors } = await openPage(browser, DESKTOP);
    context.setDefaultTimeout(15_000);
    await addFromPage(page, product, 2);
    await page.goto('/checkout');
    await fillCheckoutForm(page, `last-mile-${RUN}@example.com`);
    const { payButton, cardPage } = await payButtonToCardPage(page);
    expect(cardPage).toBe(payButton);
    const lines = page.locator('.lines');
    await lines.getByText(product.name, { exact: true }).waitFor();
    expect((await lines.locator('li').innerText()).replace(/\s+/g, ' ')).toBe(`${product.name} Qty: 2 $14.00`);
    expect(await lines.locator('dd.total').textContent()).toBe(cardPage);
    await screenshotBothWidths(page, 'last-mile-card-page-lines');

    const orderId = await payWithTestCard(page);
    // Back: the card page again, now saying the order is paid, not an error.
    await page.goBack();
    await page.waitForURL(/\/pay\//);
    await page.getByText(CARD_MESSAGES.paid).waitFor();
    expect(await page.locator('.error').count()).toBe(0);
    expect(await page.locator('form').count()).toBe(0);
    await screenshotBothWidths(page, 'last-mile-card-page-already-paid');
    await page.getByRole('link', { name: CARD_MESSAGES.viewOrder }).click();
    await page.waitForURL(/\/order-confirmation\?orderId=/);
    await page.getByRole('heading', { name: 'Order Confirmed' }).waitFor();
    expect(new URL(page.url()).searchParams.get('orderId')).toBe(orderId);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a bare /thank-you shows the ways to an order, not an error', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    await page.goto('/thank-you');
    await page.getByRole('heading', { name: NO_ORDER_NAMED_TEXTS.title }).waitFor();
    await page.getByRole('link', { name: NO_ORDER_NAMED_TEXTS.myOrders }).waitFor();
    await page.getByRole('link', { name: NO_ORDER_NAMED_TEXTS.shop }).waitFor();
    expect(await page.getByText('Order not found.').count()).toBe(0);
    await screenshotBothWidths(page, 'last-mile-thank-you-bare');
    expect(errors).toEqual([]);
    await context.close();
  });
});
