import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { WIDTHS, launchBrowser, openPage, screenshot, screenshotWithPictures, settle } from './browser.js';
import { axeViolations } from './axe.js';
import { HUMAN_PAUSE_MS, signInThroughForm } from './helpers.js';
import { openDatabase } from '../src/server/db/database.js';
import { hashPassword } from '../src/server/accounts/password.js';
import { reviewOptOutToken } from '../src/server/reviews/opt-out.js';
import { insertReview, makePaidOrder, makeReviewLink } from '../src/server/test/reviews.js';
import { pngChunk } from '../src/server/test/images.js';
import { REVIEW_MESSAGES } from '../src/shared/reviews.js';

/**
 * Reviews on the storefront (issue [6/8]) at 1280 and 390 px, through the screens a shopper uses:
 * a signed-in buyer writes a review with a photo from the product page and sees it published with
 * "Verified buyer" and the variant bought; the histogram filters, the sort orders and the pages
 * turn (by keyboard too); a request e-mail's link opens the form signed out and later edits the
 * review it made ("Edited"); My Reviews shows each review's status; the cards show stars and the
 * shop list sorts by Top rated; the opt-out page stops the requests. Orders, links and the other
 * shoppers' reviews are written straight into the worker's shop (src/server/test/reviews.ts): the
 * journeys test the reviews, not the checkout. Every state is photographed and checked with axe.
 */

const RUN = Date.now().toString(36);
const DAY_MS = 86_400_000;
const CLEANER = { id: 'concentrated-cleaner', name: 'Concentrated All-Purpose Cleaner' };
/** The version each width's buyer bought, and how the review names it. */
const BOUGHT = {
  '1280': { variantId: 'var_concentrated-cleaner-lavender-32-oz', label: 'Lavender, 32 oz' },
  '390': { variantId: 'var_concentrated-cleaner-lemon-16-oz', label: 'Lemon, 16 oz' },
} as const;
/** 23 reviews written here (11 five-star, 7 four, 3 three, 2 two, no one-star): three pages of ten. */
const LISTED = { id: 'dish-soap-block', name: 'Solid Dish Soap Block' };
const LISTED_STARS = [5, 5, 4, 5, 3, 5, 4, 2, 5, 4, 5, 5, 4, 3, 5, 2, 4, 5, 4, 3, 5, 4, 5] as const;
/** Nobody reviews it here: its empty state. */
const UNREVIEWED = { id: 'extension-handle', name: 'Telescoping Extension Handle' };
const LINKED = { id: 'glass-cleaning-cloths', name: 'Glass Cleaning Cloths (4-Pack)' };

type Shop = ReturnType<typeof openDatabase>;
let browser: Browser;
let shop: Shop;

beforeAll(async () => {
  browser = await launchBrowser();
  shop = openDatabase(`sqlite:${path.join(inject('dataDir'), 'shop.db')}`);
  await seedListedReviews();
});

afterAll(async () => {
  await shop?.close();
  await browser?.close();
});

/** The listed product's reviews, once per shop: varied stars, dates a day apart, two with photos, one replied to, one edited. */
async function seedListedReviews(): Promise<void> {
  const { n } = await shop.db
    .selectFrom('reviews')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('product_id', '=', LISTED.id)
    .executeTakeFirstOrThrow();
  if (Number(n) > 0) return;
  for (const [i, rating] of LISTED_STARS.entries()) {
    await insertReview(shop, {
      productId: LISTED.id,
      rating,
      at: new Date(Date.now() - (i + 1) * DAY_MS),
      displayName: `Shopper ${String.fromCharCode(65 + i)}.`,
      title: `Review ${i + 1}: ${rating} stars`,
      body:
        i === 0
          ? 'Lasts for weeks at the sink.\nNo plastic bottle to throw away.\n\nRinses clean and leaves no film on glasses.'
          : `Soap block review number ${i + 1}. It does the dishes well enough.`,
      variantLabel: '',
      photos: i === 1 || i === 4 ? [{ url: '/images/products/dish-soap-block.svg', width: 400, height: 400 }] : undefined,
      reply: i === 0 ? 'Thank you! Keep it dry between uses and it lasts even longer.' : undefined,
    });
  }
  // Stamped now, as a review written now would be: the shop's watcher then draws this product's
  // pages and the lists showing its stars again (http/shop-changes.ts reads recent stamps only).
  await shop.db.updateTable('product_ratings').set({ updated_at: new Date().toISOString() }).where('product_id', '=', LISTED.id).execute();
  // One edited by its author (the list says "Edited").
  await shop.db
    .updateTable('reviews')
    .set({ edited_at: new Date(Date.now() - DAY_MS / 2).toISOString() })
    .where('product_id', '=', LISTED.id)
    .where('title', '=', 'Review 3: 4 stars')
    .execute();
}

