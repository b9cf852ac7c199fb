import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Request } from 'playwright-core';
import { expect, inject } from 'vitest';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };
/** The two widths every screen is tried at, with their labels. */
export const WIDTHS = [
  ['1280', DESKTOP],
  ['390', MOBILE],
] as const;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export function baseUrl(): string {
  return inject('baseUrl');
}

/** A page that fails the test on any uncaught script error or console error. */
export async function openPage(
  browser: Browser,
  viewport = DESKTOP,
  {
    scripts = true,
    base = baseUrl(),
    touch = false,
  }: {
    scripts?: boolean;
    /** Another server than the worker's shop (a journey that starts its own, e.g. with Stripe's fake). */
    base?: string;
    /** A phone's touch screen: `tap()` works, as a person's finger does. */
    touch?: boolean;
  } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, baseURL: base, ...(touch ? { hasTouch: true, isMobile: true } : {}) });
  const page = await context.newPage();
  // A server-rendered page is visible before its script runs; a click then would do nothing.
  // Navigations wait until the app has started (pages without the app, like /pay, at once).
  // (`scripts: false` for a test that blocks the scripts and reads the server's HTML alone.)
  const live = async () => {
    if (scripts) await page.waitForFunction(() => !document.getElementById('root') || document.documentElement.dataset.hydrated === 'true');
  };
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => {
    const res = await goto(...args);
    await live();
    return res;
  };
  page.reload = async (...args) => {
    const res = await reload(...args);
    await live();
    return res;
  };
  trackRequests(page);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  return { context, page, errors };
}

/** Requests a page has open, the stock long-poll left out (it is open whenever a page shows stock). */
const openRequests = new WeakMap<Page, Set<Request>>();
const LONG_POLL = '/api/stock/watch';

function trackRequests(page: Page): void {
  const open = new Set<Request>();
  openRequests.set(page, open);
  page.on('request', (r) => {
    if (!new URL(r.url()).pathname.startsWith(LONG_POLL)) open.add(r);
  });
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
}

/**
 * Playwright's 'networkidle' for a page that keeps a long-poll open: the load event has fired and no
 * other request has been open for `quietMs`. (A page showing stock always has /api/stock/watch
 * waiting, so 'networkidle' never comes.)
 */
export async function quiet(page: Page, { quietMs = 500, timeout = 30_000 } = {}): Promise<void> {
  await page.waitForLoadState('load');
  const open = openRequests.get(page);
  if (!open) throw new Error('quiet() needs a page made by openPage()');
  const deadline = Date.now() + timeout;
  let quietSince = Date.now();
  while (Date.now() - quietSince < quietMs) {
    if (Date.now() > deadline) throw new Error(`page not quiet after ${timeout} ms: ${[...open].map((r) => r.url()).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (open.size > 0) quietSince = Date.now();
  }
}

const SHOTS_DIR = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';

/** Full-page screenshot kept for people to look at (CI artefact; not compared). */
/** `<name>-1280` and `<name>-390`: the page at both widths, then back at the desktop width. */
export async function screenshotBothWidths(page: Page, name: string): Promise<void> {
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize(MOBILE);
  await settle(page);
  await screenshot(page, `${name}-390`);
  await page.setViewportSize(DESKTOP);
  await settle(page);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
}

/**
 * Waits until the page has settled after a resize or before a screenshot: fonts loaded, every CSS
 * transition or animation that ends has ended (one that loops, like a spinner, is not waited for)
 * and two frames drawn. A fixed pause either waits longer than this or, on a busy machine, too little.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const ending = document.getAnimations().filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

/** Boxes in the open dialog whose content is wider than they are (a column cut off, a line to scroll sideways). */
function sidewaysScrolling(page: Page): Promise<string[]> {
  return page
    .getByRole('dialog')
    .evaluate((dialog) =>
      [dialog, ...dialog.querySelectorAll<HTMLElement>('*')]
        .filter((el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className.toString().split(' ').slice(0, 3).join('.')}`),
    );
}

/**
 * The open dialog at 1280 and 390 px, its body scrolled to `at`, as `<name>-<width>.png`; nothing in
 * it may scroll sideways. A dialog is fixed to the screen, so these are pictures of the screen (a
 * full-page one would draw it over the wrong part of the page).
 */
export async function dialogShots(page: Page, at: Locator, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  for (const [size, viewport] of [
    ['1280', DESKTOP],
    ['390', MOBILE],
  ] as const) {
    await page.setViewportSize(viewport);
    await at.scrollIntoViewIfNeeded();
    await settle(page);
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${size}.png`) });
    expect(await sidewaysScrolling(page), `${name} at ${size} px`).toEqual([]);
  }
  await page.setViewportSize(DESKTOP);
  await settle(page);
}

/**
 * A full-page screenshot with the pictures in it: a pass down the page brings every lazy picture
 * near (they wait for an IntersectionObserver), each shown one must have loaded, and the page is
 * back at its top.
 */
export async function screenshotWithPictures(page: Page, name: string): Promise<void> {
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 400) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForFunction(() =>
    [...document.images]
      .filter((img) => img.getClientRects().length > 0)
      .every((img) => img.complete && !img.currentSrc.startsWith('data:')),
  );
  await settle(page);
  await screenshot(page, name);
}
