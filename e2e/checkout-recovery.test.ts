import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { WIDTHS, baseUrl, launchBrowser, openPage, screenshot, settle } from './browser.js';
import { axeViolations } from './axe.js';
import {
  ADMIN,
  HUMAN_PAUSE_MS,
  addFromProductPage,
  fillCheckoutForm,
  payButtonToCardPage,
  payWithTestCard,
  signInThroughForm,
  toast,
} from './helpers.js';
import { openDatabase } from '../src/server/db/database.js';
import { MARKETING_CONSENT_LABEL } from '../src/shared/schemas/email-preferences.js';
import { RECOVERY_MESSAGES } from '../src/shared/recovery.js';
import { runCheckoutRecovery } from '../src/server/marketing/recovery.js';
import { runReorderReminders } from '../src/server/marketing/reorder-reminders.js';

/**
 * Checkout recovery as the owner and a shopper meet it (issue [7/8] item 3), at 1280 and 390 px:
 * the owner turns it on in Marketing → Settings; a shopper ticks "Send me offers and reminders",
 * reaches the card page and leaves; an hour on (the pass run here with its clock moved) the e-mail
 * is queued; its link, opened on another device, shows the cart and puts it back; paying it makes
 * the checkout recovered in the owner's list. Axe on each screen.
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

const PRODUCT = { id: 'cloth-5-pack', name: '5 - Reusable Cleaning Cloths (5-Pack)' };

describe.each(WIDTHS)('checkout recovery at %s px', (label, viewport) => {
  it('the owner turns it on; the e-mail’s link puts a left cart back on another device; paid, it counts as recovered', async () => {
    // The owner: Marketing → Settings, recovery on.
    const owner = await openPage(browser, viewport);
    await signInThroughForm(owner.page, ADMIN);
    await owner.page.goto('/admin?tab=marketing&view=settings');
    const settings = owner.page.locator('main');
    const on = settings.getByRole('checkbox', { name: 'Send checkout recovery e-mails' });
    await on.waitFor();
    await settings.getByText(/^Footer address: /).waitFor();
    if (!(await on.isChecked())) {
      await on.check();
      await settings.getByRole('button', { name: 'Save Recovery Settings' }).click();
      await toast(owner.page, RECOVERY_MESSAGES.saved).waitFor();
    }
    // A second e-mail before the first is refused next to its field, and nothing is saved.
    await settings.getByLabel('First e-mail after (hours)').fill('5');
    await settings.getByLabel('Second e-mail after (hours)').fill('3');
    await settings.getByRole('button', { name: 'Save Recovery Settings' }).click();
    await settings.getByText(RECOVERY_MESSAGES.secondAfterFirst).first().waitFor();
    await settle(owner.page);
    await screenshot(owner.page, `recovery-settings-${label}`);
    expect(await axeViolations(owner.page, settings)).toEqual([]);
    await settings.getByLabel('First e-mail after (hours)').fill('1');
    await settings.getByLabel('Second e-mail after (hours)').fill('24');
    await settings.getByRole('button', { name: 'Save Recovery Settings' }).click();
    await toast(owner.page, RECOVERY_MESSAGES.saved).waitFor();

    // The shopper ticks the box, reaches the card page and leaves.
    const email = `recover-${RUN}-${label}@example.com`;
    const left = await openPage(browser, viewport);
    await addFromProductPage(left.page, PRODUCT);
    await left.page.goto('/checkout');
    await fillCheckoutForm(left.page, email);
    await left.page.locator('main').getByRole('checkbox', { name: MARKETING_CONSENT_LABEL }).check();
    await left.page.waitForTimeout(HUMAN_PAUSE_MS);
    await payButtonToCardPage(left.page);
    expect(left.errors).toEqual([]);
    await left.context.close();

    // An hour on: the pass decides it and queues the e-mail.
    const deps = { db: shop.db, dialect: 'sqlite' as const, publicUrl: baseUrl(), log: { error: () => undefined } };
    await runCheckoutRecovery(deps, new Date(Date.now() + 61 * 60_000));
    const mail = await shop.db
      .selectFrom('email_outbox')
      .selectAll()
      .where('to_address', '=', email)
      .where('template_id', '=', 'checkout-recovery')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Your cart is saved for you');
    expect(mail.list_unsubscribe).toContain('/api/unsubscribe/');
    expect(mail.text).toContain('12 Green Lane');
    const link = /(\/cart\/restore\?token=\S+)/.exec(mail.text ?? '')?.[1];
    expect(link).toBeTruthy();

    // Another device, its cart empty: the link shows the cart, then puts it back.
    const back = await openPage(browser, viewport);
    await back.page.goto(link!);
    const main = back.page.locator('main');
    await main.getByRole('heading', { name: 'Your saved cart' }).waitFor();
    await main.getByRole('list', { name: 'Items in the saved cart' }).getByText(PRODUCT.name).waitFor();
    await main.getByText('Total today').waitFor();
    await settle(back.page);
    await screenshot(back.page, `restore-cart-${label}`);
    expect(await axeViolations(back.page, main)).toEqual([]);
    await main.getByRole('button', { name: 'Put these back in my cart' }).click();
    await back.page.waitForURL((u) => u.pathname === '/cart');
    await toast(back.page, RECOVERY_MESSAGES.restored).waitFor();
    await main.getByRole('link', { name: PRODUCT.name }).first().waitFor();
    await settle(back.page);
    await screenshot(back.page, `restored-cart-${label}`);

    // The link works once.
    const again = await openPage(browser, viewport);
    await again.page.goto(link!);
    await again.page.locator('main').getByText(RECOVERY_MESSAGES.linkUsed).waitFor();
    await settle(again.page);
    await screenshot(again.page, `restore-used-${label}`);
    await again.context.close();

    // Paid: recovered.
    await back.page.goto('/checkout');
    await fillCheckoutForm(back.page, email);
    await back.page.waitForTimeout(HUMAN_PAUSE_MS);
    await payButtonToCardPage(back.page);
    await payWithTestCard(back.page);
    const row = await shop.db.selectFrom('checkout_recoveries').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'recovered', emails_sent: 1 });
    expect(row.restored_at).not.toBeNull();
    expect(back.errors).toEqual([]);
    await back.context.close();

    // The owner's list says so.
    await owner.page.goto('/admin?tab=marketing&rcvState=recovered');
    const list = owner.page.locator('main');
    const shown = list.getByRole('row').filter({ hasText: email });
    await shown.getByText('Recovered', { exact: true }).waitFor();
    await list.getByTestId('rcv-revenue').waitFor();
    await shown.scrollIntoViewIfNeeded();
    await settle(owner.page);
    await screenshot(owner.page, `abandoned-checkouts-${label}`);
    expect(await axeViolations(owner.page, list)).toEqual([]);
    expect(owner.errors).toEqual([]);
    await owner.context.close();
  });
  it('a buyer of laundry powder who said yes gets a reminder six weeks on; its link adds it to the cart; the owner sees it sent', async () => {
    const email = `refill-${RUN}-${label}@example.com`;
    const buyer = await openPage(browser, viewport);
    await addFromProductPage(buyer.page, { id: 'laundry-powder', name: 'Laundry Powder (2 lb)' });
    await buyer.page.goto('/checkout');
    await fillCheckoutForm(buyer.page, email);
    await buyer.page.locator('main').getByRole('checkbox', { name: MARKETING_CONSENT_LABEL }).check();
    await buyer.page.waitForTimeout(HUMAN_PAUSE_MS);
    await payButtonToCardPage(buyer.page);
    await payWithTestCard(buyer.page);
    expect(buyer.errors).toEqual([]);
    await buyer.context.close();

    // Six weeks on (the product's 42 days): the order placed 42 days back, the pass sends the reminder today.
    const back = new Date(Date.now() - 42.1 * 86_400_000).toISOString();
    await shop.db.updateTable('orders').set({ created_at: back, paid_at: back }).where('email', '=', email).execute();
    const deps = { db: shop.db, dialect: 'sqlite' as const, publicUrl: baseUrl(), log: { error: () => undefined } };
    await runReorderReminders(deps, new Date());
    const mail = await shop.db
      .selectFrom('email_outbox')
      .selectAll()
      .where('to_address', '=', email)
      .where('template_id', '=', 'reorder-reminder')
      .executeTakeFirstOrThrow();
    expect(mail.list_unsubscribe).toContain('/api/unsubscribe/');
    expect(mail.text).toContain('12 Green Lane');
    const link = /(\/reorder\?token=\S+)/.exec(mail.text ?? '')?.[1];
    expect(link).toBeTruthy();

    const again = await openPage(browser, viewport);
    await again.page.goto(link!);
    const main = again.page.locator('main');
    await main.getByRole('heading', { name: 'Reorder' }).waitFor();
    await main.getByText('Laundry Powder (2 lb)').first().waitFor();
    await settle(again.page);
    await screenshot(again.page, `reorder-link-${label}`);
    expect(await axeViolations(again.page, main)).toEqual([]);
    await main.getByRole('button', { name: 'Add to my cart' }).click();
    await again.page.waitForURL((u) => u.pathname === '/cart');
    await main.getByRole('link', { name: 'Laundry Powder (2 lb)' }).first().waitFor();
    expect(again.errors).toEqual([]);
    await again.context.close();

    const owner = await openPage(browser, viewport);
    await signInThroughForm(owner.page, ADMIN);
    await owner.page.goto('/admin?tab=marketing&view=reminders');
    const panel = owner.page.locator('main');
    await panel.getByRole('table', { name: 'Last reorder reminders' }).getByText(email).first().waitFor();
    await settle(owner.page);
    await screenshot(owner.page, `reorder-reminders-${label}`);
    expect(await axeViolations(owner.page, panel)).toEqual([]);
    expect(owner.errors).toEqual([]);
    await owner.context.close();
  });
});
