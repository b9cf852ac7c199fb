import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, CUSTOMER, HUMAN_PAUSE_MS, fakes, signInThroughForm, toast, toggle, type ReceivedMail } from './helpers.js';
import { DESKTOP, launchBrowser, openPage, screenshot } from './browser.js';

/**
 * The back office's changes reach the shop: a status change e-mails the customer, a coupon the
 * owner adds is applied by a shopper, a disabled shipping option leaves checkout, a new category
 * shows in the shop, and the admin role can be given and taken back.
 */
const RUN = Date.now().toString(36);

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function mailTo(address: string): Promise<ReceivedMail[]> {
  return (await fakes<ReceivedMail[]>('/mail')).filter((m) => m.to.includes(address));
}

async function addToCart(page: Page, productId: string): Promise<void> {
  await page.goto(`/products/${productId}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.getByText('Added to cart').first().waitFor();
}

describe('back office changes reach the shop', () => {
  it('status e-mail, coupon, shipping option, category and admin role', async () => {
    const { page, errors } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, ADMIN);

    // ---- Orders: the overview charts are drawn from the database.
    await page.goto('/admin?tab=orders');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    // The charts, or their empty state when this database has no placed order yet.
    await page.locator('figure figcaption').or(page.getByText('No orders in this period.')).first().waitFor();

    // ---- An order for the demo customer; moving it to shipped e-mails them.
    const users = (await (await page.request.get(`/api/admin/users?search=${encodeURIComponent(CUSTOMER.email)}`)).json()) as {
      items: { id: string; email: string }[];
    };
    const customerId = users.items.find((u) => u.email === CUSTOMER.email)!.id;
    await page.getByRole('button', { name: 'Create Order' }).first().click();
    await page.getByRole('heading', { name: 'Create Order' }).waitFor();
    // The customer is picked by searching their e-mail (not by typing an internal id).
    await page.getByRole('searchbox', { name: 'Customer' }).fill(CUSTOMER.email);
    await page
      .getByRole('list', { name: 'Matching customers' })
      .getByRole('button', { name: new RegExp(CUSTOMER.email) })
      .click();
    await page.getByTestId('picked-customer').filter({ hasText: CUSTOMER.email }).waitFor();
    await page.getByLabel(/^Name/).fill('Demo Customer');
    await page.getByLabel('Street').fill('12 Fern Way');
    await page.getByLabel('City').fill('Portland');
    await page.getByLabel('State').selectOption('OR');
    await page.getByLabel('ZIP').fill('97201');
    await page.getByLabel('Total amount ($)').fill('42.50');
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    const created = page.waitForResponse((r) => r.url().endsWith('/api/admin/orders') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Create Order' }).click();
    const { order } = (await (await created).json()) as { order: { id: string; orderNumber: string; userId: string } };
    expect(order.userId).toBe(customerId);
    await toast(page, 'Order created').waitFor();
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: order.orderNumber, exact: true }) });
    // (An unpaid order cannot be marked shipped from the list: "processing" still e-mails the customer.)
    await row.getByRole('combobox', { name: `Status of order ${order.orderNumber}` }).selectOption('processing');
    // It asks first, naming who will be e-mailed; cancelling changes nothing.
    const ask = page.getByRole('dialog', { name: "Change the order's status?" });
    await ask.getByText(`${CUSTOMER.email} will be e-mailed about it at once`, { exact: false }).waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    expect(await row.getByRole('combobox', { name: `Status of order ${order.orderNumber}` }).inputValue()).toBe('pending');
    await row.getByRole('combobox', { name: `Status of order ${order.orderNumber}` }).selectOption('processing');
    await ask.getByRole('button', { name: 'Change and e-mail' }).click();
    await toast(page, 'Order updated').waitFor();
    await expect
      .poll(async () => (await mailTo(CUSTOMER.email)).some((m) => m.subject === `Order #${order.orderNumber} is now Processing`), {
        timeout: 20_000,
      })
      .toBe(true);
    await screenshot(page, 'admin-commerce-orders-1280');

    // ---- A coupon the owner adds, which a shopper then applies.
    const code = `SAVE${RUN}`.toUpperCase();
    await page.goto('/admin?tab=coupons');
    await page.getByRole('button', { name: 'Add Coupon' }).click();
    await page.getByRole('dialog').getByLabel('Code').fill(code.toLowerCase());
    await page.getByRole('dialog').getByLabel('Discount value (%)').fill('15');
    await page.getByRole('dialog').getByRole('button', { name: 'Save Coupon' }).click();
    await toast(page, 'Coupon created successfully').waitFor();
    await page.getByRole('switch', { name: `Active: ${code}` }).waitFor({ state: 'attached' });

    // ---- A category the owner adds stays out of the shop while it is empty (decision 0047), and
    // the back office says so.
    const catId = `e2e-shop-${RUN}`;
    await page.goto('/admin?tab=categories');
    await page.getByRole('button', { name: 'Add Category' }).click();
    await page.getByRole('dialog').getByLabel('ID').fill(catId);
    await page.getByRole('dialog').getByLabel('Name').fill(`Journey ${RUN}`);
    await page.getByRole('dialog').getByRole('button', { name: 'Save Category' }).click();
    await toast(page, 'Category has been saved successfully.').waitFor();
    await page
      .getByRole('row', { name: new RegExp(`Journey ${RUN}`) })
      .getByText('Empty, hidden from shoppers')
      .waitFor();

    // ---- Overnight Shipping switched off.
    await page.goto('/admin?tab=shipping');
    const overnight = page.getByRole('switch', { name: 'Enabled: Overnight Shipping' });
    await overnight.waitFor({ state: 'attached' });
    expect(await overnight.isChecked()).toBe(true);
    await toggle(page, overnight);
    await toast(page, 'Shipping option updated successfully.').waitFor();
    await expect.poll(() => overnight.isChecked()).toBe(false);

    // ---- The shopper: the category is listed, the coupon applies, overnight is gone.
    const shopper = await openPage(browser, DESKTOP);
    await shopper.page.goto('/products');
    // The shop's own categories are listed; the empty one is not.
    const seeded = shopper.page.getByRole('tab', { name: 'Mops' }).or(shopper.page.getByRole('link', { name: 'Mops' }));
    await seeded.first().waitFor();
    expect(
      await shopper.page
        .getByRole('tab', { name: `Journey ${RUN}` })
        .or(shopper.page.getByRole('link', { name: `Journey ${RUN}` }))
        .count(),
    ).toBe(0);
    await addToCart(shopper.page, 'cloth-5-pack');
    await shopper.page.goto('/cart');
    await shopper.page.getByLabel('Coupon code').fill(code);
    await shopper.page.getByRole('button', { name: 'Apply' }).click();
    await shopper.page.getByText('Coupon Applied!').first().waitFor();
    await shopper.page.getByText(`${code} has been applied to your order`).first().waitFor();
    await shopper.page.goto('/checkout');
    const methods = shopper.page.getByRole('radiogroup', { name: 'Shipping method' });
    await methods.getByRole('radio', { name: /Standard Shipping/ }).waitFor({ state: 'attached' });
    expect(await methods.getByRole('radio', { name: /Overnight Shipping/ }).count()).toBe(0);
    await screenshot(shopper.page, 'admin-commerce-checkout-without-overnight-1280');

    // Back on: the shopper sees it again.
    await toggle(page, overnight);
    await expect.poll(() => overnight.isChecked()).toBe(true);
    await shopper.page.reload();
    await methods.getByRole('radio', { name: /Overnight Shipping/ }).waitFor({ state: 'attached' });
    expect(shopper.errors).toEqual([]);
    await shopper.context.close();

    // ---- The admin role: given to the customer and taken back.
    await page.goto('/admin?tab=users');
    await page.getByLabel('Search users').fill(CUSTOMER.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const role = page.getByRole('switch', { name: `Admin: ${CUSTOMER.email}` });
    await role.waitFor({ state: 'attached' });
    expect(await role.isChecked()).toBe(false);
    await toggle(page, role);
    await toast(page, 'Role Updated').waitFor();
    await expect.poll(() => role.isChecked()).toBe(true);
    await toggle(page, role);
    await expect.poll(() => role.isChecked()).toBe(false);

    // Tidy up what other journeys might meet.
    await page.goto('/admin?tab=coupons');
    await page.getByRole('button', { name: `Delete coupon ${code}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await toast(page, 'Coupon deleted successfully').waitFor();

    expect(errors).toEqual([]);
  });
});
