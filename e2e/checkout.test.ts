import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, MOBILE, launchBrowser, openPage, screenshot, settle } from './browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const DEMO_CUSTOMER = { email: 'customer@example.com', password: 'Customer-Demo-2026' };

/** Screenshots at 1280 and 390 px of the page as it is now. */
async function shootBoth(page: Page, name: string): Promise<void> {
  // Product photos load lazily as they near the viewport: pass over the page once first.
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 400) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 40));
    }
    window.scrollTo(0, 0);
  });
  await settle(page);
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize(MOBILE);
  await settle(page);
  await screenshot(page, `${name}-390`);
  await page.setViewportSize(DESKTOP);
}

async function addProduct(page: Page, id: string, name: string): Promise<void> {
  await page.goto(`/products/${id}`);
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.getByText('Added to cart').first().waitFor();
}

/** The summary's total once the server's quote for the cart as it is now has arrived. */
async function settledTotal(page: Page): Promise<string> {
  await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor();
  return (await page.getByTestId('order-total').first().textContent()) ?? '';
}

/** Types like a person: a short pause between fields. */
async function fillShipping(
  page: Page,
  v: { firstName?: string; lastName?: string; email?: string; address: string; city: string; state: string; zip: string },
): Promise<void> {
  const main = page.locator('main');
  const type = async (label: string, value: string | undefined) => {
    if (value === undefined) return;
    const field = main.getByLabel(label, { exact: false }).first();
    await field.fill('');
    await field.pressSequentially(value, { delay: 15 });
    await page.waitForTimeout(150);
  };
  await type('First Name', v.firstName);
  await type('Last Name', v.lastName);
  await type('Email Address', v.email);
  await type('Street Address', v.address);
  await type('City', v.city);
  await main.getByLabel('State').selectOption(v.state);
  await type('ZIP Code', v.zip);
}

/** Signs the demo customer in through the /auth page; straight through the API if that page is not there. */
async function signInDemoCustomer(page: Page): Promise<void> {
  await page.goto('/auth?tab=signin');
  const panel = page.getByRole('tabpanel');
  const hasForm = await panel
    .getByLabel('Password', { exact: true })
    .waitFor({ timeout: 5000 })
    .then(() => true)
    .catch(() => false);
  if (hasForm) {
    await panel.getByLabel('Email', { exact: true }).pressSequentially(DEMO_CUSTOMER.email, { delay: 10 });
    await panel.getByLabel('Password', { exact: true }).pressSequentially(DEMO_CUSTOMER.password, { delay: 10 });
    await page.waitForTimeout(1100); // the form refuses submits within a second of appearing
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/auth/sign-in'));
    await panel.getByRole('button', { name: 'Sign In', exact: true }).click();
    expect((await answered).status()).toBe(200);
    return;
  }
  const status = await page.evaluate(async (creds) => {
    const res = await fetch('/api/auth/sign-in', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...creds, elapsedMs: 5000 }),
    });
    return res.status;
  }, DEMO_CUSTOMER);
  expect(status).toBe(200);
}

async function payOnTestPage(page: Page, card: string): Promise<void> {
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Pat Buyer');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

async function checkoutToPayPage(page: Page): Promise<{ total: string; sessionId: string }> {
  const pay = page.getByRole('button', { name: /^Pay \$[\d,.]+ in test mode$/ });
  await pay.waitFor();
  await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor();
  const label = (await pay.textContent()) ?? '';
  const total = /Pay (\$[\d,.]+) in test mode/.exec(label)?.[1] ?? '';
  await pay.click();
  await page.waitForURL(/\/pay\//);
  const sessionId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2] ?? '');
  return { total, sessionId };
}

