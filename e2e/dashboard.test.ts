import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, MOBILE, launchBrowser, openPage, screenshot, settle } from './browser.js';
import { orderNumberLabel } from '../src/shared/order-words.js';

const CUSTOMER = { email: 'customer@example.com', password: 'Customer-Demo-2026' };
const ADMIN = { email: 'admin@example.com', password: 'Admin-Demo-2026' };
const FRESH_USER = { fullName: 'Sky Newcomer', email: `sky-${Date.now()}@example.com`, password: 'Fresh-Pass-2026' };

/** A person takes more than the forms' 1-second bot guard to fill them in. */
const HUMAN_PAUSE_MS = 1200;
const REWARD_EVERY = 300;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type SessionBody = { user: { id: string; email: string; role: string; loyaltyPoints: number } | null; impersonatorEmail: string | null };

async function session(page: Page): Promise<SessionBody> {
  return (await (await page.request.get('/api/session')).json()) as SessionBody;
}

async function signIn(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.goto('/auth?tab=signin');
  const panel = page.getByRole('tabpanel');
  await panel.getByLabel('Password', { exact: true }).waitFor();
  await panel.getByLabel('Email', { exact: true }).pressSequentially(who.email, { delay: 10 });
  await panel.getByLabel('Password', { exact: true }).pressSequentially(who.password, { delay: 10 });
  await page.waitForTimeout(HUMAN_PAUSE_MS);
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/auth/sign-in'));
  await panel.getByRole('button', { name: 'Sign In', exact: true }).click();
  expect((await answered).status()).toBe(200);
  await page.waitForURL((u) => u.pathname === '/');
}

/** Screenshots at 1280 and 390 px of the page as it is now. */
async function shootBoth(page: Page, name: string): Promise<void> {
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 400) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 30));
    }
    window.scrollTo(0, 0);
  });
  await settle(page);
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize(MOBILE);
  await settle(page);
  await screenshot(page, `${name}-390`);
  await page.setViewportSize(DESKTOP);
  await settle(page);
}

/** The loyalty figures the dashboard shows, checked against the spec's rule for the next reward. */
async function readLoyalty(page: Page): Promise<number> {
  const card = page.getByRole('region', { name: 'Loyalty Program' });
  await card.waitFor();
  const points = Number(((await card.getByTestId('loyalty-points').textContent()) ?? '').replace(/,/g, ''));
  expect(Number.isInteger(points)).toBe(true);
  const next = points > 0 && points % REWARD_EVERY === 0 ? 0 : REWARD_EVERY - (points % REWARD_EVERY);
  if (next === 0) await card.getByText('Reward available').waitFor();
  else expect(await card.getByTestId('loyalty-next-reward').textContent()).toBe(`${next} points to next reward`);
  const bar = card.getByRole('progressbar');
  expect(await bar.getAttribute('aria-valuenow')).toBe(String(REWARD_EVERY - next));
  expect(await bar.getAttribute('aria-valuemax')).toBe(String(REWARD_EVERY));
  return points;
}

async function addProduct(page: Page, id: string, name: string): Promise<void> {
  await page.goto(`/products/${id}`);
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.getByText('Added to cart').first().waitFor();
}

/** The whole checkout: the form (filled where empty), the test payment page, the confirmation. */
async function buyCart(page: Page): Promise<void> {
  await page.goto('/checkout');
  const main = page.locator('main');
  await page.waitForFunction(() => (document.querySelector<HTMLInputElement>('#checkout-firstName')?.value ?? '') !== '');
  if ((await main.getByLabel('Street Address').inputValue()) === '') {
    const type = async (label: string, value: string) => {
      const field = main.getByLabel(label).first();
      await field.fill('');
      await field.pressSequentially(value, { delay: 10 });
    };
    await type('Street Address', '10 Demo Lane');
    await type('City', 'Portland');
    await main.getByLabel('State').selectOption('OR');
    await type('ZIP Code', '97201');
  }
  const pay = page.getByRole('button', { name: /^Pay \$[\d,.]+ in test mode$/ });
  await pay.waitFor();
  await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor();
  await pay.click();
  await page.waitForURL(/\/pay\//);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Test Customer');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await page.getByRole('heading', { name: 'Order Confirmed' }).waitFor();
}

async function cartCount(page: Page): Promise<number> {
  const label =
    (await page
      .locator('header')
      .getByRole('link', { name: /^Cart, \d+ items?$/ })
      .getAttribute('aria-label')) ?? '';
  return Number(/Cart, (\d+)/.exec(label)?.[1] ?? 'NaN');
}

/** Starts recording every text that appears in the page, so a toast replaced quickly is still seen. */
async function recordTexts(page: Page): Promise<() => Promise<string>> {
  await page.evaluate(() => {
    const w = window as unknown as { __seen: string[] };
    w.__seen = [];
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) if (n.textContent) w.__seen.push(n.textContent);
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { __seen: string[] }).__seen.join('\n'));
}