/** A customer account that can sign in (a new one per width and run: its reviews are its own). */
async function createBuyer(label: string): Promise<{ id: string; email: string; password: string; fullName: string }> {
  const stamp = `${RUN}-${label}`;
  const who = {
    id: `user_e2e_rev_${stamp}`,
    email: `reviewer-${stamp}@example.com`,
    password: 'Review-Pass-2026',
    fullName: 'Robin Reviewer',
  };
  const at = new Date(Date.now() - 60 * DAY_MS).toISOString();
  await shop.db
    .insertInto('users')
    .values({
      id: who.id,
      email: who.email,
      full_name: who.fullName,
      phone: null,
      role: 'client',
      password_hash: await hashPassword(who.password),
      email_verified: 1,
      loyalty_points: 0,
      total_points_earned: 0,
      shipping_address: null,
      billing_address: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return who;
}

/** A small photo (green above, light below, as a bottle on a counter), as a phone's would be; the image pipeline makes its sizes. */
function photoPng(width = 320, height = 240): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = (rgb: number[]) => Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const rows = Array.from({ length: height }, (_, y) => row(y < height * 0.6 ? [0x3f, 0x9a, 0x5f] : [0xe7, 0xe5, 0xe4]));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The whole page from its top (a full-page picture taken scrolled down draws the sticky header mid-page); with its lazy pictures loaded when asked. */
async function pageShot(page: Page, name: string, pictures = false): Promise<void> {
  if (pictures) return screenshotWithPictures(page, name);
  await page.evaluate(() => window.scrollTo(0, 0));
  await settle(page);
  await screenshot(page, name);
}

function section(page: Page): Locator {
  return page.locator('section#reviews');
}

function reviewArticle(page: Page, title: string): Locator {
  return section(page)
    .locator('article')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

/**
 * The product page again until its review titled `title` is there and passes `check` (a new or
 * edited review reaches the cached page and answers within the shop's poll of changes).
 */
async function reloadUntilListed(
  page: Page,
  productId: string,
  title: string,
  check: (article: Locator) => Promise<boolean> = async () => true,
): Promise<Locator> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    await page.goto(`/products/${productId}`);
    const article = reviewArticle(page, title);
    if ((await article.count()) > 0 && (await check(article))) return article;
    if (Date.now() > deadline) throw new Error(`The review "${title}" did not appear as expected on /products/${productId}`);
    await page.waitForTimeout(500);
  }
}

const isEdited = async (article: Locator) => (await article.locator('[data-review-edited]').count()) === 1;

/** The stars each listed review shows, top to bottom ("5 out of 5 stars" → 5). */
async function listedStars(page: Page): Promise<number[]> {
  const labels = await section(page)
    .locator('article [role="img"][aria-label$="out of 5 stars"]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
  return labels.map((l) => Number(l.split(' ')[0]));
}

async function listSettled(page: Page): Promise<void> {
  await section(page).locator('[data-reviews-list][aria-busy="false"]').waitFor();
}

/** Tab from the top of the page until `target` has the focus (at most 60 presses): whether it got there. */
async function tabUntil(page: Page, target: Locator): Promise<boolean> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.evaluate(() => window.scrollTo(0, 0));
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return true;
  }
  return false;
}

async function expectNoAxe(page: Page, at: Locator, what: string): Promise<void> {
  expect(await axeViolations(page, at), what).toEqual([]);
}

async function dialogShot(page: Page, name: string): Promise<void> {
  await settle(page);
  await page.screenshot({ path: path.join(process.env.SCREENSHOT_DIR ?? 'test-results/screenshots', `${name}.png`) });
}