describe('checkout journeys', () => {
  it('guest: two products, WELCOME10, checkout, test card 4242 → Order Confirmed, cart emptied', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await addProduct(page, 'cloth-5-pack', '5 - Reusable Cleaning Cloths (5-Pack)');
    await addProduct(page, 'sweep-and-mop', 'Sweep & Mop Tool');

    await page.goto('/cart');
    await page.getByRole('heading', { name: 'Order Summary' }).waitFor();
    const before = await settledTotal(page);
    const coupon = page.getByLabel('Coupon code');
    await coupon.fill('  welcome10 ');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Coupon Applied!').waitFor();
    await page.getByText('WELCOME10 has been applied to your order').waitFor();
    expect(await coupon.isDisabled()).toBe(true);
    expect(await coupon.inputValue()).toBe('WELCOME10');
    await page.getByRole('button', { name: 'Remove', exact: true }).waitFor();
    await page.getByText(/Coupon discount \(WELCOME10\)/).waitFor();
    const cartTotal = await settledTotal(page);
    expect(cartTotal).not.toBe(before);
    await shootBoth(page, 'cart');

    await page.getByRole('link', { name: 'Proceed to Checkout' }).click();
    await page.waitForURL('**/checkout');
    await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
    // A guest is offered to sign in or sign up, and comes back here afterwards (e2e/sign-in-place.test.ts).
    expect(await page.locator('main').getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe(
      '/auth?tab=signin&redirect=%2Fcheckout',
    );
    expect(await page.locator('main').getByRole('link', { name: 'Sign Up' }).getAttribute('href')).toBe(
      '/auth?tab=signup&redirect=%2Fcheckout',
    );
    expect(await page.locator('main').getByLabel('State').inputValue()).toBe('CA');
    await fillShipping(page, {
      firstName: 'Pat',
      lastName: 'Buyer',
      email: 'pat.buyer@example.com',
      address: '1 Main Street',
      city: 'Springfield',
      state: 'OR',
      zip: '97477',
    });
    await page.getByRole('radio', { name: /Free Shipping/ }).waitFor();
    expect(await page.getByRole('radio', { name: /Free Shipping/ }).isChecked()).toBe(true);
    await shootBoth(page, 'checkout');

    const { total, sessionId } = await checkoutToPayPage(page);
    expect(total).toBe(cartTotal);
    await page.getByText('TEST MODE').waitFor();
    expect(await page.locator('.amount').textContent()).toBe(cartTotal);
    await shootBoth(page, 'pay-page');

    await payOnTestPage(page, '4242 4242 4242 4242');
    await page.waitForURL(/\/order-confirmation\?session_id=/);
    await page.getByRole('heading', { name: 'Order Confirmed' }).waitFor();
    await page.getByText('Payment Successful!').waitFor();
    expect(await page.getByTestId('order-total').textContent()).toBe(cartTotal);
    // Paid on the built-in test card page (no Stripe keys in the journeys): the method says so.
    await page.getByText('Test payment page (no real charge)', { exact: true }).waitFor();
    await page.getByText('Local Checkout').waitFor({ state: 'detached' });
    await shootBoth(page, 'order-confirmation');

    // The cart is empty and the coupon is noted as used on this device.
    const stored = await page.evaluate(() => ({
      cart: JSON.parse(localStorage.getItem('cart') ?? '{}') as { items: unknown[]; appliedCouponCode: string | null },
      used: JSON.parse(localStorage.getItem('usedCoupons') ?? '[]') as string[],
    }));
    expect(stored.cart.items).toEqual([]);
    expect(stored.cart.appliedCouponCode).toBeNull();
    expect(stored.used).toContain('WELCOME10');
    await page.getByRole('link', { name: 'Cart, 0 items' }).waitFor();

    // A reload does not celebrate twice.
    await page.reload();
    await page.getByRole('heading', { name: 'Order Confirmed' }).waitFor();
    await page.waitForTimeout(300);
    expect(await page.getByText('Payment Successful!').count()).toBe(0);

    const orderId = new URL(page.url()).searchParams.get('orderId') ?? '';
    expect(orderId).not.toBe('');
    await page.goto(`/thank-you?orderId=${encodeURIComponent(orderId)}`);
    await page.getByRole('heading', { name: 'Thank You for Your Order!' }).waitFor();
    await page.getByText(`#${orderId.slice(-8).toUpperCase()}`).waitFor();
    await shootBoth(page, 'thank-you');

    await page.goto(`/success?session_id=${encodeURIComponent(sessionId)}`);
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    await page.getByText(sessionId).waitFor();
    await shootBoth(page, 'success');

    // The same coupon again on this device is refused without asking the server.
    await page.goto('/cart');
    await page.getByText('Your cart is empty').waitFor();
    await shootBoth(page, 'cart-empty');
    await addProduct(page, 'cloth-2-pack', '2 - Reusable Cleaning Cloths (2-Pack)');
    await page.goto('/cart');
    await page.getByLabel('Coupon code').fill('welcome10');
    let quoted = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/cart/quote') && (r.postData() ?? '').includes('WELCOME10')) quoted++;
    });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('You have already used this coupon').waitFor();
    expect(quoted).toBe(0);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('a declined card leaves the order unpaid', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await addProduct(page, 'mop-refill', 'Mop Refill Pad');
    await page.goto('/checkout');
    await fillShipping(page, {
      firstName: 'Dee',
      lastName: 'Clined',
      email: 'dee@example.com',
      address: '2 Side Street',
      city: 'Austin',
      state: 'TX',
      zip: '73301-1234',
    });
    const { sessionId } = await checkoutToPayPage(page);
    await payOnTestPage(page, '4000 0000 0000 0002');
    await page.getByText('Your card was declined.').waitFor();

    const session = await page.request.get(`/api/checkout-session/${encodeURIComponent(sessionId)}`);
    const body = (await session.json()) as { payment_status: string; metadata: { orderId: string } };
    expect(body.payment_status).toBe('unpaid');

    await page.goto(`/order-confirmation?orderId=${encodeURIComponent(body.metadata.orderId)}`);
    await page.getByRole('heading', { name: 'Order Error' }).waitFor();
    await page.getByText('Payment was not completed successfully.').waitFor();
    await page.goto(`/order-confirmation?session_id=${encodeURIComponent(sessionId)}`);
    await page.getByText('Payment was not completed successfully.').waitFor();
    await page.getByRole('link', { name: 'Return to Home' }).waitFor();
    // The cart is kept for another try.
    await page.getByRole('link', { name: 'Cart, 1 item' }).waitFor();

    // Without parameters, and for an unknown order.
    await page.goto('/order-confirmation');
    await page.getByText('No order information found.').waitFor();
    await page.goto('/order-confirmation?orderId=order_does_not_exist');
    await page.getByRole('heading', { name: 'Order not found.' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Cancel on the payment page returns to the cart with Payment Canceled', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await addProduct(page, 'laundry-powder', 'Laundry Powder (2 lb)');
    await page.goto('/checkout');
    await fillShipping(page, {
      firstName: 'Can',
      lastName: 'Celled',
      email: 'can@example.com',
      address: '3 Back Road',
      city: 'Denver',
      state: 'CO',
      zip: '80014',
    });
    await checkoutToPayPage(page);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((u) => u.pathname === '/cart');
    await page.getByText('Payment Canceled').waitFor();
    expect(new URL(page.url()).search).not.toContain('canceled');
    await page.getByRole('heading', { name: 'Order Summary' }).waitFor();

    // The cart's own ?canceled=true shows its toast and drops the query.
    await page.goto('/cart?canceled=true');
    await page.getByText("Your payment has been canceled. You can make changes to your cart and try again when you're ready.").waitFor();
    await page.waitForURL((u) => u.pathname === '/cart' && !u.search.includes('canceled'));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the demo customer sees the form prefilled, pays, and earns loyalty points', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await signInDemoCustomer(page);
    const me = (await (await page.request.get('/api/session')).json()) as { user: { email: string; loyaltyPoints: number } | null };
    expect(me.user?.email).toBe(DEMO_CUSTOMER.email);
    const pointsBefore = me.user?.loyaltyPoints ?? -1;

    await addProduct(page, 'sweep-and-mop', 'Sweep & Mop Tool');
    await addProduct(page, 'cloth-1-pack', '1 - Reusable Cleaning Cloth');
    await page.goto('/checkout');
    const main = page.locator('main');
    await page.waitForFunction(() => (document.querySelector<HTMLInputElement>('#checkout-firstName')?.value ?? '') !== '');
    expect(await main.getByLabel('First Name').inputValue()).toBe('Test');
    expect(await main.getByLabel('Last Name').inputValue()).toBe('Customer');
    expect(await main.getByLabel('Email Address').inputValue()).toBe(DEMO_CUSTOMER.email);
    // Nobody to invite: no guest banner.
    expect(await main.getByRole('link', { name: 'Sign Up' }).count()).toBe(0);
    if ((await main.getByLabel('Street Address').inputValue()) === '') {
      await fillShipping(page, { address: '10 Demo Lane', city: 'Portland', state: 'OR', zip: '97201' });
    }
    const { total } = await checkoutToPayPage(page);
    expect(Number(total.replace(/[$,]/g, ''))).toBeGreaterThanOrEqual(50);
    await payOnTestPage(page, '4242424242424242');
    await page.getByRole('heading', { name: 'Order Confirmed' }).waitFor();

    const session = (await (await page.request.get('/api/session')).json()) as { user: { loyaltyPoints: number } };
    expect(session.user.loyaltyPoints).toBe(pointsBefore + 10);
    if (pointsBefore === 250) expect(session.user.loyaltyPoints).toBe(260);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('failures show the spec texts: coupon error, Checkout Error with the server message, order load failure', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await addProduct(page, 'sweep-and-mop', 'Sweep & Mop Tool');
    await page.goto('/cart');
    await settledTotal(page);
    // The coupon request fails on the network.
    await context.route('**/api/cart/quote', (route) =>
      route.request().postDataJSON()?.couponCode ? route.abort('failed') : route.continue(),
    );
    await page.getByLabel('Coupon code').fill('save5');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('An error occurred while applying the coupon').first().waitFor();
    await context.unroute('**/api/cart/quote');

    // The server refuses the checkout: its message is shown under 'Checkout Error'.
    await page.goto('/checkout');
    await fillShipping(page, {
      firstName: 'Pat',
      lastName: 'Buyer',
      email: 'pat@example.com',
      address: '1 Main St',
      city: 'Springfield',
      state: 'OR',
      zip: '97477',
    });
    await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor();
    await context.route('**/api/create-checkout-session', (route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Only 1 of Sweep & Mop Tool left in stock' }),
      }),
    );
    await page.getByRole('button', { name: /^Pay \$[\d,.]+ in test mode$/ }).click();
    await page.getByText('Checkout Error').first().waitFor();
    await page.getByText('Only 1 of Sweep & Mop Tool left in stock').first().waitFor();
    await context.route('**/api/create-checkout-session', (route) => route.abort('failed'));
    await page.getByRole('button', { name: /^Pay \$[\d,.]+ in test mode$/ }).click();
    await page.getByText('Failed to initialize checkout. Please try again.').first().waitFor();
    await context.unroute('**/api/create-checkout-session');

    // The confirmation cannot load the order.
    await context.route('**/api/orders/**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' }),
    );
    await page.goto('/order-confirmation?orderId=order_1_x');
    await page.getByText('Failed to load order information.').first().waitFor();
    // Console errors from deliberately failed requests are expected here.
    void errors;
    await context.close();
  });

  it('the cart and checkout arrive drawn by the server with the cart this browser holds, and go live without errors', async () => {
    const { page, context, errors } = await openPage(browser, MOBILE);
    await addProduct(page, 'cloth-5-pack', 'Reusable Cleaning Cloths (5-Pack)');
    await addProduct(page, 'sweep-and-mop', 'Sweep & Mop Tool');
    let quotes = 0;
    page.on('request', (r) => {
      // The cart page's own (a quote the product page was still asking for is not the cart's).
      if (r.url().endsWith('/api/cart/quote') && new URL(r.frame().url()).pathname === '/cart') quotes++;
    });
    await page.goto('/cart');
    // Positive signals first (never a fixed wait): the page is live, its total drawn, its frames settled.
    // A quote the page would wrongly ask for is asked for as it goes live, so by then it has been sent.
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    const liveAfterMs = await page.evaluate(() => performance.now());
    const total = await settledTotal(page);
    await settle(page);
    // The cart is derived from the cookie's lines and the quote the page came with: none asked for.
    // That quote is fresh for 10 s from the page's start (client/lib/query-client.ts
    // SERVER_DATA_GRACE_MS); a page that took longer to go live (a machine under heavy load) may
    // rightly ask again, so the check holds whenever the page went live within it.
    if (liveAfterMs < 10_000) expect(quotes).toBe(0);
    await page.goto('/checkout');
    const pay = (await page.getByRole('button', { name: /^Pay \$/ }).textContent()) ?? '';
    expect(pay).toBe(`Pay ${total} in test mode`);
    expect(errors).toEqual([]);

    // The same cart (its cookie) in a browser that runs no script: the server's HTML alone.
    const bare = await openPage(browser, MOBILE, { scripts: false });
    await bare.context.addCookies(await context.cookies());
    await bare.context.route('**/*.js', (route) => route.abort());
    await bare.page.goto('/cart');
    const main = bare.page.locator('main');
    await main.getByRole('link', { name: 'Reusable Cleaning Cloths (5-Pack)' }).waitFor();
    await main.getByRole('link', { name: 'Sweep & Mop Tool' }).waitFor();
    expect(await main.getByText('Loading your cart').count()).toBe(0);
    expect(await bare.page.getByTestId('order-total').first().textContent()).toBe(total);
    expect(await bare.page.locator('[data-testid="order-totals"]').getAttribute('aria-busy')).toBe('false');
    await bare.page.goto('/checkout');
    expect(await bare.page.getByRole('button', { name: /^Pay \$/ }).textContent()).toBe(pay);
    await bare.context.close();
    await context.close();
  });

  it('an empty cart sends /checkout back to /cart', async () => {
    const { page, context, errors } = await openPage(browser, MOBILE);
    await page.goto('/checkout');
    await page.waitForURL((u) => u.pathname === '/cart');
    await page.getByText('Your cart is empty').waitFor();
    expect(await page.getByRole('link', { name: 'Continue Shopping' }).getAttribute('href')).toBe('/products');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('free gift coupon, and the Validation Error toast for an invalid ZIP', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await addProduct(page, 'concentrated-cleaner', 'Concentrated All-Purpose Cleaner');
    await page.goto('/cart');
    // $14.99 in the cart: free shipping starts at $50.
    await page.getByText('Add $35.01 more for free shipping').waitFor();
    expect(await settledTotal(page)).toBe('$22.66');
    const cleaner = page.locator('li', { has: page.getByRole('link', { name: 'Concentrated All-Purpose Cleaner' }) });
    await cleaner.getByRole('button', { name: 'Increase quantity' }).click();
    await page.getByText('Add $20.02 more for free shipping').waitFor();
    await cleaner.getByText('$29.98').waitFor();
    await cleaner.getByRole('button', { name: 'Decrease quantity' }).click();
    await page.getByText('Add $35.01 more for free shipping').waitFor();
    expect(await settledTotal(page)).toBe('$22.66');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Please enter a valid coupon code').waitFor();
    await page.getByLabel('Coupon code').fill('NOPE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Invalid coupon code').waitFor();
    await page.getByLabel('Coupon code').fill('freegift');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Coupon Applied!').waitFor();
    const gift = page.locator('li', { has: page.getByText('Free Gift', { exact: true }) });
    await gift.getByText('FREE', { exact: true }).waitFor();
    await gift.getByRole('button', { name: 'Increase quantity' }).click();
    await page.getByText('Free Product Limit').waitFor();
    await page.getByText('You can only have one free product per coupon.').waitFor();
    await shootBoth(page, 'cart-free-gift');

    await page.getByRole('link', { name: 'Proceed to Checkout' }).click();
    await page.waitForURL('**/checkout');
    const summary = page.locator('section', { has: page.getByRole('heading', { name: 'Order Summary' }) });
    await summary.getByText('Free Gift', { exact: true }).waitFor();
    await page.getByText('Add $35.01 more to unlock Free Shipping.').waitFor();
    // Another shipping method: the server's new total is on the pay button.
    expect(await page.getByRole('radio', { name: /Standard Shipping/ }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: /Overnight Shipping/ }).check();
    await page.getByRole('button', { name: 'Pay $43.18 in test mode' }).waitFor();
    expect(await settledTotal(page)).toBe('$43.18');
    await fillShipping(page, {
      firstName: 'Val',
      lastName: 'Idation',
      email: 'val@example.com',
      address: '4 Test Way',
      city: 'Boston',
      state: 'MA',
      zip: '123',
    });
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    // The toast (a wide screen) and the list in the form both say it.
    const toaster = page.locator('[role="status"][aria-atomic="true"]');
    await toaster.getByText('Validation Error').waitFor();
    await toaster.getByText(/Please fix the following issues:/).waitFor();
    await toaster.getByText(/ZIP Code/).waitFor();
    await page
      .getByTestId('checkout-problems')
      .getByText(/ZIP Code: ZIP code must be 5 digits/)
      .waitFor();
    await page.locator('#checkout-zip-error').getByText('ZIP code must be 5 digits (e.g., 12345 or 12345-6789)').waitFor();
    expect(page.url()).toMatch(/\/checkout$/);
    // The field to fix is focused and scrolled into view (e2e/small-items.test.ts checks it on a phone).
    await page.waitForFunction(() => document.activeElement?.id === 'checkout-zip');
    await shootBoth(page, 'checkout-validation');
    expect(errors).toEqual([]);
    await context.close();
  });
});
