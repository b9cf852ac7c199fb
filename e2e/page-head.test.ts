import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, launchBrowser, openPage } from './browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Head = { title: string; description: string | null; robots: string | null; canonical: string | null };

function readHead(page: Page): Promise<Head> {
  return page.evaluate(() => ({
    title: document.title,
    description: document.querySelector('meta[name="description"]')?.getAttribute('content') ?? null,
    robots: document.querySelector('meta[name="robots"]')?.getAttribute('content') ?? null,
    canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
  }));
}

/** The head the server writes for this URL (scripts do not run on a fetched document). */
async function serverHead(page: Page, url: string): Promise<Head> {
  return page.evaluate(async (u) => {
    const doc = new DOMParser().parseFromString(await (await fetch(u, { headers: { accept: 'text/html' } })).text(), 'text/html');
    return {
      title: doc.title,
      description: doc.querySelector('meta[name="description"]')?.getAttribute('content') ?? null,
      robots: doc.querySelector('meta[name="robots"]')?.getAttribute('content') ?? null,
      canonical: doc.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
    };
  }, url);
}

/** Client-side navigation, as a link click would do it. */
async function navigate(page: Page, url: string): Promise<void> {
  await page.evaluate((u) => {
    window.history.pushState({}, '', u);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
}

async function expectServerHeadAfterNavigation(page: Page, url: string): Promise<void> {
  const expected = await serverHead(page, url);
  await navigate(page, url);
  await page.waitForFunction((t) => document.title === t, expected.title, { timeout: 10_000 });
  const head = await readHead(page);
  // The server writes the canonical link with its public URL; the browser with its own origin.
  const path = (h: Head) => ({ ...h, canonical: h.canonical && new URL(h.canonical).pathname + new URL(h.canonical).search });
  expect(path(head), url).toEqual(path(expected));
}

describe('the head on client-side navigation', () => {
  it('is the head the server writes for the same page, page after page', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await page.goto('/');
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    for (const url of [
      '/products',
      '/products?category=mops',
      '/products?search=cloth',
      '/products/sweep-and-mop',
      '/products/no-such-product',
      '/faq',
      '/about',
      '/contact',
      '/privacy',
      '/terms',
      '/cart',
      '/auth',
      '/no/such/page',
      '/',
    ]) {
      await expectServerHeadAfterNavigation(page, url);
    }
    expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
    await context.close();
  });
});
