import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, CUSTOMER, checkout, signInThroughForm } from './helpers.js';
import { DESKTOP, launchBrowser, openPage, screenshotBothWidths, settle } from './browser.js';
import { CONTACT_MESSAGE_TEXTS } from '../src/shared/schemas/contact-messages.js';

/**
 * The owner's figures and messages (issue [2/8]): the overview's money on the day it moved, with
 * tax, shipping and discounts; contact messages marked read or answered, filtered, counted unread.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function shots(page: Page, name: string) {
  await page.mouse.move(0, 0);
  await settle(page);
  await screenshotBothWidths(page, `owner-figures-${name}`);
}

describe('the owner’s figures and messages', () => {
  it('shows the period’s money with tax, shipping and discounts', async () => {
    const customer = await openPage(browser, DESKTOP);
    await signInThroughForm(customer.page, CUSTOMER);
    await checkout(customer.page, true);

    const { page } = await openPage(browser, DESKTOP);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await signInThroughForm(page, ADMIN);
    await page.goto('/admin?tab=orders&period=7');
    const money = page.getByTestId('overview-money');
    await money.waitFor();
    for (const label of ['Product sales', 'Discounts', 'Shipping', 'Tax', 'Payments taken', 'Refunds made', 'Revenue'])
      expect(await money.getByText(label, { exact: true }).count(), label).toBe(1);
    await money.scrollIntoViewIfNeeded();
    await shots(page, 'overview-money');
  });

  it('marks a contact message answered, filters by state and counts the unread in the tab', async () => {
    const visitor = await openPage(browser, DESKTOP);
    const subject = `Refill question ${Date.now()}`;
    const sent = await visitor.page.request.post('/api/contact', {
      data: { name: 'Vera Visitor', email: 'vera@example.com', subject, message: 'Do you ship refills to Canada?', elapsedMs: 6000 },
    });
    expect(sent.status()).toBe(200);

    const { page } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, ADMIN);
    await page.goto('/admin?tab=email&view=messages');
    const tab = page.getByRole('tab', { name: /^Messages \(\d+ unread\)$/ });
    await tab.waitFor();
    const unreadBefore = Number((await tab.innerText()).match(/\((\d+) unread\)/)![1]);
    const card = page.getByTestId('contact-message').filter({ hasText: subject });
    await card.waitFor();
    expect(await card.getAttribute('data-state')).toBe('unread');
    await shots(page, 'messages-unread');

    await card.getByRole('button', { name: `${CONTACT_MESSAGE_TEXTS.markAs.answered}: ${subject}` }).click();
    await page.getByTestId('contact-message').filter({ hasText: subject }).and(page.locator('[data-state="answered"]')).waitFor();
    const after = CONTACT_MESSAGE_TEXTS.tabLabel(unreadBefore - 1);
    await page.getByRole('tab', { name: after, exact: true }).waitFor();

    const filtered = page.waitForResponse((r) => r.url().includes('/api/admin/contact-messages?') && r.url().includes('state=unread'));
    await page.getByLabel('Show').selectOption('unread');
    await filtered;
    await settle(page);
    expect(await page.getByTestId('contact-message').filter({ hasText: subject }).count()).toBe(0);
    await page.getByLabel('Show').selectOption('answered');
    await page.getByTestId('contact-message').filter({ hasText: subject }).waitFor();
    await shots(page, 'messages-answered');
  });
});
