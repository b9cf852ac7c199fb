import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { HUMAN_PAUSE_MS, SHIPPING_ADDRESS, toast } from './helpers.js';
import { DESKTOP, MOBILE, launchBrowser, openPage, screenshot, settle } from './browser.js';

/**
 * Issue 18, item 8: the small things a shopper notices. Buttons never wrap their label; the
 * address dialog outlines only the fields that are wrong; on a phone the checkout shows a
 * collapsible order summary with the total above the form, and a failed attempt focuses the first
 * field to fix, clear of the toast; money with two decimals; each /auth tab its own title; the test
 * payment page has the shop's favicon; the pay button and the footer name the provider that really
 * takes the payments (here the built-in test page: no STRIPE_SECRET_KEY in the journeys).
 * Screenshots at 1280 and 390 px.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const SHOTS_DIR = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';

/** The page at 1280 px and at 390 px (whole page, or what the screen shows for a dialog). */
async function shootBoth(page: Page, name: string, { viewport = false } = {}): Promise<void> {
  const shoot = async (suffix: string) => {
    await settle(page);
    if (viewport) await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${suffix}.png`) });
    else await screenshot(page, `${name}-${suffix}`);
  };
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.setViewportSize(DESKTOP);
  await shoot('1280');
  await page.setViewportSize(MOBILE);
  await shoot('390');
  await page.setViewportSize(DESKTOP);
  await settle(page);
}

/**
 * Buttons (and links drawn as buttons) in the page's main content whose label wraps onto a second
 * line, or spills out of the button or off the screen. Each label text is measured line by line.
 */
function brokenButtons(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const bad: string[] = [];
    const candidates = document.querySelectorAll<HTMLElement>('main button, main a.inline-flex, [role="dialog"] button');
    for (const el of candidates) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      const label = (el.textContent ?? '').trim().replace(/\s+/g, ' ');
      if (!label) continue;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      let lines = 0;
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        lines = Math.max(lines, tops.size);
      }
      if (lines > 1) bad.push(`${label}: ${lines} lines`);
      else if (el.scrollWidth > el.clientWidth + 1) bad.push(`${label}: label wider than its button`);
      else if (box.right > document.documentElement.clientWidth + 1) bad.push(`${label}: off the screen`);
    }
    return bad;
  });
}

/** "Continue Shopping" is one line high at 1280 and 390 px, and no other button wraps either. */
async function expectNoWrapping(page: Page, what: string): Promise<void> {
  for (const viewport of [DESKTOP, MOBILE]) {
    await page.setViewportSize(viewport);
    await settle(page);
    const cont = page.locator('main').getByRole('link', { name: 'Continue Shopping' }).first();
    if ((await cont.count()) > 0) {
      const one = await cont.evaluate((el) => {
        const cs = getComputedStyle(el);
        const line = parseFloat(cs.lineHeight);
        const inner = el.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
        const range = document.createRange();
        range.selectNodeContents(el);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        return { line, inner, textHeight: Math.max(...rects.map((r) => r.bottom)) - Math.min(...rects.map((r) => r.top)) };
      });
      // The label's text is one line tall (a wrapped label is two lines of text, whatever the box).
      expect(one.textHeight, `${what} at ${viewport.width}px: Continue Shopping text height`).toBeLessThan(one.line * 1.5);
    }
    expect(await brokenButtons(page), `${what} at ${viewport.width}px`).toEqual([]);
  }
  await page.setViewportSize(DESKTOP);
}

async function addProduct(page: Page, id: string, name: string): Promise<void> {
  await page.goto(`/products/${id}`);
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.getByText('Added to cart').first().waitFor();
}

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  expect(b).not.toBeNull();
  return b!;
}

const person = { fullName: 'Sam Smallitems', email: `sam-small-${Date.now()}@example.com`, password: 'Small-Items-2026' };

describe('the small things a shopper notices (issue 18, item 8)', () => {
  it('no button wraps its label: product page, cart (full and empty), confirmation, thank-you and success, at 1280 and 390 px', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await page.goto('/products/cloth-5-pack');
    await page.getByRole('link', { name: 'Continue Shopping' }).waitFor();
    await expectNoWrapping(page, 'product page');
    // At the widths where the three buttons no longer fit one row, whole buttons move to a second row.
    await page.setViewportSize({ width: 1024, height: 800 });
    expect(await brokenButtons(page), 'product page at 1024px').toEqual([]);
    await page.setViewportSize({ width: 700, height: 800 });
    expect(await brokenButtons(page), 'product page at 700px').toEqual([]);
    // The measure sees a wrap when there is one: without the buttons' one-line rule, the label wraps at 1280 px.
    await page.setViewportSize(DESKTOP);
    await page.addStyleTag({
      content: '.whitespace-nowrap { white-space: normal !important; } .sm\\:flex-wrap { flex-wrap: nowrap !important; }',
    });
    expect((await brokenButtons(page)).join('\n')).toMatch(/Continue Shopping: 2 lines/);
    await page.reload();
    await shootBoth(page, 'small-product-page');

    await page.goto('/cart');
    await page.getByText('Your cart is empty').waitFor();
    await expectNoWrapping(page, 'empty cart');

    await addProduct(page, 'cloth-5-pack', '5 - Reusable Cleaning Cloths (5-Pack)');
    await page.goto('/cart');
    await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor();
    await expectNoWrapping(page, 'cart');
    await shootBoth(page, 'small-cart');

    // A guest's paid order: its confirmation, thank-you and success pages.
    const res = await page.request.post('/api/create-checkout-session', {
      headers: { origin: inject('baseUrl') },
      data: { items: [{ productId: 'cloth-5-pack', quantity: 1 }], customerEmail: 'wrap@example.com', shippingAddress: SHIPPING_ADDRESS },
    });
    expect(res.status()).toBe(200);
    const { url, orderId, sessionId } = (await res.json()) as { url: string; orderId: string; sessionId: string };
    await page.goto(url);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByLabel('Name on card').fill('Wrap Tester');
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    await page.waitForURL(/order-confirmation/);
    await page.getByText('Order Confirmed', { exact: false }).first().waitFor();
    await expectNoWrapping(page, 'order confirmation');
    await shootBoth(page, 'small-order-confirmation');

    await page.goto(`/thank-you?orderId=${encodeURIComponent(orderId)}`);
    await page.getByRole('link', { name: 'Continue Shopping' }).waitFor();
    await expectNoWrapping(page, 'thank-you');
    await shootBoth(page, 'small-thank-you');

    await page.goto(`/success?session_id=${encodeURIComponent(sessionId)}`);
    await page.getByRole('link', { name: 'Continue Shopping' }).waitFor();
    await expectNoWrapping(page, 'success');
    await shootBoth(page, 'small-success');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the shipping-address dialog outlines only the fields that are wrong, after a save attempt or on leaving a filled field', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    const signUp = await page.request.post('/api/auth/sign-up', {
      headers: { origin: inject('baseUrl') },
      data: { fullName: person.fullName, email: person.email, password: person.password, elapsedMs: 5000 },
    });
    expect(signUp.status()).toBe(201);
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Edit Shipping Address' }).click();
    const dialog = page.getByRole('dialog', { name: 'Shipping Address' });
    await dialog.waitFor();
    const field = (label: string) => dialog.getByLabel(label, { exact: true });
    const invalid = async (label: string) => (await field(label).getAttribute('aria-invalid')) === 'true';
    const red = (label: string) => field(label).evaluate((el) => getComputedStyle(el).borderTopColor);

    // Leaving an empty field alone says nothing; leaving a filled one that is wrong says so.
    await field('Street Address').focus();
    await field('City').focus();
    expect(await invalid('Street Address')).toBe(false);
    await field('ZIP').fill('123');
    await field('ZIP').blur();
    expect(await invalid('ZIP')).toBe(true);
    await dialog.getByText('ZIP code must be 5 digits (e.g., 12345 or 12345-6789)').first().waitFor();
    expect(await invalid('Street Address')).toBe(false);

    // Everything filled, the ZIP still wrong: only the ZIP is outlined, and it has the focus.
    await field('Street Address').fill('12 Fern Way');
    await field('City').fill('Portland');
    await field('State').selectOption('OR');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id ?? '')).toMatch(/-zip$/);
    for (const filled of ['Name', 'Street Address', 'City', 'State']) {
      expect(await invalid(filled), filled).toBe(false);
      expect(await red(filled), filled).toBe(await red('Name'));
    }
    expect(await invalid('ZIP')).toBe(true);
    expect(await red('ZIP')).not.toBe(await red('Name'));
    await shootBoth(page, 'small-address-dialog-zip', { viewport: true });

    // An emptied required field after a save attempt: outlined with its own message.
    await field('City').fill('');
    expect(await invalid('City')).toBe(true);
    await dialog.getByText('City is required').waitFor();
    await field('City').fill('Portland');
    await field('ZIP').fill('97201');
    expect(await invalid('City')).toBe(false);
    expect(await invalid('ZIP')).toBe(false);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Shipping address saved successfully').waitFor();
    await page.getByTestId('account-shipping-address').getByText('12 Fern Way').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a phone the checkout starts with a collapsed order summary and its total; desktop keeps the side panel', async () => {
    const { page, context, errors } = await openPage(browser, MOBILE);
    await addProduct(page, 'cloth-5-pack', '5 - Reusable Cleaning Cloths (5-Pack)');
    await page.goto('/checkout');
    const summary = page.locator('section[aria-labelledby="checkout-summary-title"]');
    const toggle = summary.getByRole('button', { name: /Order Summary/ });
    await toggle.waitFor();
    const pay = page.getByRole('button', { name: /^Pay \$[\d,.]+ in test mode$/ });
    await pay.waitFor();
    const payTotal = /Pay (\$[\d,.]+)/.exec((await pay.textContent()) ?? '')?.[1];
    await expect.poll(() => summary.getByTestId('summary-toggle-total').textContent()).toBe(payTotal);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    // Collapsed: the lines and the breakdown are hidden; the summary is above the form and the Pay button.
    expect(await summary.getByText('5 - Reusable Cleaning Cloths (5-Pack)').isVisible()).toBe(false);
    const summaryBox = await box(summary);
    expect(summaryBox.y + summaryBox.height).toBeLessThanOrEqual((await box(page.getByLabel('First Name'))).y);
    expect(summaryBox.y).toBeLessThan((await box(pay)).y);
    expect(summaryBox.height).toBeLessThan(120);
    await screenshot(page, 'small-checkout-phone-collapsed-390');

    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await summary.getByText('5 - Reusable Cleaning Cloths (5-Pack)').waitFor();
    expect(await summary.getByTestId('order-total').textContent()).toBe(payTotal);
    await screenshot(page, 'small-checkout-phone-expanded-390');
    await toggle.click();
    expect(await summary.getByText('5 - Reusable Cleaning Cloths (5-Pack)').isVisible()).toBe(false);

    // 1280: two columns, the summary beside the form with its lines shown, no toggle.
    await page.setViewportSize(DESKTOP);
    await settle(page);
    await summary.getByText('5 - Reusable Cleaning Cloths (5-Pack)').waitFor();
    expect(await toggle.isVisible()).toBe(false);
    const wide = await box(summary);
    const form = await box(page.getByLabel('First Name'));
    expect(wide.x).toBeGreaterThan(form.x + form.width);
    expect(wide.y).toBeLessThan(form.y + 200);
    await page.getByRole('heading', { name: 'Order Summary', exact: true }).waitFor();
    await screenshot(page, 'small-checkout-desktop-1280');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a failed attempt on a phone focuses the first field to fix, in view, with no toast over the form', async () => {
    const { page, context, errors } = await openPage(browser, MOBILE);
    await addProduct(page, 'cloth-5-pack', '5 - Reusable Cleaning Cloths (5-Pack)');
    await page.goto('/checkout');
    const main = page.locator('main');
    await main.getByLabel('First Name').fill('Val');
    await main.getByLabel('Last Name').fill('Idation');
    await main.getByLabel('Email Address').fill('val@example.com');
    await main.getByLabel('Street Address').fill('4 Test Way');
    // City left empty; the ZIP wrong.
    await main.getByLabel('ZIP Code').fill('123');
    await page.locator('[data-testid="order-totals"][aria-busy="false"]').waitFor({ state: 'attached' });
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    // The problems are listed in the form (decision 0031): on a phone no toast covers the fields.
    await page.getByTestId('checkout-problems').getByText('Validation Error').waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'checkout-city');
    await page.waitForTimeout(300);
    expect(await page.locator('div.fixed[role="status"] > div').count()).toBe(0);
    const city = await box(main.getByLabel('City'));
    const cityError = await box(page.locator('#checkout-city-error'));
    const header = await box(page.locator('header').first());
    // In view, below the sticky header, above the bottom of the screen.
    expect(city.y).toBeGreaterThanOrEqual(header.y + header.height);
    expect(cityError.y + cityError.height).toBeLessThanOrEqual(MOBILE.height);
    expect(await page.locator('#checkout-zip').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#checkout-street-address, #checkout-address').first().getAttribute('aria-invalid')).toBeNull();
    await page.screenshot({ path: path.join(SHOTS_DIR, 'small-checkout-phone-validation-390.png') });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the coupon minimum reads with two decimals: "$100.00"', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await addProduct(page, 'cloth-5-pack', '5 - Reusable Cleaning Cloths (5-Pack)');
    await page.goto('/cart');
    await page.getByLabel('Coupon code').fill('BIG25');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Minimum order amount of $100.00 required').first().waitFor();
    expect(await page.getByText('Minimum order amount of $100 required', { exact: true }).count()).toBe(0);
    await shootBoth(page, 'small-coupon-minimum');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('each /auth tab has its own title, in the server HTML and on switching tabs', async () => {
    const html = async (query: string) =>
      (await (await fetch(`${inject('baseUrl')}/auth${query}`)).text()).match(/<title>([^<]*)<\/title>/)?.[1];
    expect(await html('?tab=signup')).toBe('Sign Up | EcoClean');
    expect(await html('?tab=reset')).toBe('Reset Password | EcoClean');
    expect(await html('?tab=signin')).toBe('Sign In | EcoClean');
    expect(await html('')).toBe('Sign In | EcoClean');

    const { page, context, errors } = await openPage(browser, DESKTOP);
    await page.goto('/auth?tab=signup');
    expect(await page.title()).toBe('Sign Up | EcoClean');
    await page.getByRole('tab', { name: 'Reset' }).click();
    await expect.poll(() => page.title()).toBe('Reset Password | EcoClean');
    await shootBoth(page, 'small-auth-reset');
    await page.getByRole('tab', { name: 'Sign In' }).click();
    await expect.poll(() => page.title()).toBe('Sign In | EcoClean');
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await expect.poll(() => page.title()).toBe('Sign Up | EcoClean');
    await shootBoth(page, 'small-auth-signup');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the test payment page links the shop favicon (no 404 on a visit), and says it is test mode; so do the pay button and footer', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    // The provider is the server's configuration, in the settings every page carries.
    const settings = (await (await fetch(`${inject('baseUrl')}/api/settings`)).json()) as { settings: Record<string, string> };
    expect(settings.settings.payment_provider).toBe('test');

    await page.goto('/');
    const footer = page.locator('footer');
    await footer.getByText('Test mode: payments go to the shop’s test card page and no card is charged.').waitFor();
    expect(await footer.getByText('Stripe').count()).toBe(0);
    // The same words in the server's HTML (the shared, cached page) before any script runs.
    const home = await (await fetch(`${inject('baseUrl')}/`)).text();
    expect(home).toContain('Test mode: payments go to the shop’s test card page and no card is charged.');
    expect(home).not.toContain('Payments are securely processed by Stripe.');

    await addProduct(page, 'cloth-5-pack', '5 - Reusable Cleaning Cloths (5-Pack)');
    await page.goto('/checkout');
    const pay = page.getByRole('button', { name: /^Pay \$[\d,.]+ in test mode$/ });
    await pay.waitFor();
    await page.getByText('Test mode: you will enter a test card on the shop’s own payment page. No card is charged.').waitFor();
    expect(await page.locator('main').getByText('Stripe').count()).toBe(0);
    await shootBoth(page, 'small-checkout-test-mode');

    const statuses: { url: string; status: number }[] = [];
    page.on('response', (r) => statuses.push({ url: r.url(), status: r.status() }));
    const main = page.locator('main');
    await main.getByLabel('First Name').fill('Fav');
    await main.getByLabel('Last Name').fill('Icon');
    await main.getByLabel('Email Address').fill('fav@example.com');
    await main.getByLabel('Street Address').fill('1 Icon Way');
    await main.getByLabel('City').fill('Portland');
    await main.getByLabel('State').selectOption('OR');
    await main.getByLabel('ZIP Code').fill('97201');
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    await pay.click();
    await page.waitForURL(/\/pay\//);
    await page.getByLabel('Card number').waitFor();
    await page.waitForLoadState('load');
    await page.waitForTimeout(500);
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(icon).toBe('/favicon.svg');
    const iconRes = await page.request.get(icon!);
    expect(iconRes.status()).toBe(200);
    expect(iconRes.headers()['content-type']).toMatch(/image\/svg\+xml/);
    expect(statuses.filter((s) => s.status === 404)).toEqual([]);
    await shootBoth(page, 'small-pay-page');
    expect(errors).toEqual([]);
    await context.close();
  });
});
