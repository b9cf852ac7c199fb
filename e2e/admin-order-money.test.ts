import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  ADMIN,
  CUSTOMER,
  HUMAN_PAUSE_MS,
  SHIPPING_ADDRESS,
  call,
  checkout,
  fakes,
  signInThroughForm,
  toast,
  type ReceivedMail,
} from './helpers.js';
import { DESKTOP, launchBrowser, openPage, screenshot, screenshotBothWidths } from './browser.js';
import { startShopServer, type ShopServer } from './server.js';
import { FAKE_STRIPE_SECRET_KEY, FAKE_STRIPE_WEBHOOK_SECRET, fakeStripe, signedStripeEvent } from '../src/server/test/fake-stripe.js';
import { formatCents } from '../src/shared/money.js';
import { ADMIN_MESSAGES } from '../src/shared/schemas/admin/messages.js';
import { ORDER_MONEY_MESSAGES } from '../src/shared/schemas/admin/order-money.js';
import { ORDER_STATE_MESSAGES } from '../src/shared/schemas/admin/orders.js';

/**
 * The owner's money journeys (issue 16): refund half of a paid order through the built-in test
 * provider and through (the local fake of) Stripe, cancel and restock exactly once, delete refused
 * for a paid order, and the CSV exports opened and parsed.
 */
let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };
let customer: { context: BrowserContext; page: Page; errors: string[] };
/** A product of this file's own, so its stock moves only with this file's orders. */
let product: { id: string; name: string };

type Order = {
  id: string;
  orderNumber: string;
  status: string;
  paymentStatus: string;
  totalCents: number;
  refundedCents?: number;
  netCents?: number;
  items: { productId: string; name: string; quantity: number; priceCents: number; lineTotalCents: number }[];
  refunds?: { id: string; amountCents: number; status: string }[];
};

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await openPage(browser, DESKTOP);
  admin.context.setDefaultTimeout(15_000);
  await signInThroughForm(admin.page, ADMIN);
  customer = await openPage(browser, DESKTOP);
  customer.context.setDefaultTimeout(15_000);
  await signInThroughForm(customer.page, CUSTOMER);
  product = await createProduct(`Refund Journey Towel ${Date.now().toString(36)}`, 1499, 500);
});
afterAll(async () => {
  await browser?.close();
});

const shots = (page: Page, name: string) => screenshotBothWidths(page, `order-money-${name}`);

async function createProduct(name: string, priceCents: number, inventory: number): Promise<{ id: string; name: string }> {
  const res = await call(admin.page, 'POST', '/api/admin/products', {
    name,
    description: 'A product of the order-money browser journeys.',
    priceCents,
    inventory,
  });
  expect(res.status).toBe(201);
  return { id: String((res.json.product as { id: string }).id), name };
}

/** The product's recorded stock, as the back office reads it. */
async function stockOf(id: string): Promise<number> {
  const res = await call(admin.page, 'GET', `/api/admin/products?search=${encodeURIComponent(id)}`);
  const found = (res.json.items as { id: string; inventory: number }[]).find((p) => p.id === id);
  if (!found) throw new Error(`product ${id} not in the admin list`);
  return found.inventory;
}

async function adminOrder(page: Page, id: string): Promise<Order> {
  const res = await call(page, 'GET', `/api/admin/orders/${id}`);
  expect(res.status).toBe(200);
  return res.json.order as Order;
}

/** The detail's payment summary as label → value. */
async function figuresOf(page: Page): Promise<Record<string, string>> {
  const figures = page.getByTestId('order-figures');
  await figures.waitFor();
  return figures.evaluate((dl) => {
    const out: Record<string, string> = {};
    const dts = dl.querySelectorAll('dt');
    for (const dt of dts) out[dt.textContent?.trim() ?? ''] = dt.nextElementSibling?.textContent?.trim() ?? '';
    return out;
  });
}

/** RFC 4180: fields separated by commas, records by CRLF; a quoted field may hold commas, line breaks and "" for a quote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"') {
      if (field !== '') throw new Error(`a quote inside an unquoted field at ${i}`);
      quoted = true;
      i++;
    } else if (c === ',') {
      row.push(field);
      field = '';
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
    } else if (c === '\n' || c === '\r') {
      throw new Error(`a bare line break at ${i}: records end with CRLF`);
    } else {
      field += c;
      i++;
    }
  }
  if (quoted) throw new Error('the file ends inside a quoted field');
  if (field !== '' || row.length > 0) throw new Error('the last record does not end with CRLF');
  return rows;
}

/** Rows as objects keyed by the header; every row must have the header's width. */
function records(rows: string[][]): Record<string, string>[] {
  const [header, ...body] = rows;
  return body.map((r, n) => {
    expect({ row: n + 1, width: r.length }).toEqual({ row: n + 1, width: header!.length });
    return Object.fromEntries(header!.map((h, k) => [h, r[k]!]));
  });
}

