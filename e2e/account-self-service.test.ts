import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, HUMAN_PAUSE_MS, checkout, signInThroughForm, toast } from './helpers.js';
import { DESKTOP, MOBILE, launchBrowser, openPage, screenshot, settle } from './browser.js';

/**
 * The dashboard's Privacy & Security section (issue 18, item 9): change the password and sign in
 * with the new one; download my data as a JSON file; delete the account, after which signing in
 * fails and the paid order is still in the shop's books. Screenshots at 1280 and 390 px.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const person = { fullName: 'Robin Selfservice', email: `robin-${Date.now()}@example.com`, password: 'First-Pass-2026' };
const NEW_PASSWORD = 'Second-Pass-2027';
/** The order the person paid for, which must outlive their account. */
let orderIdOfPerson = '';

async function signUp(page: Page, who: typeof person): Promise<void> {
  const res = await page.request.post('/api/auth/sign-up', {
    headers: { origin: inject('baseUrl') },
    data: { fullName: who.fullName, email: who.email, password: who.password, elapsedMs: 5000 },
  });
  expect(res.status()).toBe(201);
}

const SHOTS_DIR = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';

/**
 * The page as it is now, at 1280 px and at 390 px: the whole page from its top, or (`viewport`,
 * for an open dialog, whose backdrop covers the screen only) what the screen shows.
 */
async function shootBoth(page: Page, name: string, { viewport = false } = {}): Promise<void> {
  const shoot = async (suffix: string) => {
    if (!viewport) await page.evaluate(() => window.scrollTo(0, 0));
    await settle(page);
    if (viewport) await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${suffix}.png`) });
    else await screenshot(page, `${name}-${suffix}`);
  };
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await shoot('1280');
  await page.setViewportSize(MOBILE);
  await shoot('390');
  await page.setViewportSize(DESKTOP);
  await settle(page);
}

function section(page: Page) {
  return page.getByRole('region', { name: 'Privacy & Security' });
}

describe('account self-service from the dashboard', () => {
  it('changes the password (the current one required), then signs in with the new one only', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    await signUp(page, person);
    await page.goto('/dashboard');
    await section(page).getByRole('button', { name: 'Change Password' }).waitFor();
    await shootBoth(page, 'self-service-section');

    await section(page).getByRole('button', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await dialog.getByLabel('Current Password').fill('Not-The-Password-1');
    await dialog.getByLabel('New Password', { exact: true }).fill('weak');
    await dialog.getByLabel('Confirm New Password').fill('weak');
    await dialog.getByRole('button', { name: 'Update Password' }).click();
    await dialog.getByText('Password must be at least 8 characters long').waitFor();
    await dialog.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
    await dialog.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
    await dialog.getByRole('button', { name: 'Update Password' }).click();
    await dialog.getByText('Current password is incorrect').waitFor();
    await shootBoth(page, 'self-service-change-password-dialog', { viewport: true });

    await dialog.getByLabel('Current Password').fill(person.password);
    await dialog.getByRole('button', { name: 'Update Password' }).click();
    await toast(page, 'Password updated successfully').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    // Still signed in here.
    expect(((await (await page.request.get('/api/session')).json()) as { user: { email: string } | null }).user?.email).toBe(person.email);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.pathname === '/auth');
    const old = await page.request.post('/api/auth/sign-in', {
      headers: { origin: inject('baseUrl') },
      data: { email: person.email, password: person.password, elapsedMs: 5000 },
    });
    expect(old.status()).toBe(401);
    await signInThroughForm(page, { email: person.email, password: NEW_PASSWORD });
    person.password = NEW_PASSWORD;
    expect(errors).toEqual([]);
    await context.close();
  });

  it('downloads my data as a JSON file holding my profile and my order', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, person);
    const orderId = await checkout(page, true);
    await page.goto('/dashboard');
    const downloading = page.waitForEvent('download');
    await section(page).getByRole('link', { name: 'Download My Data' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^ecoclean-my-data-\d{4}-\d{2}-\d{2}\.json$/);
    const file = await download.path();
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      profile: { email: string; fullName: string };
      orders: { id: string; totalCents: number; items: { quantity: number }[] }[];
      loyalty: { points: number };
    };
    expect(data.profile).toMatchObject({ email: person.email, fullName: person.fullName });
    expect(data.orders.map((o) => o.id)).toEqual([orderId]);
    expect(data.orders[0]!.items[0]!.quantity).toBe(2);
    expect(data.orders[0]!.totalCents).toBeGreaterThan(0);
    expect(data.loyalty.points).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();
    orderIdOfPerson = orderId;
  });

  it('deletes the account after asking for the password: signed out, sign-in fails, the paid order stays in the books', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, person);
    await page.goto('/dashboard');
    await section(page).getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Account' });
    await dialog.getByText('This cannot be undone.').waitFor();
    await shootBoth(page, 'self-service-delete-dialog', { viewport: true });
    await dialog.getByRole('button', { name: 'Delete My Account' }).click();
    await dialog.getByText('Please enter your password to delete your account').waitFor();
    await dialog.getByLabel('Password').fill('Not-The-Password-1');
    await dialog.getByRole('button', { name: 'Delete My Account' }).click();
    await dialog.getByText('Current password is incorrect').waitFor();
    await dialog.getByLabel('Password').fill(person.password);
    await dialog.getByRole('button', { name: 'Delete My Account' }).click();
    await toast(page, 'Your account has been deleted').waitFor();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('link', { name: 'Sign in' }).first().waitFor();
    expect(((await (await page.request.get('/api/session')).json()) as { user: unknown }).user).toBeNull();
    expect((await context.cookies()).map((c) => c.name)).not.toContain('sid');
    await shootBoth(page, 'self-service-after-delete');

    await page.goto('/auth?tab=signin');
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Invalid email or password').first().waitFor();
    expect(errors).toEqual([]);
    await context.close();

    const admin = await openPage(browser, DESKTOP);
    await signInThroughForm(admin.page, ADMIN);
    const users = (await (await admin.page.request.get(`/api/admin/users?search=${encodeURIComponent(person.email)}`)).json()) as {
      items: unknown[];
    };
    expect(users.items).toEqual([]);
    const order = await admin.page.request.get(`/api/admin/orders/${orderIdOfPerson}`);
    expect(order.status()).toBe(200);
    const body = (await order.json()) as { order: { userId: string; totalCents: number; paymentStatus: string } };
    expect(body.order).toMatchObject({ userId: 'guest', paymentStatus: 'paid' });
    expect(body.order.totalCents).toBeGreaterThan(0);
    await admin.context.close();
  });
});
