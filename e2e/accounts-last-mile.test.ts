import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, MOBILE, launchBrowser, openPage, screenshot, screenshotBothWidths, settle } from './browser.js';
import { HUMAN_PAUSE_MS, SHIPPING_ADDRESS } from './helpers.js';

/** Issue 29, accounts: guest orders after verifying, password rules, the one bot guard, the greeting, the contact form's focus. */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The verification link e-mailed to this address (newest), read from the outbox; waits for it to be queued. */
async function verificationLink(email: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const db = new Database(path.join(inject('dataDir'), 'shop.db'), { readonly: true, fileMustExist: true });
    try {
      const row = db
        .prepare(`select text from email_outbox where to_address = ? and template_id = 'verify-email' order by created_at desc, id desc`)
        .get(email) as { text: string | null } | undefined;
      const link = /https?:\/\/[^\s"<>]+\/verify-email\?token=[A-Za-z0-9_-]+/.exec(row?.text ?? '')?.[0];
      if (link) return link;
    } finally {
      db.close();
    }
    if (Date.now() > deadline) throw new Error(`No verification e-mail for ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A guest checkout paid on the built-in card page, with `email`; answers the order's id. */
async function guestOrder(page: Page, email: string): Promise<string> {
  const res = await page.request.post('/api/create-checkout-session', {
    headers: { origin: inject('baseUrl') },
    data: { items: [{ productId: 'cloth-5-pack', quantity: 1 }], customerEmail: email, shippingAddress: SHIPPING_ADDRESS },
  });
  expect(res.status()).toBe(200);
  const { url, orderId } = (await res.json()) as { url: string; orderId: string };
  await page.goto(url);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Former Guest');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await page.waitForURL(/order-confirmation|success|thank-you/);
  return orderId;
}

for (const viewport of [DESKTOP, MOBILE]) {
  const w = viewport.width;
  describe(`accounts last mile at ${w} px`, () => {
    it('a former guest signs up, sees the password rule first, is greeted as new, verifies by the e-mailed link and finds the guest order', async () => {
      const { page, context, errors } = await openPage(browser, viewport);
      const email = `former-guest-${w}-${Date.now()}@example.com`;
      const orderId = await guestOrder(page, email);
      await context.clearCookies();

      await page.goto('/auth?tab=signup');
      await page.getByRole('tab', { name: 'Sign Up', selected: true }).waitFor();
      // The rule is there before the first try, and the field says so to a screen reader.
      const password = page.getByLabel('Password', { exact: true });
      await page.getByText('At least 8 characters.', { exact: true }).waitFor();
      expect(await password.getAttribute('aria-describedby')).toMatch(/-rules$/);
      await screenshot(page, `accounts-last-mile-signup-rules-${w}`);
      await page.getByLabel('Full Name').fill('Former Guest');
      await page.getByLabel('Email').fill(email);
      await password.fill('Former-Guest-2026');
      await page.waitForTimeout(HUMAN_PAUSE_MS);
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await page.getByText('Your account has been created successfully.').waitFor();
      await page.waitForURL((u) => u.pathname === '/');

      // Seconds old: welcomed, not "welcomed back"; the order is not the account's before verifying.
      await page.goto('/dashboard');
      await page.getByText('Welcome to EcoClean, Former Guest!').waitFor();
      expect(await page.getByText('Welcome back', { exact: false }).count()).toBe(0);
      await page.getByRole('heading', { name: 'Verify your email address' }).waitFor();
      await screenshot(page, `accounts-last-mile-dashboard-unverified-${w}`);
      await page.goto('/orders');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await settle(page);
      expect(await page.locator(`[id="order-${orderId}"]`).count()).toBe(0);

      // The link from the e-mail in the outbox.
      const link = new URL(await verificationLink(email));
      await page.goto(link.pathname + link.search);
      await page.getByRole('heading', { name: 'Email verified' }).waitFor();
      await page.getByText('1 earlier order placed with this address is now in your account.', { exact: false }).waitFor();
      await screenshot(page, `accounts-last-mile-verified-${w}`);
      await page.getByRole('link', { name: 'View My Orders' }).click();
      await page.locator(`[id="order-${orderId}"]`).waitFor();
      await screenshot(page, `accounts-last-mile-orders-${w}`);

      // The link again: already verified, nothing else happens.
      await page.goto(link.pathname + link.search);
      await page.getByRole('heading', { name: 'Already verified' }).waitFor();
      await page.goto('/dashboard');
      await page.getByText('Welcome to EcoClean, Former Guest!').waitFor();
      expect(await page.getByRole('heading', { name: 'Verify your email address' }).count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    });

    it('the bot timer restarts on a tab change; /password-reset has none', async () => {
      const { page, context, errors } = await openPage(browser, viewport);
      // A quick real person on a form that is already on screen: not refused.
      await page.goto('/auth?tab=signin');
      await page.getByRole('tab', { name: 'Sign In', selected: true }).waitFor();
      await page.waitForTimeout(HUMAN_PAUSE_MS);
      await page.getByLabel('Email').fill('customer@example.com');
      await page.getByLabel('Password', { exact: true }).fill('Customer-Demo-2026');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByText('You have successfully signed in.').waitFor();
      await context.clearCookies();

      // A tab change restarts the timer: a submit at once after it is refused.
      await page.goto('/auth?tab=signin');
      await page.getByRole('tab', { name: 'Sign Up' }).click();
      await page.getByRole('button', { name: 'Sign Up' }).waitFor();
      await page.getByLabel('Full Name').fill('Quick Bot');
      await page.getByLabel('Email').fill('quick.bot@example.com');
      await page.getByLabel('Password', { exact: true }).fill('Quick-Bot-2026');
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await page.getByRole('alert').filter({ hasText: 'Please try again' }).waitFor();

      // /password-reset: no timer (the specification names none there): a quick person gets the e-mail.
      await page.goto('/password-reset');
      await page.getByLabel('Email').fill('customer@example.com');
      await page.getByRole('button', { name: 'Reset Password' }).click();
      await page.getByRole('heading', { name: 'Check your email' }).waitFor();
      expect(await page.getByText('Please try again').count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    });

    it('the contact form focuses its first problem below the sticky header after a failed send', async () => {
      const { page, context, errors } = await openPage(browser, viewport);
      await page.goto('/contact');
      const send = page.getByRole('button', { name: 'Send Message' });
      await page.getByLabel('Subject', { exact: false }).fill('Refills');
      await page.getByLabel('Message', { exact: false }).fill('Do you sell refills?');
      await send.scrollIntoViewIfNeeded();
      await page.waitForTimeout(1600);
      await send.click();
      const focused = page.locator(':focus');
      await expect.poll(() => focused.getAttribute('name')).toBe('name');
      await settle(page);
      const headerBottom = await page.getByRole('banner').evaluate((h) => h.getBoundingClientRect().bottom);
      const field = await focused.evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
      // The label above it shows too: the field sits a little below the header, fully in view.
      expect(field.top).toBeGreaterThanOrEqual(headerBottom);
      expect(field.bottom).toBeLessThanOrEqual(viewport.height);
      await page.screenshot({ path: `test-results/screenshots/accounts-last-mile-contact-focus-${w}.png` });
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}

describe('the verification page explains a bad link', () => {
  it('unknown and missing tokens, at both widths', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await page.goto(`/verify-email?token=${'x'.repeat(43)}`);
    await page.getByText('This verification link is not valid. Send a new one from your account page.').waitFor();
    await screenshotBothWidths(page, 'accounts-last-mile-verify-unknown');
    await page.goto('/verify-email');
    await page.getByText('This verification link is incomplete.', { exact: false }).waitFor();
    // The console shows the 400 of the unknown token as a failed resource only.
    expect(errors).toEqual([]);
    await context.close();
  });
});