/** Clicks a download link and returns the file's name and text. */
async function download(page: Page, link: ReturnType<Page['getByRole']>): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const path = await file.path();
  expect(await file.failure()).toBeNull();
  return { name: file.suggestedFilename(), text: fs.readFileSync(path, 'utf8') };
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

describe('refunds through the built-in test provider', () => {
  it('refunds half from the detail: toast, badge, figures, e-mail, list and the customer’s receipt', async () => {
    const orderId = await checkout(customer.page, true, [{ productId: product.id, quantity: 3 }]);
    const { page, errors } = admin;
    const before = await adminOrder(page, orderId);
    expect(before.paymentStatus).toBe('paid');
    const total = before.totalCents;
    const half = Math.floor(total / 2);
    const number = before.orderNumber;

    await page.goto(`/admin?tab=orders&view=details&order=${orderId}`);
    const payment = page.getByRole('region', { name: /^Payment status/ });
    await payment.getByText('Paid', { exact: true }).waitFor();
    await payment.getByRole('button', { name: 'Refund' }).click();
    const dialog = page.getByRole('dialog', { name: `Refund order ${number}` });
    // (The form shows once the order's lines have loaded, for "Return to stock".)
    await dialog.getByLabel(/^Amount/).waitFor();
    expect(await dialog.innerText()).toContain(`Paid ${formatCents(total)}. The refund goes back through the test payment provider.`);
    // The amount starts at what is left (all of it); the owner gives back half.
    const amount = dialog.getByLabel(/^Amount/);
    expect(await amount.inputValue()).toBe(dollars(total));
    await amount.fill(dollars(half));
    await dialog.getByLabel(/^Reason/).fill('One towel arrived torn');
    await shots(page, 'refund-dialog');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    // The amount as the shop read it, confirmed before it is sent; Back returns to the form.
    const confirm = dialog.getByRole('group', { name: 'Confirm the refund' });
    await confirm.getByRole('button', { name: 'Back' }).click();
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await confirm.getByRole('button', { name: `Refund ${formatCents(half)}` }).click();
    await toast(page, 'Refund sent').waitFor();
    await page
      .getByText(`${formatCents(half)} refunded; the customer has been e-mailed.`)
      .first()
      .waitFor();

    // The detail: the badge, the sentence, the refunds list and the figures.
    await payment.getByText('Partially refunded', { exact: true }).waitFor();
    expect(await payment.innerText()).toContain(`${formatCents(total)} paid`);
    expect(await payment.innerText()).toContain(`; ${formatCents(half)} refunded.`);
    const refunds = payment.getByRole('list', { name: 'Refunds' });
    expect(await refunds.locator('li').count()).toBe(1);
    const line = await refunds.locator('li').innerText();
    expect(line).toContain(formatCents(half));
    expect(line).toContain('refunded');
    expect(line).toContain(ADMIN.email);
    expect(line).toContain('“One towel arrived torn”');
    const figures = await figuresOf(page);
    expect(figures).toMatchObject({
      Total: formatCents(total),
      Paid: formatCents(total),
      Refunded: `−${formatCents(half)}`,
      Net: formatCents(total - half),
    });
    // Still refundable for what is left; the Refund button stays.
    await payment.getByRole('button', { name: 'Refund' }).waitFor();
    await shots(page, 'refunded-detail');

    const after = await adminOrder(page, orderId);
    expect(after).toMatchObject({ paymentStatus: 'partially_refunded', refundedCents: half, netCents: total - half, totalCents: total });

    // The customer's refund e-mail arrives.
    const subject = `Refund of ${formatCents(half)} for order #${number}`;
    await expect
      .poll(
        async () => (await fakes<ReceivedMail[]>('/mail')).filter((m) => m.subject === subject && m.to.includes(CUSTOMER.email)).length,
        { timeout: 20_000 },
      )
      .toBe(1);

    // The order list's payment column.
    await page.goto(`/admin?tab=orders&q=${encodeURIComponent(number)}`);
    const row = page.getByRole('row').filter({ hasText: number });
    await row.getByText('Partially refunded', { exact: true }).waitFor();
    expect(await row.count()).toBe(1);
    // …and the payment filter finds it.
    await page.goto('/admin?tab=orders&payment=partially_refunded');
    await page.getByRole('row').filter({ hasText: number }).waitFor();

    // The customer's receipt shows the refund in the order's history.
    await customer.page.goto('/orders');
    const card = customer.page.getByTestId('order-card').filter({ hasText: number.toLowerCase() });
    await card.getByRole('button', { name: /^View Details of order/ }).click();
    const history = customer.page.getByRole('region', { name: 'Order history' });
    await history.getByText(`Refunded · ${formatCents(half)}`).waitFor();
    expect(await history.innerText()).not.toContain('torn');

    expect(errors).toEqual([]);
    expect(customer.errors).toEqual([]);
  });
});

