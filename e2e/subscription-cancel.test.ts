import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { fakes, signInThroughForm, toast, type ReceivedMail } from './helpers.js';
import { DESKTOP, WIDTHS, launchBrowser, openPage, screenshot } from './browser.js';
import { newToken } from '../src/server/lib/tokens.js';
import { SUBSCRIPTION_MESSAGES } from '../src/shared/subscriptions.js';
import { SUBSCRIPTION_UI_TEXTS as T } from '../src/client/accounts/subscriptions/subscription-texts.js';
import {
  createSubscriber,
  createSubscription,
  expectNoSidewaysScroll,
  expectShown,
  screenShot,
  storedSubscription,
  type Made,
  type Subscriber,
} from './subscription-fixtures.js';

/**
 * Cancel online at once (issue [4/8], item 6): from the page of an e-mail's manage link without
 * signing in (with a reason), and from the Subscriptions card of the account's dashboard (without
 * one); a link that names nothing says so; a refusal reads the server's words. The subscriptions
 * are written straight into the worker's shop (as a checkout would have left them): a user, a
 * stored test card, the subscription, its item (the seeded laundry powder) and its link's token hash.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

for (const [label, viewport] of WIDTHS) {
  describe(`cancelling a subscription online (${label} px)`, () => {
    let who: Subscriber & { paymentMethodId: string };
    let byLink: Made;
    let byCard: Made;
    beforeAll(async () => {
      who = await createSubscriber(label);
      byLink = createSubscription(who, { everyWeeks: 4, quantity: 2, createdDaysAgo: 60, deliveries: 3 });
      byCard = createSubscription(who, { everyWeeks: 8, quantity: 1, createdDaysAgo: 30, deliveries: 2 });
    });

    it("from the e-mail's manage link, without signing in, with a reason", async () => {
      const { context, page, errors } = await openPage(browser, viewport);
      context.setDefaultTimeout(15_000);
      await page.goto(`/subscriptions/manage/${byLink.token}`);
      await page.getByRole('heading', { level: 1, name: T.manageTitle }).waitFor();
      // A key in the address: never indexed.
      expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, nofollow');
      const main = page.locator('main');
      await expectShown(main, byLink, 'Active');
      await expectNoSidewaysScroll(page);
      await screenshot(page, `subscription-manage-${label}`);

      // Cancel: one dialog, an optional reason, done.
      await main.getByRole('button', { name: T.cancelButton }).click();
      const dialog = page.getByRole('dialog', { name: T.dialogTitle });
      await dialog.waitFor();
      const reason = dialog.getByLabel(T.reasonLabel);
      // The dialog opens on the reason, as a form dialog does.
      await expect.poll(() => reason.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await reason.getAttribute('maxlength')).toBe('500');
      await reason.fill('  Too much powder for one person  ');
      await screenShot(page, `subscription-manage-dialog-${label}`);
      await dialog.getByRole('button', { name: T.cancelButton }).click();
      await toast(page, T.cancelled).waitFor();
      await dialog.waitFor({ state: 'hidden' });

      await main.getByText(T.isCancelled, { exact: true }).waitFor();
      await expectShown(main, byLink, 'Cancelled');
      expect(await main.getByRole('button', { name: T.cancelButton }).count()).toBe(0);
      const stored = storedSubscription(byLink.id);
      expect(stored.status).toBe('cancelled');
      expect(stored.cancel_reason).toBe('Too much powder for one person');
      expect(stored.cancelled_at).not.toBeNull();
      // The customer hears of it by e-mail.
      await expect
        .poll(async () => (await fakes<ReceivedMail[]>('/mail')).some((m) => m.to.includes(who.email) && /cancelled/i.test(m.subject)), {
          timeout: 20_000,
        })
        .toBe(true);
      await screenshot(page, `subscription-manage-cancelled-${label}`);

      // Opened again later, the link still shows it, cancelled.
      await page.reload();
      await main.getByText(T.isCancelled, { exact: true }).waitFor();
      await expectShown(main, byLink, 'Cancelled');
      expect(errors).toEqual([]);
      await context.close();
    });

    it('a link that names no subscription says so, with a way to sign in', async () => {
      const { context, page, errors } = await openPage(browser, viewport);
      context.setDefaultTimeout(15_000);
      const answered = page.waitForResponse((r) => r.url().includes('/api/subscriptions/manage/'));
      await page.goto(`/subscriptions/manage/${newToken()}`);
      expect((await answered).status()).toBe(404);
      await page.getByRole('heading', { level: 1, name: T.invalidLink }).waitFor();
      const signIn = page.locator('main').getByRole('link', { name: T.signIn });
      expect(await signIn.getAttribute('href')).toBe('/auth?tab=signin&redirect=%2Fdashboard');
      await expectNoSidewaysScroll(page);
      await screenshot(page, `subscription-link-invalid-${label}`);
      // A mangled link (not even a token's shape) reads the same.
      await page.goto('/subscriptions/manage/not-a-token');
      await page.getByRole('heading', { level: 1, name: T.invalidLink }).waitFor();
      expect(errors).toEqual([]);
      await context.close();
    });

    it("from the dashboard's Subscriptions card, signed in", async () => {
      const { context, page, errors } = await openPage(browser, viewport);
      context.setDefaultTimeout(15_000);
      await signInThroughForm(page, who);
      await page.goto('/dashboard');
      const card = page.getByRole('region', { name: T.cardTitle });
      await card.getByTestId('subscriptions').waitFor();
      // Newest first: the one to cancel here, then the one the link cancelled.
      expect(await card.locator('[data-subscription]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-subscription')))).toEqual(
        [byCard.id, byLink.id],
      );
      const row = card.locator(`[data-subscription="${byCard.id}"]`);
      const cancelledRow = card.locator(`[data-subscription="${byLink.id}"]`);
      await expectShown(row, byCard, 'Active');
      await expectShown(cancelledRow, byLink, 'Cancelled');
      // Nothing left to skip, change or cancel: only its history, and reactivating it.
      expect((await cancelledRow.getByRole('button').allInnerTexts()).sort()).toEqual([T.historyButton, T.reactivateButton].sort());
      await card.scrollIntoViewIfNeeded();
      await expectNoSidewaysScroll(page);
      await screenShot(page, `subscription-card-${label}`);

      // "Keep subscription" changes nothing.
      const cancelButton = row.getByRole('button', { name: new RegExp(`^${T.cancelButton}`) });
      await cancelButton.click();
      const dialog = page.getByRole('dialog', { name: T.dialogTitle });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: T.keepButton }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(storedSubscription(byCard.id).status).toBe('active');

      // Cancel, with no reason.
      await cancelButton.click();
      await dialog.waitFor();
      await screenShot(page, `subscription-card-dialog-${label}`);
      await dialog.getByRole('button', { name: T.cancelButton }).click();
      await toast(page, T.cancelled).waitFor();
      await dialog.waitFor({ state: 'hidden' });
      await expectShown(row, byCard, 'Cancelled');
      expect((await row.getByRole('button').allInnerTexts()).sort()).toEqual([T.historyButton, T.reactivateButton].sort());
      const stored = storedSubscription(byCard.id);
      expect(stored.status).toBe('cancelled');
      expect(stored.cancel_reason).toBeNull();
      await card.scrollIntoViewIfNeeded();
      await screenShot(page, `subscription-card-cancelled-${label}`);

      // The card reads the same after a reload: it was the server's answer, not the page's guess.
      await page.reload();
      await card.getByTestId('subscriptions').waitFor();
      await expectShown(card.locator(`[data-subscription="${byCard.id}"]`), byCard, 'Cancelled');
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}

describe('the Subscriptions card, other states', () => {
  it('shows a loading state, the empty state, and the server’s words when a cancel is refused', async () => {
    const who = await createSubscriber('states');
    const { context, page, errors } = await openPage(browser, DESKTOP);
    context.setDefaultTimeout(15_000);
    await signInThroughForm(page, who);

    // Loading: the list is held back until the card has shown it is waiting.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/account/subscriptions', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/dashboard');
    const card = page.getByRole('region', { name: T.cardTitle });
    await card.getByTestId('subscriptions-loading').waitFor();
    release();
    await card.getByText(T.empty, { exact: true }).waitFor();
    await page.unroute('**/api/account/subscriptions');
    await card.scrollIntoViewIfNeeded();
    await screenShot(page, 'subscription-card-empty-1280');

    // A subscription cancelled elsewhere (its e-mail's link, in another tab) while the dialog is open.
    const sub = createSubscription(who, { everyWeeks: 6, quantity: 1, createdDaysAgo: 10, deliveries: 1 });
    await page.reload();
    const row = card.locator(`[data-subscription="${sub.id}"]`);
    await expectShown(row, sub, 'Active');
    await row.getByRole('button', { name: new RegExp(`^${T.cancelButton}`) }).click();
    const dialog = page.getByRole('dialog', { name: T.dialogTitle });
    await dialog.waitFor();
    const elsewhere = await page.request.post(`/api/subscriptions/manage/${sub.token}/cancel`, {
      headers: { origin: inject('baseUrl') },
      data: {},
    });
    expect(elsewhere.status()).toBe(200);
    await dialog.getByRole('button', { name: T.cancelButton }).click();
    await dialog.getByRole('alert').getByText(SUBSCRIPTION_MESSAGES.alreadyCancelled, { exact: true }).waitFor();
    // The card has read the truth again, and the dialog has nothing left to confirm (only Done).
    await expect.poll(() => row.getByTestId('subscription-status').textContent()).toBe('Cancelled');
    await dialog.getByRole('button', { name: T.close, exact: true }).waitFor();
    expect(await dialog.getByRole('button', { name: T.cancelButton }).count()).toBe(0);
    await screenShot(page, 'subscription-card-dialog-refused-1280');
    await dialog.getByRole('button', { name: T.close, exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await row.getByRole('button').allInnerTexts()).sort()).toEqual([T.historyButton, T.reactivateButton].sort());
    expect(errors).toEqual([]);
    await context.close();
  });
});
