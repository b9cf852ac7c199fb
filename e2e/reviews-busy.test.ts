import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFailed } from 'vitest';
import type { Browser, Locator, Page, Request } from 'playwright-core';
import { DESKTOP, WIDTHS, launchBrowser, openPage, screenshot, settle } from './browser.js';
import { axeViolations } from './axe.js';
import { HUMAN_PAUSE_MS, signInThroughForm } from './helpers.js';
import { openDatabase } from '../src/server/db/database.js';
import { createUser } from '../src/server/db/seed/factories.js';
import { makePaidOrder, makeReviewLink } from '../src/server/test/reviews.js';
import { REVIEW_MESSAGES } from '../src/shared/reviews.js';

/**
 * Reviews as a busy shopper meets them (issue [6/8]), through the screens they use: the same
 * review form open in two tabs and sent from both; Back to the form and a reload after sending;
 * the submit button pressed twice. Each must end with one review, the one the shopper sees as
 * saved, and a sentence saying what now holds and what they can do (edit it), never a raw refusal
 * or a second review, and nothing they typed lost. Orders and links are written straight into the
 * worker's shop (src/server/test/reviews.ts): the journeys test the reviews, not the checkout.
 */

const RUN = Date.now().toString(36);
const DAY_MS = 86_400_000;
/** Products no other journey reviews (the buyers are new each run: one review each). */
const TWO_TABS = { id: 'mop-refill-3-pack', name: 'Mop Refill Pads (3-Pack)' };
const BACK_RELOAD = { id: 'whole-home-bundle', name: 'Whole Home Bundle' };
const DOUBLE = { id: 'starter-bundle', name: 'Starter Bundle' };
const LINKED = { id: 'commercial-cleaner-gallon', name: 'Commercial All-Purpose Cleaner Concentrate (1 Gallon)' };

type Shop = ReturnType<typeof openDatabase>;
let browser: Browser;
let shop: Shop;

beforeAll(async () => {
  browser = await launchBrowser();
  shop = openDatabase(`sqlite:${path.join(inject('dataDir'), 'shop.db')}`);
});

afterAll(async () => {
  await shop?.close();
  await browser?.close();
});

/** A customer who can sign in, with a paid, shipped order of the product (their review is "Verified buyer"). */
async function buyerOf(productId: string, label: string): Promise<{ id: string; email: string; password: string }> {
  const user = await createUser(shop.db, {
    email: `busy-${RUN}-${label}@example.com`,
    fullName: 'Morgan Busy',
    emailVerified: true,
  });
  await makePaidOrder(shop, { userId: user.id, productId, shipped: new Date(Date.now() - 5 * DAY_MS) });
  return user;
}

/** The reviews this account or this address has of the product, as stored. */
function storedReviews(productId: string, who: { userId?: string; email?: string }) {
  let q = shop.db.selectFrom('reviews').select(['id', 'title', 'body', 'rating', 'edited_at']).where('product_id', '=', productId);
  if (who.userId) q = q.where('user_id', '=', who.userId);
  if (who.email) q = q.where('email', '=', who.email.toLowerCase());
  return q.execute();
}

function section(page: Page): Locator {
  return page.locator('section#reviews');
}

/** The product page's "Write a review" dialog, its form loaded. */
async function openReviewDialog(page: Page, productId: string): Promise<Locator> {
  if (new URL(page.url()).pathname !== `/products/${productId}`) await page.goto(`/products/${productId}`);
  // The reviews come alive as they come near the screen (hydrate-when-visible.tsx), as a shopper scrolls to them.
  await section(page).scrollIntoViewIfNeeded();
  await section(page).getByRole('button', { name: 'Write a review' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: '1 star' }).waitFor();
  return dialog;
}

/** Stars, title and words typed as a person does, with the pause a person takes. */
async function fillReview(page: Page, form: Locator, o: { stars: 1 | 2 | 3 | 4 | 5; title: string; body: string }): Promise<void> {
  await form
    .locator('label')
    .filter({ has: page.getByRole('radio', { name: o.stars === 1 ? '1 star' : `${o.stars} stars` }) })
    .click();
  await form.getByLabel('Title').fill(o.title);
  await form.getByRole('textbox', { name: 'Your review', exact: true }).fill(o.body);
  await page.waitForTimeout(HUMAN_PAUSE_MS);
}

/** Waits for this sentence, failing with what the form shows instead. */
async function expectSentence(at: Locator, sentence: string): Promise<void> {
  await at
    .getByText(sentence, { exact: true })
    .waitFor()
    .catch(async (err: unknown) => {
      throw new Error(`"${sentence}" not shown; it says: ${await at.innerText()}`, { cause: err });
    });
}

