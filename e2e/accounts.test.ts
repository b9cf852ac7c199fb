import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, MOBILE, launchBrowser, openPage, quiet, screenshot } from './browser.js';

const CUSTOMER = { email: 'customer@example.com', password: 'Customer-Demo-2026' };
const ADMIN = { email: 'admin@example.com', password: 'Admin-Demo-2026' };
const NEW_USER = {
  fullName: 'Robin Journey',
  email: `robin-${Date.now()}@example.com`,
  password: 'First-Pass-2026',
  newPassword: 'Second-Pass-2026',
};

/** A person takes more than the forms' 1-second bot guard to fill them in. */
const HUMAN_PAUSE_MS = 1200;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The password-reset links e-mailed to this address, newest first, read from the outbox table. */
function resetLinks(email: string): string[] {
  const db = new Database(path.join(inject('dataDir'), 'shop.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(`select text from email_outbox where to_address = ? and template_id = 'password-reset' order by created_at desc, id desc`)
      .all(email) as { text: string | null }[];
    return rows.flatMap((row) => {
      const link = /https?:\/\/[^\s"<>]+\/reset-password\?token=[A-Za-z0-9_-]+/.exec(row.text ?? '')?.[0];
      return link ? [link] : [];
    });
  } finally {
    db.close();
  }
}

/** The newest reset link for this address that is not among `seen`; waits for the e-mail to be queued. */
async function newResetLink(email: string, seen: string[] = []): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const link = resetLinks(email).find((l) => !seen.includes(l));
    if (link) return link;
    if (Date.now() > deadline) throw new Error(`No new password-reset e-mail for ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function header(page: Page) {
  return page.getByRole('banner');
}

async function fillSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByRole('tab', { name: 'Sign In', selected: true }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.waitForTimeout(HUMAN_PAUSE_MS);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function signInThroughForm(page: Page, who: { email: string; password: string }): Promise<void> {
  await fillSignIn(page, who.email, who.password);
  await page.getByText('Welcome back!').waitFor();
}

/** Signs in with an API call from the page (same cookie jar as the browser). */
async function signInByApi(page: Page, who: { email: string; password: string }): Promise<void> {
  const status = await page.evaluate(async (creds) => {
    const res = await fetch('/api/auth/sign-in', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...creds, elapsedMs: 5000 }),
    });
    return res.status;
  }, who);
  expect(status).toBe(200);
}

describe('accounts journeys', () => {
  it('sign up → sign out → sign in → reset the password by e-mail link → only the new password works', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await page.goto('/auth?tab=signup');
    await page.getByRole('heading', { name: 'Welcome' }).waitFor();
    await page.getByRole('tab', { name: 'Sign Up', selected: true }).waitFor();
    await page.getByLabel('Full Name').fill(NEW_USER.fullName);
    await page.getByLabel('Email').fill(NEW_USER.email);
    await page.getByLabel('Password', { exact: true }).fill(NEW_USER.password);
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Welcome!', { exact: true }).waitFor();
    await page.getByText('Your account has been created successfully.').waitFor();
    await page.waitForURL((u) => u.pathname === '/');
    const mainNav = header(page).getByRole('navigation', { name: 'Main' });
    await mainNav.getByRole('link', { name: 'Dashboard' }).waitFor();
    expect(await mainNav.getByRole('link', { name: 'Admin' }).count()).toBe(0);

    // The dashboard shows who is signed in.
    await mainNav.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { level: 1, name: 'My Dashboard' }).waitFor();
    await page.getByText(`Signed in as ${NEW_USER.fullName} (${NEW_USER.email})`).waitFor();

    // Signing out from a protected page lands on /auth without the guard's message.
    await header(page).getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have been signed out successfully.').waitFor();
    await page.waitForURL((u) => u.pathname === '/auth' && u.search === '');
    await header(page).getByRole('link', { name: 'Sign in' }).waitFor();
    expect(await mainNav.getByRole('link', { name: 'Dashboard' }).count()).toBe(0);
    expect(await page.getByText('Authentication required').count()).toBe(0);

    await signInThroughForm(page, NEW_USER);
    await page.getByText('You have successfully signed in.').waitFor();
    await page.waitForURL((u) => u.pathname === '/');
    await mainNav.getByRole('link', { name: 'Dashboard' }).waitFor();
    await header(page).getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.pathname === '/auth');

    // Forgot password → the reset tab → "Check your email".
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByRole('tab', { name: 'Reset', selected: true }).waitFor();
    await page.waitForURL(/tab=reset/);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByText('Please enter your email address.').waitFor();
    await page.getByLabel('Email').fill(NEW_USER.email);
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.getByText('Password Reset Email Sent').waitFor();
    await screenshot(page, 'auth-reset-sent-1280');
    await page.getByRole('button', { name: 'Back to Sign In' }).click();
    await page.getByRole('tab', { name: 'Sign In', selected: true }).waitFor();

    // The link from the e-mail opens the new-password form.
    const link = await newResetLink(NEW_USER.email);
    await page.goto(new URL(link).pathname + new URL(link).search);
    await page.getByLabel('New Password').waitFor();
    await page.getByLabel('New Password').fill('short');
    await page.getByLabel('Confirm Password').fill('short');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('Password must be at least 8 characters long').waitFor();
    await page.getByLabel('New Password').fill(NEW_USER.newPassword);
    await page.getByLabel('Confirm Password').fill(`${NEW_USER.newPassword}x`);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await page.getByLabel('Confirm Password').fill(NEW_USER.newPassword);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByRole('heading', { name: 'Password updated successfully' }).waitFor();
    await page.getByText('Password Reset Successful').waitFor();
    await page.getByRole('link', { name: 'Continue to Sign In' }).click();
    await page.waitForURL((u) => u.pathname === '/auth' && u.searchParams.get('tab') === 'signin');

    // The old password no longer works; the new one does.
    await fillSignIn(page, NEW_USER.email, NEW_USER.password);
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await page.getByText('Error signing in').waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth');
    await page.reload();
    await signInThroughForm(page, { email: NEW_USER.email, password: NEW_USER.newPassword });
    await page.waitForURL((u) => u.pathname === '/');

    // A used link is refused.
    await page.goto(new URL(link).pathname + new URL(link).search);
    await page.getByRole('heading', { name: 'Invalid Reset Link' }).waitFor();
    await page.getByText('This password reset link is invalid or has expired').waitFor();
    await page.getByText('Invalid or expired reset token').waitFor();
    expect(await page.getByRole('link', { name: 'Request New Reset Link' }).getAttribute('href')).toBe('/password-reset');

    expect(errors).toEqual([]);
    await context.close();
  });

  it('a protected page sends a guest to sign in and back; a customer is kept out of /admin', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await page.goto('/dashboard');
    await page.getByText('Authentication required').waitFor();
    await page.getByText('Please sign in to access this page').waitFor();
    await page.waitForURL((u) => u.pathname === '/auth' && u.searchParams.get('redirect') === '/dashboard');

    await signInThroughForm(page, CUSTOMER);
    await page.waitForURL((u) => u.pathname === '/dashboard');
    await page.getByRole('heading', { level: 1, name: 'My Dashboard' }).waitFor();
    await page.getByText('(customer@example.com)').waitFor();

    // /orders is protected too and shows who is signed in.
    await page.goto('/orders');
    await page.getByRole('heading', { level: 1, name: 'My Orders' }).waitFor();
    await page.getByText('(customer@example.com)').waitFor();

    // A signed-in customer at /admin stays there and sees the Access Denied panel with the role.
    await page.goto('/admin');
    const denied = page.getByRole('alert').filter({ hasText: 'Access Denied' });
    await denied.getByRole('heading', { level: 1, name: 'Access Denied' }).waitFor();
    await denied.getByText('You need admin privileges to access this page.', { exact: true }).waitFor();
    await denied.getByText('Current role: client', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin');
    expect(await page.getByRole('tab', { name: 'Orders' }).count()).toBe(0);
    expect(await header(page).getByRole('link', { name: 'Admin' }).count()).toBe(0);

    // Opening /auth while signed in says who you are and moves on.
    await page.goto('/auth?redirect=/orders');
    await page.getByText('Logged in as: client (customer@example.com)').waitFor();
    await page.waitForURL((u) => u.pathname === '/orders');

    // Never an open redirect.
    await header(page).getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.pathname === '/auth');
    await page.goto('/auth?redirect=//evil.example/steal');
    await signInThroughForm(page, CUSTOMER);
    await page.waitForURL((u) => u.pathname === '/');
    expect(new URL(page.url()).host).toBe(new URL(inject('baseUrl')).host);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('the admin sees the Admin Dashboard with the e-mail outbox', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await page.goto('/admin');
    await page.waitForURL((u) => u.pathname === '/auth');
    await signInThroughForm(page, ADMIN);
    await page.waitForURL((u) => u.pathname === '/admin');
    await page.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();
    await header(page).getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).waitFor();
    await page.getByRole('tab', { name: 'Email' }).click();
    await page.getByRole('tab', { name: 'Outbox' }).click();
    const outbox = page.getByRole('region', { name: 'E-mail outbox' });
    await outbox.getByRole('table').waitFor();
    const welcome = outbox.getByRole('row').filter({ hasText: NEW_USER.email }).filter({ hasText: 'welcome' });
    await welcome.first().waitFor();
    expect(await welcome.first().textContent()).toMatch(/queued|sending|sent/);

    // The admin's dashboard is titled for admins and links to the back office.
    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();
    await page.getByRole('link', { name: 'Admin Panel' }).click();
    await page.waitForURL((u) => u.pathname === '/admin');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('refuses a submit faster than a person without asking the server', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    const authCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/auth/')) authCalls.push(r.url());
    });
    await page.goto('/auth?tab=signin');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    // The timer restarts on a tab change (specification): the script fills and submits at once after it.
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await page.getByRole('button', { name: 'Sign Up' }).waitFor();
    // Fill in and submit in one go, as a script would.
    await page.evaluate(() => {
      const form = document.querySelector('main form');
      if (!(form instanceof HTMLFormElement)) throw new Error('no form');
      const set = (name: string, value: string) => {
        const input = form.elements.namedItem(name);
        if (input instanceof HTMLInputElement) input.value = value;
      };
      set('fullName', 'Speedy Bot');
      set('email', 'speedy@example.com');
      set('password', 'Speedy-Bot-2026');
      form.requestSubmit();
    });
    await page.getByRole('alert').filter({ hasText: 'Please try again' }).waitFor();
    expect(authCalls).toEqual([]);

    // Changing tab clears the message.
    await page.getByRole('tab', { name: 'Sign In' }).click();
    await page.getByRole('tab', { name: 'Sign In', selected: true }).waitFor();
    expect(await page.getByText('Please try again').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a recovery hash on any page is forwarded to /reset-password; a missing token is explained', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await page.goto('/about#access_token=not-a-real-token&type=recovery');
    await page.waitForURL((u) => u.pathname === '/reset-password' && u.hash.includes('access_token=not-a-real-token'));
    await page.getByRole('heading', { name: 'Invalid Reset Link' }).waitFor();
    await page.goto('/reset-password');
    await page.getByRole('heading', { name: 'Invalid Reset Link' }).waitFor();
    await page.getByText('Invalid or missing reset token').waitFor();

    await page.goto('/password-reset');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Please enter your email address', { exact: true }).waitFor();
    await page.getByLabel('Email').fill('nobody-here@example.com');
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.getByText('Check your email for instructions to reset your password.').first().waitFor();
    expect(await page.getByRole('link', { name: 'Back to Login' }).getAttribute('href')).toBe('/auth');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('account pages render without errors at 1280 px and 390 px (screenshots kept)', async () => {
    // A fresh reset link for the demo customer (validating it does not use it up).
    const { page: setup, context: setupContext } = await openPage(browser, DESKTOP);
    await setup.goto('/password-reset');
    const earlier = resetLinks(CUSTOMER.email);
    await setup.getByLabel('Email').fill(CUSTOMER.email);
    await setup.waitForTimeout(HUMAN_PAUSE_MS);
    await setup.getByRole('button', { name: 'Reset Password' }).click();
    await setup.getByRole('heading', { name: 'Check your email' }).waitFor();
    await setupContext.close();
    const link = new URL(await newResetLink(CUSTOMER.email, earlier));

    for (const viewport of [DESKTOP, MOBILE]) {
      const { page, context, errors } = await openPage(browser, viewport);
      const shots: [string, string, () => Promise<unknown>][] = [
        ['/auth?tab=signin', 'auth-signin', () => page.getByRole('button', { name: 'Sign In' }).waitFor()],
        ['/auth?tab=signup', 'auth-signup', () => page.getByRole('button', { name: 'Sign Up' }).waitFor()],
        ['/auth?tab=reset', 'auth-reset', () => page.getByRole('button', { name: 'Send Reset Link' }).waitFor()],
        ['/password-reset', 'password-reset', () => page.getByRole('button', { name: 'Reset Password' }).waitFor()],
        [link.pathname + link.search, 'reset-password-valid', () => page.getByLabel('New Password').waitFor()],
        ['/reset-password?token=expired-or-wrong', 'reset-password-invalid', () => page.getByText('Invalid Reset Link').waitFor()],
      ];
      const check = async (name: string) => {
        await quiet(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} at ${viewport.width}px overflows`).toBeLessThanOrEqual(1);
        await screenshot(page, `${name}-${viewport.width}`);
      };
      for (const [url, name, ready] of shots) {
        await page.goto(url);
        await ready();
        await check(name);
      }

      await signInByApi(page, ADMIN);
      await page.goto('/dashboard');
      await page.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();
      await check('dashboard');
      await page.goto('/admin?tab=email&view=outbox');
      // One table at every width: a card per e-mail on a phone, a table from 768 px.
      const outbox = page.getByRole('region', { name: 'E-mail outbox' });
      await outbox.getByRole('table').waitFor();
      await outbox.getByText(NEW_USER.email).filter({ visible: true }).first().waitFor();
      await check('admin');
      if (viewport === MOBILE) {
        await page.getByRole('button', { name: 'Open menu' }).click();
        const mobileNav = page.getByRole('navigation', { name: 'Mobile' });
        await mobileNav.getByRole('link', { name: 'Dashboard' }).waitFor();
        await mobileNav.getByRole('link', { name: 'Admin' }).waitFor();
        await screenshot(page, 'menu-signed-in-390');
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
