import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, CUSTOMER, fakes, signInThroughForm, toast, toggle, type ReceivedMail } from './helpers.js';
import { DESKTOP, launchBrowser, openPage, screenshot, screenshotBothWidths } from './browser.js';

/**
 * [6/7]: the owner edits words and pictures, templates, ShipStation and reads the contact form;
 * the outside world (SMTP, ShipStation, the workflow endpoint) is the fakes of e2e/fakes.ts.
 */
const RUN = Date.now().toString(36);

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const shots = (page: Page, name: string) => screenshotBothWidths(page, `content-${name}`);

type Hook = { body: { name: string; email: string; subject: string; message: string; timestamp: string; source: string } };

async function openSettingsSection(page: Page, section: string): Promise<void> {
  await page.goto('/admin?tab=settings');
  await page.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab', { name: section }).click();
}

async function sendContact(page: Page, name: string, subject: string): Promise<void> {
  await page.goto('/contact');
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Email Address').fill('visitor@example.org');
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Message').fill('Do you ship refills to Canada?');
  await page.waitForTimeout(1700); // a person takes longer than the form's 1.5-second guard
  await page.getByRole('button', { name: 'Send Message' }).click();
  await toast(page, 'Message Sent!').waitFor();
  await expect.poll(() => page.getByLabel('Full Name').inputValue()).toBe('');
}

