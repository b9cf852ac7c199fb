import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, signInThroughForm, toast } from './helpers.js';
import { WIDTHS, launchBrowser, openPage, screenshot } from './browser.js';
import {
  PRODUCT,
  createSubscriber,
  createSubscription,
  expectNoSidewaysScroll,
  openShopDb,
  screenShot,
  storedSubscription,
  type Made,
  type Subscriber,
} from './subscription-fixtures.js';

/**
 * The owner's Subscriptions tab (issue [5/8]): the owner opens the tab, filters by status, searches
 * a customer's e-mail, opens a subscription (its items and renewals) and cancels it for the
 * customer without e-mailing them. The subscriptions are written straight into the worker's shop,
 * as a checkout would have left them; one is paused and one has two renewals on record.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Renewal rows as the schedule leaves them: a skipped delivery, then the next one scheduled. */
function addCycles(sub: Made): void {
  const db = openShopDb();
  try {
    const at = new Date().toISOString();
    const insert = db.prepare(
      `insert into subscription_cycles (subscription_id, cycle, due_at, status, order_id, amount_cents, attempts, next_attempt_at,
        lease_until, waiting_since, reminded_at, message, created_at, updated_at)
       values (?, ?, ?, ?, null, null, 0, ?, null, null, null, ?, ?, ?)`,
    );
    const earlier = new Date(Date.parse(sub.nextRenewalAt) - 28 * 86_400_000).toISOString();
    insert.run(sub.id, 4, earlier, 'skipped', earlier, 'Skipped at the customer’s request', at, at);
    insert.run(sub.id, 5, sub.nextRenewalAt, 'scheduled', sub.nextRenewalAt, null, at, at);
  } finally {
    db.close();
  }
}

function pause(sub: Made): void {
  const db = openShopDb();
  try {
    db.prepare(`update subscriptions set status = 'paused' where id = ?`).run(sub.id);
  } finally {
    db.close();
  }
}

function cancellationMails(email: string): number {
  const db = openShopDb();
  try {
    return (
      db.prepare(`select count(*) as n from email_outbox where to_address = ? and template_id = 'subscription-cancelled'`).get(email) as {
        n: number;
      }
    ).n;
  } finally {
    db.close();
  }
}

/**
 * What "Upcoming" should say of the laundry powder, worked out from the shop's rows by walking each
 * renewing subscription's dates (a date already past renews once now), and its stock: on hand less
 * the units open checkouts hold.
 */
function expectedPowder(): { units: number[]; available: number } {
  const db = openShopDb();
  try {
    const now = Date.now();
    const subs = db
      .prepare(
        `select s.next_renewal_at, s.every_weeks, i.quantity from subscriptions s join subscription_items i on i.subscription_id = s.id
          where i.variant_id = ? and s.status in ('active', 'paused', 'payment_failing')`,
      )
      .all(PRODUCT.variantId) as { next_renewal_at: string; every_weeks: number; quantity: number }[];
    const units = [0, 0, 0];
    for (const s of subs) {
      const step = s.every_weeks * 7 * 86_400_000;
      let d = Date.parse(s.next_renewal_at);
      const dates: number[] = [];
      if (d < now) {
        dates.push(now);
        while (d <= now) d += step;
      }
      for (; d < now + 90 * 86_400_000; d += step) dates.push(d);
      [7, 30, 90].forEach((days, w) => {
        units[w]! += dates.filter((x) => x < now + days * 86_400_000).length * s.quantity;
      });
    }
    const { on_hand } = db.prepare('select on_hand from stock_items where variant_id = ?').get(PRODUCT.variantId) as { on_hand: number };
    const { held } = db
      .prepare(
        'select coalesce(sum(quantity), 0) as held from stock_reservations where variant_id = ? and released_at is null and firm_until > ?',
      )
      .get(PRODUCT.variantId, new Date(now).toISOString()) as { held: number };
    return { units, available: on_hand - Math.min(on_hand, held) };
  } finally {
    db.close();
  }
}

