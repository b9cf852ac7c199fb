import { expect, inject } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { CHECKOUT_MESSAGES } from '../src/shared/checkout-text.js';

/** What the browser journeys share: the demo accounts, signing in as a person does, the fakes. */
export const ADMIN = { email: 'admin@example.com', password: 'Admin-Demo-2026' };
export const CUSTOMER = { email: 'customer@example.com', password: 'Customer-Demo-2026' };
/** A person takes more than the forms' 1-second bot guard to fill them in. */
export const HUMAN_PAUSE_MS = 1200;

export async function signInThroughForm(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.goto('/auth?tab=signin');
  await page.getByRole('tab', { name: 'Sign In', selected: true }).waitFor();
  const shown = Date.now();
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  // The pause counts from when the form was shown, as the guard does: typing is part of it.
  await page.waitForTimeout(Math.max(0, HUMAN_PAUSE_MS - (Date.now() - shown)));
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByText('Welcome back!').waitFor();
}

/** The first toast (or any text) that reads exactly this. */
export function toast(page: Page, text: string): Locator {
  return page.getByText(text, { exact: true }).first();
}

/** Switches are visually hidden checkboxes: flip them the way a keyboard user does. */
export async function toggle(page: Page, control: Locator): Promise<void> {
  await control.focus();
  await page.keyboard.press('Space');
}

/** The control API of the fakes in e2e/fakes.ts (mail received, the workflow endpoint). */
export async function fakes<T>(path: string, method = 'GET'): Promise<T> {
  return (await (await fetch(`${inject('fakesUrl')}${path}`, { method })).json()) as T;
}

export type ReceivedMail = { to: string[]; subject: string };

export const SHIPPING_ADDRESS = {
  name: 'Demo Customer',
  address: '12 Fern Way',
  city: 'Portland',
  state: 'OR',
  zip: '97201',
  country: 'US',
};

/**
 * A checkout by the signed-in customer (two 5-packs of cloths unless told); paid through the
 * built-in test provider's /pay page unless `pay` is false. Returns the order's id.
 */
export async function checkout(
  page: Page,
  pay: boolean,
  items: { productId: string; quantity: number }[] = [{ productId: 'cloth-5-pack', quantity: 2 }],
): Promise<string> {
  const origin = inject('baseUrl');
  const res = await page.request.post('/api/create-checkout-session', {
    headers: { origin },
    data: { items, customerEmail: CUSTOMER.email, shippingAddress: SHIPPING_ADDRESS },
  });
  expect(res.status()).toBe(200);
  const { url, orderId } = (await res.json()) as { url: string; orderId: string };
  if (!pay) return orderId;
  await page.goto(url);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Demo Customer');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await page.waitForURL(/order-confirmation|success|thank-you/);
  return orderId;
}

/** A same-origin call from the signed-in admin's page (the admin surface checks same-site writes). */
export function call(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    },
    { method, path, body },
  );
}

/** Adds one unit from the product's own page, as a shopper does, and waits for the toast. */
export async function addFromProductPage(page: Page, product: { id: string; name: string }): Promise<void> {
  await page.goto(`/products/${product.id}`);
  await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
  await page.getByRole('button', { name: 'Add to Cart' }).first().click();
  await page.getByText('Added to cart').first().waitFor();
}

/**
 * From a filled checkout form: presses Pay once the server's quote has settled and reads what the
 * built-in test card page (/pay/:id) asks. Both amounts as shown ("$53.96"), for the journey to
 * compare: the card page must charge what the Pay button promised.
 */
export async function payButtonToCardPage(page: Page, press: 'click' | 'tap' = 'click'): Promise<{ payButton: string; cardPage: string }> {
  // On a phone the summary is folded to its total: the figures are there, not shown.
  await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor({ state: 'attached' });
  const pay = page.locator('main').getByRole('button', { name: /^Pay \$[\d,.]+/ });
  await expect.poll(() => pay.isEnabled(), { timeout: 10_000 }).toBe(true);
  const payButton = /^Pay (\$[\d,.]+)/.exec((await pay.textContent()) ?? '')?.[1] ?? '';
  await (press === 'tap' ? pay.tap() : pay.click());
  // A refused checkout stays on the page with a toast: fail with its words, not a bare timeout.
  const refused = page.getByRole('status').filter({ hasText: CHECKOUT_MESSAGES.checkoutError });
  // (Each wait settles either way: the one that loses must not end later as an unhandled rejection.)
  const outcome = await Promise.race([
    page.waitForURL(/\/pay\//).then(
      () => 'card page',
      () => 'no card page',
    ),
    refused.waitFor().then(
      () => 'refused',
      () => 'no card page',
    ),
  ]);
  if (outcome === 'refused') throw new Error(`The checkout refused to pay: ${await refused.innerText()}`);
  if (outcome !== 'card page') throw new Error(`Pay did not lead to the card page (still at ${page.url()})`);
  await page.getByText('TEST MODE', { exact: true }).waitFor();
  const cardPage = ((await page.locator('.amount').textContent()) ?? '').trim();
  return { payButton, cardPage };
}

/** On the test card page: pays with the card that succeeds and returns the confirmed order's id. */
export async function payWithTestCard(page: Page): Promise<string> {
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Demo Customer');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await page.waitForURL(/\/order-confirmation\?/);
  await page.getByRole('heading', { name: 'Order Confirmed' }).waitFor();
  return new URL(page.url()).searchParams.get('orderId') ?? '';
}

/** Fills the checkout's shipping form as a shopper types it (the page must be the checkout). */
export async function fillCheckoutForm(page: Page, email: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
  const main = page.locator('main');
  await main.getByLabel('First Name').fill('Pat');
  await main.getByLabel('Last Name').fill('Buyer');
  await main.getByLabel('Email Address').fill(email);
  await main.getByLabel('Street Address').fill('12 Fern Way');
  await main.getByLabel('City').fill('Portland');
  await main.getByLabel('State').selectOption('OR');
  await main.getByLabel('ZIP Code').fill('97201');
}