describe.each(WIDTHS)('reviews on the storefront at %s px', (label, viewport) => {
  let buyer: Awaited<ReturnType<typeof createBuyer>>;
  let reviewTitle: string;

  it('a buyer writes a review with a photo from the product page; it is published, "Verified buyer", "Bought: …"', async () => {
    buyer = await createBuyer(label);
    await makePaidOrder(shop, {
      userId: buyer.id,
      productId: CLEANER.id,
      variantId: BOUGHT[label].variantId,
      shipped: new Date(Date.now() - 5 * DAY_MS),
    });
    const { page, context, errors } = await openPage(browser, viewport);
    await signInThroughForm(page, buyer);
    await page.goto(`/products/${CLEANER.id}`);

    // The reviews come alive as they come near the screen (hydrate-when-visible.tsx), as a shopper scrolls to them.
    await section(page).scrollIntoViewIfNeeded();
    const write = section(page).getByRole('button', { name: 'Write a review' });
    await write.click();
    const dialog = page.getByRole('dialog', { name: 'Write a review' });
    await dialog.getByRole('radio', { name: '1 star' }).waitFor();
    expect(await dialog.getByText('Verified buyer', { exact: true }).isVisible()).toBe(true);
    expect(await dialog.getByText(`Bought: ${BOUGHT[label].label}`, { exact: true }).isVisible()).toBe(true);
    // The name shown: first name and initial, ready to change.
    expect(await dialog.getByLabel('Name shown with your review').inputValue()).toBe('Robin R.');

    // Sent empty: each field says what it needs, beside it.
    await dialog.getByRole('button', { name: 'Submit review' }).click();
    await dialog.getByText(REVIEW_MESSAGES.ratingRequired, { exact: true }).waitFor();
    await dialog.getByText(REVIEW_MESSAGES.titleRequired, { exact: true }).waitFor();
    await dialog.getByText(REVIEW_MESSAGES.bodyTooShort, { exact: true }).waitFor();
    await dialogShot(page, `storefront-reviews-form-errors-${label}`);
    await expectNoAxe(page, dialog, 'the review form with its errors');

    // The stars are five radios: Tab reaches them from the form's top, the arrows choose.
    await dialog.getByText('Your rating').click();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('radio');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await dialog.getByRole('radio', { name: '4 stars' }).isChecked()).toBe(true);
    await page.keyboard.press('ArrowRight');
    expect(await dialog.getByRole('radio', { name: '5 stars' }).isChecked()).toBe(true);

    reviewTitle = `Streak-free every time ${RUN} ${label}`;
    await dialog.getByLabel('Title').fill(reviewTitle);
    await dialog
      .getByRole('textbox', { name: 'Your review', exact: true })
      .fill('One capful does the kitchen.\nThe bottle lasts a month.\n\nLavender is gentle.');
    await dialog.getByText(/^\d+ of 5,000 characters$/).waitFor();
    await dialog.getByLabel('Add photos').setInputFiles({ name: 'counter.png', mimeType: 'image/png', buffer: photoPng() });
    await dialog.getByRole('img', { name: 'Upload 1: counter.png' }).waitFor();
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    await dialogShot(page, `storefront-reviews-form-filled-${label}`);
    await dialog.getByRole('button', { name: 'Submit review' }).click();
    await dialog
      .getByText(REVIEW_MESSAGES.thanksPublished, { exact: true })
      .waitFor()
      .catch(async (err: unknown) => {
        throw new Error(`No thanks; the dialog says: ${await dialog.innerText()}`, { cause: err });
      });
    await dialogShot(page, `storefront-reviews-form-sent-${label}`);
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();

    // Published on the product page: verified, the version bought, the photo.
    const article = await reloadUntilListed(page, CLEANER.id, reviewTitle);
    // Near the price: the stars, the average and the count, a link down to the reviews.
    const ratingLink = page.locator('[data-rating-link]');
    expect(await ratingLink.getAttribute('href')).toBe('#reviews');
    expect(await ratingLink.getByRole('img').getAttribute('aria-label')).toMatch(/^\d\.\d out of 5 stars, \d+ reviews?$/);
    await pageShot(page, `storefront-reviews-product-top-${label}`);
    await ratingLink.click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#reviews');
    await expect.poll(() => section(page).evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBeLessThan(200);
    await article.scrollIntoViewIfNeeded();
    await pageShot(page, `storefront-reviews-written-${label}`, true);
    expect(await article.getByText('Verified buyer', { exact: true }).isVisible()).toBe(true);
    expect(await article.getByText(`Bought: ${BOUGHT[label].label}`, { exact: true }).isVisible()).toBe(true);
    expect(await article.getByRole('img', { name: '5 out of 5 stars' }).count()).toBe(1);
    const thumb = article.getByRole('button', { name: /^View photo 1 of 1 from Robin R\./ });
    await thumb.click();
    const photo = page.getByRole('dialog', { name: 'Photo 1 of 1 from Robin R.' });
    await photo.getByRole('img').waitFor();
    await expect.poll(() => photo.getByRole('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await dialogShot(page, `storefront-reviews-photo-${label}`);
    await page.keyboard.press('Escape');
    await photo.waitFor({ state: 'hidden' });

    // Once written, the button opens their review to edit.
    await section(page).scrollIntoViewIfNeeded();
    await section(page).getByRole('button', { name: 'Write a review' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit your review' });
    expect(await edit.getByLabel('Title').inputValue()).toBe(reviewTitle);
    expect(await edit.getByRole('radio', { name: '5 stars' }).isChecked()).toBe(true);
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the histogram filters, the sort orders and the pages turn (by keyboard too); axe finds nothing', async () => {
    const { page, context, errors } = await openPage(browser, viewport);
    await page.goto(`/products/${LISTED.id}`);
    const reviews = section(page);
    await reviews.scrollIntoViewIfNeeded();
    // The first page is in the server's HTML: ten reviews, newest first, three pages.
    expect(await reviews.locator('article').count()).toBe(10);
    await reviews.getByText('Page 1 of 3', { exact: true }).waitFor();
    expect(
      await reviews
        .getByRole('heading', { level: 3 })
        .filter({ hasText: /^Review \d+:/ })
        .first()
        .textContent(),
    ).toBe('Review 1: 5 stars');
    // The first review: its paragraphs and line breaks, the shop's reply; another was edited.
    await reviews.getByText('Reply from EcoClean').waitFor();
    expect(await reviews.locator('[data-review-edited]').count()).toBe(1);
    await pageShot(page, `storefront-reviews-section-${label}`, true);
    await expectNoAxe(page, reviews, 'the reviews section');

    // Keyboard: Tab from the page's top reaches the histogram's first row; Enter filters, Enter again shows all.
    const five = reviews.getByRole('button', { name: '5 stars, 11 reviews' });
    expect(await tabUntil(page, five), 'Tab reaches the histogram').toBe(true);
    await page.keyboard.press('Enter');
    await listSettled(page);
    expect(await five.getAttribute('aria-pressed')).toBe('true');
    expect(new Set(await listedStars(page))).toEqual(new Set([5]));
    await reviews.getByText('Showing 11 reviews with 5 stars').waitFor();
    await pageShot(page, `storefront-reviews-filtered-${label}`, true);
    await expectNoAxe(page, reviews, 'the reviews filtered to five stars');
    await page.keyboard.press('Enter');
    await listSettled(page);
    expect(await five.getAttribute('aria-pressed')).toBe('false');
    expect(await reviews.locator('article').count()).toBe(10);

    // Tab order: the histogram's rows one after another.
    await five.focus();
    await page.keyboard.press('Tab');
    expect(await reviews.getByRole('button', { name: '4 stars, 7 reviews' }).evaluate((el) => el === document.activeElement)).toBe(true);

    // A row with none: the filter's empty state, and Show all.
    await reviews.getByRole('button', { name: '1 star, 0 reviews' }).click();
    await reviews.locator('[data-reviews-filter-empty]').waitFor();
    expect(await reviews.getByText('No 1-star reviews yet.').isVisible()).toBe(true);
    await pageShot(page, `storefront-reviews-filter-empty-${label}`);
    await reviews.getByRole('button', { name: 'Show all', exact: true }).click();
    await listSettled(page);
    expect(await reviews.locator('article').count()).toBe(10);

    // Two stars, then the sort.
    await reviews.getByRole('button', { name: '2 stars, 2 reviews' }).click();
    await listSettled(page);
    expect(await listedStars(page)).toEqual([2, 2]);
    await reviews.getByRole('button', { name: 'Show all', exact: true }).click();
    await listSettled(page);

    const sort = reviews.getByLabel('Sort reviews');
    await sort.selectOption('lowest');
    await listSettled(page);
    const lowest = await listedStars(page);
    expect(lowest.slice(0, 3)).toEqual([2, 2, 3]);
    expect([...lowest].sort((a, b) => a - b)).toEqual(lowest);
    await sort.selectOption('highest');
    await listSettled(page);
    expect(await listedStars(page)).toEqual(Array(10).fill(5));
    await sort.selectOption('photos');
    await listSettled(page);
    expect(await reviews.locator('article').count()).toBe(2);
    expect(await reviews.getByRole('button', { name: /^View photo 1 of 1 from Shopper/ }).count()).toBe(2);
    await sort.selectOption('newest');
    await listSettled(page);

    // Pages: Next twice (the last has three), Previous; the new page's list takes the focus.
    await reviews.getByRole('button', { name: 'Next', exact: true }).click();
    await listSettled(page);
    await reviews.getByText('Page 2 of 3', { exact: true }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-reviews-list'))).toBe(true);
    expect(await reviews.locator('article').getByRole('heading').first().textContent()).toBe('Review 11: 5 stars');
    await reviews.getByRole('button', { name: 'Next', exact: true }).click();
    await listSettled(page);
    await reviews.getByText('Page 3 of 3', { exact: true }).waitFor();
    expect(await reviews.locator('article').count()).toBe(3);
    expect(await reviews.getByRole('button', { name: 'Next', exact: true }).isDisabled()).toBe(true);
    await pageShot(page, `storefront-reviews-page-3-${label}`, true);
    await reviews.getByRole('button', { name: 'Previous', exact: true }).click();
    await listSettled(page);
    await reviews.getByText('Page 2 of 3', { exact: true }).waitFor();

    // Back leaves the product page as it came (the list's state is not in the address).
    expect(new URL(page.url()).pathname).toBe(`/products/${LISTED.id}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a product without reviews says so; the cards show stars and count; the shop sorts Top rated', async () => {
    const { page, context, errors } = await openPage(browser, viewport);
    await page.goto(`/products/${UNREVIEWED.id}`);
    const empty = section(page).locator('[data-reviews-empty]');
    await empty.getByText('No reviews yet', { exact: true }).waitFor();
    // Signed out: a way to sign in that comes back here.
    expect(await empty.getByRole('link', { name: REVIEW_MESSAGES.signInToReview }).getAttribute('href')).toContain(
      encodeURIComponent(`/products/${UNREVIEWED.id}#reviews`),
    );
    expect(await page.locator('[data-rating-link]').count()).toBe(0);
    await section(page).scrollIntoViewIfNeeded();
    await pageShot(page, `storefront-reviews-empty-${label}`);
    await expectNoAxe(page, section(page), 'the empty reviews section');

    await page.goto('/products?sort=rating');
    expect(await page.getByLabel('Sort by').inputValue()).toBe('rating');
    const cards = page.locator('article').filter({ has: page.locator('[data-card-rating]') });
    await cards.first().waitFor();
    // Rated cards first, the best average first (each card's stars name it).
    const labels = await page
      .locator('main article')
      .evaluateAll((els) => els.map((el) => el.querySelector('[data-card-rating] [role="img"]')?.getAttribute('aria-label') ?? null));
    const averages = labels.map((l) => (l ? Number(l.split(' ')[0]) : null));
    const rated = averages.filter((a): a is number => a !== null);
    expect(rated.length).toBeGreaterThanOrEqual(2);
    expect(averages.slice(0, rated.length)).toEqual(rated);
    expect([...rated].sort((a, b) => b - a)).toEqual(rated);
    const soap = page.locator('main article').filter({ hasText: LISTED.name });
    expect(await soap.locator('[data-card-rating] [role="img"]').getAttribute('aria-label')).toBe(
      `${(Math.round((LISTED_STARS.reduce((a, b) => a + b, 0) / LISTED_STARS.length) * 10) / 10).toFixed(1)} out of 5 stars, 23 reviews`,
    );
    expect(await soap.locator('[data-card-rating]').textContent()).toBe('(23)');
    await pageShot(page, `storefront-reviews-shop-top-rated-${label}`);
    await expectNoAxe(page, page.locator('main'), 'the shop sorted Top rated');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a request e-mail link opens the form signed out, writes once, then edits the review ("Edited")', async () => {
    const guest = `guest-${RUN}-${label}@example.com`;
    const { orderId } = await makePaidOrder(shop, {
      email: guest,
      name: 'Casey Guest',
      productId: LINKED.id,
      shipped: new Date(Date.now() - 10 * DAY_MS),
    });
    const { token, requestId } = await makeReviewLink(shop, { orderId, productId: LINKED.id });
    const { page, context, errors } = await openPage(browser, viewport);
    await page.goto(`/review/${token}`);
    await page.getByRole('heading', { level: 1, name: 'Review your purchase' }).waitFor();
    const form = page.getByRole('form', { name: `Review of ${LINKED.name}` });
    await form.waitFor();
    expect(await form.getByText(LINKED.name, { exact: true }).isVisible()).toBe(true);
    expect(await form.getByText('Verified buyer', { exact: true }).isVisible()).toBe(true);
    expect(await form.getByLabel('Name shown with your review').inputValue()).toBe('Casey G.');
    // Nobody is signed in by the link.
    expect(
      await page
        .getByRole('banner')
        .getByRole('link', { name: /Sign In/i })
        .count(),
    ).toBeGreaterThan(0);
    await pageShot(page, `storefront-reviews-link-page-${label}`);
    await expectNoAxe(page, page.locator('main'), 'the link page');

    const title = `Clear windows ${RUN} ${label}`;
    await form
      .locator('label')
      .filter({ has: page.getByRole('radio', { name: '4 stars' }) })
      .click();
    await form.getByLabel('Title').fill(title);
    await form.getByRole('textbox', { name: 'Your review', exact: true }).fill('No lint on the glass, washed a dozen times.');
    // A file that only claims to be a picture: the server's sentence, under the photos.
    await form.getByLabel('Add photos').setInputFiles({ name: 'broken.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    await form.getByRole('button', { name: 'Submit review' }).click();
    const refused = form.getByRole('alert').filter({ hasText: /image/i });
    await refused.waitFor();
    expect(await form.getByLabel('Add photos').getAttribute('aria-describedby')).toContain(await refused.getAttribute('id'));
    await pageShot(page, `storefront-reviews-link-photo-refused-${label}`);
    await form.getByRole('button', { name: 'Remove photo 1' }).click();
    await form.getByRole('button', { name: 'Submit review' }).click();
    await page.getByText(REVIEW_MESSAGES.thanksPublished, { exact: true }).waitFor();
    await pageShot(page, `storefront-reviews-link-sent-${label}`);

    // The same link again: the review it made, to edit.
    await page.goto(`/review/${token}`);
    await page.getByRole('heading', { level: 1, name: 'Edit your review' }).waitFor();
    expect(await form.getByLabel('Title').inputValue()).toBe(title);
    expect(await form.getByRole('radio', { name: '4 stars' }).isChecked()).toBe(true);
    await form.getByRole('textbox', { name: 'Your review', exact: true }).fill('No lint on the glass, washed two dozen times now.');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(REVIEW_MESSAGES.edited, { exact: true }).waitFor();

    const article = await reloadUntilListed(page, LINKED.id, title, isEdited);
    expect(await article.getByText('two dozen times now').isVisible()).toBe(true);
    expect(await article.getByText('Verified buyer', { exact: true }).isVisible()).toBe(true);
    await article.scrollIntoViewIfNeeded();
    await pageShot(page, `storefront-reviews-link-edited-on-product-${label}`, true);

    // Unknown and expired links say so, with a way on.
    await page.goto('/review/not-a-real-token');
    await page.getByText(REVIEW_MESSAGES.linkUnknown, { exact: true }).waitFor();
    const expired = await makeReviewLink(shop, {
      orderId: (await makePaidOrder(shop, { email: guest, productId: LINKED.id, shipped: new Date(Date.now() - 90 * DAY_MS) })).orderId,
      productId: LINKED.id,
      expiresAt: new Date(Date.now() - DAY_MS),
    });
    await page.goto(`/review/${expired.token}`);
    await page.getByText(REVIEW_MESSAGES.linkExpired, { exact: true }).waitFor();
    expect(
      await page
        .locator('main')
        .getByRole('link', { name: /^(See |Browse the shop)/ })
        .count(),
    ).toBe(1);
    await pageShot(page, `storefront-reviews-link-expired-${label}`);
    await expectNoAxe(page, page.locator('main'), 'the expired link page');

    // The e-mail's "stop" link: a button, then the answer's sentence; a forged one is refused.
    await page.goto(`/reviews/opt-out?token=${encodeURIComponent(await reviewOptOutToken(shop.db, requestId))}`);
    await page.getByRole('heading', { level: 1, name: 'Review requests' }).waitFor();
    await pageShot(page, `storefront-reviews-opt-out-${label}`);
    await expectNoAxe(page, page.locator('main'), 'the opt-out page');
    await page.getByRole('button', { name: 'Stop review requests' }).click();
    await page.getByText(REVIEW_MESSAGES.optedOut, { exact: true }).waitFor();
    await pageShot(page, `storefront-reviews-opted-out-${label}`);
    const row = await shop.db.selectFrom('email_opt_outs').select('kind').where('email', '=', guest).executeTakeFirst();
    expect(row?.kind).toBe('review-requests');
    await page.goto(`/reviews/opt-out?token=${encodeURIComponent(`${requestId}.${'A'.repeat(43)}`)}`);
    await page.getByRole('button', { name: 'Stop review requests' }).click();
    await page.getByText(REVIEW_MESSAGES.linkUnknown, { exact: true }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('My Reviews shows each review with its status, and edits one', async () => {
    // Besides the review written above: one waiting for approval and one the shop hid, with its reason.
    await insertReview(shop, { productId: UNREVIEWED.id, userId: buyer.id, rating: 3, title: `Waiting ${RUN}`, status: 'pending' });
    await insertReview(shop, {
      productId: 'laundry-powder',
      userId: buyer.id,
      rating: 2,
      title: `Hidden ${RUN}`,
      status: 'hidden',
      hiddenReason: 'off-topic',
    });
    const { page, context, errors } = await openPage(browser, viewport);
    await signInThroughForm(page, buyer);
    await page.goto('/dashboard');
    await page.getByRole('link', { name: 'View My Reviews' }).click();
    await page.getByRole('heading', { level: 1, name: 'My Reviews' }).waitFor();
    const list = page.locator('[data-my-reviews]');
    await list.waitFor();
    const item = (title: string) => list.locator('li').filter({ has: page.getByRole('heading', { name: title }) });
    expect(await item(reviewTitle).locator('[data-review-status]').textContent()).toBe('Published');
    expect(await item(`Waiting ${RUN}`).locator('[data-review-status]').textContent()).toBe('Waiting for approval');
    expect(await item(`Hidden ${RUN}`).locator('[data-review-status]').textContent()).toBe('Hidden by the shop: Off-topic');
    await item(reviewTitle).getByRole('link', { name: CLEANER.name }).waitFor();
    await pageShot(page, `storefront-reviews-mine-${label}`, true);
    await expectNoAxe(page, page.locator('main'), 'My Reviews');

    await item(reviewTitle).getByRole('button', { name: /^Edit/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit your review' });
    await dialog.getByLabel('Title').waitFor();
    // The photo sent with it is kept unless removed.
    await dialog.getByRole('img', { name: 'Upload 1' }).waitFor();
    reviewTitle = `${reviewTitle} (updated)`;
    await dialog.getByLabel('Title').fill(reviewTitle);
    await dialogShot(page, `storefront-reviews-mine-edit-${label}`);
    await expectNoAxe(page, dialog, 'the edit dialog');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByText(REVIEW_MESSAGES.edited, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
    await item(reviewTitle).waitFor();
    const edited = await reloadUntilListed(page, CLEANER.id, reviewTitle, isEdited);
    expect(await edited.getByRole('button', { name: /^View photo 1 of 1/ }).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
