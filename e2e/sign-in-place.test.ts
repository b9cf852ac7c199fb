import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, MOBILE, baseUrl, launchBrowser, openPage, screenshot, settle } from './browser.js';
import { HUMAN_PAUSE_MS } from './helpers.js';
import { startShopServer, type ShopServer } from './server.js';

/**
 * Issue 18, items 3-5: signing in keeps the shopper's place (and cart), signing out empties the
 * cart, and a shop opened at 127.0.0.1 is sent to its one address before anything is stored.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Screenshots at 1280 and 390 px of the page as it is now. */
async function shootBoth(page: Page, name: string): Promise<void> {
  await settle(page);
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize(MOBILE);
  await settle(page);
  await screenshot(page, `${name}-390`);
  await page.setViewportSize(DESKTOP);
}

async function addProduct(page: Page, url: string, name: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.getByText('Added to cart').first().waitFor();
}

const header = (page: Page) => page.locator('header').first();
const field = (page: Page, label: string) => page.locator('main').getByLabel(label, { exact: false }).first();

async function cartInStorage(page: Page): Promise<{ productId: string; quantity: number }[]> {
  return page.evaluate(() =>
    (
      (JSON.parse(localStorage.getItem('cart') ?? '{"items":[]}') as { items: { product: { id: string }; quantity: number }[] }).items ?? []
    ).map((l) => ({
      productId: l.product.id,
      quantity: l.quantity,
    })),
  );
}

/** An account with a saved shipping address, made through the API in a browser of its own. */
async function accountWithAddress(who: { fullName: string; email: string; password: string }): Promise<void> {
  const { context, page } = await openPage(browser);
  const origin = baseUrl();
  const up = await page.request.post('/api/auth/sign-up', { headers: { origin }, data: { ...who, elapsedMs: 5000, website: '' } });
  expect(up.status()).toBe(201);
  const saved = await page.request.put('/api/account/addresses/shipping', {
    headers: { origin },
    data: { name: who.fullName, address: '48 Alder Lane', city: 'Eugene', state: 'OR', zip: '97401' },
  });
  expect(saved.status()).toBe(200);
  await context.close();
}