async function dialogShot(page: Page, name: string): Promise<void> {
  await settle(page);
  await page.screenshot({ path: path.join(process.env.SCREENSHOT_DIR ?? 'test-results/screenshots', `${name}.png`) });
}

async function pageShot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await settle(page);
  await screenshot(page, name);
}

/** A failed journey leaves a picture of each of its tabs as they were, to read beside the error. */
function shotsIfFailed(name: string, ...pages: Page[]): void {
  onTestFailed(async () => {
    for (const [i, page] of pages.entries())
      await page
        .screenshot({ path: path.join(process.env.SCREENSHOT_DIR ?? 'test-results/screenshots', `failed-${name}-${i + 1}.png`) })
        .catch(() => undefined);
  });
}

/** The review writes (POST or PUT) a page sends. */
function countWrites(page: Page): Request[] {
  const writes: Request[] = [];
  page.on('request', (r) => {
    if (['POST', 'PUT'].includes(r.method()) && /\/api\/(account\/)?reviews\//.test(new URL(r.url()).pathname)) writes.push(r);
  });
  return writes;
}

describe.each(WIDTHS)('the review form in two tabs at %s px', (label, viewport) => {
  it('a buyer sends the same product’s form from two tabs: the second tab says the review is saved and offers to edit it, keeping what was typed', async () => {
    const buyer = await buyerOf(TWO_TABS.id, `tabs-${label}`);
    const { page: tabA, context, errors } = await openPage(browser, viewport);
    await signInThroughForm(tabA, buyer);
    // The second tab of the same browser: the same session.
    const tabB = await context.newPage();
    const errorsB: string[] = [];
    tabB.on('pageerror', (e) => errorsB.push(e.message));
    shotsIfFailed(`two-tabs-${label}`, tabA, tabB);
    await tabB.goto(`/products/${TWO_TABS.id}`);
    await tabB.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');

    const formA = await openReviewDialog(tabA, TWO_TABS.id);
    const formB = await openReviewDialog(tabB, TWO_TABS.id);
    expect(await formB.getByRole('button', { name: 'Submit review' }).isVisible()).toBe(true);

    const titleA = `Fits my mop ${RUN} ${label}`;
    await fillReview(tabA, formA, { stars: 5, title: titleA, body: 'Three pads, each good for a month of floors.' });
    await formA.getByRole('button', { name: 'Submit review' }).click();
    await expectSentence(formA, REVIEW_MESSAGES.thanksPublished);

    const titleB = `Second thoughts ${RUN} ${label}`;
    const bodyB = 'Written in the other tab: the pads shed a little after a wash.';
    await fillReview(tabB, formB, { stars: 3, title: titleB, body: bodyB });
    await formB.getByRole('button', { name: 'Submit review' }).click();

    // Tab B: what holds now (the review from the other tab is saved) and what to do (Save changes), as a
    // status, not an error; the dialog now edits that review; what was typed here is still in the form.
    const dialogB = tabB.getByRole('dialog', { name: 'Edit your review' });
    await expectSentence(dialogB, REVIEW_MESSAGES.alreadySavedElsewhere);
    expect(await dialogB.getByRole('status').filter({ hasText: REVIEW_MESSAGES.alreadySavedElsewhere }).count()).toBe(1);
    expect(await dialogB.getByRole('alert').filter({ hasText: /\S/ }).count()).toBe(0);
    expect(await dialogB.getByLabel('Title').inputValue()).toBe(titleB);
    expect(await dialogB.getByRole('textbox', { name: 'Your review', exact: true }).inputValue()).toBe(bodyB);
    expect(await dialogB.getByRole('radio', { name: '3 stars' }).isChecked()).toBe(true);
    await dialogB.getByRole('button', { name: 'Save changes' }).waitFor();
    await dialogShot(tabB, `reviews-busy-two-tabs-saved-elsewhere-${label}`);
    expect(await axeViolations(tabB, dialogB)).toEqual([]);

    // Still one review: tab A's.
    let mine = await storedReviews(TWO_TABS.id, { userId: buyer.id });
    expect(mine.map((r) => r.title)).toEqual([titleA]);

    // Saving from tab B edits that one review (no second).
    await dialogB.getByRole('button', { name: 'Save changes' }).click();
    await expectSentence(tabB.getByRole('dialog'), REVIEW_MESSAGES.edited);
    mine = await storedReviews(TWO_TABS.id, { userId: buyer.id });
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ title: titleB, body: bodyB, rating: 3 });
    expect(errors, errors.join(' | ')).toEqual([]);
    expect(errorsB).toEqual([]);
    await context.close();
  });

  it('a request e-mail’s link open in two tabs: the second tab’s send edits the review the first made', async () => {
    const guest = `busy-guest-${RUN}-${label}@example.com`;
    const { orderId } = await makePaidOrder(shop, {
      email: guest,
      name: 'Sam Guest',
      productId: LINKED.id,
      shipped: new Date(Date.now() - 9 * DAY_MS),
    });
    const { token } = await makeReviewLink(shop, { orderId, productId: LINKED.id });
    const { page: tabA, context, errors } = await openPage(browser, viewport);
    const tabB = await context.newPage();
    shotsIfFailed(`link-two-tabs-${label}`, tabA, tabB);
    for (const tab of [tabA, tabB]) {
      await tab.goto(`/review/${token}`);
      await tab.getByRole('heading', { level: 1, name: 'Review your purchase' }).waitFor();
    }
    const formA = tabA.getByRole('form', { name: `Review of ${LINKED.name}` });
    const formB = tabB.getByRole('form', { name: `Review of ${LINKED.name}` });
    await fillReview(tabA, formA, {
      stars: 4,
      title: `Strong stuff ${RUN} ${label}`,
      body: 'A capful in a bucket does the whole shop floor.',
    });
    await formA.getByRole('button', { name: 'Submit review' }).click();
    await expectSentence(tabA.locator('main'), REVIEW_MESSAGES.thanksPublished);

    const titleB = `Strong stuff, tab two ${RUN} ${label}`;
    await fillReview(tabB, formB, { stars: 5, title: titleB, body: 'Written in the second tab: a capful does the floor.' });
    await formB.getByRole('button', { name: 'Submit review' }).click();
    await expectSentence(formB, REVIEW_MESSAGES.alreadySavedElsewhere);
    await tabB.getByRole('heading', { level: 1, name: 'Edit your review' }).waitFor();
    expect(await formB.getByLabel('Title').inputValue()).toBe(titleB);
    await pageShot(tabB, `reviews-busy-link-two-tabs-${label}`);
    expect(await axeViolations(tabB, tabB.locator('main'))).toEqual([]);
    expect((await storedReviews(LINKED.id, { email: guest })).map((r) => r.title)).toEqual([`Strong stuff ${RUN} ${label}`]);

    await formB.getByRole('button', { name: 'Save changes' }).click();
    await expectSentence(tabB.locator('main'), REVIEW_MESSAGES.edited);
    const stored = await storedReviews(LINKED.id, { email: guest });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ title: titleB, rating: 5 });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('Back and reload after sending a review', () => {
  it('from the product page: Back to it and a reload open the saved review to edit; sending again makes no second review', async () => {
    const buyer = await buyerOf(BACK_RELOAD.id, 'went-away');
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, buyer);
    const writes = countWrites(page);
    let dialog = await openReviewDialog(page, BACK_RELOAD.id);
    const title = `Everything in one box ${RUN}`;
    await fillReview(page, dialog, { stars: 4, title, body: 'Cloths, spray bottle and the concentrate: all we needed.' });
    await dialog.getByRole('button', { name: 'Submit review' }).click();
    await expectSentence(dialog, REVIEW_MESSAGES.thanksPublished);
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();

    // Away through the shop's own links, then Back to the product.
    await page.getByRole('banner').getByRole('link', { name: 'Shop', exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === '/products');
    await page.goBack();
    await page.waitForURL((u) => u.pathname === `/products/${BACK_RELOAD.id}`);
    dialog = await openReviewDialog(page, BACK_RELOAD.id);
    await page.getByRole('dialog', { name: 'Edit your review' }).waitFor();
    expect(await dialog.getByLabel('Title').inputValue()).toBe(title);
    expect(await dialog.getByRole('radio', { name: '4 stars' }).isChecked()).toBe(true);
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expectSentence(dialog, REVIEW_MESSAGES.edited);
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();

    // The page reloaded: the same, the review to edit.
    await page.reload();
    dialog = await openReviewDialog(page, BACK_RELOAD.id);
    await page.getByRole('dialog', { name: 'Edit your review' }).waitFor();
    expect(await dialog.getByLabel('Title').inputValue()).toBe(title);
    await dialog.getByRole('button', { name: 'Save changes' }).waitFor();

    expect(await storedReviews(BACK_RELOAD.id, { userId: buyer.id })).toHaveLength(1);
    expect(writes.map((r) => r.method())).toEqual(['POST', 'PUT']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('from a request e-mail’s link: "Edit your review", Back to the link page and a reload all show the saved review to edit', async () => {
    const guest = `busy-reopen-${RUN}@example.com`;
    const { orderId } = await makePaidOrder(shop, {
      email: guest,
      name: 'Alex Back',
      productId: LINKED.id,
      shipped: new Date(Date.now() - 8 * DAY_MS),
    });
    const { token } = await makeReviewLink(shop, { orderId, productId: LINKED.id });
    const { page, context, errors } = await openPage(browser, DESKTOP);
    shotsIfFailed('link-back', page);
    const writes = countWrites(page);
    await page.goto(`/review/${token}`);
    const form = page.getByRole('form', { name: `Review of ${LINKED.name}` });
    const title = `Goes a long way ${RUN}`;
    await fillReview(page, form, { stars: 5, title, body: 'One gallon has lasted the café a whole season.' });
    await form.getByRole('button', { name: 'Submit review' }).click();
    await expectSentence(page.locator('main'), REVIEW_MESSAGES.thanksPublished);

    // "Edit your review" right after: the saved review, to edit (not an empty form to write again).
    await page.getByRole('button', { name: 'Edit your review' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit your review' }).waitFor();
    await form.getByRole('button', { name: 'Save changes' }).waitFor();
    expect(await form.getByLabel('Title').inputValue()).toBe(title);
    expect(await form.getByRole('radio', { name: '5 stars' }).isChecked()).toBe(true);
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expectSentence(page.locator('main'), REVIEW_MESSAGES.edited);

    // On to the product, then Back to the link's page: what holds (the page as it was left, saying the
    // review is saved, or the form on the saved review); from either, a send edits that review.
    await page.getByRole('link', { name: `See ${LINKED.name}` }).click();
    await page.waitForURL((u) => u.pathname === `/products/${LINKED.id}`);
    await page.goBack();
    await page.waitForURL((u) => u.pathname === `/review/${token}`);
    const editForm = page.getByRole('heading', { level: 1, name: 'Edit your review' });
    const editButton = page.locator('main').getByRole('button', { name: 'Edit your review' });
    await editForm.or(editButton).waitFor();
    if (await editButton.isVisible()) {
      expect(await page.locator('main').getByText(REVIEW_MESSAGES.edited, { exact: true }).isVisible()).toBe(true);
      await editButton.click();
      await editForm.waitFor();
    }
    await form.getByRole('button', { name: 'Save changes' }).waitFor();
    expect(await form.getByLabel('Title').inputValue()).toBe(title);
    await page.waitForTimeout(HUMAN_PAUSE_MS);
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expectSentence(page.locator('main'), REVIEW_MESSAGES.edited);

    // Reloaded: the same.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Edit your review' }).waitFor();
    expect(await form.getByLabel('Title').inputValue()).toBe(title);
    await form.getByRole('button', { name: 'Save changes' }).waitFor();
    await pageShot(page, 'reviews-busy-link-reloaded-1280');

    expect(await storedReviews(LINKED.id, { email: guest })).toHaveLength(1);
    expect(writes.map((r) => r.method())).toEqual(['POST', 'PUT', 'PUT']);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a review sent with a double click', () => {
  it('while it is sent the button is disabled and says so; one request, one review', async () => {
    const buyer = await buyerOf(DOUBLE.id, 'double');
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await signInThroughForm(page, buyer);
    const writes = countWrites(page);
    // The answer is held until the button has been looked at: a slow network, without a fixed wait.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/account/reviews/product/${DOUBLE.id}`, async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    const dialog = await openReviewDialog(page, DOUBLE.id);
    await fillReview(page, dialog, { stars: 5, title: `Good start ${RUN}`, body: 'Everything a new flat needs to get clean.' });
    await dialog.getByRole('button', { name: 'Submit review' }).dblclick();

    const sending = dialog.getByRole('button', { name: 'Sending...' });
    await sending.waitFor();
    expect(await sending.isDisabled()).toBe(true);
    expect(await sending.getAttribute('aria-busy')).toBe('true');
    await dialogShot(page, 'reviews-busy-sending-1280');
    release();
    await expectSentence(dialog, REVIEW_MESSAGES.thanksPublished);

    expect(writes.map((r) => r.method())).toEqual(['POST']);
    expect(await storedReviews(DOUBLE.id, { userId: buyer.id })).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
