import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, CUSTOMER, call, checkout, fakes, signInThroughForm, toast } from './helpers.js';
import { DESKTOP, MOBILE, launchBrowser, openPage, screenshot, settle } from './browser.js';
import { NO_ORDER_NAMED_TEXTS } from '../src/shared/checkout-text.js';

/**
 * Issue 18, items 1 and 7: the owner buys a label (the local ShipStation fake answers carrier
 * `usps` and a tracking number); the customer's order shows carrier, number and shipped date, and
 * Track Package opens USPS's own page. Pages that cannot show an order say "Order not found.".
 * The payment method is the provider that took the payment; the Shopping Summary counts paid orders.
 */
const SHOTS = process.env.TRACKING_SHOTS_DIR ?? '/tmp/shots/B-tracking';
const USPS_URL = 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400TRACK1';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Full page at 1280 and 390 px, kept with the CI screenshots and under SHOTS for people to look at. */
async function shots(page: Page, name: string, prepare?: () => Promise<void>): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const [viewport, width] of [
    [DESKTOP, 1280],
    [MOBILE, 390],
  ] as const) {
    await page.setViewportSize(viewport);
    // From the top: a full-page shot taken scrolled down draws the sticky header mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await prepare?.();
    await settle(page);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
    await screenshot(page, `tracking-${name}-${width}`);
  }
  await page.setViewportSize(DESKTOP);
}

/** Quoted-printable mail bodies fold lines and escape '='. */
const unfold = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');

