import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { formatCents } from '../src/shared/money.js';
import { ADMIN, CUSTOMER, checkout, signInThroughForm } from './helpers.js';
import { DESKTOP, launchBrowser, openPage, screenshotBothWidths } from './browser.js';

/**
 * The back office's forms on react-hook-form: a refused entry shows the shared schema's message
 * under its field (outlined, described by it, focused first), and nothing is sent.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const shots = (page: Page, name: string) => screenshotBothWidths(page, `form-errors-${name}`);

/** The field is outlined and described by the message shown under it. */
async function expectInvalid(field: Locator, message: string): Promise<void> {
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
  const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(
    describedBy
      .split(' ')
      .filter(Boolean)
      .map((id) => field.page().locator(`[id="${id}"]`).innerText()),
  );
  expect(texts).toContain(message);
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

describe('admin forms refuse with the shared messages', () => {
  it('homepage, settings, template and test send', async () => {
    const { page, errors } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, ADMIN);

    // Homepage: a required title emptied; nothing is saved, the summary and the field say why.
    await page.goto('/admin?tab=homepage');
    const title = page.getByLabel('Hero title');
    await title.waitFor();
    await title.fill('   ');
    await page.getByRole('button', { name: 'Save Homepage Content' }).click();
    await page.getByText('Please fix the highlighted fields.').waitFor();
    await expectInvalid(title, 'Hero title is required');
    expect(await focusedId(page)).toBe('homepage-homepage_hero_title');
    await page.getByText('You have unsaved changes.').waitFor();
    await shots(page, 'homepage');

    // General settings: an e-mail that is not one.
    await page.goto('/admin?tab=settings&section=general');
    const email = page.getByLabel('Contact email');
    await email.fill('not-an-address');
    await page.getByRole('button', { name: 'Save General Settings' }).click();
    await expectInvalid(email, 'Please enter a valid email address');
    expect(await focusedId(page)).toBe('settings-general-contact_email');

    // Integrations: a workflow endpoint that is not a link.
    await page.goto('/admin?tab=settings&section=integrations');
    const endpoint = page.getByLabel('Workflow endpoint URL');
    await endpoint.fill('ftp://example.com');
    await page.getByRole('button', { name: 'Save Integration Settings' }).click();
    await expectInvalid(endpoint, 'Please enter a full link starting with https://');
    await shots(page, 'integrations');

    // A template: subject and name emptied; edits survive a look at Preview.
    await page.goto('/admin?tab=email');
    await page
      .getByRole('list', { name: 'Templates' })
      .getByRole('button', { name: /Welcome/ })
      .click();
    await page.getByRole('tab', { name: 'Edit HTML' }).click();
    const subject = page.getByLabel('Subject');
    const oldSubject = await subject.inputValue();
    await subject.fill('');
    // A built-in template's variables are the shop's (read-only); its name can be emptied.
    await page.locator('#template-name').fill('');
    await page.getByRole('tab', { name: 'Preview' }).click();
    await page.getByText('(unsaved changes)').waitFor();
    await page.getByRole('tab', { name: 'Edit HTML' }).click();
    expect(await page.getByLabel('Subject').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Save Template' }).click();
    await expectInvalid(page.getByLabel('Subject'), 'Subject is required');
    await expectInvalid(page.locator('#template-name'), 'Name is required');
    expect(await focusedId(page)).toBe('template-subject');
    await shots(page, 'template');
    await page.getByRole('button', { name: 'Discard changes' }).click();
    expect(await page.getByLabel('Subject').inputValue()).toBe(oldSubject);
    expect(await page.getByText('(unsaved changes)').count()).toBe(0);

    // Test send: an address that is not one.
    await page.getByRole('tab', { name: 'Test' }).click();
    await page.getByRole('region', { name: 'Email connection' }).getByText('Connected', { exact: true }).waitFor();
    const to = page.getByLabel('Send test to');
    await to.fill('nobody');
    await page.getByRole('button', { name: 'Send Test Email' }).click();
    await expectInvalid(to, 'Please enter a valid email address');
    expect(await page.getByText('Test email sent successfully!').count()).toBe(0);

    expect(errors).toEqual([]);
  });

  it('refund and note on a paid order', async () => {
    const customer = await openPage(browser, DESKTOP);
    await signInThroughForm(customer.page, CUSTOMER);
    const orderId = await checkout(customer.page, true);
    await customer.context.close();

    const { page, errors } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, ADMIN);
    await page.goto(`/admin?tab=orders&view=details&order=${orderId}`);

    // A note with no text.
    await page.getByRole('button', { name: 'Add note' }).click();
    await expectInvalid(page.getByLabel('Add a note'), 'Note text is required');

    // The refund: nothing, then more than was paid.
    const payment = page.getByRole('region', { name: /^Payment status/ });
    await payment.getByText('Paid', { exact: true }).waitFor();
    await payment.getByRole('button', { name: 'Refund' }).click();
    const dialog = page.getByRole('dialog', { name: /^Refund order/ });
    const amount = dialog.getByLabel(/^Amount/);
    const total = Math.round(Number(await amount.inputValue()) * 100);
    await amount.fill('0');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await expectInvalid(amount, 'Enter an amount greater than $0.00');
    await amount.fill(((total + 1) / 100).toFixed(2));
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await expectInvalid(amount, `At most ${formatCents(total)} is left to refund`);
    // A third decimal is refused, not rounded into another amount.
    await amount.fill('1.555');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await expectInvalid(amount, 'Refund amount must be in whole cents (at most 2 decimals)');
    await shots(page, 'refund');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await payment.getByText('Paid', { exact: true }).waitFor();

    expect(errors).toEqual([]);
  });
});
