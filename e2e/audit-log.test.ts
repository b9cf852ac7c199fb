import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, HUMAN_PAUSE_MS, call, signInThroughForm, toast, toggle } from './helpers.js';
import { launchBrowser, openPage, screenshot, screenshotBothWidths } from './browser.js';

/**
 * The Users tab's audit log (issue [1/6] part 2): an admin's change to a customer and an
 * impersonation show up under the admin's name, filtered to that customer from their row; an
 * admin cannot change the customer's e-mail while acting as them; the view works at 390 px.
 */
const PERSON = { fullName: 'Quinn Audit', email: `quinn-${Date.now().toString(36)}@example.com`, password: 'Quinn-Pass-2026' };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const shots = (page: Page, name: string) => screenshotBothWidths(page, `audit-${name}`);

/** The audit log's table rows (the header row left out). */
function auditRows(page: Page) {
  return page
    .getByRole('table', { name: 'Audit log' })
    .getByRole('row')
    .filter({ hasNot: page.getByRole('columnheader') });
}

describe('the audit log in the Users tab', () => {
  it('shows an admin’s change and an impersonation under the admin’s name, filtered to the customer', async () => {
    // A customer of this run, signed up as a person would (in their own browser).
    const customer = await openPage(browser);
    await customer.page.goto('/');
    const signedUp = await call(customer.page, 'POST', '/api/auth/sign-up', { ...PERSON, elapsedMs: 5000 });
    expect(signedUp.status).toBe(201);
    await customer.context.close();

    const { page, errors, context } = await openPage(browser);
    await signInThroughForm(page, ADMIN);
    await page.goto('/admin?tab=users');
    await page.getByRole('tab', { name: 'All users', selected: true }).waitFor();
    await page.getByLabel('Search users').fill(PERSON.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText(PERSON.email, { exact: true }).waitFor();
    await toggle(page, page.getByRole('switch', { name: `Verified: ${PERSON.email}` }));
    await toast(page, 'Email Verification Updated').waitFor();

    // While acting as the customer, the e-mail (how they sign in) is theirs alone.
    await page.getByRole('button', { name: `Impersonate ${PERSON.email}` }).click();
    await toast(page, 'Impersonation active').waitFor();
    await page.waitForURL((u) => u.pathname === '/');
    const takeOver = await call(page, 'PUT', '/api/account/contact', {
      fullName: PERSON.fullName,
      email: `taken-${PERSON.email}`,
      currentPassword: ADMIN.password,
    });
    expect(takeOver.status).toBe(403);
    expect(takeOver.json.error).toBe('Only the customer can change their email address, not an admin acting as them.');
    // The dashboard says so, and offers no e-mail field to type in.
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Edit Contact Information' }).click();
    const contact = page.getByRole('dialog', { name: 'Contact Information' });
    await contact.getByText('Only the customer can change their email address, not an admin acting as them.').waitFor();
    expect(await contact.getByLabel('Email').getAttribute('readonly')).not.toBeNull();
    await screenshot(page, 'audit-impersonating-contact-1280');
    await page.keyboard.press('Escape');
    await contact.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Exit Impersonation' }).click();
    await page.waitForURL(/\/auth/);

    // The customer's history, from their row.
    await page.goto('/admin?tab=users');
    await page.getByLabel('Search users').fill(PERSON.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: `Audit history of ${PERSON.email}` }).waitFor();
    await shots(page, 'user-list');
    await page.getByRole('button', { name: `Audit history of ${PERSON.email}` }).click();
    await page.getByRole('tab', { name: 'Audit log', selected: true }).waitFor();
    await page.getByRole('heading', { name: 'Audit log', exact: true }).waitFor();
    expect(await page.getByLabel('User', { exact: true }).inputValue()).toBe(PERSON.email);
    // What the admin did, and between start and end what they read as the customer (decision 0046).
    const VIEWED = 'Viewed while impersonating';
    await expect.poll(async () => (await auditRows(page).allInnerTexts()).filter((t) => !t.includes(VIEWED)).length).toBe(3);
    const all = await auditRows(page).allInnerTexts();
    const texts = all.filter((t) => !t.includes(VIEWED));
    const started = all.findIndex((t) => t.includes('Impersonation started'));
    const ended = all.findIndex((t) => t.includes('Impersonation ended'));
    const viewed = all.flatMap((t, i) => (t.includes(VIEWED) ? [i] : []));
    expect(viewed.length).toBeGreaterThanOrEqual(1);
    for (const i of viewed) {
      expect(i).toBeGreaterThan(ended);
      expect(i).toBeLessThan(started);
      expect(all[i]).toContain(ADMIN.email);
    }
    expect(texts[0]).toContain('Impersonation ended');
    expect(texts[1]).toContain('Impersonation started');
    expect(texts[2]).toContain('Verification changed');
    expect(texts[2]).toContain('Not verified → Verified');
    for (const t of texts) expect(t).toContain(ADMIN.email);
    expect(texts[0]).toMatch(/acting as\s+quinn-/);
    await shots(page, 'customer-history');

    // One action only; then a filter with nothing to show.
    await page.getByLabel('Action').selectOption({ label: 'Verification changed' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => auditRows(page).count()).toBe(1);
    await page.getByLabel('From').fill('2020-01-02');
    await page.getByLabel('To').fill('2020-01-01');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('"To" must be on or after "From"').waitFor();
    await page.getByLabel('From').fill('2020-01-01');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No audit entries match these filters.').waitFor();
    await shots(page, 'empty');

    // Clear: every entry, newest first, the reload keeping the view.
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => auditRows(page).count()).toBeGreaterThanOrEqual(3);
    await page.reload();
    await page.getByRole('tab', { name: 'Audit log', selected: true }).waitFor();
    await page.waitForTimeout(HUMAN_PAUSE_MS / 4);
    await shots(page, 'all');
    expect(errors).toEqual([]);
    await context.close();
  });
});
