import { expect } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { ADMIN, signInThroughForm } from './helpers.js';
import { openPage } from './browser.js';
import { axeViolations } from './axe.js';
import {
  createSubscriber,
  createSubscription,
  expectNoSidewaysScroll,
  openShopDb,
  screenShot,
  storedSubscription,
} from './subscription-fixtures.js';
import { renewalDateText } from '../src/shared/subscription-words.js';

/** E-mails of one template queued for an address. */
function mailsOf(email: string, templateId: string): number {
  const db = openShopDb();
  try {
    return (
      db.prepare(`select count(*) as n from email_outbox where to_address = ? and template_id = ?`).get(email, templateId) as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

/** A UTC day `days` from now, as a date field takes it. */
const dayIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The Subscriptions list's rows (the header row left out). */
function rows(page: Page) {
  return page
    .getByRole('table', { name: 'Subscriptions' })
    .getByRole('row')
    .filter({ hasNot: page.getByRole('columnheader') });
}

/**
 * The owner's actions (issue [5/8], the owner's desk), the journey e2e/admin-subscriptions.test.ts
 * runs at each width: the owner opens a subscription, pauses it without e-mailing the customer by
 * keyboard alone, resumes it, adds a one-time item (after the server's refusal of too many, shown
 * in the dialog), and sees each on the timeline under their e-mail; the detail and each dialog with
 * no accessibility violations (axe-core).
 */
export async function ownerActionsJourney(browser: Browser, label: string, viewport: { width: number; height: number }): Promise<void> {
  const who = await createSubscriber(`actions-${label}`);
  const sub = createSubscription(who, { everyWeeks: 4, quantity: 1, createdDaysAgo: 5, deliveries: 1 });
  const { context, page, errors } = await openPage(browser, viewport);
  context.setDefaultTimeout(15_000);
  await signInThroughForm(page, ADMIN);
  await page.goto('/admin?tab=subscriptions');
  await page.getByLabel('Search subscriptions').fill(who.email);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForURL(/subQ=/);
  await expect.poll(() => rows(page).count()).toBe(1);
  await rows(page)
    .first()
    .getByRole('button', { name: `View subscription of ${who.email}` })
    .click();
  const detail = page.getByRole('dialog', { name: who.email });
  const actions = detail.getByRole('group', { name: 'Actions on this subscription' });
  await actions.waitFor();
  await detail.getByText('Visa ending 4242', { exact: true }).waitFor();
  expect(await actions.getByRole('button').allInnerTexts()).toEqual([
    'Skip next delivery',
    'Deliver now',
    'Pause until…',
    'Change…',
    'Add one-time item…',
    'Change address…',
  ]);
  expect(await axeViolations(page, detail)).toEqual([]);
  await expectNoSidewaysScroll(page);
  await screenShot(page, `admin-subscription-actions-${label}`);

  // Pause by keyboard alone: Tab to the button, Enter, the day, Tab to the e-mail box and untick it, Tab to confirm, Enter.
  const focused = (l: Locator) => l.evaluate((el) => el === document.activeElement);
  const tabTo = async (target: Locator) => {
    for (let i = 0; i < 40 && !(await focused(target)); i++) await page.keyboard.press('Tab');
    expect(await focused(target)).toBe(true);
  };
  await tabTo(actions.getByRole('button', { name: 'Pause until…' }));
  await page.keyboard.press('Enter');
  const pause = page.getByRole('dialog', { name: 'Pause this subscription?' });
  const until = pause.getByLabel('Pause until');
  await until.waitFor();
  expect(await focused(until)).toBe(true);
  const untilDay = dayIn(60);
  await until.fill(untilDay);
  const notify = pause.getByLabel('E-mail the customer about this');
  await tabTo(notify);
  expect(await notify.isChecked()).toBe(true);
  await page.keyboard.press('Space');
  expect(await notify.isChecked()).toBe(false);
  expect(await axeViolations(page, pause)).toEqual([]);
  await screenShot(page, `admin-subscription-pause-${label}`);
  await tabTo(pause.getByRole('button', { name: 'Pause subscription' }));
  await page.keyboard.press('Enter');
  await pause.waitFor({ state: 'hidden' });
  const pausedUntil = `${untilDay}${sub.nextRenewalAt.slice(10)}`;
  const done = detail.getByTestId('subscription-action-done');
  await expect.poll(() => done.innerText()).toBe(`Paused until ${renewalDateText(pausedUntil)}. ${who.email} was not e-mailed.`);
  // The keyboard goes on from there, inside the detail (its Pause button is gone).
  expect(await focused(done)).toBe(true);
  await detail.getByTestId('subscription-status').filter({ hasText: 'Paused' }).waitFor();
  expect(storedSubscription(sub.id)).toMatchObject({ status: 'paused', next_renewal_at: pausedUntil });
  expect(mailsOf(who.email, 'subscription-paused')).toBe(0);
  const events = detail.getByTestId('subscription-event');
  expect(await events.first().innerText()).toContain(`Paused until ${renewalDateText(pausedUntil)}`);
  expect(await events.first().innerText()).toContain(ADMIN.email);
  // Paused: Resume in place of Skip, Deliver now and Pause.
  expect(await actions.getByRole('button').allInnerTexts()).toEqual(['Resume…', 'Change…', 'Add one-time item…', 'Change address…']);
  await screenShot(page, `admin-subscription-paused-${label}`);

  // Resume, e-mailing the customer (the box is ticked to begin with).
  await actions.getByRole('button', { name: 'Resume…' }).click();
  const resume = page.getByRole('dialog', { name: 'Resume this subscription?' });
  await resume.waitFor();
  expect(await resume.getByLabel('E-mail the customer about this').isChecked()).toBe(true);
  const resumeDay = await resume.getByLabel('Next delivery on').inputValue();
  expect(resumeDay).toBe(dayIn(3));
  expect(await axeViolations(page, resume)).toEqual([]);
  await resume.getByRole('button', { name: 'Resume deliveries' }).click();
  await resume.waitFor({ state: 'hidden' });
  const resumedOn = renewalDateText(`${resumeDay}${sub.nextRenewalAt.slice(10)}`);
  await expect.poll(() => done.innerText()).toBe(`Resumed: next delivery ${resumedOn}. ${who.email} was e-mailed about it.`);
  await detail.getByTestId('subscription-status').filter({ hasText: 'Active' }).waitFor();
  expect(storedSubscription(sub.id).status).toBe('active');
  expect(mailsOf(who.email, 'subscription-changed')).toBe(1);

  // A one-time item: found by name, one version picked; too many is the server's refusal, in the dialog; then two.
  await actions.getByRole('button', { name: 'Add one-time item…' }).click();
  const add = page.getByRole('dialog', { name: 'Add a one-time item' });
  await add.getByLabel('Find a product').fill('Concentrated All');
  const item = 'Concentrated All-Purpose Cleaner — Lavender, 16 oz';
  await add.getByRole('button', { name: new RegExp(`^${item}`) }).click();
  await add.getByTestId('extra-picked').filter({ hasText: item }).waitFor();
  await add.getByLabel('Quantity').fill('50');
  await add.getByRole('button', { name: 'Add to next delivery' }).click();
  await add.getByRole('alert').filter({ hasText: 'There is not enough of this in stock' }).waitFor();
  expect(await axeViolations(page, add)).toEqual([]);
  await screenShot(page, `admin-subscription-add-refused-${label}`);
  await add.getByLabel('Quantity').fill('2');
  await add.getByRole('button', { name: 'Add to next delivery' }).click();
  await add.waitFor({ state: 'hidden' });
  await expect.poll(() => done.innerText()).toBe(`One-time item added: ${item} × 2. ${who.email} was e-mailed about it.`);
  expect(await detail.getByTestId('subscription-extra').allInnerTexts()).toEqual([expect.stringContaining(`${item} × 2`)]);
  expect(mailsOf(who.email, 'subscription-next-delivery')).toBe(1);

  // Change: the intervals the laundry powder's plan offers; two a delivery from now on.
  await actions.getByRole('button', { name: 'Change…' }).click();
  const change = page.getByRole('dialog', { name: 'Change this subscription' });
  const every = change.getByLabel('Deliver every');
  await expect.poll(() => every.isEnabled()).toBe(true);
  expect(await every.locator('option').allInnerTexts()).toEqual(['Every 2 weeks', 'Every 4 weeks', 'Every 6 weeks', 'Every 8 weeks']);
  await change.getByLabel('Quantity: Laundry Powder (2 lb)').fill('2');
  expect(await axeViolations(page, change)).toEqual([]);
  await screenShot(page, `admin-subscription-change-${label}`);
  await change.getByRole('button', { name: 'Save changes' }).click();
  await change.waitFor({ state: 'hidden' });
  await expect.poll(() => done.innerText()).toBe(`Changed: Laundry Powder (2 lb) × 1 → 2. ${who.email} was e-mailed about it.`);
  expect(storedSubscription(sub.id).quantity).toBe(2);

  // Change address: the checkout's fields; a wrong ZIP is said under it, nothing is sent; then a right one.
  await actions.getByRole('button', { name: 'Change address…' }).click();
  const address = page.getByRole('dialog', { name: 'Change the delivery address' });
  await address.getByLabel('Name').fill('Robin Refill');
  await address.getByLabel('Street').fill('40 Market Street');
  await address.getByLabel('City').fill('Salem');
  await address.getByLabel('State').selectOption('OR');
  await address.getByLabel('ZIP').fill('973');
  await address.getByRole('button', { name: 'Save address' }).click();
  await address.getByRole('alert').filter({ hasText: 'Check the address' }).waitFor();
  expect(await address.getByLabel('ZIP').getAttribute('aria-invalid')).toBe('true');
  expect(await axeViolations(page, address)).toEqual([]);
  await screenShot(page, `admin-subscription-address-${label}`);
  await address.getByLabel('ZIP').fill('97301');
  await address.getByRole('button', { name: 'Save address' }).click();
  await address.waitFor({ state: 'hidden' });
  await expect.poll(() => done.innerText()).toBe(`Address changed: ships to Salem. ${who.email} was e-mailed about it.`);
  await expect.poll(() => mailsOf(who.email, 'subscription-address-changed')).toBe(1);
  expect(JSON.parse(storedSubscription(sub.id).shipping_address)).toMatchObject({
    address: '40 Market Street',
    city: 'Salem',
    zip: '97301',
  });

  // The timeline, newest first: each action under the owner's e-mail.
  const lines = (await events.allInnerTexts()).filter((l) => /^(One-time item added|Resumed|Paused until)/.test(l));
  expect(lines.slice(0, 3)).toEqual([
    expect.stringContaining(`One-time item added: ${item} × 2`),
    expect.stringContaining(`Resumed: next delivery ${resumedOn}`),
    expect.stringContaining(`Paused until ${renewalDateText(pausedUntil)}`),
  ]);
  for (const line of lines.slice(0, 3)) expect(line).toContain(ADMIN.email);
  expect(await axeViolations(page, detail)).toEqual([]);
  await expectNoSidewaysScroll(page);
  await detail.getByRole('heading', { name: 'Timeline' }).scrollIntoViewIfNeeded();
  await screenShot(page, `admin-subscription-timeline-${label}`);
  expect(errors).toEqual([]);
  await context.close();
}
