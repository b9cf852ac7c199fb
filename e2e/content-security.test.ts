import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, launchBrowser, openPage, settle } from './browser.js';
import { addFromProductPage } from './helpers.js';

/**
 * The shop's Content-Security-Policy forbids eval. zod probes `new Function` while it builds an
 * object schema unless told not to, and a page whose chunk built one before that setting ran was
 * reported by Chrome as a CSP violation (Lighthouse: best practices 96 on the product pages, the
 * cart and the checkout). Every storefront page a shopper meets, with the cart filled, is read
 * with Chrome's own issue reporting on: no CSP issue on any.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PAGES = [
  '/',
  '/products',
  '/products/sweep-and-mop',
  '/products/concentrated-cleaner?variant=var_concentrated-cleaner-lavender-32-oz',
  '/cart',
  '/checkout',
  '/faq',
  '/about',
  '/contact',
  '/auth',
  '/password-reset',
];

async function cspIssues(page: Page): Promise<string[]> {
  const found: string[] = [];
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Audits.issueAdded', (e: { issue: { code: string; details: unknown } }) => {
    if (e.issue.code === 'ContentSecurityPolicyIssue') found.push(`${page.url()}: ${JSON.stringify(e.issue.details).slice(0, 300)}`);
  });
  await cdp.send('Audits.enable');
  return found;
}

describe('the Content-Security-Policy holds on every storefront page', () => {
  it('no page reports a CSP violation, the cart filled (product, cart and checkout pages build schemas)', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    const found = await cspIssues(page);
    await addFromProductPage(page, { id: 'cloth-5-pack', name: '5 - Reusable Cleaning Cloths (5-Pack)' });
    for (const path of PAGES) {
      await page.goto(path);
      await settle(page);
      // A form's schema is built when it is first used: the page's fields are touched as a shopper would.
      const field = page.locator('main input:visible').first();
      if (await field.count()) await field.focus();
    }
    expect(found).toEqual([]);
    expect(errors.filter((e) => /Content Security Policy|unsafe-eval/i.test(e))).toEqual([]);
    await context.close();
  });
});
