import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, CUSTOMER, call, checkout, fakes, signInThroughForm, toast, type ReceivedMail } from './helpers.js';
import { DESKTOP, launchBrowser, openPage, screenshot, screenshotBothWidths } from './browser.js';

/**
 * The owner's order lifecycle (issue 16): an edit with no change keeps a paid order's figures,
 * an unpaid order is refused a label, two label requests at once make one shipment, and the
 * timeline lists each step.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const shots = (page: Page, name: string) => screenshotBothWidths(page, `orders-${name}`);

describe('the owner handles an order from payment to label', () => {
  it('edit with no change keeps the figures; one label for two clicks; the timeline lists each step', async () => {
    const customer = await openPage(browser, DESKTOP);
    await signInThroughForm(customer.page, CUSTOMER);
    const paidId = await checkout(customer.page, true);
    const unpaidId = await checkout(customer.page, false);

    const { page, errors } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, ADMIN);
    const settings = await call(page, 'PUT', '/api/admin/settings/integrations', {
      shipstation_api_key: 'ss-key',
      shipstation_api_secret: 'ss-secret',
      shipstation_enabled: true,
      shipstation_api_version: 'v2',
    });
    expect(settings.status).toBe(200);

    // The detail adds up, and an Edit saved with no change leaves every figure as it was.
    await page.goto(`/admin?tab=orders&view=details&order=${paidId}`);
    const figures = page.getByTestId('order-figures');
    await figures.waitFor();
    const before = await figures.innerText();
    expect(before).toContain('Subtotal');
    expect(before).toContain('Paid');
    const apiBefore = (await call(page, 'GET', `/api/admin/orders/${paidId}`)).json.order as Record<string, unknown>;
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit Order' }).waitFor();
    await page.getByTestId('order-total-fixed').waitFor();
    await page.waitForTimeout(1200);
    await page.getByRole('button', { name: 'Update Order' }).click();
    await toast(page, 'Order updated').waitFor();
    await page.goto(`/admin?tab=orders&view=details&order=${paidId}`);
    await figures.waitFor();
    expect(await figures.innerText()).toBe(before);
    const apiAfter = (await call(page, 'GET', `/api/admin/orders/${paidId}`)).json.order as Record<string, unknown>;
    for (const k of ['subtotalCents', 'discountCents', 'shippingCents', 'taxCents', 'totalCents', 'couponCode', 'shippingAddress']) {
      expect({ k, v: apiAfter[k] }).toEqual({ k, v: apiBefore[k] });
    }

    // An unpaid order is refused a label, with a clear message.
    const refused = await call(page, 'POST', `/api/admin/orders/${unpaidId}/shipstation`);
    expect(refused.status).toBe(409);
    expect(String(refused.json.error)).toMatch(/not paid/);

    // Two label requests at once: one shipment, one e-mail.
    const both = await page.evaluate(async (id) => {
      const buy = () => fetch(`/api/admin/orders/${id}/shipstation`, { method: 'POST' }).then((r) => r.status);
      return Promise.all([buy(), buy()]);
    }, paidId);
    expect(both.filter((s) => s === 200)).toHaveLength(1);
    expect(both.filter((s) => s === 409)).toHaveLength(1);
    const number = String(apiBefore.orderNumber);
    await expect
      .poll(
        async () => (await fakes<ReceivedMail[]>('/mail')).filter((m) => m.subject.includes(number) && /shipped/i.test(m.subject)).length,
        { timeout: 20_000 },
      )
      .toBe(1);

    // The owner adds a note; the timeline lists each step, newest first, with who did it.
    await page.reload();
    await page.getByText('Label bought', { exact: true }).waitFor();
    await page.getByLabel('Add a note').fill('Packed in recycled paper');
    await page.getByRole('button', { name: 'Add note' }).click();
    await toast(page, 'Note added').waitFor();
    const timeline = page.getByRole('list', { name: 'Order events, newest first' });
    await timeline.getByText('Packed in recycled paper').waitFor();
    const kinds = await timeline.locator('li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-event')));
    expect(kinds[0]).toBe('note');
    for (const step of ['placed', 'paid', 'email.queued', 'label.bought', 'status.changed', 'note']) expect(kinds).toContain(step);
    expect(kinds.filter((k) => k === 'label.bought')).toHaveLength(1);
    expect(kinds.indexOf('label.bought')).toBeLessThan(kinds.indexOf('paid'));
    expect(kinds.indexOf('paid')).toBeLessThan(kinds.indexOf('placed'));
    await timeline.getByText(ADMIN.email).first().waitFor();
    await shots(page, 'detail-timeline');

    // The customer's receipt shows placed, paid and shipped with the tracking number.
    await customer.page.goto('/orders');
    const card = customer.page.getByTestId('order-card').filter({ hasText: number.toLowerCase() });
    await card.getByRole('button', { name: /^View Details of order/ }).click();
    const history = customer.page.getByRole('region', { name: 'Order history' });
    await history.getByText('Shipped').waitFor();
    await history.getByText('9400TRACK1').waitFor();
    expect(await history.innerText()).not.toContain('recycled paper');
    await screenshot(customer.page, 'orders-receipt-history-1280');

    expect(errors).toEqual([]);
    expect(customer.errors).toEqual([]);
  });
});