describe('dashboard and orders journeys', () => {
  it('customer: loyalty, a purchase on the dashboard and /orders, receipt, reorder, contact and address edits, checkout prefill', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await signIn(page, CUSTOMER);

    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1, name: 'My Dashboard' }).waitFor();
    await page.getByText(/^Welcome back, .+!$/).waitFor();
    const pointsBefore = await readLoyalty(page);
    expect((await session(page)).user?.loyaltyPoints).toBe(pointsBefore);
    await page.getByRole('region', { name: 'Shopping Summary' }).getByText('Total Spent').waitFor();
    expect(await page.getByRole('region', { name: 'Recent Users' }).count()).toBe(0);

    // A purchase of $50 or more earns 10 points.
    await addProduct(page, 'cloth-20-pack', '20 - Reusable Cleaning Cloths (20-Pack)');
    await buyCart(page);
    const mine = (await (await page.request.get('/api/orders?pageSize=1')).json()) as { items: { id: string; totalCents: number }[] };
    const order = mine.items[0];
    expect(order).toBeDefined();
    const orderId = order!.id;
    const number = orderId.slice(-8).toUpperCase();
    expect(order!.totalCents).toBeGreaterThanOrEqual(5000);

    await page.goto('/dashboard');
    const recent = page.getByRole('region', { name: 'Recent Orders' });
    await recent.getByText(`#${number}`, { exact: true }).waitFor();
    expect(await readLoyalty(page)).toBe(pointsBefore + 10);
    await page
      .getByTestId('stat-cards')
      .getByText(/^Latest: /)
      .waitFor();
    await shootBoth(page, 'dashboard-customer');

    // View Details: the receipt, printable on its own.
    await recent.getByRole('button', { name: `View Details of order #${number}` }).click();
    const receipt = page.getByRole('dialog', { name: 'Order Details' });
    await receipt.waitFor();
    await receipt.getByText(`#${number.toUpperCase()}`).waitFor();
    await receipt.getByText('20 - Reusable Cleaning Cloths (20-Pack)').waitFor();
    for (const label of ['Subtotal', 'Shipping', 'Tax', 'Total']) await receipt.getByText(label, { exact: true }).first().waitFor();
    await receipt.getByText('FREE', { exact: true }).waitFor(); // $59.99 reaches free shipping
    await receipt.getByRole('heading', { name: 'Shipping Address' }).waitFor();
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    await receipt.getByRole('button', { name: 'Print Packing Slip' }).click();
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    await shootBoth(page, 'receipt-dialog');
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('header').first().isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Print Packing Slip' }).isVisible()).toBe(false);
    expect(await page.getByTestId('receipt').isVisible()).toBe(true);
    await screenshot(page, 'receipt-print-1280');
    await page.emulateMedia({ media: 'screen' });
    await receipt.getByRole('button', { name: 'Close' }).first().click();
    await receipt.waitFor({ state: 'hidden' });

    // Reorder puts the items back in the cart at today's price.
    const before = await cartCount(page);
    await recent.getByRole('button', { name: `Reorder order #${number}` }).click();
    await page.getByText('Items Added to Cart').waitFor();
    await page.getByText(`1 item(s) from order ${orderNumberLabel(orderId)} added to your cart`).waitFor();
    await page
      .locator('header')
      .getByRole('link', { name: `Cart, ${before + 1} ${before + 1 === 1 ? 'item' : 'items'}` })
      .waitFor();

    // /orders lists it with its tracking code and the receipt.
    await page.goto('/orders');
    await page.getByRole('heading', { level: 1, name: 'My Orders' }).waitFor();
    const card = page.getByRole('article', { name: `Order #${number}` });
    await card.waitFor();
    await card.getByText('20 - Reusable Cleaning Cloths (20-Pack) x 1').waitFor();
    await card.getByText(`EC${orderId.slice(-8).toUpperCase()}`).waitFor(); // paid, so past pending
    expect(await card.getByRole('link', { name: /Track Package/ }).count()).toBe(0); // not shipped yet
    await card.getByRole('button', { name: `View Details of order #${number}` }).click();
    await page.getByRole('dialog', { name: 'Order Details' }).getByText(`#${number.toUpperCase()}`).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Order Details' }).waitFor({ state: 'hidden' });
    await shootBoth(page, 'orders-customer');

    // Contact information: required fields, phone formatted while typing.
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Edit Contact Information' }).click();
    const contact = page.getByRole('dialog', { name: 'Contact Information' });
    await contact.waitFor();
    const fullName = await contact.getByLabel('Full Name').inputValue();
    await contact.getByLabel('Full Name').fill('');
    await contact.getByRole('button', { name: 'Save' }).click();
    await contact.getByText('Please fill in all required fields').waitFor();
    await contact.getByLabel('Full Name').fill(fullName);
    const phone = contact.getByLabel('Phone');
    await phone.fill('');
    await phone.pressSequentially('5551234567', { delay: 15 });
    expect(await phone.inputValue()).toBe('(555) 123-4567');
    // A different e-mail asks for the current password; the saved one (in any case) does not.
    const emailField = contact.getByLabel('Email');
    const savedEmail = await emailField.inputValue();
    expect(await contact.getByLabel('Current password').count()).toBe(0);
    await emailField.fill('someone.else@example.com');
    await contact.getByLabel('Current password').waitFor();
    await contact.getByRole('button', { name: 'Save' }).click();
    await contact.getByText('Please enter your current password to change your email').waitFor();
    await emailField.fill(savedEmail.toUpperCase());
    await contact.getByLabel('Current password').waitFor({ state: 'detached' });
    await contact.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Contact information updated successfully').waitFor();
    await contact.waitFor({ state: 'hidden' });
    expect(await page.getByTestId('account-phone').textContent()).toBe('(555) 123-4567');

    // Both addresses.
    const fillAddress = async (dialogName: string, v: { address: string; city: string; state: string; zip: string }) => {
      await page.getByRole('button', { name: `Edit ${dialogName}` }).click();
      const dialog = page.getByRole('dialog', { name: dialogName });
      await dialog.waitFor();
      await dialog.getByLabel('Name', { exact: true }).fill(fullName);
      await dialog.getByLabel('Street Address').fill('');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.getByText('Please fill in all required fields').waitFor();
      await dialog.getByLabel('Street Address').fill(v.address);
      await dialog.getByLabel('City').fill(v.city);
      await dialog.getByLabel('State').selectOption(v.state);
      await dialog.getByLabel('ZIP').fill(v.zip);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'hidden' });
    };
    await fillAddress('Shipping Address', { address: '42 Green Way', city: 'Eugene', state: 'OR', zip: '97401' });
    await page.getByText('Shipping address saved successfully').waitFor();
    await page.getByTestId('account-shipping-address').getByText('42 Green Way').waitFor();
    await fillAddress('Billing Address', { address: '7 Ledger Street', city: 'Boise', state: 'ID', zip: '83702' });
    await page.getByText('Billing address saved successfully').waitFor();
    await page.getByTestId('account-billing-address').getByText('Boise, ID 83702').waitFor();
    await shootBoth(page, 'dashboard-customer-edited');

    // Checkout is prefilled with the new shipping address (the reordered item is in the cart).
    await page.goto('/checkout');
    const main = page.locator('main');
    await page.waitForFunction(() => (document.querySelector<HTMLInputElement>('#checkout-firstName')?.value ?? '') !== '');
    expect(await main.getByLabel('Street Address').inputValue()).toBe('42 Green Way');
    expect(await main.getByLabel('City').inputValue()).toBe('Eugene');
    expect(await main.getByLabel('State').inputValue()).toBe('OR');
    expect(await main.getByLabel('ZIP Code').inputValue()).toBe('97401');

    expect(errors).toEqual([]);
    await context.close();
  });

  it('a new customer sees empty states on the dashboard and /orders', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await page.goto('/auth?tab=signup');
    await page.getByRole('tab', { name: 'Sign Up', selected: true }).waitFor();
    await page.getByLabel('Full Name').fill(FRESH_USER.fullName);
    await page.getByLabel('Email').fill(FRESH_USER.email);
    await page.getByLabel('Password', { exact: true }).fill(FRESH_USER.password);
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Welcome!', { exact: true }).waitFor();
    await page.waitForURL((u) => u.pathname === '/');

    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1, name: 'My Dashboard' }).waitFor();
    await page.getByText(`Welcome to EcoClean, ${FRESH_USER.fullName}!`).waitFor();
    expect(await readLoyalty(page)).toBe(0);
    await page.getByRole('region', { name: 'Recent Orders' }).getByText('No orders yet').waitFor();
    await page.getByRole('region', { name: 'Loyalty Program' }).getByText('No reward coupons yet.').waitFor();
    await shootBoth(page, 'dashboard-new-customer');

    await page.goto('/orders');
    await page.getByRole('heading', { level: 1, name: 'My Orders' }).waitFor();
    await page.getByText('No orders yet').waitFor();
    expect(await page.locator('main').getByRole('link', { name: 'Start Shopping' }).getAttribute('href')).toBe('/products');
    await shootBoth(page, 'orders-empty');

    expect(errors).toEqual([]);
    await context.close();
  });

  it('admin: Admin Dashboard, impersonates the customer, banner, exits; sign-out while impersonating ends it only', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await signIn(page, ADMIN);

    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();
    await page.getByRole('link', { name: 'Admin Panel' }).waitFor();
    const users = page.getByRole('region', { name: 'Recent Users' });
    await users.getByRole('listitem').first().waitFor();
    expect(await users.getByRole('listitem').count()).toBeLessThanOrEqual(5);
    // No Impersonate button on an admin.
    expect(await users.getByRole('button', { name: `Impersonate ${ADMIN.email}` }).count()).toBe(0);
    await page.getByRole('region', { name: 'Store Statistics' }).getByText('Revenue').waitFor();
    await page.getByTestId('stat-cards').getByText('Total Users').waitFor();
    expect(await page.getByRole('region', { name: 'Loyalty Program' }).count()).toBe(0);
    await shootBoth(page, 'dashboard-admin');

    // The pile to ship: its count links to the order list filtered to it, where such an order's
    // badge says "To ship" rather than "Completed".
    const toShipCount = Number(await page.getByTestId('admin-to-ship').textContent());
    await page.getByRole('region', { name: 'Store Statistics' }).getByRole('link', { name: 'To ship (paid, not shipped)' }).click();
    await page.waitForURL(/[?&]status=to_ship/);
    await page.getByRole('heading', { name: 'Orders', exact: true }).waitFor();
    expect(await page.locator('#order-status-filter').inputValue()).toBe('to_ship');
    if (toShipCount > 0) await page.getByRole('table').getByText('To ship', { exact: true }).first().waitFor();
    await shootBoth(page, 'admin-orders-to-ship');

    const impersonateCustomer = async () => {
      await page.goto('/dashboard');
      await page.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();
      const button = users.getByRole('button', { name: `Impersonate ${CUSTOMER.email}` });
      await users.getByRole('listitem').first().waitFor();
      if ((await button.count()) === 0) {
        // Many newer sign-ups pushed the demo customer out of the 5 newest: start it through the API.
        const status = await page.evaluate(async (email) => {
          const list = (await (await fetch(`/api/admin/users?search=${encodeURIComponent(email)}`)).json()) as {
            items: { id: string; email: string }[];
          };
          const id = list.items.find((u) => u.email === email)?.id;
          const res = await fetch('/api/impersonation', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ userId: id }),
          });
          return res.status;
        }, CUSTOMER.email);
        expect(status).toBe(200);
        await page.goto('/');
        return;
      }
      await button.click();
      await page.getByText('Impersonation active').waitFor();
      await page.getByText('You are now viewing the app as another user.').waitFor();
      await page.waitForURL((u) => u.pathname === '/');
    };

    await impersonateCustomer();
    const banner = page.getByRole('region', { name: 'Impersonation' });
    await banner.getByText(ADMIN.email).waitFor();
    await banner.getByText(`Viewing as ${CUSTOMER.email}.`).waitFor();
    expect((await session(page)).impersonatorEmail).toBe(ADMIN.email);
    await shootBoth(page, 'impersonation-banner');

    // The app is the customer's now.
    await page.goto('/orders');
    await page.getByRole('heading', { level: 1, name: 'My Orders' }).waitFor();
    await page.getByText(`(${CUSTOMER.email})`).waitFor();
    await page.getByTestId('order-card').first().waitFor();
    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1, name: 'My Dashboard' }).waitFor();
    await page.getByRole('region', { name: 'Loyalty Program' }).waitFor();
    await banner.waitFor();
    await shootBoth(page, 'dashboard-impersonating');
    expect((await page.request.get('/api/admin/stats')).status()).toBe(403);
    await page.goto('/admin');
    await page.getByText('Access denied').first().waitFor();

    // Exit Impersonation: the admin is back, the banner gone.
    const seenOnExit = await recordTexts(page);
    await banner.getByRole('button', { name: 'Exit Impersonation' }).click();
    await banner.waitFor({ state: 'detached' });
    expect(await seenOnExit()).toContain('Ending impersonation');
    await page.waitForURL((u) => u.pathname === '/' || u.pathname === '/auth');
    await page.locator('header').getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).waitFor();
    const back = await session(page);
    expect(back.user?.email).toBe(ADMIN.email);
    expect(back.impersonatorEmail).toBeNull();

    // Signing out while impersonating ends the impersonation only.
    await impersonateCustomer();
    await banner.waitFor();
    const seenOnSignOut = await recordTexts(page);
    await page.locator('header').getByRole('button', { name: 'Sign out' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.locator('header').getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).waitFor();
    const seen = await seenOnSignOut();
    expect(seen).toContain('Ending impersonation');
    expect(seen).not.toContain('You have been signed out successfully.');
    const after = await session(page);
    expect(after.user?.email).toBe(ADMIN.email);
    expect(after.impersonatorEmail).toBeNull();

    expect(errors).toEqual([]);
    await context.close();
  });
});