describe('real tracking and honest order states', () => {
  it("a label bought from the admin shows on the customer's order with carrier, number, shipped date and the USPS link", async () => {
    const customer = await openPage(browser, DESKTOP);
    await signInThroughForm(customer.page, CUSTOMER);
    const orderId = await checkout(customer.page, true);
    const number = orderId.slice(-8).toUpperCase();

    // Paid on the built-in test card page: the confirmation says so, not "Local Checkout" nor Stripe.
    await customer.page.getByRole('heading', { name: 'Order Confirmed' }).waitFor();
    const method = customer.page.locator('dt', { hasText: 'Payment Method' }).locator('xpath=following-sibling::dd');
    expect(await method.innerText()).toBe('Test payment page (no real charge)');

    // The owner buys the label from the order's detail.
    const { page, errors } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, ADMIN);
    const settings = await call(page, 'PUT', '/api/admin/settings/integrations', {
      shipstation_api_key: 'ss-key',
      shipstation_api_secret: 'ss-secret',
      shipstation_enabled: true,
      shipstation_api_version: 'v2',
    });
    expect(settings.status).toBe(200);
    await page.goto(`/admin?tab=orders&view=details&order=${orderId}`);
    await page.getByRole('button', { name: 'Send to ShipStation' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Buy label' }).click();
    await toast(page, 'Sent to ShipStation').waitFor();
    await page.getByTestId('admin-tracking').getByText('USPS tracking number:').waitFor();
    // The owner's timeline names the carrier with the number.
    await page.getByText('Tracking USPS 9400TRACK1').first().waitFor();
    await shots(page, 'admin-order-detail');

    // The customer's order: carrier, number, shipped date, and Track Package to USPS's own page.
    await customer.page.goto('/orders');
    const card = customer.page.getByTestId('order-card').filter({ has: customer.page.getByRole('heading', { name: `Order #${number}` }) });
    await card.waitFor();
    const text = await card.innerText();
    expect(text).toContain('Carrier: USPS');
    expect(text).toContain('Tracking number: 9400TRACK1');
    const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
    expect(text).toContain(`Shipped on ${today}`);
    const track = card.getByRole('link', { name: /Track Package/ });
    expect(await track.getAttribute('href')).toBe(USPS_URL);
    expect(await track.getAttribute('target')).toBe('_blank');
    expect(await customer.page.locator('a[href*="google."]').count()).toBe(0);
    await shots(customer.page, 'customer-order-tracking');

    // The receipt's history says who carries it, linked to the same page.
    await card.getByRole('button', { name: /View Details/ }).click();
    const receipt = customer.page.getByTestId('receipt');
    await receipt.getByText('USPS tracking number:').waitFor();
    expect(await receipt.getByRole('link', { name: /9400TRACK1/ }).getAttribute('href')).toBe(USPS_URL);
    await shots(customer.page, 'customer-receipt-tracking', () => receipt.getByText('USPS tracking number:').scrollIntoViewIfNeeded());
    await customer.page.keyboard.press('Escape');

    // The shipping e-mail links to USPS too.
    await expect
      .poll(
        async () =>
          (await fakes<{ to: string[]; subject: string; raw: string }[]>('/mail')).some(
            (m) =>
              m.subject.includes(`#${orderId.slice(-8).toUpperCase()}`) &&
              /has shipped/.test(m.subject) &&
              unfold(m.raw).includes(USPS_URL),
          ),
        {
          timeout: 20_000,
        },
      )
      .toBe(true);

    expect(customer.errors).toEqual([]);
    expect(errors).toEqual([]);
    await customer.context.close();
  });

  it('thank-you with an unknown order and success without a known session say "Order not found." with Return to Home', async () => {
    const { page, errors } = await openPage(browser, DESKTOP);
    const notFound = async () => {
      await page.getByRole('heading', { name: 'Order not found.' }).waitFor();
      await page.getByRole('link', { name: 'Return to Home' }).waitFor();
      const body = await page.locator('main').innerText();
      expect(body).not.toContain('processed successfully');
      expect(body).not.toContain('Payment Successful!');
      expect(body).not.toContain('Thank You for Your Order!');
    };

    await page.goto('/thank-you?orderId=order_unknown123');
    await notFound();
    await shots(page, 'thank-you-not-found');

    // No order named at all: the ways to an order, not an error (decision 0044).
    for (const bare of ['/thank-you', '/success']) {
      await page.goto(bare);
      await page.getByRole('heading', { name: NO_ORDER_NAMED_TEXTS.title }).waitFor();
      await page.getByRole('link', { name: NO_ORDER_NAMED_TEXTS.myOrders }).waitFor();
      expect(await page.getByRole('heading', { name: 'Order not found.' }).count()).toBe(0);
    }

    await page.goto('/success?session_id=cs_unknown_session');
    await notFound();
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.waitForURL((u) => u.pathname === '/');

    // Another browser's real order is not found here either (orders are their owner's).
    const owner = await openPage(browser, DESKTOP);
    await signInThroughForm(owner.page, CUSTOMER);
    const theirs = await checkout(owner.page, true);
    await page.goto(`/thank-you?orderId=${encodeURIComponent(theirs)}`);
    await notFound();
    // ... while its owner is thanked.
    await owner.page.goto(`/thank-you?orderId=${encodeURIComponent(theirs)}`);
    await owner.page.getByRole('heading', { name: 'Thank You for Your Order!' }).waitFor();
    await owner.page.getByText(`#${theirs.slice(-8).toUpperCase()}`).waitFor();

    expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
    expect(owner.errors).toEqual([]);
    await owner.context.close();
  });

  it("the dashboard's Shopping Summary counts paid orders only, not cancelled ones", async () => {
    const { page, errors } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, CUSTOMER);
    // One more paid order, cancelled by the owner: it must not add to what was spent.
    const cancelledId = await checkout(page, true);
    const admin = await openPage(browser, DESKTOP);
    await signInThroughForm(admin.page, ADMIN);
    expect((await call(admin.page, 'PATCH', `/api/admin/orders/${cancelledId}/status`, { status: 'cancelled' })).status).toBe(200);

    // What the customer paid and kept, from their own order list.
    type Listed = { status: string; paymentStatus: string; totalCents: number; refundedCents?: number };
    const orders: Listed[] = [];
    for (let p = 1; ; p++) {
      const res = await call(page, 'GET', `/api/orders?page=${p}&pageSize=100`);
      const json = res.json as { items: Listed[]; totalPages: number };
      orders.push(...json.items);
      if (p >= json.totalPages) break;
    }
    const counted = orders.filter(
      (o) => (o.paymentStatus === 'paid' || o.paymentStatus === 'partially_refunded') && o.status !== 'cancelled',
    );
    const spent = counted.reduce((s, o) => s + o.totalCents - (o.refundedCents ?? 0), 0);
    const money = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
    expect(orders.some((o) => o.status === 'cancelled')).toBe(true);

    await page.goto('/dashboard');
    const summary = page.getByRole('region', { name: 'Shopping Summary' });
    await summary.getByText('Total Spent').waitFor();
    const value = (label: string) => summary.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd').innerText();
    expect(await value('Total Spent')).toBe(money(spent));
    expect(await value('Average Order')).toBe(money(Math.round(spent / counted.length)));
    await shots(page, 'dashboard');

    expect(errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    await admin.context.close();
  });
});
