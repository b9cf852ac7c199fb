import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, SHIPPING_ADDRESS, call, signInThroughForm, toast } from './helpers.js';
import { DESKTOP, launchBrowser, openPage, screenshotBothWidths } from './browser.js';
import { startShopServer, type ShopServer } from './server.js';
import { FAKE_STRIPE_SECRET_KEY, FAKE_STRIPE_WEBHOOK_SECRET, fakeStripe } from '../src/server/test/fake-stripe.js';
import { STRAY_PAYMENT_TEXTS } from '../src/shared/schemas/payments.js';
import { formatCents } from '../src/shared/money.js';

/*
 * Issue [1/8], the owner's side: a card payment that arrived for an order already paid in cash
 * (its Stripe link was still open) is not the order's. It was refunded automatically, or, when
 * Stripe refused, it waits at the top of the Orders tab and on the order until the owner retries
 * the refund or settles it.
 */
const stripe = fakeStripe();
let server: ShopServer | undefined;
let browser: Browser;

beforeAll(async () => {
  const stripeUrl = await stripe.listen();
  server = await startShopServer({
    STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
    STRIPE_API_BASE: stripeUrl,
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await stripe.close();
});

async function ownerPage(): Promise<{ page: Page; errors: string[] }> {
  const { context, page, errors } = await openPage(browser, DESKTOP, { base: server!.baseUrl });
  context.setDefaultTimeout(15_000);
  return { page, errors };
}

describe('a payment the order could not take, as the owner sees it', () => {
  it('waits on the Orders tab and the order until the owner retries its refund', async () => {
    const base = server!.baseUrl;
    const { page, errors } = await ownerPage();
    await signInThroughForm(page, ADMIN);
    // Set-up this journey does not test: an order typed in, a Stripe link e-mailed, then cash recorded.
    const created = await call(page, 'POST', '/api/admin/orders', {
      user_id: 'guest',
      email: 'stray-e2e@example.com',
      shipping_address: SHIPPING_ADDRESS,
      status: 'pending',
      lines: [{ productId: 'cloth-5-pack', quantity: 1 }],
      elapsedMs: 3000,
    });
    expect(created.status).toBe(201);
    const order = created.json.order as { id: string; orderNumber: string; totalCents: number };
    expect((await call(page, 'POST', `/api/admin/orders/${order.id}/payment-link`, {})).status).toBe(201);
    const sessionId = [...stripe.sessions.keys()].at(-1)!;
    expect((await call(page, 'POST', `/api/admin/orders/${order.id}/payments`, { method: 'cash' })).status).toBeLessThan(300);
    // The customer pays the link's Stripe page before it closed; Stripe refuses the first refund.
    const event = stripe.pay(sessionId);
    stripe.failOnce(402, 'Refunds are paused on this account');
    const hook = await fetch(`${base}/api/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      body: event.payload,
    });
    expect(hook.status).toBe(200);

    await page.goto('/admin?tab=orders');
    const alert = page.getByRole('region', { name: /^Payments that need you/ });
    const headline = STRAY_PAYMENT_TEXTS.headline(formatCents(order.totalCents), 'order_paid');
    await alert.getByText(headline).waitFor();
    expect(await alert.innerText()).toContain('Refunds are paused on this account');
    await screenshotBothWidths(page, 'stray-payments-alert');

    await alert.getByRole('button', { name: `Order #${order.orderNumber}` }).click();
    const panel = page.getByRole('region', { name: 'Payments not taken for this order' });
    await panel.getByText(headline).waitFor();
    await page
      .getByText(`Payment of ${formatCents(order.totalCents)} not taken for this order`)
      .first()
      .waitFor();
    await screenshotBothWidths(page, 'stray-payments-order');

    await panel.getByRole('button', { name: STRAY_PAYMENT_TEXTS.retry }).click();
    await toast(page, 'Refunded').waitFor();
    await panel.getByText(STRAY_PAYMENT_TEXTS.status.refunded, { exact: false }).waitFor();
    const pi = stripe.sessions.get(sessionId)!.payment_intent;
    expect([...stripe.refunds.values()].filter((r) => r.payment_intent === pi).map((r) => r.amount)).toEqual([order.totalCents]);
    await screenshotBothWidths(page, 'stray-payments-refunded');

    // Nothing is left for the owner: the Orders tab has no alert.
    await page.goto('/admin?tab=orders');
    await page
      .getByRole('heading', { name: /Orders/ })
      .first()
      .waitFor();
    const open = await call(page, 'GET', '/api/admin/stray-payments');
    expect(open.json.openCount).toBe(0);
    expect(await page.getByRole('region', { name: /^Payments that need you/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
