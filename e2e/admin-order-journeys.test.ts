import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN, HUMAN_PAUSE_MS, call, signInThroughForm, toast } from './helpers.js';
import { DESKTOP, dialogShots, launchBrowser, openPage, screenshot, screenshotBothWidths } from './browser.js';

/**
 * Orders as a real shop handles them (issue [4/6]): a phone order typed in with products found by
 * SKU, paid by the customer through the link the owner e-mails; then cancelled with its refund in
 * one dialog. A typed-in total-only order is paid by hand, and its status corrected without
 * e-mailing anyone. At 1280 and 390 px.
 */
const RUN = Date.now().toString(36);
const SKU = `PHN-${RUN}`.toUpperCase();
const NAME = `Phone Order Sponge ${RUN}`;
let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };
let productId: string;

type Order = {
  id: string;
  orderNumber: string;
  status: string;
  paymentStatus: string;
  paymentProvider: string | null;
  totalCents: number;
  refundedCents: number;
  items: { name: string; quantity: number; priceCents: number }[];
  paymentLink: { url: string; amountCents: number } | null;
};
const orderOf = async (page: Page, id: string) => (await call(page, 'GET', `/api/admin/orders/${id}`)).json.order as Order;
const stockOf = async (page: Page) =>
  ((await call(page, 'GET', `/api/admin/products?search=${encodeURIComponent(SKU)}`)).json.items as { inventory: number }[])[0]!.inventory;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await openPage(browser, DESKTOP);
  admin.context.setDefaultTimeout(15_000);
  await signInThroughForm(admin.page, ADMIN);
  const res = await call(admin.page, 'POST', '/api/admin/products', {
    name: NAME,
    description: 'A product of the phone-order journey.',
    priceCents: 1250,
    inventory: 10,
    sku: SKU,
  });
  expect(res.status).toBe(201);
  productId = (res.json.product as { id: string }).id;
});
afterAll(async () => {
  await browser?.close();
});