describe("sign-in keeps the shopper's place", () => {
  it('from the checkout banner: back at /checkout with the cart, the form filled from the account', async () => {
    const who = { fullName: 'Robin Alder Green', email: `robin.${Date.now()}@example.com`, password: 'Robin-Green-2026' };
    await accountWithAddress(who);

    const { page, context, errors } = await openPage(browser, DESKTOP);
    await addProduct(page, '/products/cloth-5-pack', '5 - Reusable Cleaning Cloths (5-Pack)');
    await page.goto('/checkout');
    await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
    await page.getByText('You are checking out as a guest.', { exact: false }).waitFor();

    await page.locator('main').getByRole('link', { name: 'Sign In', exact: true }).click();
    await page.waitForURL(
      (u) => u.pathname === '/auth' && u.searchParams.get('tab') === 'signin' && u.searchParams.get('redirect') === '/checkout',
    );
    const panel = page.getByRole('tabpanel');
    await panel.getByLabel('Password', { exact: true }).waitFor();
    await shootBoth(page, 'sign-in-from-checkout');

    await panel.getByLabel('Email', { exact: true }).fill(who.email);
    await panel.getByLabel('Password', { exact: true }).fill(who.password);
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    await panel.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByText('Welcome back!').first().waitFor();
    await page.waitForURL((u) => u.pathname === '/checkout');

    // The cart came along, and the form holds the account's name, e-mail and saved address.
    await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
    await page.getByRole('link', { name: 'Cart, 1 item' }).waitFor();
    expect(await cartInStorage(page)).toEqual([{ productId: 'cloth-5-pack', quantity: 1 }]);
    await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor();
    await page.getByRole('button', { name: /^Pay \$[\d,.]+ in test mode$/ }).waitFor();
    expect(await page.getByText('You are checking out as a guest.', { exact: false }).count()).toBe(0);
    await expect.poll(() => field(page, 'First Name').inputValue()).toBe('Robin');
    expect(await field(page, 'Last Name').inputValue()).toBe('Alder Green');
    expect(await field(page, 'Email Address').inputValue()).toBe(who.email);
    expect(await field(page, 'Street Address').inputValue()).toBe('48 Alder Lane');
    expect(await field(page, 'City').inputValue()).toBe('Eugene');
    expect(await page.locator('main').getByLabel('State').inputValue()).toBe('OR');
    expect(await field(page, 'ZIP Code').inputValue()).toBe('97401');
    // The welcome toast has been read: out of the way of the form in the pictures.
    await page.getByRole('button', { name: 'Close notification' }).first().click();
    await page.getByText('Welcome back!').waitFor({ state: 'detached' });
    await shootBoth(page, 'checkout-prefilled-after-sign-in');

    // Signing out on this (shared) computer empties the cart and drops its cookie.
    expect((await context.cookies()).some((c) => c.name === 'cart')).toBe(true);
    await header(page).getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have been signed out successfully.').waitFor();
    await page.waitForURL((u) => u.pathname === '/auth');
    await header(page).getByRole('link', { name: 'Cart, 0 items' }).waitFor();
    expect(await cartInStorage(page)).toEqual([]);
    expect((await context.cookies()).some((c) => c.name === 'cart')).toBe(false);
    await page.goto('/cart');
    await page.getByText('Your cart is empty').waitFor();

    expect(errors).toEqual([]);
    await context.close();
  });

  it("signing up from the banner comes back to /checkout too, the guest's cart kept", async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await addProduct(page, '/products/sweep-and-mop', 'Sweep & Mop Tool');
    await page.goto('/checkout');
    await page.locator('main').getByRole('link', { name: 'Sign Up', exact: true }).click();
    await page.waitForURL(
      (u) => u.pathname === '/auth' && u.searchParams.get('tab') === 'signup' && u.searchParams.get('redirect') === '/checkout',
    );
    const panel = page.getByRole('tabpanel');
    const email = `sam.${Date.now()}@example.com`;
    await panel.getByLabel('Full Name').fill('Sam Fern');
    await panel.getByLabel('Email', { exact: true }).fill(email);
    await panel.getByLabel('Password', { exact: true }).fill('Sam-Fern-2026!');
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    await panel.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/checkout');
    await page.getByRole('link', { name: 'Cart, 1 item' }).waitFor();
    expect(await cartInStorage(page)).toEqual([{ productId: 'sweep-and-mop', quantity: 1 }]);
    await expect.poll(() => field(page, 'First Name').inputValue()).toBe('Sam');
    expect(await field(page, 'Last Name').inputValue()).toBe('Fern');
    expect(await field(page, 'Email Address').inputValue()).toBe(email);
    // No saved address yet: the address fields wait for the shopper.
    expect(await field(page, 'Street Address').inputValue()).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the header's sign-in link returns to the page it was opened from", async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await page.goto('/products/sweep-and-mop');
    await page.getByRole('heading', { level: 1, name: 'Sweep & Mop Tool' }).waitFor();
    await header(page).getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname === '/auth' && u.searchParams.get('redirect') === '/products/sweep-and-mop');
    const panel = page.getByRole('tabpanel');
    await panel.getByLabel('Email', { exact: true }).fill('customer@example.com');
    await panel.getByLabel('Password', { exact: true }).fill('Customer-Demo-2026');
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    await panel.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/products/sweep-and-mop');
    await header(page).getByRole('button', { name: 'Sign out' }).waitFor();

    // A crafted redirect never leaves the shop.
    await header(page).getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.pathname === '/auth');
    await page.goto('/auth?tab=signin&redirect=%2F.%2F%2Fevil.example%2Fx');
    await panel.getByLabel('Email', { exact: true }).fill('customer@example.com');
    await panel.getByLabel('Password', { exact: true }).fill('Customer-Demo-2026');
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    await panel.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/');
    expect(new URL(page.url()).origin).toBe(baseUrl());
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('one address per shop: a purchase begun at 127.0.0.1', () => {
  let server: ShopServer;
  beforeAll(async () => {
    // As `npm start` runs on a developer's machine: development, PUBLIC_URL unset (http://localhost:PORT).
    server = await startShopServer({ NODE_ENV: 'development', PUBLIC_URL: undefined });
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('is sent to http://localhost:PORT before anything is stored, and ends on Order Confirmed', async () => {
    const ip = server.baseUrl;
    const port = new URL(ip).port;
    const publicUrl = `http://localhost:${port}`;
    const { page, context, errors } = await openPage(browser, DESKTOP);

    await page.goto(`${ip}/products/cloth-5-pack`);
    expect(new URL(page.url()).origin).toBe(publicUrl);
    await page.getByRole('heading', { level: 1, name: '5 - Reusable Cleaning Cloths (5-Pack)' }).waitFor();
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.getByText('Added to cart').first().waitFor();

    // An old bookmark of the checkout at the IP lands on the same checkout, cart and all.
    await page.goto(`${ip}/checkout`);
    expect(new URL(page.url()).origin).toBe(publicUrl);
    await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
    await field(page, 'First Name').fill('Ira');
    await field(page, 'Last Name').fill('Local');
    await field(page, 'Email Address').fill('ira.local@example.com');
    await field(page, 'Street Address').fill('5 Loopback Road');
    await field(page, 'City').fill('Salem');
    await page.locator('main').getByLabel('State').selectOption('OR');
    await field(page, 'ZIP Code').fill('97301');
    await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor();
    await page.getByRole('button', { name: /^Pay \$[\d,.]+ in test mode$/ }).click();
    await page.waitForURL((u) => u.origin === publicUrl && u.pathname.startsWith('/pay/'));

    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByLabel('Name on card').fill('Ira Local');
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    await page.waitForURL((u) => u.origin === publicUrl && u.pathname === '/order-confirmation');
    await page.getByRole('heading', { name: 'Order Confirmed' }).waitFor();
    expect(await page.getByText('Order not found.').count()).toBe(0);

    // Nothing was ever stored for the IP's origin: no cookie names it.
    const cookies = await context.cookies(ip);
    expect(cookies.filter((c) => c.domain === '127.0.0.1')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
