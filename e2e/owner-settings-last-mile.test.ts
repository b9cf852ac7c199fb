import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN, signInThroughForm } from './helpers.js';
import { DESKTOP, MOBILE, launchBrowser, openPage, screenshotBothWidths, settle } from './browser.js';

/** Issue 40, for the owner: the settings sub-tabs on a phone, notices, loyalty adjustment, categories, ShipStation, shipping. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('owner settings, last mile', () => {
  it('every Settings sub-tab is in sight on a phone; the screens the owner uses, at both widths', async () => {
    const { page, errors } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, ADMIN);
    await page.goto('/admin?tab=settings&section=notifications');
    await page.getByLabel("Send the shop's notices to").waitFor();
    await page.setViewportSize(MOBILE);
    await settle(page);
    const tab = page.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab', { name: 'Notifications' });
    const box = (await tab.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(MOBILE.width);
    await page.setViewportSize(DESKTOP);
    await settle(page);
    await screenshotBothWidths(page, 'owner-settings-notifications');

    await page.goto('/admin?tab=shipstation');
    await page.getByRole('heading', { name: 'What the integration does' }).waitFor();
    await expect.poll(() => page.getByText('Inventory sync').count()).toBe(0);
    await screenshotBothWidths(page, 'owner-shipstation');

    await page.goto('/admin?tab=categories');
    await page.getByRole('table', { name: 'Categories' }).or(page.getByText('Categories').first()).first().waitFor();
    await screenshotBothWidths(page, 'owner-categories');

    await page.goto('/admin?tab=users');
    const adjust = page.getByRole('button', { name: /Adjust the loyalty points of/ }).first();
    await adjust.click();
    await page.getByLabel('Remove points').check();
    await page.getByRole('textbox', { name: /^Points/ }).fill('100000');
    await page.getByText(/Cannot remove 100,000 points/).waitFor();
    // Adding works whatever the first customer's balance is (removing 5 from a balance under 5 is refused).
    await page.getByLabel('Add points').check();
    await page.getByRole('textbox', { name: /^Points/ }).fill('5');
    await page.getByRole('textbox', { name: /^Reason/ }).fill('Goodwill check');
    await page.getByRole('textbox', { name: /^Points/ }).press('Enter');
    await page.getByTestId('points-after').waitFor();
    await screenshotBothWidths(page, 'owner-loyalty-confirm');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();

    await page.goto('/admin?tab=shipping');
    await page.getByRole('button', { name: /Add/ }).first().click();
    await page.getByLabel('Estimated days').waitFor();
    await screenshotBothWidths(page, 'owner-shipping-dialog');

    await page.goto('/admin?tab=homepage');
    await page.getByLabel('Hero video link').fill('https://www.example.com/not-a-video');
    await screenshotBothWidths(page, 'owner-homepage-video');
    expect(errors).toEqual([]);
  });
});
