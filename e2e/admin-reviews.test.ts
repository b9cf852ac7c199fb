import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { ADMIN, CUSTOMER, call, checkout, signInThroughForm, toast } from './helpers.js';
import { WIDTHS, dialogShots, launchBrowser, openPage, screenshot, settle } from './browser.js';
import { axeViolations } from './axe.js';
import { openShopDb } from './subscription-fixtures.js';
import { REVIEW_HIDE_REASON_LABELS, REVIEW_MESSAGES } from '../src/shared/reviews.js';

/**
 * The owner's Reviews tab (issue [6/8]) at 1280 and 390 px: the owner holds new reviews for
 * approval in Settings; a customer who bought the product reviews it (held, pending); more reviews
 * are written straight into the worker's shop. The owner finds them with the product filter,
 * filters by rating and with photos (the address keeps the filters through a reload and Back),
 * approves one, hides one for a stated reason (the reason is required), replies once, hides a
 * review's photos and approves the rest in bulk; then reads the Figures for a custom period.
 * Every screen and dialog is photographed and checked with axe; the dialogs are driven by keyboard.
 */

const PRODUCTS = {
  '1280': { id: 'window-squeegee', name: 'Window Squeegee' },
  '390': { id: 'glass-spray-bottle', name: 'Glass Spray Bottle (16 oz)' },
} as const;
const PHOTO = '/images/products/mesh-laundry-bag.svg';

let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };
let customer: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await openPage(browser);
  await signInThroughForm(admin.page, ADMIN);
  customer = await openPage(browser);
  await signInThroughForm(customer.page, CUSTOMER);
});

afterAll(async () => {
  // The worker's shop goes back to publishing at once, for the files that run after this one.
  if (admin)
    await call(admin.page, 'PUT', '/api/admin/review-settings', { moderation: 'publish', requestAfterDays: 10, allowWithoutOrder: false });
  await customer?.context.close();
  await admin?.context.close();
  await browser?.close();
});

type Seed = {
  id: string;
  productId: string;
  rating: number;
  title: string;
  body: string;
  name: string;
  email: string;
  photos?: number;
  edited?: boolean;
  minutesAgo: number;
};

/** Pending reviews as a guest's request link leaves them (no account, no order: not "Verified buyer"). */
function seedReviews(reviews: Seed[]): void {
  const db = openShopDb();
  try {
    const insert = db.prepare(
      `insert into reviews (id, product_id, author_key, user_id, email, display_name, order_id, variant_label, rating, title, body,
        status, photos_hidden, photo_count, source, created_at, updated_at, edited_at, published_at)
       values (?, ?, ?, null, ?, ?, null, 'Grey', ?, ?, ?, 'pending', 0, ?, 'link', ?, ?, ?, null)`,
    );
    const photo = db.prepare(
      `insert into review_photos (id, review_id, position, url, width, height, created_at) values (?, ?, ?, ?, 400, 400, ?)`,
    );
    for (const r of reviews) {
      const at = new Date(Date.now() - r.minutesAgo * 60_000).toISOString();
      const edited = r.edited ? new Date(Date.now() - (r.minutesAgo - 1) * 60_000).toISOString() : null;
      insert.run(
        r.id,
        r.productId,
        `email:${r.email}`,
        r.email,
        r.name,
        r.rating,
        r.title,
        r.body,
        r.photos ?? 0,
        at,
        edited ?? at,
        edited,
      );
      for (let i = 0; i < (r.photos ?? 0); i++) photo.run(`${r.id}_p${i}`, r.id, i, PHOTO, at);
    }
  } finally {
    db.close();
  }
}

function storedReview(id: string): {
  status: string;
  hidden_reason: string | null;
  hidden_note: string | null;
  reply_text: string | null;
  photos_hidden: number;
} {
  const db = openShopDb();
  try {
    return db
      .prepare('select status, hidden_reason, hidden_note, reply_text, photos_hidden from reviews where id = ?')
      .get(id) as ReturnType<typeof storedReview>;
  } finally {
    db.close();
  }
}