describe('admin content, e-mail, ShipStation and the contact form', () => {
  it('hero title, an FAQ and the contact phone reach the storefront', async () => {
    const { page, errors } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, ADMIN);

    // Homepage hero title.
    await page.goto('/admin?tab=homepage');
    const title = page.getByLabel('Hero title');
    await title.waitFor();
    const oldTitle = await title.inputValue();
    const newTitle = `Cleaner homes, lighter footprint ${RUN}`;
    await title.fill(newTitle);
    await shots(page, 'homepage');
    await page.getByRole('button', { name: 'Save Homepage Content' }).click();
    await toast(page, 'Homepage content has been updated successfully.').waitFor();
    const visitor = await openPage(browser, DESKTOP);
    await visitor.page.goto('/');
    await visitor.page.getByRole('heading', { level: 1, name: newTitle }).waitFor();

    // An FAQ.
    await page.goto('/admin?tab=faqs');
    await page.getByRole('button', { name: 'Add FAQ' }).click();
    const question = `Can I recycle the refill pouch ${RUN}?`;
    await page.getByRole('dialog').getByLabel('Question').fill(question);
    await page.getByRole('dialog').getByLabel('Answer').fill('Yes: rinse it and drop it at any soft-plastics point.');
    await page.getByRole('dialog').getByRole('button', { name: 'Save FAQ' }).click();
    await toast(page, 'FAQ Created').waitFor();
    await shots(page, 'faqs');
    await visitor.page.goto('/faq');
    await visitor.page.getByRole('button', { name: question }).waitFor();

    // The contact phone.
    await openSettingsSection(page, 'General');
    const phone = page.getByLabel('Contact phone');
    const oldPhone = await phone.inputValue();
    await phone.fill('(555) 010-2026');
    await page.getByRole('button', { name: 'Save General Settings' }).click();
    await toast(page, 'General settings have been saved successfully.').waitFor();
    await shots(page, 'settings');
    await visitor.page.goto('/contact');
    await visitor.page.getByRole('link', { name: '(555) 010-2026' }).first().waitFor();

    // Put things back for the other journeys.
    await phone.fill(oldPhone);
    await page.getByRole('button', { name: 'Save General Settings' }).click();
    await toast(page, 'General settings have been saved successfully.').waitFor();
    await page.goto('/admin?tab=faqs');
    await page.getByRole('button', { name: `Delete FAQ: ${question}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await toast(page, 'FAQ Deleted').waitFor();
    await page.goto('/admin?tab=homepage');
    await page.getByLabel('Hero title').fill(oldTitle);
    await page.getByRole('button', { name: 'Save Homepage Content' }).click();
    await toast(page, 'Homepage content has been updated successfully.').waitFor();

    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
    expect(errors).toEqual([]);
  });

  it('edits a template, previews it and sends a test e-mail to the local SMTP server', async () => {
    const { page, errors } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, ADMIN);
    await page.goto('/admin?tab=email');
    await page.getByRole('region', { name: 'Email connection' }).getByText('Connected', { exact: true }).waitFor();

    await page
      .getByRole('list', { name: 'Templates' })
      .getByRole('button', { name: /Welcome/ })
      .click();
    await page.getByRole('tab', { name: 'Edit HTML' }).click();
    const subject = page.getByLabel('Subject');
    const oldSubject = await subject.inputValue();
    const newSubject = `Welcome aboard, {{customerName}} (${RUN})`;
    await subject.fill(newSubject);
    await shots(page, 'email-edit');
    await page.getByRole('button', { name: 'Save Template' }).click();
    await page.getByRole('tab', { name: 'Preview' }).click();
    await page.getByText(`Welcome aboard, `, { exact: false }).filter({ hasText: RUN }).first().waitFor();
    await shots(page, 'email-preview');

    await page.getByRole('tab', { name: 'Test' }).click();
    const to = `owner-${RUN}@example.com`;
    await page.getByLabel('Send test to').fill(to);
    await page.getByRole('button', { name: 'Send Test Email' }).click();
    await page.getByText('Test email sent successfully!').waitFor();
    await expect
      .poll(async () => (await fakes<ReceivedMail[]>('/mail')).some((m) => m.to.includes(to) && m.subject.includes(RUN)), {
        timeout: 20_000,
      })
      .toBe(true);

    // Put the subject back.
    await page.getByRole('tab', { name: 'Edit HTML' }).click();
    await page.getByLabel('Subject').fill(oldSubject);
    await page.getByRole('button', { name: 'Save Template' }).click();
    await page.getByRole('tab', { name: 'Preview' }).click();
    expect(errors).toEqual([]);
  });

  it("sends a paid order to ShipStation; the customer's orders show it shipped with its tracking number", async () => {
    // The customer pays for an order.
    const customer = await openPage(browser, DESKTOP);
    await signInThroughForm(customer.page, CUSTOMER);
    const origin = inject('baseUrl');
    const session = await customer.page.request.post('/api/create-checkout-session', {
      headers: { origin },
      data: {
        items: [{ productId: 'cloth-5-pack', quantity: 1 }],
        customerEmail: CUSTOMER.email,
        shippingAddress: { name: 'Demo Customer', address: '12 Fern Way', city: 'Portland', state: 'OR', zip: '97201', country: 'US' },
      },
    });
    expect(session.status()).toBe(200);
    const { url } = (await session.json()) as { url: string };
    await customer.page.goto(url);
    await customer.page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await customer.page.getByLabel('Expiry').fill('12 / 34');
    await customer.page.getByLabel('CVC').fill('123');
    await customer.page.getByLabel('Name on card').fill('Demo Customer');
    await customer.page.getByRole('button', { name: /^Pay \$/ }).click();
    await customer.page.waitForURL(/order-confirmation|success|thank-you/);
    const orderId = new URL(customer.page.url()).searchParams.get('orderId') ?? new URL(customer.page.url()).searchParams.get('order_id');

    // The owner sets ShipStation up and sends the order.
    const { page, errors } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, ADMIN);
    await openSettingsSection(page, 'Integrations');
    const enable = page.getByRole('switch', { name: 'Enable ShipStation' });
    await enable.waitFor({ state: 'attached' });
    if (!(await enable.isChecked())) await toggle(page, enable);
    await page.getByLabel('API key').fill('ss-key');
    await page.getByRole('button', { name: 'Save Integration Settings' }).click();
    await page
      .getByText(/saved successfully/)
      .first()
      .waitFor();
    await page.goto('/admin?tab=shipstation');
    await page.getByText('Connected', { exact: true }).first().waitFor();
    await shots(page, 'shipstation');

    await page.goto('/admin?tab=orders');
    // The order list's own box (the header has the shop's product search on every page).
    const search = page.getByRole('searchbox', { name: 'Search orders' });
    await search.fill(CUSTOMER.email);
    await search.press('Enter');
    const number = orderId ? orderId.slice(-8).toUpperCase() : null;
    const row = number
      ? page.getByRole('row').filter({ has: page.getByRole('cell', { name: number, exact: true }) })
      : page.getByRole('row').nth(1);
    await row.getByRole('button', { name: /^View order/ }).click();
    await page.getByRole('button', { name: 'Send to ShipStation' }).click();
    // One label per order: the purchase is confirmed first.
    await page.getByRole('dialog').getByRole('button', { name: 'Buy label' }).click();
    await toast(page, 'Sent to ShipStation').waitFor();
    await page.getByText('9400TRACK1').first().waitFor();

    // The customer sees it shipped, with the tracking number, and got the shipping e-mail.
    await customer.page.goto('/orders');
    const card = customer.page.getByText('9400TRACK1').first();
    await card.waitFor();
    await customer.page.getByText('shipped', { exact: false }).first().waitFor();
    await expect
      .poll(
        async () => (await fakes<ReceivedMail[]>('/mail')).some((m) => m.to.includes(CUSTOMER.email) && /has shipped/.test(m.subject)),
        { timeout: 20_000 },
      )
      .toBe(true);
    await screenshot(customer.page, 'content-customer-orders-shipped-1280');

    expect(customer.errors).toEqual([]);
    expect(errors).toEqual([]);
    await customer.context.close();
  });

  it('a contact message reaches the Messages view and the workflow endpoint, even one sent while it was down', async () => {
    const { page, errors } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, ADMIN);
    await openSettingsSection(page, 'Integrations');
    await page.getByLabel('Workflow endpoint URL').fill(inject('workflowUrl'));
    const forward = page.getByRole('switch', { name: 'Forward contact messages' });
    if (!(await forward.isChecked())) await toggle(page, forward);
    await page.getByRole('button', { name: 'Save Integration Settings' }).click();
    await page
      .getByText(/saved successfully/)
      .first()
      .waitFor();

    const visitor = await openPage(browser, DESKTOP);
    const first = `Refills abroad ${RUN}`;
    await sendContact(visitor.page, 'Rosa Visitor', first);
    await shots(visitor.page, 'contact');
    await expect
      .poll(async () => (await fakes<Hook[]>('/workflow/received')).find((h) => h.body.subject === first)?.body.source, { timeout: 20_000 })
      .toBe('website-contact-form');

    // The endpoint goes down; the second message waits, and is delivered when it is back.
    await fakes('/workflow/down', 'POST');
    const second = `Bulk order ${RUN}`;
    await sendContact(visitor.page, 'Sam Visitor', second);
    await page.goto('/admin?tab=email&view=messages');
    await page.getByText(second).waitFor();
    await page.getByText(first).waitFor();
    const retry = page.getByRole('button', { name: 'Retry forwarding the message from Sam Visitor' });
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByText(second).waitFor();
          return retry.count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    await shots(page, 'messages');
    await fakes('/workflow/up', 'POST');
    await retry.click();
    await expect
      .poll(async () => (await fakes<Hook[]>('/workflow/received')).some((h) => h.body.subject === second), { timeout: 20_000 })
      .toBe(true);
    expect((await fakes<Hook[]>('/workflow/received')).filter((h) => h.body.subject === second)).toHaveLength(1);

    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
    expect(errors).toEqual([]);
  });
});