/** The list's rows (the header row left out). */
function rows(page: Page) {
  return page
    .getByRole('table', { name: 'Subscriptions' })
    .getByRole('row')
    .filter({ hasNot: page.getByRole('columnheader') });
}

const chip = (page: Page, name: RegExp) => page.getByRole('group', { name: 'Filter by status' }).getByRole('button', { name });

for (const [label, viewport] of WIDTHS) {
  describe(`the owner's Subscriptions tab (${label} px)`, () => {
    let who: Subscriber & { paymentMethodId: string };
    let monthly: Made;
    let paused: Made;
    beforeAll(async () => {
      who = await createSubscriber(`admin-${label}`);
      paused = createSubscription(who, { everyWeeks: 8, quantity: 1, createdDaysAgo: 40, deliveries: 1 });
      monthly = createSubscription(who, { everyWeeks: 4, quantity: 2, createdDaysAgo: 20, deliveries: 3 });
      pause(paused);
      addCycles(monthly);
    });

    it('shows what the schedule will renew of the laundry powder in 7, 30 and 90 days, against its stock', async () => {
      // Another customer's fortnightly one of three: at least six deliveries of it fall in the next 90 days.
      createSubscription(await createSubscriber(`upcoming-${label}`), { everyWeeks: 2, quantity: 3, createdDaysAgo: 10, deliveries: 0 });
      const { context, page, errors } = await openPage(browser, viewport);
      context.setDefaultTimeout(15_000);
      await signInThroughForm(page, ADMIN);
      await page.goto('/admin?tab=subscriptions');
      const upcoming = page.getByRole('region', { name: 'Upcoming' });
      const powder = upcoming.getByRole('table', { name: 'Upcoming deliveries' }).getByRole('row').filter({ hasText: PRODUCT.name });
      await powder.waitFor();
      // Product, SKU, next 7 / 30 / 90 days, in stock, short by: as the shop's rows say.
      await expect
        .poll(async () => {
          const cells = await powder.getByRole('cell').allInnerTexts();
          return cells.slice(2, 6).map(Number);
        })
        .toEqual(((e) => [...e.units, e.available])(expectedPowder()));
      const { units, available } = expectedPowder();
      expect(units[2]).toBeGreaterThanOrEqual(18);
      const cells = await powder.getByRole('cell').allInnerTexts();
      expect(cells[0]).toContain(PRODUCT.name);
      expect(cells[6]).toBe(units[2]! > available ? expect.stringContaining(`${units[2]! - available} in 90 days`) : '—');
      await upcoming.getByRole('link', { name: 'Download CSV' }).waitFor();
      expect(await upcoming.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe('/api/admin/subscriptions/upcoming.csv');
      await expectNoSidewaysScroll(page);
      await upcoming.scrollIntoViewIfNeeded();
      await screenShot(page, `admin-subscriptions-upcoming-${label}`);
      expect(errors).toEqual([]);
      await context.close();
    });

    it('filters, searches the customer, opens a subscription and cancels it without e-mailing them', async () => {
      const { context, page, errors } = await openPage(browser, viewport);
      context.setDefaultTimeout(15_000);
      await signInThroughForm(page, ADMIN);
      await page.goto('/admin?tab=subscriptions');
      await page.getByRole('tab', { name: 'Subscriptions', selected: true }).waitFor();
      await rows(page).first().waitFor();
      await expectNoSidewaysScroll(page);
      await screenshot(page, `admin-subscriptions-list-${label}`);

      // Paused only: every row says so, and the chip is pressed.
      await chip(page, /^Paused/).click();
      await page.waitForURL(/subStatus=paused/);
      await expect.poll(() => chip(page, /^Paused/).getAttribute('aria-pressed')).toBe('true');
      await expect
        .poll(async () => (await rows(page).getByTestId('subscription-status').allInnerTexts()).every((t) => t === 'Paused'))
        .toBe(true);
      await rows(page).filter({ hasText: who.email }).first().waitFor();

      // The customer's e-mail: their paused one under Paused; both under All, newest first; the chips count them.
      await page.getByLabel('Search subscriptions').fill(who.email.toUpperCase());
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.waitForURL(/subQ=/);
      await expect.poll(() => rows(page).count()).toBe(1);
      expect(await rows(page).first().getByTestId('subscription-status').innerText()).toBe('Paused');
      await chip(page, /^All/).click();
      await expect.poll(() => rows(page).count()).toBe(2);
      expect(await chip(page, /^Active/).innerText()).toMatch(/Active\s*1/);
      expect(await chip(page, /^Paused/).innerText()).toMatch(/Paused\s*1/);
      expect(await chip(page, /^All/).innerText()).toMatch(/All\s*2/);
      const first = rows(page).first();
      expect(await first.innerText()).toContain(`${PRODUCT.name} × 2`);
      expect(await first.innerText()).toContain('Every 4 weeks · 10% off');
      await expectNoSidewaysScroll(page);
      await screenshot(page, `admin-subscriptions-search-${label}`);

      // Nothing cancelled among them yet: the empty state says so.
      await chip(page, /^Cancelled/).click();
      await page.getByText('No subscriptions match these filters.', { exact: true }).waitFor();
      await screenshot(page, `admin-subscriptions-empty-${label}`);
      await chip(page, /^All/).click();
      await expect.poll(() => rows(page).count()).toBe(2);

      // The monthly one: its items and its renewals, newest first.
      await first.getByRole('button', { name: `View subscription of ${who.email}` }).click();
      const dialog = page.getByRole('dialog', { name: who.email });
      await dialog.waitFor();
      await page.waitForURL(new RegExp(`subscription=${monthly.id}`));
      expect(await dialog.getByTestId('subscription-item').allInnerTexts()).toEqual([expect.stringContaining(`${PRODUCT.name} × 2`)]);
      const cycles = dialog.getByTestId('subscription-cycle');
      await expect.poll(() => cycles.count()).toBe(2);
      expect(await cycles.nth(0).innerText()).toContain('Delivery 5');
      expect(await cycles.nth(0).innerText()).toContain('Scheduled');
      expect(await cycles.nth(1).innerText()).toContain('Skipped at the customer’s request');
      await screenShot(page, `admin-subscription-detail-${label}`);

      // Cancel for the customer, without e-mailing them.
      await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
      const form = dialog.getByRole('form', { name: 'Cancel this subscription' });
      await form.waitFor();
      const notify = form.getByLabel('E-mail the customer');
      expect(await notify.isChecked()).toBe(true);
      await form.getByLabel('Reason (optional)').fill('Asked by phone to stop');
      await notify.uncheck();
      await form.scrollIntoViewIfNeeded();
      await screenShot(page, `admin-subscription-cancel-${label}`);
      await form.getByRole('button', { name: 'Confirm cancellation' }).click();
      await toast(page, 'Subscription cancelled').waitFor();
      await dialog.getByTestId('subscription-status').filter({ hasText: 'Cancelled' }).waitFor();
      expect(await dialog.getByRole('button', { name: 'Cancel subscription' }).count()).toBe(0);
      await dialog.getByText('Asked by phone to stop').waitFor();
      const stored = storedSubscription(monthly.id);
      expect(stored.status).toBe('cancelled');
      expect(stored.cancel_reason).toBe('Asked by phone to stop');
      // The cancellation committed (its answer came back) with no e-mail queued for the customer.
      expect(cancellationMails(who.email)).toBe(0);
      expect(await cycles.nth(0).innerText()).toContain('Cancelled');
      await screenShot(page, `admin-subscription-cancelled-${label}`);

      // Closed, the list shows it cancelled; the other one is untouched.
      await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
      await dialog.waitFor({ state: 'hidden' });
      await chip(page, /^Cancelled/).click();
      await expect.poll(() => rows(page).count()).toBe(1);
      expect(await rows(page).first().getByTestId('subscription-status').innerText()).toBe('Cancelled');
      expect(storedSubscription(paused.id).status).toBe('paused');
      await expectNoSidewaysScroll(page);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}