/** Pages of a second server: the same hydration wait as openPage, on another origin. */
async function openPageOn(base: string) {
  const opened = await openPage(browser, DESKTOP, { base });
  opened.context.setDefaultTimeout(15_000);
  return opened;
}

describe('refunds through Stripe (the local fake, on a second server)', () => {
  const stripeFake = fakeStripe();
  let server: ShopServer | undefined;

  beforeAll(async () => {
    const stripeUrl = await stripeFake.listen();
    server = await startShopServer({
      STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
      STRIPE_API_BASE: stripeUrl,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await stripeFake.close();
  });

  it('refunds half from the detail: one POST /v1/refunds with the amount, the payment intent and an idempotency key', async () => {
    const base = server!.baseUrl;
    // A guest pays through Stripe: the session is created, then Stripe's signed webhook says it was paid.
    const res = await fetch(`${base}/api/create-checkout-session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({
        items: [{ productId: 'cloth-5-pack', quantity: 2 }],
        customerEmail: 'sky@example.com',
        shippingAddress: SHIPPING_ADDRESS,
        appliedCouponCode: null,
      }),
    });
    expect(res.status).toBe(200);
    const { sessionId, orderId } = (await res.json()) as { sessionId: string; orderId: string };
    const pi = stripeFake.sessions.get(sessionId)!.payment_intent as string;
    const { payload, signature } = signedStripeEvent(
      'checkout.session.completed',
      { id: sessionId, object: 'checkout.session', payment_status: 'paid', metadata: { orderId } },
      `evt_${sessionId}`,
    );
    const hook = await fetch(`${base}/api/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });
    expect(hook.status).toBe(200);

    const { page, errors } = await openPageOn(base);
    await signInThroughForm(page, ADMIN);
    const before = await adminOrder(page, orderId);
    expect(before.paymentStatus).toBe('paid');
    const total = before.totalCents;
    const half = Math.floor(total / 2);

    await page.goto(`/admin?tab=orders&view=details&order=${orderId}`);
    const payment = page.getByRole('region', { name: /^Payment status/ });
    await payment.getByText('Paid', { exact: true }).waitFor();
    expect(await payment.innerText()).toContain('through Stripe');
    await payment.getByRole('button', { name: 'Refund' }).click();
    const dialog = page.getByRole('dialog', { name: `Refund order ${before.orderNumber}` });
    await dialog.getByLabel(/^Amount/).waitFor();
    expect(await dialog.innerText()).toContain('The refund goes back through Stripe.');
    await dialog.getByLabel(/^Amount/).fill(dollars(half));
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    const confirm = dialog.getByRole('group', { name: 'Confirm the refund' });
    await confirm.getByText(`Send ${formatCents(half)} back to the customer through Stripe?`).waitFor();
    await confirm.getByRole('button', { name: `Refund ${formatCents(half)}` }).click();
    await toast(page, 'Refund sent').waitFor();
    await payment.getByText('Partially refunded', { exact: true }).waitFor();
    expect(await figuresOf(page)).toMatchObject({ Refunded: `−${formatCents(half)}`, Net: formatCents(total - half) });
    await screenshot(page, 'order-money-stripe-refunded-detail-1280');

    const sent = stripeFake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body.get('payment_intent')).toBe(pi);
    expect(sent[0]!.body.get('amount')).toBe(String(half));
    const after = await adminOrder(page, orderId);
    expect(after).toMatchObject({ paymentStatus: 'partially_refunded', refundedCents: half, netCents: total - half });
    expect(after.refunds).toHaveLength(1);
    expect(after.refunds![0]).toMatchObject({ amountCents: half, status: 'succeeded' });
    // One key per refund the owner asked for: a retry of the same request cannot refund twice.
    expect(sent[0]!.idempotencyKey).toBe(`refund-${after.refunds![0]!.id}`);
    expect([...stripeFake.refunds.values()].filter((r) => r.payment_intent === pi).map((r) => r.amount)).toEqual([half]);

    // Stripe makes the next refund but its answer is lost: it stays pending, and Retry settles it once.
    stripeFake.loseRefundAnswers(10);
    await payment.getByRole('button', { name: 'Refund' }).click();
    await dialog.getByLabel(/^Amount/).fill('1.00');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await confirm.getByRole('button', { name: 'Refund $1.00' }).click();
    const retry = payment.getByRole('button', { name: 'Retry refund' });
    await retry.waitFor({ timeout: 20_000 });
    stripeFake.loseRefundAnswers(0);
    await page.keyboard.press('Escape');
    await retry.click();
    await toast(page, 'Refund settled').waitFor();
    await retry.waitFor({ state: 'hidden' });
    expect([...stripeFake.refunds.values()].filter((r) => r.payment_intent === pi).map((r) => r.amount)).toEqual([half, 100]);
    expect(await adminOrder(page, orderId)).toMatchObject({ refundedCents: half + 100 });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('cancel and restock', () => {
  it('returns the units once, takes them again on reopening, and refuses when too few are left', async () => {
    const { page, errors } = admin;
    const units = 7;
    const own = await createProduct(`Restock Journey Brush ${Date.now().toString(36)}`, 650, 60);
    const orderId = await checkout(customer.page, true, [{ productId: own.id, quantity: units }]);
    await expect.poll(() => stockOf(own.id)).toBe(60 - units);
    const restockedEvents = async () =>
      ((await call(page, 'GET', `/api/admin/orders/${orderId}/events`)).json.events as { type: string }[]).filter(
        (e) => e.type === 'restocked',
      ).length;

    // Cancelled from the detail's status control, after the confirmation: the units come back.
    await page.goto(`/admin?tab=orders&view=details&order=${orderId}`);
    const changeStatus = async (to: string) => {
      await page.getByLabel('Change status').selectOption(to);
      const ask = page.getByRole('dialog', { name: "Change the order's status?" });
      // (Cancelling a paid order first loads its lines, to choose the units that go back.)
      await ask.getByText(`The order will be marked ${to}`).waitFor();
      if (to === 'cancelled') {
        // Not shipped: every unit still out is offered back.
        expect(await ask.getByLabel(own.name, { exact: true }).inputValue()).toBe(String(units));
        // The refund offered with the cancel is left out: this journey checks the units.
        const refund = ask.getByLabel(/Refund the customer with the cancel/);
        if (await refund.isVisible()) await refund.uncheck();
      }
      await ask.getByRole('button', { name: /^Change/ }).click();
    };
    await changeStatus('cancelled');
    await toast(page, 'Order updated').waitFor();
    expect((await adminOrder(page, orderId)).status).toBe('cancelled');
    expect(await stockOf(own.id)).toBe(60);
    expect(await restockedEvents()).toBe(1);

    // Saved again as cancelled (the edit form) and set cancelled again (the API): no second restock.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit Order' }).waitFor();
    expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('cancelled');
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    await page.getByRole('button', { name: 'Update Order' }).click();
    await toast(page, 'Order updated').waitFor();
    expect((await call(page, 'PATCH', `/api/admin/orders/${orderId}/status`, { status: 'cancelled' })).status).toBe(200);
    expect(await stockOf(own.id)).toBe(60);
    expect(await restockedEvents()).toBe(1);

    // Reopened: the units are taken again.
    await page.goto(`/admin?tab=orders&view=details&order=${orderId}`);
    await changeStatus('processing');
    await toast(page, 'Order updated').waitFor();
    expect((await adminOrder(page, orderId)).status).toBe('processing');
    expect(await stockOf(own.id)).toBe(60 - units);

    // Cancelled again (back to 60), then the shop sells all but units − 1: reopening is refused.
    await changeStatus('cancelled');
    await toast(page, 'Order updated').waitFor();
    await expect.poll(() => stockOf(own.id)).toBe(60);
    expect(await restockedEvents()).toBe(2);
    const counted = await call(page, 'POST', `/api/admin/products/${own.id}/stock`, { reason: 'counted', quantity: units - 1 });
    expect(counted.status).toBe(200);
    await changeStatus('processing');
    await toast(page, 'Error updating order').waitFor();
    await page
      .getByText(ORDER_MONEY_MESSAGES.notEnoughToReopen(own.name, units, units - 1, 'processing'))
      .first()
      .waitFor();
    expect((await adminOrder(page, orderId)).status).toBe('cancelled');
    expect(await stockOf(own.id)).toBe(units - 1);
    // A cancelled order is never marked delivered straight away (the one table of moves, decision 0038).
    const refused = await call(page, 'PATCH', `/api/admin/orders/${orderId}/status`, { status: 'delivered' });
    expect(refused).toEqual({ status: 409, json: { error: ORDER_STATE_MESSAGES.cancelledNotDelivered } });
    expect(errors).toEqual([]);
  });
});

describe('delete', () => {
  it('is refused for a paid order, with the reason; an unpaid checkout can be deleted', async () => {
    const { page, errors } = admin;
    const paidId = await checkout(customer.page, true, [{ productId: product.id, quantity: 1 }]);
    const unpaidId = await checkout(customer.page, false, [{ productId: product.id, quantity: 1 }]);

    await page.goto(`/admin?tab=orders&view=details&order=${paidId}`);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const refusal = page.getByRole('dialog').filter({ hasText: ADMIN_MESSAGES.paidOrderNotDeletable });
    await refusal.waitFor();
    // The owner is not asked to confirm something that cannot happen.
    expect(await refusal.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    await shots(page, 'delete-refused');
    await refusal.getByRole('button', { name: 'Close' }).first().click();
    await refusal.waitFor({ state: 'hidden' });

    // The list's Delete explains the same, without a confirmation.
    const number = (await adminOrder(page, paidId)).orderNumber;
    await page.goto('/admin?tab=orders');
    await page.getByRole('button', { name: `Delete order ${number}` }).click();
    await refusal.waitFor();
    expect(await refusal.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    await refusal.getByRole('button', { name: 'Close' }).first().click();
    await refusal.waitFor({ state: 'hidden' });

    const del = await call(page, 'DELETE', `/api/admin/orders/${paidId}`);
    expect(del).toEqual({ status: 409, json: { error: ADMIN_MESSAGES.paidOrderNotDeletable } });
    expect((await adminOrder(page, paidId)).paymentStatus).toBe('paid');

    // An unpaid checkout: the usual confirmation, then it is gone.
    await page.goto(`/admin?tab=orders&view=details&order=${unpaidId}`);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText('Are you sure you want to delete this order? This action cannot be undone.').waitFor();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await toast(page, 'Order deleted').waitFor();
    expect((await call(page, 'GET', `/api/admin/orders/${unpaidId}`)).status).toBe(404);
    expect(errors).toEqual([]);
  });
});

const ORDER_HEADER = [
  'Order number',
  'Order id',
  'Date',
  'Status',
  'Payment status',
  'Customer name',
  'E-mail',
  'Shipping address',
  'Items',
  'Subtotal',
  'Discount',
  'Coupon',
  'Shipping',
  'Tax',
  'Total',
  'Refunded',
  'Net',
  'Payment date',
  'Carrier',
  'Tracking number',
];
const LINE_HEADER = [
  'Order number',
  'Date',
  'Status',
  'Product id',
  'Name',
  'Variant id',
  'Variant',
  'Size',
  'Color',
  'SKU',
  'Quantity',
  'Unit price',
  'Line total',
];
const CUSTOMER_HEADER = ['Customer id', 'Name', 'E-mail', 'Phone', 'Address', 'Role', 'Loyalty points', 'Orders', 'Total spent', 'Created'];

describe('CSV exports', () => {
  it('the filtered order list, its line items and the customers, opened and parsed', async () => {
    const { page, errors } = admin;
    // Set-up: a paid order of two lines (one with a comma and quotes in its name), refunded in part.
    const quirky = await createProduct(`Mop "Deluxe", ${Date.now().toString(36)}`, 1250, 50);
    const orderId = await checkout(customer.page, true, [
      { productId: product.id, quantity: 2 },
      { productId: quirky.id, quantity: 1 },
    ]);
    const refund = await call(page, 'POST', `/api/admin/orders/${orderId}/refunds`, { amountCents: 321, restock: false });
    expect(refund.status).toBe(201);
    const order = await adminOrder(page, orderId);
    expect(order).toMatchObject({ paymentStatus: 'partially_refunded', refundedCents: 321 });

    // Orders, filtered to partly refunded ones, exported from the list.
    await page.goto('/admin?tab=orders');
    await page.getByLabel('Payment', { exact: true }).selectOption('partially_refunded');
    await page.waitForURL(/payment=partially_refunded/);
    await page.getByRole('row').filter({ hasText: order.orderNumber }).waitFor();
    const orders = await download(page, page.getByRole('link', { name: 'Export CSV' }));
    expect(orders.name).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(orders.text.endsWith('\r\n')).toBe(true);
    const orderRows = parseCsv(orders.text);
    expect(orderRows[0]).toEqual(ORDER_HEADER);
    const listed = await call(page, 'GET', '/api/admin/orders?payment=partially_refunded');
    const exported = records(orderRows);
    expect(exported.length).toBe(listed.json.total);
    expect(exported.every((r) => r['Payment status'] === 'partially_refunded')).toBe(true);
    const mine = exported.filter((r) => r['Order id'] === orderId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      'Order number': order.orderNumber,
      Status: order.status,
      'Payment status': 'partially_refunded',
      'E-mail': CUSTOMER.email,
      Items: '3',
      Total: dollars(order.totalCents),
      Refunded: dollars(321),
      Net: dollars(order.netCents!),
    });
    expect(order.netCents).toBe(order.totalCents - 321);

    // One row per line item: the link when the list has one, else the same export with lines=1.
    const linesLink = page.getByRole('link', { name: /export line items/i });
    let lines: string;
    if ((await linesLink.count()) > 0) {
      const file = await download(page, linesLink);
      expect(file.name).toMatch(/^order-lines-\d{4}-\d{2}-\d{2}\.csv$/);
      lines = file.text;
    } else {
      lines = await page.evaluate(async () => {
        const res = await fetch('/api/admin/exports/orders.csv?payment=partially_refunded&lines=1');
        if (!res.ok || !/^text\/csv/.test(res.headers.get('content-type') ?? '')) throw new Error(`lines export answered ${res.status}`);
        return res.text();
      });
    }
    const lineRows = parseCsv(lines);
    expect(lineRows[0]).toEqual(LINE_HEADER);
    const myLines = records(lineRows).filter((r) => r['Order number'] === order.orderNumber);
    expect(myLines.map((r) => [r['Product id'], r.Name, r.Quantity, r['Unit price'], r['Line total']]).sort()).toEqual(
      order.items.map((i) => [i.productId, i.name, String(i.quantity), dollars(i.priceCents), dollars(i.lineTotalCents)]).sort(),
    );
    expect(myLines.map((r) => r.Name)).toContain(quirky.name);

    // Customers, from the Users tab.
    await page.goto('/admin?tab=users');
    const customers = await download(page, page.getByRole('link', { name: 'Export CSV' }));
    expect(customers.name).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
    const customerRows = parseCsv(customers.text);
    expect(customerRows[0]).toEqual(CUSTOMER_HEADER);
    const people = records(customerRows);
    const users = await call(page, 'GET', `/api/admin/users?search=${encodeURIComponent(CUSTOMER.email)}`);
    // One row per account, then one per guest address (role "guest", no id): other journeys on this
    // worker's shop may have placed guest orders before this one.
    const accounts = people.filter((p) => p.Role !== 'guest');
    expect(accounts.length).toBe((await call(page, 'GET', '/api/admin/users')).json.total);
    expect(people.filter((p) => p.Role === 'guest').every((p) => p['Customer id'] === '')).toBe(true);
    const api = (users.json.items as { id: string; email: string; fullName: string; role: string; loyaltyPoints: number }[]).find(
      (u) => u.email === CUSTOMER.email,
    )!;
    const row = people.find((p) => p['E-mail'] === CUSTOMER.email);
    expect(row).toMatchObject({ 'Customer id': api.id, Name: api.fullName, Role: api.role, 'Loyalty points': String(api.loyaltyPoints) });
    // Every order this file placed for the customer counts (others may have placed more).
    expect(Number(row!.Orders)).toBeGreaterThanOrEqual(1);
    expect(errors).toEqual([]);
  });
});
