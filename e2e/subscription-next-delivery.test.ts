import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { signInThroughForm, toast } from './helpers.js';
import { WIDTHS, launchBrowser, openPage } from './browser.js';
import { axeViolations } from './axe.js';
import { SUBSCRIPTION_MESSAGES } from '../src/shared/subscriptions.js';
import { reactivatedToast, SUBSCRIPTION_UI_TEXTS as T } from '../src/client/accounts/subscriptions/subscription-texts.js';
import {
  createSubscriber,
  createSubscription,
  expectNoSidewaysScroll,
  openShopDb,
  PRODUCT,
  screenShot,
  storedSubscription,
} from './subscription-fixtures.js';

/**
 * Issue [5/8], the customer's page: each item's price per delivery and the next delivery's total,
 * the next delivery changed for it only (an item left out, a one-time item found by name and
 * added), the history of what was done, and a cancelled subscription reactivated with its terms
 * agreed again, at 1280 and 390 px, by keyboard where it counts, with no axe violations.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const extrasOf = (id: string) => {
  const db = openShopDb();
  try {
    return db.prepare('select variant_id, quantity from subscription_extras where subscription_id = ?').all(id) as {
      variant_id: string;
      quantity: number;
    }[];
  } finally {
    db.close();
  }
};

for (const [label, viewport] of WIDTHS) {
  describe(`the next delivery and reactivating (${label} px)`, () => {
    it('shows prices and the total, leaves nothing out that would empty it, adds a one-time item, and writes both in the history', async () => {
      const who = await createSubscriber(`next-${label}`);
      const sub = createSubscription(who, { everyWeeks: 4, quantity: 2, createdDaysAgo: 10, deliveries: 1 });
      const { context, page, errors } = await openPage(browser, viewport);
      context.setDefaultTimeout(15_000);
      await signInThroughForm(page, who);
      await page.goto('/dashboard');
      const row = page.locator(`[data-subscription="${sub.id}"]`);
      await row.getByTestId('subscription-item').first().waitFor();
      // Laundry Powder at the seed's price less 10%, and the total with shipping and tax.
      expect(await row.getByTestId('subscription-item-price').first().textContent()).toMatch(/\$\d+\.\d{2} each/);
      expect(await row.getByTestId('subscription-total').textContent()).toMatch(/^\$\d+\.\d{2} with shipping and tax$/);
      await expectNoSidewaysScroll(page);
      await screenShot(page, `subscription-prices-${label}`);

      await row.getByRole('button', { name: new RegExp(`^${T.nextDeliveryButton}`) }).click();
      const dialog = page.getByRole('dialog', { name: T.nextDeliveryTitle });
      await dialog.waitFor();
      // Its only item cannot be left out: the server's sentence, in the dialog.
      await dialog.getByRole('button', { name: `${T.leaveOut}: ${PRODUCT.name}` }).click();
      await dialog.getByText(SUBSCRIPTION_MESSAGES.lastItem).waitFor();

      // Find the squeegee by keyboard, pick it, add two.
      const search = dialog.getByLabel(T.searchLabel);
      await search.focus();
      await page.keyboard.type('squeegee');
      await page.keyboard.press('Enter');
      const found = dialog.getByRole('button', { name: /Window Squeegee/ });
      await found.click();
      const qty = dialog.getByLabel(T.quantityLabel);
      await qty.fill('2');
      await dialog.getByRole('button', { name: T.addExtraButton }).click();
      await toast(page, T.extraAdded).waitFor();
      await dialog.getByTestId('next-extra').getByText('Window Squeegee × 2').waitFor();
      expect(await axeViolations(page, dialog)).toEqual([]);
      await expectNoSidewaysScroll(page);
      await screenShot(page, `subscription-next-delivery-dialog-${label}`);
      expect(extrasOf(sub.id)).toMatchObject([{ quantity: 2 }]);
      await dialog.getByRole('button', { name: T.done }).click();
      await dialog.waitFor({ state: 'hidden' });
      await row.getByTestId('subscription-extra').getByText('Window Squeegee × 2').waitFor();
      await row.getByText(T.oneTimeTag).waitFor();

      await row.getByRole('button', { name: T.historyButton }).click();
      const history = row.getByTestId('subscription-history');
      await history.getByText('One-time item added: Window Squeegee × 2 · You').waitFor();
      expect(await axeViolations(page, row)).toEqual([]);
      await screenShot(page, `subscription-history-${label}`);
      expect(errors).toEqual([]);
      await context.close();
    });

    it('reactivates a cancelled subscription from its link once the terms are agreed, the box unticked until then', async () => {
      const who = await createSubscriber(`reactivate-${label}`);
      const sub = createSubscription(who, { everyWeeks: 4, quantity: 1, createdDaysAgo: 30, deliveries: 2 });
      const { context, page, errors } = await openPage(browser, viewport);
      context.setDefaultTimeout(15_000);
      await page.goto(`/subscriptions/manage/${sub.token}#cancel`);
      const cancel = page.getByRole('dialog', { name: T.dialogTitle });
      await cancel.getByRole('button', { name: T.cancelButton }).click();
      await toast(page, T.cancelled).waitFor();
      await page.getByText(T.isCancelled).waitFor();

      await page.getByRole('button', { name: new RegExp(`^${T.reactivateButton}`) }).click();
      const dialog = page.getByRole('dialog', { name: T.reactivateTitle });
      await dialog.waitFor();
      const terms = await dialog.getByTestId('reactivate-terms').innerText();
      expect(terms).toContain(`${PRODUCT.name} × 1`);
      expect(terms).toContain('to the Visa card ending 4242');
      expect(await dialog.getByRole('checkbox', { name: T.reactivateConsent }).isChecked()).toBe(false);
      await dialog.getByRole('button', { name: T.reactivateConfirm }).click();
      await dialog.getByText(T.reactivateConsentMissing).waitFor();
      expect(storedSubscription(sub.id).status).toBe('cancelled');
      expect(await axeViolations(page, dialog)).toEqual([]);
      await screenShot(page, `subscription-reactivate-dialog-${label}`);
      await dialog.getByRole('checkbox', { name: T.reactivateConsent }).check();
      await dialog.getByRole('button', { name: T.reactivateConfirm }).click();
      const stored = await expect.poll(() => storedSubscription(sub.id).status).toBe('active');
      void stored;
      await toast(page, reactivatedToast(storedSubscription(sub.id).next_renewal_at)).waitFor();
      await page.getByTestId('subscription-status').getByText('Active').waitFor();
      await expectNoSidewaysScroll(page);
      await screenShot(page, `subscription-reactivated-${label}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}
