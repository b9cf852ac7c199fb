import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, MOBILE, baseUrl, launchBrowser, openPage, screenshot, settle } from './browser.js';
import { signInThroughForm } from './helpers.js';

/**
 * Lost work in the cart (issue 29, decision 0030): paying takes out only the lines that were
 * bought, so what the shopper added in another tab or after Back from the card page is still
 * there; an emptied cart drops its coupon; the counts include the free gift.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const CLOTHS = { id: 'cloth-5-pack', name: '5 - Reusable Cleaning Cloths (5-Pack)' };
const MOP = { id: 'sweep-and-mop', name: 'Sweep & Mop Tool' };
const CLEANER = { id: 'concentrated-cleaner', name: 'Concentrated All-Purpose Cleaner' };

async function addProduct(page: Page, product: { id: string; name: string }): Promise<void> {
  await page.goto(`/products/${product.id}`);
  await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.getByText('Added to cart').first().waitFor();
}

async function fillShipping(page: Page): Promise<void> {
  const main = page.locator('main');
  const values: [string, string][] = [
    ['First Name', 'Pat'],
    ['Last Name', 'Buyer'],
    ['Email Address', 'pat.saved-cart@example.com'],
    ['Street Address', '1 Main Street'],
    ['City', 'Springfield'],
  ];
  for (const [label, value] of values) {
    const field = main.getByLabel(label, { exact: false }).first();
    await field.fill('');
    await field.pressSequentially(value, { delay: 10 });
    await page.waitForTimeout(100);
  }
  await main.getByLabel('State').selectOption('OR');
  await main.getByLabel('ZIP Code', { exact: false }).first().pressSequentially('97477', { delay: 10 });
}

/** From the cart page to the built-in card page; returns its address. */
async function toCardPage(page: Page): Promise<string> {
  await page.goto('/checkout');
  await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
  await fillShipping(page);
  const pay = page.getByRole('button', { name: /^Pay \$[\d,.]+ in test mode$/ });
  await pay.waitFor();
  // On a phone the summary is folded: its totals are there, not shown.
  await page.locator('[data-testid="order-totals"][aria-busy="false"]').first().waitFor({ state: 'attached' });
  await pay.click();
  await page.waitForURL(/\/pay\//);
  return page.url();
}

async function payWithCard(page: Page): Promise<void> {
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Pat Buyer');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await page.waitForURL(/\/order-confirmation\?/);
  await page.getByRole('heading', { name: 'Order Confirmed' }).waitFor();
}

function storedLines(page: Page): Promise<[string, number][]> {
  return page.evaluate(() => {
    const cart = JSON.parse(localStorage.getItem('cart') ?? '{}') as { items?: { product: { id: string }; quantity: number }[] };
    return (cart.items ?? []).map((l): [string, number] => [l.product.id, l.quantity]);
  });
}

const header = (page: Page) => page.locator('header').first();

async function shootCart(page: Page, name: string): Promise<void> {
  await page.goto('/cart');
  await page.getByRole('heading', { name: 'Order Summary' }).waitFor();
  await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor();
  await settle(page);
  await screenshot(page, name);
}

describe('paying takes only the bought lines out of the cart', () => {
  it('1280 px: another tab adds while the first pays; only the bought lines leave, in both tabs', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    context.setDefaultTimeout(20_000);
    await addProduct(page, CLOTHS);
    await addProduct(page, MOP);
    await toCardPage(page);

    // Another tab of the same browser: one more pack of cloths and a cleaner.
    const other = await context.newPage();
    await other.goto(`/products/${CLEANER.id}`);
    await other.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await other.getByRole('button', { name: 'Add to Cart' }).click();
    await other.getByText('Added to cart').first().waitFor();
    await other.goto(`/products/${CLOTHS.id}`);
    await other.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await other.getByRole('button', { name: 'Add to Cart' }).click();
    await header(other).getByRole('link', { name: 'Cart, 4 items' }).waitFor();

    await payWithCard(page);
    await header(page).getByRole('link', { name: 'Cart, 2 items' }).waitFor();
    expect(await storedLines(page)).toEqual([
      [CLOTHS.id, 1],
      [CLEANER.id, 1],
    ]);
    // The other tab follows through the storage event.
    await header(other).getByRole('link', { name: 'Cart, 2 items' }).waitFor();
    await shootCart(page, 'saved-cart-after-paying-1280');
    await page.getByRole('link', { name: CLOTHS.name }).first().waitFor();
    await page.getByRole('link', { name: CLEANER.name }).first().waitFor();
    expect(await page.getByRole('link', { name: MOP.name }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('390 px: Back from the card page, add an item, pay the first checkout; the added item stays', async () => {
    const { context, page, errors } = await openPage(browser, MOBILE);
    context.setDefaultTimeout(20_000);
    await addProduct(page, CLOTHS);
    await addProduct(page, MOP);
    const cardPage = await toCardPage(page);
    await page.goBack();
    await page.waitForURL('**/checkout');
    await addProduct(page, CLEANER);
    await header(page).getByRole('link', { name: 'Cart, 3 items' }).waitFor();
    await page.goto(cardPage);
    await payWithCard(page);
    await header(page).getByRole('link', { name: 'Cart, 1 item' }).waitFor();
    expect(await storedLines(page)).toEqual([[CLEANER.id, 1]]);
    // A reload of the confirmation takes nothing more.
    await page.reload();
    await page.getByRole('heading', { name: 'Order Confirmed' }).waitFor();
    expect(await storedLines(page)).toEqual([[CLEANER.id, 1]]);
    await settle(page);
    await screenshot(page, 'saved-cart-confirmation-390');
    await shootCart(page, 'saved-cart-after-paying-390');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the coupon and the counts', () => {
  for (const [width, viewport] of [
    ['1280', DESKTOP],
    ['390', MOBILE],
  ] as const) {
    it(`${width} px: the free gift is counted; an emptied cart drops its coupon`, async () => {
      const { context, page, errors } = await openPage(browser, viewport);
      context.setDefaultTimeout(20_000);
      await addProduct(page, CLEANER);
      await page.goto('/cart');
      await page.getByLabel('Coupon code').fill('freegift');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('Coupon Applied!').first().waitFor();
      const gift = page.locator('li', { has: page.getByText('Free Gift', { exact: true }) });
      await gift.getByText('FREE', { exact: true }).waitFor();
      // One cleaner and the gift: two items, in the header and in the summary.
      await header(page).getByRole('link', { name: 'Cart, 2 items' }).waitFor();
      await page.getByText('2 items', { exact: true }).waitFor();
      await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor();
      await settle(page);
      await screenshot(page, `saved-cart-gift-counted-${width}`);

      await page.getByRole('button', { name: `Remove ${CLEANER.name}` }).click();
      await header(page).getByRole('link', { name: 'Cart, 0 items' }).waitFor();
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '{}') as { appliedCouponCode: string | null });
      expect(stored.appliedCouponCode).toBeNull();
      // What is added next is not discounted by a coupon left behind.
      await addProduct(page, MOP);
      await page.goto('/cart');
      await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor();
      expect(await page.getByLabel('Coupon code').inputValue()).toBe('');
      expect(await page.getByText('Free Gift', { exact: true }).count()).toBe(0);
      await header(page).getByRole('link', { name: 'Cart, 1 item' }).waitFor();
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

/** A new customer of this journey, signed up through the API (the journey signs in as a person does). */
async function newCustomer(label: string): Promise<{ email: string; password: string }> {
  const who = { email: `saved-cart-${label}-${Date.now().toString(36)}@example.com`, password: 'Saved-Cart-2026' };
  const { context } = await openPage(browser, DESKTOP);
  const res = await context.request.post('/api/auth/sign-up', {
    headers: { origin: baseUrl() },
    data: { fullName: 'Sam Saved', ...who, elapsedMs: 5000 },
  });
  expect(res.status()).toBe(201);
  await context.close();
  return who;
}

async function signOutFromHeader(page: Page): Promise<void> {
  await header(page).getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((u) => u.pathname === '/auth');
  await page.getByText('You have been signed out successfully.').first().waitFor();
}

describe("a signed-in customer's cart is kept by the account", () => {
  for (const [width, viewport] of [
    ['1280', DESKTOP],
    ['390', MOBILE],
  ] as const) {
    it(`${width} px: signed out, the cart empties; signed in on a fresh browser, it is there`, async () => {
      const who = await newCustomer(`keep-${width}`);
      const { context, page, errors } = await openPage(browser, viewport);
      context.setDefaultTimeout(20_000);
      await signInThroughForm(page, who);
      await addProduct(page, CLOTHS);
      await addProduct(page, MOP);
      await header(page).getByRole('link', { name: 'Cart, 2 items' }).waitFor();
      // The sign-out control says what it does, at both widths.
      const signOut = header(page).getByRole('button', { name: 'Sign out' });
      expect((await signOut.innerText()).trim()).toBe('Sign out');
      expect(await signOut.isVisible()).toBe(true);
      await settle(page);
      await page.screenshot({
        path: `${process.env.SCREENSHOT_DIR ?? 'test-results/screenshots'}/saved-cart-header-signed-in-${width}.png`,
      });
      await signOutFromHeader(page);
      await header(page).getByRole('link', { name: 'Cart, 0 items' }).waitFor();
      expect(await storedLines(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();

      // Another device: a browser that has never seen this cart.
      const fresh = await openPage(browser, viewport);
      fresh.context.setDefaultTimeout(20_000);
      await signInThroughForm(fresh.page, who);
      await header(fresh.page).getByRole('link', { name: 'Cart, 2 items' }).waitFor();
      expect(await storedLines(fresh.page)).toEqual([
        [CLOTHS.id, 1],
        [MOP.id, 1],
      ]);
      await shootCart(fresh.page, `saved-cart-kept-${width}`);
      await fresh.page.getByRole('link', { name: MOP.name }).first().waitFor();
      expect(fresh.errors).toEqual([]);
      await fresh.context.close();
    });
  }

  it('a guest cart joins the account cart on sign-in (quantities add), at 1280 and 390 px', async () => {
    const who = await newCustomer('merge');
    const first = await openPage(browser, DESKTOP);
    first.context.setDefaultTimeout(20_000);
    await signInThroughForm(first.page, who);
    await addProduct(first.page, CLOTHS);
    await signOutFromHeader(first.page);
    await first.context.close();

    const { context, page, errors } = await openPage(browser, MOBILE);
    context.setDefaultTimeout(20_000);
    await addProduct(page, CLOTHS);
    await addProduct(page, CLEANER);
    await header(page).getByRole('link', { name: 'Cart, 2 items' }).waitFor();
    await signInThroughForm(page, who);
    await header(page).getByRole('link', { name: 'Cart, 3 items' }).waitFor();
    expect(await storedLines(page)).toEqual([
      [CLOTHS.id, 2],
      [CLEANER.id, 1],
    ]);
    await shootCart(page, 'saved-cart-merged-390');
    await page.setViewportSize(DESKTOP);
    await shootCart(page, 'saved-cart-merged-1280');
    expect(errors).toEqual([]);
    await context.close();
  });
});