const queue = (page: Page) => page.getByRole('table', { name: 'Reviews, newest first' });
const rows = (page: Page) =>
  queue(page)
    .getByRole('row')
    .filter({ hasNot: page.getByRole('columnheader') });
const rowOf = (page: Page, title: string) => rows(page).filter({ hasText: title });
const chip = (page: Page, name: RegExp) => page.getByRole('group', { name: 'Filter by status' }).getByRole('button', { name });
const panel = (page: Page) => page.getByRole('tabpanel').first();

/** The queue has answered for these filters: no skeleton, nothing greyed. */
async function settled(page: Page): Promise<void> {
  await page.getByRole('status', { name: 'Loading reviews' }).waitFor({ state: 'detached' });
  await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
}

async function expectNoAxe(page: Page, at: Locator, what: string): Promise<void> {
  expect(await axeViolations(page, at), `axe: ${what}`).toEqual([]);
}

async function shotsAt(page: Page, name: string, label: string): Promise<void> {
  // From the top: a full-page picture of a scrolled page draws the sticky header across its middle.
  await page.evaluate(() => window.scrollTo(0, 0));
  await settle(page);
  await screenshot(page, `reviews-${name}-${label}`);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    `${name}: wider than the screen`,
  ).toBeLessThanOrEqual(0);
}

