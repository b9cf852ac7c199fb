import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { signInThroughForm } from './helpers.js';
import { WIDTHS, launchBrowser, openPage, screenshot } from './browser.js';
import { axeViolations } from './axe.js';
import { CARD_UPDATE_TEXTS as C } from '../src/shared/subscription-card.js';
import { SETUP_PAGE_TEXTS } from '../src/server/payments/test-checkout-page.js';
import { createSubscriber, createSubscription, expectNoSidewaysScroll, openShopDb, screenShot } from './subscription-fixtures.js';

/**
 * Issue [5/8], "update the card": the customer sees the card their renewals charge ("Visa ending
 * 4242") and updates it on the built-in test card page in setup mode (it says Save card and shows no
 * total: nothing is charged), from the dashboard's Subscriptions card and from an e-mail link's page;
 * back from it, the page says "Card updated: Visa ending 0341" and shows the new card. The
 * subscriptions are written straight into the worker's shop, with a stored test card (Visa 4242).
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

function storedCard(id: string): { card_brand: string | null; card_last4: string | null; payment_method_ref: string | null } {
  const db = openShopDb();
  try {
    return db.prepare('select card_brand, card_last4, payment_method_ref from subscriptions where id = ?').get(id) as never;
  } finally {
    db.close();
  }
}

/** On the card page in setup mode: what it says, the new card typed, Save card pressed. */
async function saveCardOnSetupPage(page: Page, shot: string): Promise<void> {
  await page.waitForURL(/\/pay\/setup\/csu_\w+$/);
  await page.getByRole('button', { name: SETUP_PAGE_TEXTS.button }).waitFor();
  expect(await page.title()).toBe(`${SETUP_PAGE_TEXTS.title} | EcoClean (test mode)`);
  const text = await page.locator('main').innerText();
  expect(text).toContain(SETUP_PAGE_TEXTS.note);
  // Nothing is charged: no amount anywhere, no Pay button.
  expect(text).not.toMatch(/\$\d/);
  expect(await page.getByRole('button', { name: /^Pay/ }).count()).toBe(0);
  await expectNoSidewaysScroll(page);
  await page.getByLabel('Card number').fill('4000 0000 0000 0341');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Robin Refill');
  await screenshot(page, shot);
  await page.getByRole('button', { name: SETUP_PAGE_TEXTS.button }).click();
}

for (const [label, viewport] of WIDTHS) {
  describe(`updating a subscription's card (${label} px)`, () => {
    it("from the dashboard's Subscriptions card: the test card page in setup mode, then the new card", async () => {
      const who = await createSubscriber(`card-${label}`);
      const sub = createSubscription(who, { everyWeeks: 4, quantity: 1, createdDaysAgo: 30, deliveries: 2 });
      const { context, page, errors } = await openPage(browser, viewport);
      context.setDefaultTimeout(15_000);
      await signInThroughForm(page, who);
      await page.goto('/dashboard');
      const row = page.locator(`[data-subscription="${sub.id}"]`);
      const card = row.getByTestId('subscription-card');
      await expect.poll(() => card.getByTestId('subscription-card-text').textContent()).toBe('Visa ending 4242');
      await card.scrollIntoViewIfNeeded();
      await expectNoSidewaysScroll(page);
      expect(await axeViolations(page, card)).toEqual([]);
      await screenShot(page, `subscription-card-before-${label}`);

      await card.getByRole('button', { name: new RegExp(`^${C.button}`) }).click();
      await saveCardOnSetupPage(page, `subscription-card-setup-page-${label}`);

      // Back on the dashboard: said, shown, stored; the address forgets the update (a reload asks nothing again).
      await page.waitForURL((u) => u.pathname === '/dashboard');
      const notice = card.getByTestId('subscription-card-notice');
      await expect.poll(() => notice.textContent()).toBe(C.updated({ brand: 'Visa', last4: '0341' }));
      expect(await notice.getAttribute('role')).toBe('status');
      await expect.poll(() => card.getByTestId('subscription-card-text').textContent()).toBe('Visa ending 0341');
      await expect.poll(() => new URL(page.url()).search).toBe('');
      expect(storedCard(sub.id)).toMatchObject({ card_brand: 'Visa', card_last4: '0341' });
      await card.scrollIntoViewIfNeeded();
      await expectNoSidewaysScroll(page);
      expect(await axeViolations(page, card)).toEqual([]);
      await screenShot(page, `subscription-card-updated-${label}`);

      await page.reload();
      await expect.poll(() => card.getByTestId('subscription-card-text').textContent()).toBe('Visa ending 0341');
      expect(await card.getByTestId('subscription-card-notice').count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    });

    it("from an e-mail's manage link, signed out: back on the link's page with the new card", async () => {
      const who = await createSubscriber(`card-link-${label}`);
      const sub = createSubscription(who, { everyWeeks: 8, quantity: 2, createdDaysAgo: 10, deliveries: 1 });
      const { context, page, errors } = await openPage(browser, viewport);
      context.setDefaultTimeout(15_000);
      await page.goto(`/subscriptions/manage/${sub.token}`);
      const card = page.locator('main').getByTestId('subscription-card');
      await expect.poll(() => card.getByTestId('subscription-card-text').textContent()).toBe('Visa ending 4242');
      await card.getByRole('button', { name: new RegExp(`^${C.button}`) }).click();
      await saveCardOnSetupPage(page, `subscription-card-setup-page-link-${label}`);
      await page.waitForURL(/\/subscriptions\/manage\/[\w-]+/);
      await expect.poll(() => card.getByTestId('subscription-card-notice').textContent()).toBe(C.updated({ brand: 'Visa', last4: '0341' }));
      await expect.poll(() => card.getByTestId('subscription-card-text').textContent()).toBe('Visa ending 0341');
      await expectNoSidewaysScroll(page);
      await screenShot(page, `subscription-card-link-updated-${label}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}
