import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { fakes, signInThroughForm, toast, type ReceivedMail } from './helpers.js';
import { DESKTOP, WIDTHS, launchBrowser, openPage, screenshot } from './browser.js';
import { addWeeks, renewalDateText, SUBSCRIPTION_MESSAGES, subscriptionLineText } from '../src/shared/subscriptions.js';
import {
  dayFromNow,
  deliverNowNote,
  pausedToast,
  resumedToast,
  SUBSCRIPTION_UI_TEXTS as T,
  skippedToast,
} from '../src/client/accounts/subscriptions/subscription-texts.js';
import {
  createSubscriber,
  createSubscription,
  expectNoSidewaysScroll,
  expectShown,
  PRODUCT,
  screenShot,
  storedSubscription,
  variantIdOfSku,
} from './subscription-fixtures.js';

/**
 * The reminder's links to skip, change or cancel (issue [4/8] item 5): each opens its dialog on
 * the link's page without signing in; skipping moves the next delivery an interval on; a change of
 * interval and quantity is shown and stored; the same on the dashboard's card, where a second tab
 * that still shows the skipped date skips nothing more and reads the new date.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function mailed(to: string, subject: RegExp): Promise<void> {
  await expect
    .poll(async () => (await fakes<ReceivedMail[]>('/mail')).some((m) => m.to.includes(to) && subject.test(m.subject)), { timeout: 20_000 })
    .toBe(true);
}

for (const [label, viewport] of WIDTHS) {
  describe(`skip and change from the reminder's links (${label} px)`, () => {
    it('skips the next delivery (#skip), then changes the interval and the quantity (#change); #cancel opens the cancel dialog', async () => {
      const who = await createSubscriber(`skip-${label}`);
      const sub = createSubscription(who, { everyWeeks: 4, quantity: 1, createdDaysAgo: 40, deliveries: 1 });
      const { context, page, errors } = await openPage(browser, viewport);
      context.setDefaultTimeout(15_000);
      const main = page.locator('main');

      // "Skip this delivery": the page opens with its dialog.
      await page.goto(`/subscriptions/manage/${sub.token}#skip`);
      const skip = page.getByRole('dialog', { name: T.skipTitle });
      await skip.waitFor();
      const after = addWeeks(sub.nextRenewalAt, 4);
      await skip.getByText(`Your delivery of ${renewalDateText(sub.nextRenewalAt)} is skipped`).waitFor();
      await skip.getByText(`The next one comes on ${renewalDateText(after)}.`).waitFor();
      await expectNoSidewaysScroll(page);
      await screenShot(page, `subscription-skip-dialog-${label}`);
      await skip.getByRole('button', { name: T.skipConfirm }).click();
      await toast(page, skippedToast(after)).waitFor();
      await skip.waitFor({ state: 'hidden' });
      await expectShown(main, { ...sub, nextRenewalAt: after }, 'Active');
      expect(storedSubscription(sub.id).next_renewal_at).toBe(after);
      await mailed(who.email, /was skipped/);
      await screenshot(page, `subscription-skipped-${label}`);

      // "Change your subscription": every 6 weeks, three bags.
      await page.goto(`/subscriptions/manage/${sub.token}#change`);
      const change = page.getByRole('dialog', { name: T.changeTitle });
      await change.waitFor();
      const every = change.getByLabel(T.intervalLabel);
      expect(await every.locator('option').allInnerTexts()).toEqual(['Every 2 weeks', 'Every 4 weeks', 'Every 6 weeks', 'Every 8 weeks']);
      expect(await every.inputValue()).toBe('4');
      await every.selectOption('6');
      const quantity = change.getByLabel(`${T.quantityLabel}: ${PRODUCT.name}`);
      // Out of range: said at once, nothing sent.
      await quantity.fill('0');
      await change.getByRole('button', { name: T.saveChange }).click();
      await change.getByRole('alert').getByText(SUBSCRIPTION_MESSAGES.quantityRange, { exact: true }).waitFor();
      expect(storedSubscription(sub.id).quantity).toBe(1);
      await quantity.fill('3');
      await expectNoSidewaysScroll(page);
      await screenShot(page, `subscription-change-dialog-${label}`);
      await change.getByRole('button', { name: T.saveChange }).click();
      await toast(page, T.changed).waitFor();
      await change.waitFor({ state: 'hidden' });
      const changed = { ...sub, everyWeeks: 6, quantity: 3, nextRenewalAt: after };
      await expectShown(main, changed, 'Active');
      expect(storedSubscription(sub.id)).toMatchObject({ every_weeks: 6, quantity: 3, next_renewal_at: after });
      await mailed(who.email, new RegExp(`^Your subscription is changed: ${subscriptionLineText(6, 10)}$`));
      await screenshot(page, `subscription-changed-${label}`);

      // Pause until a day: nothing until then; the page says when deliveries resume, and offers Resume.
      await page.goto(`/subscriptions/manage/${sub.token}#pause`);
      const pause = page.getByRole('dialog', { name: T.pauseTitle });
      await pause.waitFor();
      const until = dayFromNow(45);
      await pause.getByLabel(T.pauseUntilLabel).fill(until);
      await screenShot(page, `subscription-pause-dialog-${label}`);
      await pause.getByRole('button', { name: T.pauseConfirm }).click();
      const resumeAt = `${until}T${sub.nextRenewalAt.slice(11)}`;
      await toast(page, pausedToast(resumeAt)).waitFor();
      await pause.waitFor({ state: 'hidden' });
      await expect.poll(() => main.getByTestId('subscription-status').textContent()).toBe('Paused');
      await main.getByText('Deliveries resume on', { exact: true }).waitFor();
      expect(await main.getByTestId('subscription-next').textContent()).toBe(renewalDateText(resumeAt));
      expect(await main.getByRole('button', { name: new RegExp(`^${T.skipButton}`) }).count()).toBe(0);
      expect(storedSubscription(sub.id)).toMatchObject({ status: 'paused', next_renewal_at: resumeAt });
      await mailed(who.email, /^Your subscription is paused until/);
      await expectNoSidewaysScroll(page);
      await screenshot(page, `subscription-paused-${label}`);

      // Resume sooner, the next delivery on a day chosen.
      await main.getByRole('button', { name: new RegExp(`^${T.resumeButton}`) }).click();
      const resume = page.getByRole('dialog', { name: T.resumeTitle });
      const resumeDay = dayFromNow(6);
      await resume.getByLabel(T.nextDeliveryLabel).fill(resumeDay);
      await resume.getByRole('button', { name: T.resumeConfirm }).click();
      const nextAt = `${resumeDay}T${sub.nextRenewalAt.slice(11)}`;
      await toast(page, resumedToast(nextAt)).waitFor();
      await expect.poll(() => main.getByTestId('subscription-status').textContent()).toBe('Active');
      expect(await main.getByTestId('subscription-next').textContent()).toBe(renewalDateText(nextAt));
      expect(storedSubscription(sub.id)).toMatchObject({ status: 'active', next_renewal_at: nextAt });

      // "Cancel your subscription": its dialog; keeping it changes nothing.
      await page.goto(`/subscriptions/manage/${sub.token}#cancel`);
      const cancel = page.getByRole('dialog', { name: T.dialogTitle });
      await cancel.waitFor();
      await cancel.getByRole('button', { name: T.keepButton }).click();
      await cancel.waitFor({ state: 'hidden' });
      expect(storedSubscription(sub.id).status).toBe('active');
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}

for (const [label, viewport] of WIDTHS) {
  describe(`swapping the scent (${label} px)`, () => {
    it('changes Unscented for Lavender from the link’s page; the item and the stored line follow', async () => {
      const who = await createSubscriber(`swap-${label}`);
      const sub = createSubscription(who, {
        everyWeeks: 4,
        quantity: 1,
        createdDaysAgo: 10,
        deliveries: 1,
        product: { id: 'concentrated-cleaner', variantId: 'var_concentrated-cleaner', name: 'Concentrated All-Purpose Cleaner' },
      });
      const lavender = variantIdOfSku('ECO-CL-LAV-016');
      const { context, page, errors } = await openPage(browser, viewport);
      context.setDefaultTimeout(15_000);
      await page.goto(`/subscriptions/manage/${sub.token}#change`);
      const change = page.getByRole('dialog', { name: T.changeTitle });
      const version = change.getByLabel(`${T.versionLabel}: Concentrated All-Purpose Cleaner — Unscented, 16 oz`);
      await version.waitFor();
      expect(await version.locator('option').allInnerTexts()).toContain('Lavender, 16 oz');
      await version.selectOption({ label: 'Lavender, 16 oz' });
      await expectNoSidewaysScroll(page);
      await screenShot(page, `subscription-swap-dialog-${label}`);
      await change.getByRole('button', { name: T.saveChange }).click();
      await toast(page, T.changed).waitFor();
      await page
        .locator('main')
        .getByTestId('subscription-item')
        .getByText('Concentrated All-Purpose Cleaner — Lavender, 16 oz × 1')
        .waitFor();
      expect(storedSubscription(sub.id).variant_id).toBe(lavender);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}

describe('skip and change on the dashboard’s card', () => {
  it('skips from the card; a second tab still showing the skipped date skips nothing and reads the new one; Change keeps the plan’s intervals', async () => {
    const who = await createSubscriber('skip-card');
    const sub = createSubscription(who, { everyWeeks: 8, quantity: 2, createdDaysAgo: 20, deliveries: 1 });
    const { context, page, errors } = await openPage(browser, DESKTOP);
    context.setDefaultTimeout(15_000);
    await signInThroughForm(page, who);
    await page.goto('/dashboard');
    const card = page.getByRole('region', { name: T.cardTitle });
    const row = card.locator(`[data-subscription="${sub.id}"]`);
    await expectShown(row, sub, 'Active');
    // A second tab, opened before the skip.
    const other = await context.newPage();
    await other.goto('/dashboard');
    const otherRow = other.getByRole('region', { name: T.cardTitle }).locator(`[data-subscription="${sub.id}"]`);
    await expectShown(otherRow, sub, 'Active');

    await row.getByRole('button', { name: new RegExp(`^${T.skipButton}`) }).click();
    const dialog = page.getByRole('dialog', { name: T.skipTitle });
    await dialog.getByRole('button', { name: T.skipConfirm }).click();
    const after = addWeeks(sub.nextRenewalAt, 8);
    await toast(page, skippedToast(after)).waitFor();
    await expectShown(row, { ...sub, nextRenewalAt: after }, 'Active');
    await card.scrollIntoViewIfNeeded();
    await screenShot(page, 'subscription-card-skipped-1280');

    // The stale tab: refused with the server's words, and the card reads the new date.
    await otherRow.getByRole('button', { name: new RegExp(`^${T.skipButton}`) }).click();
    const stale = other.getByRole('dialog', { name: T.skipTitle });
    await stale.getByRole('button', { name: T.skipConfirm }).click();
    await stale.getByRole('alert').getByText(SUBSCRIPTION_MESSAGES.staleDelivery, { exact: true }).waitFor();
    await expect.poll(() => otherRow.getByTestId('subscription-next').textContent()).toBe(renewalDateText(after));
    await screenShot(other, 'subscription-card-skip-refused-1280');
    await stale.getByRole('button', { name: T.close, exact: true }).click();
    expect(storedSubscription(sub.id).next_renewal_at).toBe(after);

    // Change from the card: every 2 weeks, the next delivery sooner.
    await row.getByRole('button', { name: new RegExp(`^${T.changeButton}:`) }).click();
    const change = page.getByRole('dialog', { name: T.changeTitle });
    await change.getByLabel(T.intervalLabel).selectOption('2');
    const sooner = dayFromNow(10);
    expect(await change.getByLabel(T.nextDeliveryLabel).inputValue()).toBe(after.slice(0, 10));
    await change.getByLabel(T.nextDeliveryLabel).fill(sooner);
    await screenShot(page, 'subscription-card-change-dialog-1280');
    await change.getByRole('button', { name: T.saveChange }).click();
    await toast(page, T.changed).waitFor();
    const soonerAt = `${sooner}T${after.slice(11)}`;
    await expectShown(row, { ...sub, everyWeeks: 2, nextRenewalAt: soonerAt }, 'Active');
    expect(storedSubscription(sub.id)).toMatchObject({ every_weeks: 2, quantity: 2, next_renewal_at: soonerAt });

    // Running low: Deliver now orders it at once (the kept test card), and the rhythm counts from today.
    await row.getByRole('button', { name: new RegExp(`^${T.deliverNowButton}`) }).click();
    const deliver = page.getByRole('dialog', { name: T.deliverNowTitle });
    await deliver.getByText(deliverNowNote(2)).waitFor();
    await screenShot(page, 'subscription-deliver-now-dialog-1280');
    await deliver.getByRole('button', { name: T.deliverNowConfirm }).click();
    await page
      .getByText(/^Delivery ordered: order #\w+ is on its way\.$/)
      .first()
      .waitFor();
    await deliver.waitFor({ state: 'hidden' });
    await expect.poll(() => storedSubscription(sub.id).next_renewal_at.slice(0, 10)).toBe(dayFromNow(14));
    await expect.poll(() => row.getByTestId('subscription-deliveries').textContent()).toBe('2 deliveries so far');
    // The dashboard's figures count the new order without a reload.
    await expect.poll(() => page.getByTestId('stat-cards').innerText()).toMatch(/Total Orders\s+1\s/);
    await card.scrollIntoViewIfNeeded();
    await screenShot(page, 'subscription-card-delivered-1280');

    // Moving house: the new address for this subscription and the account.
    await row.getByRole('button', { name: new RegExp(`^${T.addressButton}`) }).click();
    const where = page.getByRole('dialog', { name: T.addressTitle });
    await where.getByLabel('Street Address').fill('9 New Street');
    await where.getByLabel('City').fill('Salem');
    await where.getByLabel(T.addressEverywhere).check();
    await screenShot(page, 'subscription-address-dialog-1280');
    await where.getByRole('button', { name: 'Save' }).click();
    await toast(page, T.addressSaved).waitFor();
    await expect.poll(() => row.getByTestId('subscription-address').textContent()).toBe('Robin Refill, 9 New Street, Salem, OR 97201');
    expect(JSON.parse(storedSubscription(sub.id).shipping_address)).toMatchObject({ address: '9 New Street', city: 'Salem' });
    expect(errors).toEqual([]);
    await context.close();
  });
});