for (const [label, viewport] of WIDTHS) {
  describe(`the owner's Reviews tab (${label} px)`, () => {
    const product = PRODUCTS[label];
    const tag = `${label}-${Date.now().toString(36)}`;
    const t = {
      customer: `Great squeegee ${tag}`,
      photos: `Photos of it ${tag}`,
      abusive: `Rude words ${tag}`,
      low: `Did not work for me ${tag}`,
      long: `A long story ${tag}`,
    };
    const ids = {
      photos: `rev_e2e_${tag}_photos`,
      abusive: `rev_e2e_${tag}_abusive`,
      low: `rev_e2e_${tag}_low`,
      long: `rev_e2e_${tag}_long`,
    };
    let customerReviewId = '';

    beforeAll(async () => {
      await admin.page.setViewportSize(viewport);
    });

    it('holds new reviews for approval (Settings), with the server’s range shown at its field', async () => {
      const { page } = admin;
      await page.goto('/admin?tab=reviews&view=settings');
      await page.getByRole('tab', { name: 'Settings', selected: true }).waitFor();
      const days = page.getByLabel('Days after shipping');
      await days.waitFor();
      await expectNoAxe(page, panel(page), 'settings');
      await shotsAt(page, 'settings', label);

      // Out of range: the schema's sentence at the field, nothing saved.
      await days.fill('0');
      await page.getByRole('button', { name: 'Save Review Settings' }).click();
      await expect.poll(() => page.getByText(REVIEW_MESSAGES.requestDaysRange).count()).toBeGreaterThan(0);
      await expect.poll(() => days.getAttribute('aria-invalid')).toBe('true');

      await page.getByRole('radio', { name: /Hold for approval/ }).check();
      await days.fill('14');
      await page.getByRole('button', { name: 'Save Review Settings' }).click();
      await toast(page, 'Settings updated').waitFor();
      await page.reload();
      await expect.poll(() => page.getByLabel('Days after shipping').inputValue()).toBe('14');
      expect(await page.getByRole('radio', { name: /Hold for approval/ }).isChecked()).toBe(true);
      expect(await page.getByLabel(/Allow reviews from signed-in customers/).isChecked()).toBe(false);
      await page.getByText('never marked “Verified buyer”', { exact: false }).waitFor();
    });

    it('a customer who bought the product reviews it and it waits (pending); more reviews arrive', async () => {
      await checkout(customer.page, true, [{ productId: product.id, quantity: 1 }]);
      const res = await customer.page.request.post(`/api/account/reviews/product/${product.id}`, {
        headers: { origin: inject('baseUrl') },
        multipart: {
          rating: '5',
          title: t.customer,
          body: 'Streak-free windows in half the time. Sturdy handle too.',
          displayName: 'Demo C.',
        },
      });
      expect(res.status(), await res.text()).toBe(201);
      const answer = (await res.json()) as { review: { id: string; status: string; verified: boolean }; message: string };
      expect(answer.message).toBe(REVIEW_MESSAGES.thanksPending);
      expect(answer.review.status).toBe('pending');
      expect(answer.review.verified).toBe(true);
      customerReviewId = answer.review.id;
      seedReviews([
        {
          id: ids.photos,
          productId: product.id,
          rating: 4,
          title: t.photos,
          body: 'Here is how it looks after a month of use.',
          name: 'Sam P.',
          email: `sam-${tag}@example.com`,
          photos: 2,
          minutesAgo: 4,
        },
        {
          id: ids.abusive,
          productId: product.id,
          rating: 3,
          title: t.abusive,
          body: 'Words no shop should have to publish, written here in their place.',
          name: 'Troll T.',
          email: `troll-${tag}@example.com`,
          minutesAgo: 3,
        },
        {
          id: ids.low,
          productId: product.id,
          rating: 1,
          title: t.low,
          body: 'It left streaks on every window I tried it on.',
          name: 'Lee M.',
          email: `lee-${tag}@example.com`,
          edited: true,
          minutesAgo: 2,
        },
        {
          id: ids.long,
          productId: product.id,
          rating: 2,
          title: t.long,
          body: `${'It arrived a week late and the box was crushed, but the blade itself was fine. '.repeat(6)}In the end it does the job.`,
          name: 'Kim R.',
          email: `kim-with-a-rather-long-address-${tag}@example.org`,
          minutesAgo: 1,
        },
      ]);
    });

    it('finds them by product, by rating and with photos; the address keeps the filters', async () => {
      const { page } = admin;
      await page.goto('/admin?tab=reviews');
      await page.getByRole('tab', { name: 'Queue', selected: true }).waitFor();
      await chip(page, /^Pending/)
        .and(page.locator('[aria-pressed="true"]'))
        .waitFor();
      await settled(page);
      // The product picker: typed, then picked from the matches.
      await page.getByLabel('Product', { exact: true }).fill(product.name);
      await page.getByRole('list', { name: 'Matching products' }).getByRole('button', { name: product.name }).first().click();
      await page.getByTestId('review-product-filter').getByText(product.name).waitFor();
      await expect.poll(() => new URL(page.url()).searchParams.get('product')).toBe(product.id);
      await settled(page);
      await expect.poll(() => rows(page).count()).toBe(5);
      // The customer's: "Verified buyer" with the order; the guest's edited one says so; photos as thumbnails.
      await rowOf(page, t.customer).getByText('Verified buyer').waitFor();
      await rowOf(page, t.customer)
        .getByRole('link', { name: /^Order / })
        .waitFor();
      await rowOf(page, t.low)
        .getByText(/^Edited/)
        .waitFor();
      await rowOf(page, t.low).getByText('No order').waitFor();
      expect(
        await rowOf(page, t.photos)
          .getByRole('img', { name: /upload \d of 2/ })
          .count(),
      ).toBe(2);
      await rowOf(page, t.photos).getByText('Bought: Grey').waitFor();
      // A long review is clamped until "Show more".
      const more = rowOf(page, t.long).getByRole('button', { name: 'Show more' });
      await more.click();
      await rowOf(page, t.long).getByRole('button', { name: 'Show less', expanded: true }).waitFor();
      await expectNoAxe(page, panel(page), 'queue');
      await shotsAt(page, 'queue', label);

      // One star: only the low one; the filter is in the address, and a reload keeps it.
      await page.getByLabel('Rating', { exact: true }).selectOption('1');
      await expect.poll(() => new URL(page.url()).searchParams.get('rating')).toBe('1');
      await settled(page);
      await expect.poll(() => rows(page).count()).toBe(1);
      await rowOf(page, t.low).waitFor();
      await page.reload();
      await settled(page);
      expect(await page.getByLabel('Rating', { exact: true }).inputValue()).toBe('1');
      await expect.poll(() => rows(page).count()).toBe(1);
      await page.getByLabel('Rating', { exact: true }).selectOption('');
      await settled(page);
      await expect.poll(() => rows(page).count()).toBe(5);

      // With photos: only the review with photos; Back returns to all five.
      // A click (the box follows the address, which changes a moment after).
      await page.getByLabel('With photos').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('photos')).toBe('with');
      await settled(page);
      await expect.poll(() => rows(page).count()).toBe(1);
      await rowOf(page, t.photos).waitFor();
      await page.goBack();
      await settled(page);
      await expect.poll(() => rows(page).count()).toBe(5);
      expect(await page.getByLabel('With photos').isChecked()).toBe(false);
    });

    it('approves one: it leaves Pending and shows under Published', async () => {
      const { page } = admin;
      const published = Number((await chip(page, /^Published/).innerText()).replace(/\D/g, ''));
      await rowOf(page, t.customer)
        .getByRole('button', { name: /^Approve the review/ })
        .click();
      await toast(page, 'Review approved').waitFor();
      await rowOf(page, t.customer).waitFor({ state: 'detached' });
      await expect.poll(async () => Number((await chip(page, /^Published/).innerText()).replace(/\D/g, ''))).toBe(published + 1);
      expect(storedReview(customerReviewId).status).toBe('published');
    });

    it('hides one only for a stated reason, by keyboard (the reason is required)', async () => {
      const { page } = admin;
      const hide = rowOf(page, t.abusive).getByRole('button', { name: /^Hide the review/ });
      await hide.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Hide this review?' });
      await dialog.waitFor();
      await dialog.getByText('cannot be hidden for its rating', { exact: false }).waitFor();
      // No reason: the dialog says what is missing and nothing is hidden.
      await dialog.getByRole('button', { name: 'Hide review' }).click();
      await dialog.getByText(REVIEW_MESSAGES.hideReasonRequired).waitFor();
      expect(storedReview(ids.abusive).status).toBe('pending');
      await expectNoAxe(page, dialog, 'hide dialog');
      // Both widths in one go (the 1280 pass), then back to this pass's width.
      if (label === '1280') await dialogShots(page, dialog.getByRole('button', { name: 'Hide review' }), 'reviews-hide-dialog');
      await page.setViewportSize(viewport);
      // The server refuses a hide without a reason too.
      const refused = await call(page, 'POST', `/api/admin/reviews/${ids.abusive}/hide`, {});
      expect(refused.status).toBe(400);
      expect(String(refused.json.error)).toContain(REVIEW_MESSAGES.hideReasonRequired);

      // Keyboard only: the first reason, arrow down to Abuse, Tab to the note, then submit.
      await dialog.getByRole('radio', { name: 'Spam' }).focus();
      await page.keyboard.press('Space');
      await page.keyboard.press('ArrowDown');
      expect(await dialog.getByRole('radio', { name: REVIEW_HIDE_REASON_LABELS.abuse }).isChecked()).toBe(true);
      await page.keyboard.press('Tab');
      await page.keyboard.type('Insults the delivery driver by name');
      await page.keyboard.press('Enter'); // a new line in the note, not a submit
      await dialog.getByRole('button', { name: 'Hide review' }).focus();
      await page.keyboard.press('Enter');
      await toast(page, 'Review hidden').waitFor();
      await dialog.waitFor({ state: 'detached' });
      expect(storedReview(ids.abusive)).toMatchObject({ status: 'hidden', hidden_reason: 'abuse' });
      expect(storedReview(ids.abusive).hidden_note).toContain('Insults the delivery driver');

      // Under Hidden it shows its reason and the note.
      await chip(page, /^Hidden/).click();
      await settled(page);
      await rowOf(page, t.abusive).getByTestId('review-status').getByText('Hidden: Abuse').waitFor();
      await rowOf(page, t.abusive).getByText('Insults the delivery driver').waitFor();
      await shotsAt(page, 'queue-hidden', label);
    });

    it('replies once: the reply shows and Reply is gone; a second one is refused', async () => {
      const { page } = admin;
      await chip(page, /^Published/).click();
      await settled(page);
      const row = rowOf(page, t.customer);
      await row.getByRole('button', { name: /^Reply to the review/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Reply to the review' });
      await dialog.waitFor();
      // Empty: the schema's sentence.
      await dialog.getByRole('button', { name: 'Publish reply' }).click();
      await dialog.getByText(REVIEW_MESSAGES.replyRequired).waitFor();
      // The dialog opens on its field (the Dialog focuses the first one).
      await dialog.getByLabel(/Your reply/).fill('Thank you! Glad it saves you time on the windows.');
      await expectNoAxe(page, dialog, 'reply dialog');
      if (label === '1280') await dialogShots(page, dialog.getByRole('button', { name: 'Publish reply' }), 'reviews-reply-dialog');
      await page.setViewportSize(viewport);
      await dialog.getByRole('button', { name: 'Publish reply' }).click();
      await toast(page, 'Reply published').waitFor();
      await row.getByTestId('review-reply').getByText('Glad it saves you time').waitFor();
      await expect.poll(() => row.getByRole('button', { name: /^Reply to the review/ }).count()).toBe(0);
      const again = await call(page, 'POST', `/api/admin/reviews/${customerReviewId}/reply`, { text: 'Another one' });
      expect(again.status).toBe(409);
      expect(again.json.error).toBe(REVIEW_MESSAGES.alreadyReplied);
      // Escape closes a dialog and gives the focus back to what opened it.
      await row.getByRole('button', { name: /^Hide the review/ }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'Hide this review?' }).waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await expect
        .poll(() => row.getByRole('button', { name: /^Hide the review/ }).evaluate((el) => el === document.activeElement))
        .toBe(true);
    });

    it('hides a review’s photos apart from its words, and approves the rest in bulk', async () => {
      const { page } = admin;
      await chip(page, /^Pending/).click();
      await settled(page);
      await expect.poll(() => rows(page).count()).toBe(3);
      const withPhotos = rowOf(page, t.photos);
      await withPhotos.getByRole('button', { name: /^Hide photos of/ }).click();
      await toast(page, 'Photos hidden').waitFor();
      await withPhotos.getByText('Photos hidden from shoppers').waitFor();
      await withPhotos.getByRole('button', { name: /^Show photos of/ }).waitFor();
      expect(storedReview(ids.photos)).toMatchObject({ photos_hidden: 1, status: 'pending' });

      // Select every review on the page (on a phone the box above the cards), then approve them.
      if (label === '390') await page.getByLabel('Select all on this page').check();
      else await page.getByRole('checkbox', { name: 'Select all reviews on this page' }).check();
      await page.getByRole('region', { name: 'Bulk actions' }).getByText('3 reviews selected').waitFor();
      await shotsAt(page, 'queue-selected', label);
      await page.getByRole('button', { name: 'Approve selected' }).click();
      await toast(page, 'Reviews approved').waitFor();
      await page.getByText('3 reviews approved.').waitFor();
      await page.getByText('No reviews waiting').waitFor();
      for (const id of [ids.photos, ids.low, ids.long]) expect(storedReview(id).status).toBe('published');
      await shotsAt(page, 'queue-empty', label);
    });

    it('bulk hide asks for the reason too', async () => {
      const { page } = admin;
      await chip(page, /^Published/).click();
      await settled(page);
      await rowOf(page, t.low).getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Hide selected…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Hide 1 review?' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Hide 1 review' }).click();
      await dialog.getByText(REVIEW_MESSAGES.hideReasonRequired).waitFor();
      await dialog.getByRole('radio', { name: 'Off-topic' }).check();
      await dialog.getByRole('button', { name: 'Hide 1 review' }).click();
      await toast(page, 'Reviews hidden').waitFor();
      await page.getByText('1 review hidden (Off-topic).').waitFor();
      expect(storedReview(ids.low)).toMatchObject({ status: 'hidden', hidden_reason: 'off-topic' });
      // And shown again: Approve from Hidden publishes it.
      await chip(page, /^Hidden/).click();
      await settled(page);
      await rowOf(page, t.low)
        .getByRole('button', { name: /^Approve the review/ })
        .click();
      await toast(page, 'Review approved').waitFor();
      expect(storedReview(ids.low).status).toBe('published');
    });

    it.runIf(label === '1280')('pages through a long queue (20 a page), the page in the address', async () => {
      const { page } = admin;
      const paging = { id: 'handle-screws', name: 'Replacement Handle Screws (2-Pack)' };
      seedReviews(
        Array.from({ length: 21 }, (_, i) => ({
          id: `rev_e2e_${tag}_page${i}`,
          productId: paging.id,
          rating: 1 + (i % 5),
          title: `Page review ${i} ${tag}`,
          body: 'Enough words to pass the length rule.',
          name: `Reviewer ${i}`,
          email: `page-${i}-${tag}@example.com`,
          minutesAgo: 30 + i,
        })),
      );
      await page.goto(`/admin?tab=reviews&product=${paging.id}&productName=${encodeURIComponent(paging.name)}`);
      await settled(page);
      await expect.poll(() => rows(page).count()).toBe(20);
      const nav = page.getByRole('navigation', { name: 'Pagination' });
      await nav.getByText('Page 1 of 2').waitFor();
      await nav.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBe('2');
      await nav.getByText('Page 2 of 2').waitFor();
      await settled(page);
      await expect.poll(() => rows(page).count()).toBe(1);
      // The oldest is last.
      await rowOf(page, `Page review 20 ${tag}`).waitFor();
      await page.reload();
      await settled(page);
      await nav.getByText('Page 2 of 2').waitFor();
    });

    it('the figures count the reviews of the period, by day and by product', async () => {
      const { page } = admin;
      await page.goto('/admin?tab=reviews&view=figures');
      await page.getByRole('heading', { name: 'Review figures' }).waitFor();
      await page.getByTestId('review-figures-total').waitFor();
      const today = await page.getByTestId('review-figures-period').innerText();
      expect(today).toMatch(/\d{4}/);
      // A custom period: two days ago to today (the answer's own dates), compared with the API's.
      await page.getByLabel('Period', { exact: true }).selectOption('custom');
      const to = new Date().toISOString().slice(0, 10);
      const from = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
      await page.getByLabel('From', { exact: true }).fill(from);
      await page.getByLabel('To', { exact: true }).fill(to);
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('figFrom')).toBe(from);
      const api = await call(page, 'GET', `/api/admin/reviews/figures?from=${from}&to=${to}`);
      expect(api.status).toBe(200);
      const f = api.json as {
        total: number;
        byProduct: { productId: string; count: number }[];
        requests: { sent: number; reviewed: number };
      };
      expect(f.total).toBeGreaterThanOrEqual(5);
      await expect.poll(() => page.getByTestId('review-figures-total').innerText()).toContain(f.total.toLocaleString('en-US'));
      await page.getByTestId('review-figures-sent').getByText(f.requests.sent.toLocaleString('en-US'), { exact: true }).waitFor();
      const mine = f.byProduct.find((p) => p.productId === product.id);
      expect(mine?.count).toBe(4);
      await page
        .getByTestId('review-figures-product')
        .filter({ hasText: product.name })
        .getByRole('cell', { name: '4', exact: true })
        .waitFor();
      await page.getByRole('img', { name: /^Reviews written per day/ }).waitFor();
      await page.getByText('Show the numbers').click();
      await expectNoAxe(page, panel(page), 'figures');
      await shotsAt(page, 'figures', label);
      // A period the wrong way round: the schema's sentence, nothing asked.
      await page.getByLabel('From', { exact: true }).fill(to);
      await page.getByLabel('To', { exact: true }).fill(from);
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('The start date must be on or before the end date').waitFor();
      expect(admin.errors).toEqual([]);
    });
  });
}