describe('the owner takes a phone order with products', () => {
  it('creates it from the catalogue, e-mails a payment link the customer pays, then cancels it with its refund in one step', async () => {
    const { page, errors } = admin;
    const guest = `phone-${RUN}@example.com`;
    await page.goto('/admin?tab=orders');
    await page.getByRole('button', { name: 'Create Order' }).first().click();
    await page.getByRole('heading', { name: 'Create Order' }).waitFor();
    await page.getByLabel('Customer e-mail').fill(guest);
    await page.getByLabel('Add a product').fill(SKU);
    await page
      .getByRole('list', { name: 'Matching products' })
      .getByRole('button', { name: new RegExp(NAME) })
      .click();
    await page.getByLabel(NAME, { exact: true }).fill('2');
    await page.getByLabel('Discount ($)').fill('1.00');
    await page.getByLabel('Shipping ($)').fill('5.99');
    for (const [field, value] of [
      ['name', 'Rita Phone'],
      ['address', '5 Call St'],
      ['city', 'Dover'],
      ['zip', '19901'],
    ] as const)
      await page.locator(`#order-${field}`).fill(value);
    // The state is one of the checkout's list (decision 0045).
    await page.locator('#order-state').selectOption('DE');
    // 2 × $12.50 − $1.00 + $5.99 = $29.99, tax 8% $2.40: $32.39
    expect(await page.getByTestId('order-lines-total').innerText()).toBe('$32.39');
    await screenshotBothWidths(page, 'order-journeys-create-with-lines');
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    const created = page.waitForResponse((r) => r.url().endsWith('/api/admin/orders') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Create Order' }).click();
    const res = await created;
    expect(res.status()).toBe(201);
    const order = ((await res.json()) as { order: Order }).order;
    expect(order).toMatchObject({ totalCents: 3239, paymentStatus: 'unpaid', paymentProvider: null });
    expect(order.items).toEqual([expect.objectContaining({ name: NAME, quantity: 2, priceCents: 1250 })]);
    expect(await stockOf(page)).toBe(8);
    await toast(page, 'Order created').waitFor();

    // The detail: its lines, and the payment it waits for.
    await page.goto(`/admin?tab=orders&view=details&order=${order.id}`);
    await page.getByRole('button', { name: 'Send payment link' }).click();
    const ask = page.getByRole('dialog', { name: 'Send a payment link?' });
    await ask.getByText(`${guest} will be e-mailed a link to pay $32.39 by card.`).waitFor();
    await ask.getByRole('button', { name: 'Send link' }).click();
    await toast(page, 'Payment link sent').waitFor();
    await page.getByTestId('payment-link-state').waitFor();
    await screenshotBothWidths(page, 'order-journeys-link-sent');
    const link = (await orderOf(page, order.id)).paymentLink!;
    expect(link.amountCents).toBe(3239);
    const outbox = (await call(page, 'GET', `/api/admin/email-outbox?pageSize=100`)).json;
    expect(JSON.stringify(outbox)).toContain('Pay $32.39 for order');

    // The customer pays it on the card page, with no account.
    const payer = await openPage(browser, DESKTOP);
    await payer.page.goto(link.url);
    await payer.page.getByText('$32.39').first().waitFor();
    await payer.page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await payer.page.getByLabel('Expiry').fill('12 / 34');
    await payer.page.getByLabel('CVC').fill('123');
    await payer.page.getByLabel('Name on card').fill('Rita Phone');
    await payer.page.getByRole('button', { name: /^Pay \$/ }).click();
    await payer.page.getByText(`Thank you: your payment of $32.39 for order #${order.orderNumber} has been received.`).waitFor();
    await screenshot(payer.page, 'order-journeys-link-paid-1280');
    await payer.page.setViewportSize({ width: 390, height: 844 });
    await screenshot(payer.page, 'order-journeys-link-paid-390');
    await payer.context.close();
    const paid = await orderOf(page, order.id);
    expect(paid).toMatchObject({ paymentStatus: 'paid', paymentProvider: 'test', status: 'completed' });
    expect(await stockOf(page)).toBe(8);

    // The packing slip lists the lines.
    await page.goto(`/admin?tab=orders&view=packing&order=${order.id}`);
    await page.getByText(NAME).first().waitFor();
    await screenshotBothWidths(page, 'order-journeys-packing-slip');

    // Cancelled with its refund, in one dialog and one request.
    await page.goto(`/admin?tab=orders&view=details&order=${order.id}`);
    await page.getByLabel('Change status').selectOption('cancelled');
    const cancel = page.getByRole('dialog', { name: "Change the order's status?" });
    await cancel.getByText(`The order will be marked cancelled, and ${guest} will be e-mailed about it at once.`).waitFor();
    expect(await cancel.getByLabel('Refund amount ($)').inputValue()).toBe('32.39');
    expect(await cancel.getByLabel(NAME, { exact: true }).inputValue()).toBe('2');
    await dialogShots(page, cancel.getByLabel('Refund amount ($)'), 'order-journeys-cancel-refund');
    await cancel.getByRole('button', { name: 'Cancel and refund…' }).click();
    const patched = page.waitForRequest((r) => r.url().endsWith(`/api/admin/orders/${order.id}/status`) && r.method() === 'PATCH');
    await dialogShots(page, cancel.getByRole('button', { name: 'Cancel and refund $32.39' }), 'order-journeys-cancel-confirm');
    await cancel.getByRole('button', { name: 'Cancel and refund $32.39' }).click();
    expect((await patched).postDataJSON()).toEqual({
      status: 'cancelled',
      returnLines: [{ productId, quantity: 2 }],
      refund: { amountCents: 3239, reason: undefined },
    });
    await toast(page, 'Order updated').waitFor();
    expect(await orderOf(page, order.id)).toMatchObject({ status: 'cancelled', paymentStatus: 'refunded', refundedCents: 3239 });
    expect(await stockOf(page)).toBe(10);
    await page.getByText('Units returned to stock').first().waitFor();
    await screenshotBothWidths(page, 'order-journeys-cancelled-refunded');
    expect(errors).toEqual([]);
  });

  it('records a payment taken by hand, and corrects a status without e-mailing the customer', async () => {
    const { page, errors } = admin;
    const email = `counter-${RUN}@example.com`;
    const made = await call(page, 'POST', '/api/admin/orders', {
      user_id: 'guest',
      email,
      shipping_address: { name: 'Counter Sale', address: '1 Shop St', city: 'Dover', state: 'DE', zip: '19901', country: 'US' },
      total_amount: 40,
      status: 'pending',
      elapsedMs: 3000,
    });
    expect(made.status).toBe(201);
    const id = (made.json.order as Order).id;
    await page.goto(`/admin?tab=orders&view=details&order=${id}`);
    await page.getByRole('button', { name: 'Record payment' }).click();
    const record = page.getByRole('dialog', { name: 'Record the payment of $40.00' });
    await record.getByLabel('Bank transfer').check();
    await record.getByLabel("Note (for the order's history)").fill('Reference 4471');
    await dialogShots(page, record.getByLabel('Bank transfer'), 'order-journeys-record-payment');
    // The amount and the method are confirmed before anything is written (issue [2/8]).
    await record.getByRole('button', { name: 'Continue' }).click();
    await record.getByRole('group', { name: 'Confirm the payment' }).getByText('Record $40.00 paid by bank transfer?').waitFor();
    const recorded = page.waitForResponse((r) => r.url().endsWith(`/api/admin/orders/${id}/payments`));
    await record.getByRole('button', { name: 'Record payment' }).click();
    const answer = await recorded;
    expect({ status: answer.status(), body: await answer.text() }).toMatchObject({ status: 201 });
    await toast(page, 'Payment recorded').waitFor();
    expect(await orderOf(page, id)).toMatchObject({ paymentStatus: 'paid', paymentProvider: 'bank_transfer', status: 'completed' });

    // A correction nobody needs to hear about.
    await page.getByLabel('Change status').selectOption('processing');
    const ask = page.getByRole('dialog', { name: "Change the order's status?" });
    await ask.getByText(`and ${email} will be e-mailed about it at once`).waitFor();
    await ask.getByLabel('Notify the customer').uncheck();
    await ask.getByText(`${email} will not be e-mailed`).waitFor();
    await dialogShots(page, ask.getByLabel('Notify the customer'), 'order-journeys-status-no-email');
    const patched = page.waitForRequest((r) => r.url().endsWith(`/api/admin/orders/${id}/status`) && r.method() === 'PATCH');
    await ask.getByRole('button', { name: 'Change without e-mail' }).click();
    expect((await patched).postDataJSON()).toEqual({ status: 'processing', notify: false });
    await toast(page, 'Order updated').waitFor();
    await page.getByText('The customer was not e-mailed (the owner chose so)').first().waitFor();
    await screenshotBothWidths(page, 'order-journeys-paid-by-hand');
    expect(errors).toEqual([]);
  });
});
