import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { WIDTHS, launchBrowser, openPage, screenshot, settle } from './browser.js';
import { axeViolations } from './axe.js';
import { HUMAN_PAUSE_MS, addFromProductPage, fillCheckoutForm, payButtonToCardPage, toast } from './helpers.js';
import { openDatabase } from '../src/server/db/database.js';
import { EMAIL_PREFERENCES_MESSAGES, MARKETING_CONSENT_LABEL, UNSUBSCRIBE_MESSAGES } from '../src/shared/schemas/email-preferences.js';
import { recordMarketingConsent } from '../src/server/marketing/consent.js';
import { marketingUnsubscribeToken } from '../src/server/marketing/unsubscribe.js';

/**
 * Marketing consent as a shopper gives it (issue [7/8]): the unticked box at sign-up and at
 * checkout, then the account's E-mail Preferences, at 1280 and 390 px, axe on each.
 */
const RUN = Date.now().toString(36);
let browser: Browser;
let shop: ReturnType<typeof openDatabase>;
beforeAll(async () => {
  browser = await launchBrowser();
  shop = openDatabase(`sqlite:${path.join(inject('dataDir'), 'shop.db')}`);
});
afterAll(async () => {
  await shop?.close();
  await browser?.close();
});

const consentOf = (email: string) =>
  shop.db.selectFrom('marketing_consents').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();

function preferencesCard(page: Page) {
  return page.locator('section').filter({ has: page.getByRole('heading', { name: 'E-mail Preferences' }) });
}

describe.each(WIDTHS)('offers and reminders at %s px', (label, viewport) => {
  it('a shopper ticks the box at sign-up; the account shows when and where; unticked and saved, it says unsubscribed', async () => {
    const email = `consent-${RUN}-${label}@example.com`;
    const { page, context, errors } = await openPage(browser, viewport);
    await page.goto('/auth?tab=signup');
    await page.getByRole('tab', { name: 'Sign Up', selected: true }).waitFor();
    const shown = Date.now();
    const main = page.locator('main');
    const box = main.getByRole('checkbox', { name: MARKETING_CONSENT_LABEL });
    expect(await box.isChecked()).toBe(false);
    await main.getByLabel('Full Name').fill('Robin Refill');
    await main.getByLabel('Email').fill(email);
    await main.getByLabel('Password', { exact: true }).fill('Refill-Every-6-Weeks');
    await box.check();
    await settle(page);
    await screenshot(page, `sign-up-consent-${label}`);
    expect(await axeViolations(page, main)).toEqual([]);
    await page.waitForTimeout(Math.max(0, HUMAN_PAUSE_MS - (Date.now() - shown)));
    await main.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Your account has been created successfully.').waitFor();
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto('/dashboard');

    const card = preferencesCard(page);
    await card.getByText(/^On since .+, when you created your account\.$/).waitFor();
    expect(await card.getByRole('checkbox', { name: MARKETING_CONSENT_LABEL }).isChecked()).toBe(true);
    expect(await card.getByRole('checkbox', { name: 'Ask me to review what I bought' }).isChecked()).toBe(true);
    expect(await consentOf(email)).toMatchObject({ status: 'granted', source: 'sign-up' });
    await card.scrollIntoViewIfNeeded();
    await settle(page);
    await screenshot(page, `email-preferences-on-${label}`);
    expect(await axeViolations(page, card)).toEqual([]);

    // By keyboard: untick, Save.
    await card.getByRole('checkbox', { name: MARKETING_CONSENT_LABEL }).focus();
    await page.keyboard.press('Space');
    await card.getByRole('button', { name: 'Save Preferences' }).focus();
    await page.keyboard.press('Enter');
    await toast(page, EMAIL_PREFERENCES_MESSAGES.saved).waitFor();
    await card.getByText('Off: you unsubscribed.', { exact: true }).waitFor();
    expect(await consentOf(email)).toMatchObject({ status: 'withdrawn', withdrawn_via: 'account', source: 'sign-up' });

    // Not confirmed: turning it back on says what to do, and nothing changes.
    await card.getByRole('checkbox', { name: MARKETING_CONSENT_LABEL }).check();
    await card.getByRole('button', { name: 'Save Preferences' }).click();
    await card.getByRole('alert').filter({ hasText: EMAIL_PREFERENCES_MESSAGES.verifyFirst }).waitFor();
    await settle(page);
    await screenshot(page, `email-preferences-verify-first-${label}`);
    expect(await consentOf(email)).toMatchObject({ status: 'withdrawn' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a guest ticks the box at checkout: consent from checkout; another guest who does not, none', async () => {
    for (const tick of [true, false]) {
      const email = `checkout-consent-${RUN}-${label}-${tick ? 'yes' : 'no'}@example.com`;
      const { page, context, errors } = await openPage(browser, viewport);
      await addFromProductPage(page, { id: 'cloth-5-pack', name: '5 - Reusable Cleaning Cloths (5-Pack)' });
      await page.goto('/checkout');
      await fillCheckoutForm(page, email);
      const box = page.locator('main').getByRole('checkbox', { name: MARKETING_CONSENT_LABEL });
      expect(await box.isChecked()).toBe(false);
      if (tick) {
        await box.check();
        await box.scrollIntoViewIfNeeded();
        await settle(page);
        await screenshot(page, `checkout-consent-${label}`);
        expect(await axeViolations(page, page.locator('main'))).toEqual([]);
      }
      await page.waitForTimeout(HUMAN_PAUSE_MS);
      await payButtonToCardPage(page);
      if (tick) expect(await consentOf(email)).toMatchObject({ status: 'granted', source: 'checkout', user_id: null });
      else expect(await consentOf(email)).toBeUndefined();
      expect(errors).toEqual([]);
      await context.close();
    }
  });
  it('the unsubscribe link of an offer: the page asks, the button unsubscribes, a reload says so; nothing signed in', async () => {
    const email = `unsub-${RUN}-${label}@example.com`;
    await recordMarketingConsent(shop.db, { email, userId: null, source: 'checkout', now: new Date() });
    const token = await marketingUnsubscribeToken(shop.db, email);
    const { page, context, errors } = await openPage(browser, viewport);
    await page.goto(`/unsubscribe?token=${encodeURIComponent(token!)}`);
    const main = page.locator('main');
    await main.getByText(/^Stop offers and reminders .* to u•••@example\.com\?/).waitFor();
    // Opening the page changed nothing.
    expect(await consentOf(email)).toMatchObject({ status: 'granted' });
    await settle(page);
    await screenshot(page, `unsubscribe-ask-${label}`);
    expect(await axeViolations(page, main)).toEqual([]);
    await main.getByRole('button', { name: 'Unsubscribe' }).click();
    await main.getByRole('status').filter({ hasText: UNSUBSCRIBE_MESSAGES.done }).waitFor();
    expect(await consentOf(email)).toMatchObject({ status: 'withdrawn', withdrawn_via: 'unsubscribe' });
    await page.reload();
    await main.getByRole('status').filter({ hasText: UNSUBSCRIBE_MESSAGES.done }).waitFor();
    await settle(page);
    await screenshot(page, `unsubscribe-done-${label}`);
    expect(await axeViolations(page, main)).toEqual([]);

    // A link cut short says what to do.
    await page.goto(`/unsubscribe?token=${encodeURIComponent(token!.slice(0, -3))}`);
    await main.getByText(UNSUBSCRIBE_MESSAGES.linkUnknown).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
