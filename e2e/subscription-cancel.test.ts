import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { fakes, signInThroughForm, toast, type ReceivedMail } from './helpers.js';
import { DESKTOP, WIDTHS, launchBrowser, openPage, screenshot, settle } from './browser.js';
import { hashPassword } from '../src/server/accounts/password.js';
import { hashToken, newToken } from '../src/server/lib/tokens.js';
import { renewalDateText, SUBSCRIPTION_MESSAGES, subscriptionLineText } from '../src/shared/subscriptions.js';
import { SUBSCRIPTION_UI_TEXTS as T } from '../src/client/accounts/subscriptions/subscription-texts.js';

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

const PRODUCT = { id: 'laundry-powder', variantId: 'var_laundry-powder', name: 'Laundry Powder (2 lb)' };
const DAY_MS = 86_400_000;
const SHOTS_DIR = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';

function openShopDb(): Database.Database {
  return new Database(path.join(inject('dataDir'), 'shop.db'), { fileMustExist: true, timeout: 10_000 });
}

type Subscriber = { userId: string; email: string; password: string; fullName: string };
type Made = { id: string; token: string; everyWeeks: number; quantity: number; nextRenewalAt: string; deliveries: number };

/** A customer account that can sign in, and a stored test card (never a card number: a behaviour and the last four digits). */
async function createSubscriber(label: string): Promise<Subscriber & { paymentMethodId: string }> {
  const stamp = `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const who = {
    userId: `user_e2e_sub_${stamp}`,
    email: `subscriber-${stamp}@example.com`,
    password: 'Refill-Pass-2026',
    fullName: 'Robin Refill',
  };
  const hash = await hashPassword(who.password);
  const at = new Date(Date.now() - 90 * DAY_MS).toISOString();
  const paymentMethodId = `pm_test_e2e_${stamp}`;
  const db = openShopDb();
  try {
    db.prepare(
      `insert into users (id, email, full_name, phone, role, password_hash, email_verified, loyalty_points, total_points_earned,
        shipping_address, billing_address, created_at, updated_at)
       values (?, ?, ?, null, 'client', ?, 1, 0, 0, null, null, ?, ?)`,
    ).run(who.userId, who.email, who.fullName, hash, at, at);
    db.prepare(`insert into test_payment_methods (id, behaviour, brand, last4, created_at) values (?, 'succeed', 'visa', '4242', ?)`).run(
      paymentMethodId,
      at,
    );
  } finally {
    db.close();
  }
  return { ...who, paymentMethodId };
}

/** An active subscription of the laundry powder (newer `createdDaysAgo` lists first), with one manage link. */
function createSubscription(
  who: Subscriber & { paymentMethodId: string },
  {
    everyWeeks,
    quantity,
    createdDaysAgo,
    deliveries,
  }: { everyWeeks: number; quantity: number; createdDaysAgo: number; deliveries: number },
): Made {
  const id = `sub_e2e_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const token = newToken();
  const created = new Date(Date.now() - createdDaysAgo * DAY_MS).toISOString();
  // Far enough ahead that the shop's schedule neither reminds nor renews while the journey runs.
  const nextRenewalAt = new Date(
    Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 20, 10),
  ).toISOString();
  const address = JSON.stringify({
    name: who.fullName,
    address: '12 Refill Lane',
    city: 'Portland',
    state: 'OR',
    zip: '97201',
    country: 'US',
    email: who.email,
  });
  const db = openShopDb();
  try {
    db.transaction(() => {
      db.prepare(
        `insert into subscriptions (id, user_id, email, status, every_weeks, discount_percent, later_discount_percent, later_from_delivery,
          deliveries, cycles_started, next_renewal_at, shipping_address, shipping_option_id, provider, customer_ref, payment_method_ref,
          payment_ref, first_order_id, consent_text, consent_at, manage_token_hash, failing_since, cancelled_at, cancel_reason,
          created_at, updated_at)
         values (?, ?, ?, 'active', ?, 10, null, null, ?, ?, ?, ?, 'standard', 'test', null, ?, null, ?, ?, ?, null, null, null, null, ?, ?)`,
      ).run(
        id,
        who.userId,
        who.email,
        everyWeeks,
        deliveries,
        deliveries,
        nextRenewalAt,
        address,
        who.paymentMethodId,
        `order_e2e_${id}`,
        `I agree to be charged for ${PRODUCT.name}, ${subscriptionLineText(everyWeeks, 10).toLowerCase()}, until I cancel.`,
        created,
        created,
        created,
      );
      db.prepare('insert into subscription_items (subscription_id, product_id, variant_id, quantity) values (?, ?, ?, ?)').run(
        id,
        PRODUCT.id,
        PRODUCT.variantId,
        quantity,
      );
      db.prepare('insert into subscription_links (token_hash, subscription_id, created_at) values (?, ?, ?)').run(
        hashToken(token),
        id,
        created,
      );
    })();
  } finally {
    db.close();
  }
  return { id, token, everyWeeks, quantity, nextRenewalAt, deliveries };
}

function storedSubscription(id: string): { status: string; cancel_reason: string | null; cancelled_at: string | null } {
  const db = openShopDb();
  try {
    return db.prepare('select status, cancel_reason, cancelled_at from subscriptions where id = ?').get(id) as never;
  } finally {
    db.close();
  }
}

/** A picture of the screen as it is (a dialog is fixed to the screen: a full-page picture would draw it over the wrong part). */
async function screenShot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await settle(page);
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });
}

/** Nothing in the page or the open dialog is wider than the screen. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

/** What a subscription shows (the card's row, or the manage page): terms, status, items and its facts. */
async function expectShown(at: Locator, sub: Made, status: 'Active' | 'Cancelled'): Promise<void> {
  await expect.poll(() => at.getByTestId('subscription-status').textContent()).toBe(status);
  expect(await at.getByTestId('subscription-terms').textContent()).toBe(subscriptionLineText(sub.everyWeeks, 10));
  expect(await at.getByTestId('subscription-item').allInnerTexts()).toEqual([`${PRODUCT.name} × ${sub.quantity}`]);
  expect(await at.getByTestId('subscription-deliveries').textContent()).toBe(
    sub.deliveries === 1 ? '1 delivery so far' : `${sub.deliveries} deliveries so far`,
  );
  if (status === 'Active') {
    expect(await at.getByTestId('subscription-next').textContent()).toBe(renewalDateText(sub.nextRenewalAt));
  } else {
    expect(await at.getByTestId('subscription-next').count()).toBe(0);
    await at.getByTestId('subscription-cancelled-on').waitFor();
  }
}

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
      expect(await cancelledRow.getByRole('button').count()).toBe(0);
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
      expect(await row.getByRole('button').count()).toBe(0);
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
    expect(await row.getByRole('button').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
