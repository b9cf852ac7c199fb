import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, signInThroughForm, toast } from './helpers.js';
import { WIDTHS, launchBrowser, openPage, screenshot } from './browser.js';
import { formatCents } from '../src/shared/money.js';
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
      await dialog.getByText('Asked by phone to stop', { exact: true }).waitFor();
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

/**
 * The owner's Figures (issue [5/8]): subscribers now and the money subscriptions brought in, as the
 * shop's rows say; the reason a customer gave among the cancellation reasons; this month's sign-ups
 * in the retention table; each table's CSV; at 1280 and 390 px, with no accessibility violations
 * (axe-core) in the panel.
 */
it('shows the subscription Figures: subscribers, revenue, reasons and retention, each with its CSV', async () => {
  // A subscriber who signs up and cancels today, with a reason no one else gives, and a renewal paid today.
  const who = await createSubscriber('figures');
  const gone = createSubscription(who, { everyWeeks: 4, quantity: 1, createdDaysAgo: 0, deliveries: 1 });
  const reason = `Figures journey ${Date.now().toString(36)}`;
  const db = openShopDb();
  let zone: string;
  try {
    const now = new Date().toISOString();
    db.prepare(`update subscriptions set status = 'cancelled', cancelled_at = ?, cancel_reason = ? where id = ?`).run(
      now,
      `  ${reason}  `,
      gone.id,
    );
    const id = `order_e2e_fig_${Date.now().toString(36)}`;
    db.prepare(
      `insert into orders (id, order_number, user_id, email, status, payment_status, payment_provider, origin, payment_session_id,
        shipping_address, billing_address, subtotal_cents, discount_cents, shipping_cents, tax_cents, total_cents, refunded_cents,
        coupon_code, shipping_option_id, shipstation_data, shipstation_tracking_number, guest_token_hash, created_at, updated_at, paid_at)
       values (?, ?, ?, ?, 'completed', 'paid', 'test', 'renewal', null, null, null, 1980, 0, 0, 158, 2138, 0,
        null, null, null, null, null, ?, ?, ?)`,
    ).run(id, id.slice(-8).toUpperCase(), who.userId, who.email, now, now, now);
    zone =
      (db.prepare(`select value from settings where key = 'shop_time_zone'`).get() as { value: string } | undefined)?.value ??
      'America/New_York';
  } finally {
    db.close();
  }
  /** What the headlines should say, from the shop's rows: subscribers now, and the money of renewals and first orders (all recent). */
  const expected = () => {
    const d = openShopDb();
    try {
      const { active } = d.prepare(`select count(*) as active from subscriptions where status in ('active', 'payment_failing')`).get() as {
        active: number;
      };
      const subscriptionOrders = `(origin = 'renewal' or (origin = 'checkout' and id in (select first_order_id from subscriptions)))
        and payment_status in ('paid', 'refunded')`;
      const { taken } = d.prepare(`select coalesce(sum(total_cents), 0) as taken from orders where ${subscriptionOrders}`).get() as {
        taken: number;
      };
      const { refunded } = d
        .prepare(
          `select coalesce(sum(amount_cents), 0) as refunded from refunds where status = 'succeeded' and order_id in (select id from orders where ${subscriptionOrders})`,
        )
        .get() as { refunded: number };
      return { active: active.toLocaleString('en-US'), revenue: formatCents(taken - refunded) };
    } finally {
      d.close();
    }
  };
  const thisMonth = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: zone }).format(new Date());
  const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

  for (const [label, viewport] of WIDTHS) {
    const { context, page, errors } = await openPage(browser, viewport);
    context.setDefaultTimeout(15_000);
    await signInThroughForm(page, ADMIN);
    await page.goto('/admin?tab=subscriptions');
    const figures = page.getByRole('region', { name: 'Figures' });
    await figures.getByTestId('figures-active').waitFor();
    await expect.poll(() => figures.getByTestId('figures-active').locator('dd').first().innerText()).toBe(expected().active);
    expect(await figures.getByTestId('figures-revenue').locator('dd').innerText()).toBe(expected().revenue);
    // The last 90 days by week: a row a week, the total at its foot equal to the headline.
    expect(await figures.getByTestId('figures-period').innerText()).toContain('by week');
    const revenue = figures.getByRole('table', { name: 'Subscription revenue by period' });
    expect([13, 14]).toContain(await revenue.getByTestId('figures-revenue-row').count());
    expect(await revenue.locator('tfoot td').last().innerText()).toBe(expected().revenue);
    const csv = figures.getByRole('link', { name: /^Download CSV/ });
    expect(await csv.getAttribute('href')).toMatch(
      /^\/api\/admin\/subscriptions\/figures\/revenue\.csv\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}&period=week$/,
    );
    // The panel's heading at the top of the screen, below the shop's bar.
    await figures.evaluate((el) => {
      el.scrollIntoView({ block: 'start' });
      window.scrollBy(0, -80);
    });
    await screenShot(page, `admin-subscriptions-figures-${label}`);
    await expectNoSidewaysScroll(page);

    // The reason the customer gave, trimmed, once; its CSV holds it too.
    await figures.getByRole('tab', { name: 'Cancellation reasons' }).click();
    await page.waitForURL(/figView=reasons/);
    const row = figures.getByRole('table', { name: 'Cancellation reasons' }).getByRole('row').filter({ hasText: reason });
    expect(await row.getByRole('cell').first().innerText()).toBe('1');
    const reasonsCsv = await page.request.get((await csv.getAttribute('href'))!);
    expect(reasonsCsv.status()).toBe(200);
    expect(await reasonsCsv.text()).toContain(`${reason.charAt(0).toUpperCase()}${reason.slice(1).toLowerCase()},1,`);

    // Retention: this month's row, its later months still blank.
    await figures.getByRole('tab', { name: 'Retention' }).click();
    const month = figures.getByTestId('figures-retention-row').filter({ hasText: thisMonth });
    await month.waitFor();
    expect(await month.getByRole('cell').nth(2).innerText()).toBe('not yet');
    await figures.getByRole('region', { name: 'Retention by month of signing up' }).scrollIntoViewIfNeeded();
    await screenShot(page, `admin-subscriptions-figures-retention-${label}`);
    await expectNoSidewaysScroll(page);

    // The last 12 months, month by month: the same money (every order here is recent), a row a month.
    await figures.getByLabel('Period').selectOption('365');
    await expect.poll(() => figures.getByTestId('figures-period').innerText()).toContain('by month');
    await figures.getByRole('tab', { name: 'Revenue' }).click();
    await expect.poll(() => revenue.getByTestId('figures-revenue-row').count()).toBe(12);
    expect(await figures.getByTestId('figures-revenue').locator('dd').innerText()).toBe(expected().revenue);

    // No accessibility violations in the panel (WCAG 2 A and AA rules of axe-core).
    await page.evaluate(axeSource);
    const { violations, passes } = await page.evaluate(async () => {
      const panel = [...document.querySelectorAll('section')].find((s) => s.querySelector('h2')?.textContent === 'Figures')!;
      type AxeResult = { violations: { id: string; nodes: unknown[] }[]; passes: unknown[] };
      const axe = (window as unknown as { axe: { run: (el: Element, o: object) => Promise<AxeResult> } }).axe;
      const result = await axe.run(panel, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] } });
      return { violations: result.violations.map((v) => `${v.id} (${v.nodes.length})`), passes: result.passes.length };
    });
    expect(violations).toEqual([]);
    expect(passes).toBeGreaterThan(10);
    expect(errors).toEqual([]);
    await context.close();
  }
});

/** The owner's actions on a subscription, with its timeline (the journey is in admin-subscription-actions.ts). */
for (const [label, viewport] of WIDTHS) {
  it(`lets the owner pause (keyboard only, no e-mail), resume and add a one-time item, each on the timeline (${label} px)`, async () => {
    const { ownerActionsJourney } = await import('./admin-subscription-actions.js');
    await ownerActionsJourney(browser, label, viewport);
  });
}
