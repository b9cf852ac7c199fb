import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { DESKTOP, MOBILE, launchBrowser, openPage, screenshotWithPictures } from './browser.js';
import {
  ADMIN,
  CUSTOMER,
  fakes,
  fillCheckoutForm,
  payButtonToCardPage,
  payWithTestCard,
  signInThroughForm,
  type ReceivedMail,
} from './helpers.js';
import { orderNumberLabel, orderNumberOf } from '../src/shared/order-words.js';

/**
 * Issue [1/8], what the shopper pays for is what they chose: a shopper picks a version that is not
 * the product's first (with the mouse, by touch, with the keyboard) and pays through the pages
 * (cart → checkout → card page, and Buy Now). The card page asks what the Pay button said, and
 * the confirmation, the e-mail, My Orders, the owner's order and the packing slip name the version
 * chosen. Every order here is made through the screens: a checkout that dropped the version would
 * be priced, recorded and shipped as the first one (Unscented 16 oz, Blue Small), or refused.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await owner?.context.close();
  await browser?.close();
});

const RUN = Date.now().toString(36);
const CLEANER = { id: 'concentrated-cleaner', name: 'Concentrated All-Purpose Cleaner' };
const BAG = { id: 'mesh-laundry-bag', name: 'Mesh Laundry Bag' };
/** The products' first versions: what a checkout that lost the choice would have sold. */
const FIRST_VERSIONS = ['Scent: Unscented · Size: 16 oz', 'Colour: Blue · Size: Small'];

const option = (page: Page, group: string, value: string) =>
  page.getByRole('group', { name: new RegExp(`^${group}:`) }).getByRole('radio', { name: new RegExp(`^${value}`) });
const valueLabel = (page: Page, value: string) => page.locator('[data-variant-picker] label', { hasText: new RegExp(`^${value}`) });
/** The address names the chosen version once the page has taken the choice (replaced in place). */
const shows = (page: Page, variantId: string) =>
  expect.poll(() => new URL(page.url()).searchParams.get('variant'), { timeout: 10_000 }).toBe(variantId);
/** The chosen version's price on the product page, in cents. */
async function shownPriceCents(page: Page): Promise<number> {
  const text = (await page.locator('[data-variant-price]').first().textContent()) ?? '';
  return Math.round(Number(/\$([\d,]+\.\d\d)/.exec(text)?.[1]?.replace(/,/g, '')) * 100);
}
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** A phone: a touch screen whose navigations wait for the app, errors collected. */
const touchPage = () => openPage(browser, MOBILE, { touch: true });

async function openProduct(page: Page, product: { id: string; name: string }): Promise<void> {
  await page.goto(`/products/${product.id}`);
  await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
}

/** The confirmation's item lines as shown ("name", "Scent: … · Size: … · Qty: …", line total). */
async function confirmedLines(page: Page): Promise<string[]> {
  const items = page.getByRole('region', { name: 'Items' });
  await items.locator('li').first().waitFor();
  return (await items.locator('li').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

/** The plain-text part of a received message, its transfer encoding undone. */
function mailText(raw: string): string {
  return raw
    .split(/\r?\n--[^\r\n]+/)
    .map((part) => {
      const end = part.search(/\r?\n\r?\n/);
      const headers = end < 0 ? '' : part.slice(0, end);
      if (!/content-type:\s*text\/plain/i.test(headers)) return '';
      const body = part.slice(end).trim();
      const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
      if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
      if (encoding !== 'quoted-printable') return body;
      const soft = body.replace(/=\r?\n/g, '');
      const bytes: number[] = [];
      for (let i = 0; i < soft.length; i++) {
        const hex = soft.slice(i + 1, i + 3);
        if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
          bytes.push(Number.parseInt(hex, 16));
          i += 2;
        } else bytes.push(...Buffer.from(soft[i]!, 'utf8'));
      }
      return Buffer.from(bytes).toString('utf8');
    })
    .join('\n');
}

/** The owner, signed in once for the file (the journeys read their orders in the back office). */
let owner: { context: BrowserContext; page: Page; errors: string[] } | undefined;
async function ownerPage(): Promise<Page> {
  if (!owner) {
    owner = await openPage(browser, DESKTOP);
    await signInThroughForm(owner.page, ADMIN);
  }
  return owner.page;
}

/** The order's detail in the back office, found as the owner finds it: by its number in the list's search. */
async function openOwnerOrder(page: Page, orderId: string): Promise<Locator> {
  const number = orderNumberOf(orderId);
  await page.goto('/admin?tab=orders');
  const search = page.getByRole('searchbox', { name: 'Search orders' });
  await search.fill(number);
  await search.press('Enter');
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: number, exact: true }) });
  await row.getByRole('button', { name: /^View order/ }).click();
  const details = page.locator('main');
  await details.getByRole('table', { name: 'Items' }).waitFor();
  return details;
}

describe('a chosen version is what is paid for, recorded and shipped', () => {
  it('guest, mouse (1280): two versions through cart → checkout → card page; confirmation, e-mail, owner and packing slip name them', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    const email = `variant-guest-${RUN}@example.com`;

    // The cleaner in Lavender (16 oz stays chosen): one click.
    await openProduct(page, CLEANER);
    await valueLabel(page, 'Lavender').click();
    await shows(page, 'var_concentrated-cleaner-lavender-16-oz');
    expect(await page.locator('[data-variant-sku]').first().textContent()).toBe('ECO-CL-LAV-016');
    const lavenderCents = await shownPriceCents(page);
    await page.getByRole('button', { name: 'Add to Cart' }).first().click();
    await page.getByRole('link', { name: 'Cart, 1 item' }).first().waitFor();

    // The bag in Grey, Large: a click in each group, then two of them.
    await openProduct(page, BAG);
    await valueLabel(page, 'Grey').click();
    await shows(page, 'var_mesh-laundry-bag-grey-small');
    await valueLabel(page, 'Large').click();
    await shows(page, 'var_mesh-laundry-bag-grey-large');
    expect(await page.locator('[data-variant-sku]').first().textContent()).toBe('ECO-MB-GRY-L');
    const greyLargeCents = await shownPriceCents(page);
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    expect(await page.getByRole('spinbutton', { name: 'Quantity' }).inputValue()).toBe('2');
    await page.getByRole('button', { name: 'Add to Cart' }).first().click();
    await page.getByRole('link', { name: 'Cart, 3 items' }).first().waitFor();

    await page.getByRole('link', { name: 'Cart, 3 items' }).first().click();
    await page.waitForURL('**/cart');
    await page
      .getByRole('link', { name: `${CLEANER.name} — Lavender, 16 oz` })
      .first()
      .waitFor();
    await page
      .getByRole('link', { name: `${BAG.name} — Grey, Large` })
      .first()
      .waitFor();
    await page.getByRole('link', { name: 'Proceed to Checkout' }).first().click();
    await page.waitForURL('**/checkout');
    await fillCheckoutForm(page, email);

    const { payButton, cardPage } = await payButtonToCardPage(page);
    expect(payButton).toMatch(/^\$\d/);
    expect(cardPage).toBe(payButton);
    await screenshotWithPictures(page, 'variant-purchase-guest-card-page-1280');

    const orderId = await payWithTestCard(page);
    expect(orderId).not.toBe('');
    const lines = await confirmedLines(page);
    expect(lines).toEqual([
      expect.stringContaining(`${CLEANER.name} Scent: Lavender · Size: 16 oz · Qty: 1 ${dollars(lavenderCents)}`),
      expect.stringContaining(`${BAG.name} Colour: Grey · Size: Large · Qty: 2 ${dollars(2 * greyLargeCents)}`),
    ]);
    // The product's own option names (decision 0044): never a colour the cleaner does not have.
    expect(lines.join('\n')).not.toContain('Color: Default');
    for (const first of FIRST_VERSIONS) expect(lines.join('\n')).not.toContain(first);
    expect(await page.getByTestId('order-total').textContent()).toBe(payButton);
    await screenshotWithPictures(page, 'variant-purchase-guest-confirmation-1280');

    // The owner signs in while the e-mail is on its way (the outbox is sent every few seconds).
    const ownerReady = ownerPage();
    ownerReady.catch(() => undefined);

    // The confirmation e-mail names the versions and the total paid.
    const number = orderNumberOf(orderId);
    let mail: ReceivedMail & { raw: string } = { to: [], subject: '', raw: '' };
    await expect
      .poll(
        async () => {
          const found = (await fakes<(ReceivedMail & { raw: string })[]>('/mail')).find(
            (m) => m.to.includes(email) && m.subject === `Order Confirmation - #${number}`,
          );
          if (found) mail = found;
          return Boolean(found);
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    const text = mailText(mail.raw);
    expect(text).toContain(`${CLEANER.name} — Scent: Lavender · Size: 16 oz x 1  ${dollars(lavenderCents)}`);
    expect(text).toContain(`${BAG.name} — Colour: Grey · Size: Large x 2  ${dollars(2 * greyLargeCents)}`);
    expect(text).toContain(`Total: ${payButton}`);
    for (const first of FIRST_VERSIONS) expect(text).not.toContain(first);

    // The owner's order: each line's title, SKU, size and colour; then its packing slip.
    const admin = await ownerReady;
    const details = await openOwnerOrder(admin, orderId);
    await details.getByText(CLEANER.name, { exact: true }).first().waitFor();
    await details.getByText('SKU ECO-CL-LAV-016 · Scent: Lavender · Size: 16 oz', { exact: true }).waitFor();
    await details.getByText(BAG.name, { exact: true }).first().waitFor();
    await details.getByText('SKU ECO-MB-GRY-L · Colour: Grey · Size: Large', { exact: true }).waitFor();
    for (const first of FIRST_VERSIONS) expect(await details.getByText(first).count()).toBe(0);
    await details.getByRole('button', { name: 'Packing slip' }).click();
    const slip = admin.getByRole('table', { name: 'Items to pack' });
    await slip.waitFor();
    await admin.getByTestId('slip-order-number').getByText(number).waitFor();
    const rows = await slip.evaluate((t) =>
      [...t.querySelectorAll('tbody tr')].map((tr) =>
        [...tr.querySelectorAll('td')].slice(1, 5).map((td) => (td.textContent ?? '').trim()),
      ),
    );
    expect(rows).toEqual([
      [CLEANER.name, 'Scent: Lavender · Size: 16 oz', 'ECO-CL-LAV-016', '1'],
      [BAG.name, 'Colour: Grey · Size: Large', 'ECO-MB-GRY-L', '2'],
    ]);
    await screenshotWithPictures(admin, 'variant-purchase-guest-packing-slip-1280');
    expect(errors).toEqual([]);
    expect(owner?.errors).toEqual([]);
    await context.close();
  });

  it('signed-in customer, touch (390): a tapped version through Buy Now and the card page; confirmation and My Orders name it', async () => {
    const { page, context, errors } = await touchPage();
    await signInThroughForm(page, CUSTOMER);

    // Three taps, each waited for: Lavender, then 32 oz, then back to Unscented: Unscented, 32 oz.
    await openProduct(page, CLEANER);
    await valueLabel(page, 'Lavender').tap();
    await shows(page, 'var_concentrated-cleaner-lavender-16-oz');
    await valueLabel(page, '32 oz').tap();
    await shows(page, 'var_concentrated-cleaner-lavender-32-oz');
    await valueLabel(page, 'Unscented').tap();
    await shows(page, 'var_concentrated-cleaner-unscented-32-oz');
    expect(await page.locator('[data-variant-sku]').first().textContent()).toBe('ECO-CL-032');
    const chosenCents = await shownPriceCents(page);
    await page.getByRole('button', { name: 'Buy Now' }).first().tap();
    await page.waitForURL('**/checkout');
    await fillCheckoutForm(page, CUSTOMER.email);

    const { payButton, cardPage } = await payButtonToCardPage(page, 'tap');
    expect(cardPage).toBe(payButton);
    await screenshotWithPictures(page, 'variant-purchase-touch-card-page-390');

    const orderId = await payWithTestCard(page);
    const lines = await confirmedLines(page);
    expect(lines).toEqual([expect.stringContaining(`${CLEANER.name} Scent: Unscented · Size: 32 oz · Qty: 1 ${dollars(chosenCents)}`)]);
    expect(await page.getByTestId('order-total').textContent()).toBe(payButton);
    await screenshotWithPictures(page, 'variant-purchase-touch-confirmation-390');

    await page.goto('/orders');
    const card = page.getByRole('article', { name: `Order ${orderNumberLabel(orderId)}` });
    await card.getByText(`${CLEANER.name} x 1`).waitFor();
    await card.getByText('Scent: Unscented · Size: 32 oz', { exact: true }).waitFor();
    expect(await card.getByText(FIRST_VERSIONS[0]!).count()).toBe(0);
    await card.getByText(`Total: ${payButton}`).waitFor();
    await screenshotWithPictures(page, 'variant-purchase-touch-my-orders-390');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keyboard (1280): arrows pick the version, Enter adds it, checkout and card page; the owner’s order names it', async () => {
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await openProduct(page, BAG);
    // Colour → Grey, Size → Large, back to Colour ← Blue: Blue, Large. Each choice is waited for
    // before the next key (a key pressed before the page took the last one would be lost).
    await option(page, 'Colour', 'Blue').focus();
    await page.keyboard.press('ArrowRight');
    await shows(page, 'var_mesh-laundry-bag-grey-small');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowRight');
    await shows(page, 'var_mesh-laundry-bag-grey-large');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('ArrowLeft');
    await shows(page, 'var_mesh-laundry-bag-blue-large');
    expect(await option(page, 'Colour', 'Blue').isChecked()).toBe(true);
    expect(await option(page, 'Size', 'Large').isChecked()).toBe(true);
    expect(await page.locator('[data-variant-sku]').first().textContent()).toBe('ECO-MB-BLU-L');
    const chosenCents = await shownPriceCents(page);

    // On to Add to Cart with Tab (past the quantity), and Enter.
    const add = page.getByRole('button', { name: 'Add to Cart' }).first();
    const focused = () => add.evaluate((b) => b === document.activeElement);
    for (let i = 0; i < 8 && !(await focused()); i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Cart, 1 item' }).first().waitFor();

    await page.getByRole('link', { name: 'Cart, 1 item' }).first().click();
    await page
      .getByRole('link', { name: `${BAG.name} — Blue, Large` })
      .first()
      .waitFor();
    await page.getByRole('link', { name: 'Proceed to Checkout' }).first().click();
    await page.waitForURL('**/checkout');
    await fillCheckoutForm(page, `variant-keys-${RUN}@example.com`);
    const { payButton, cardPage } = await payButtonToCardPage(page);
    expect(cardPage).toBe(payButton);
    const orderId = await payWithTestCard(page);
    expect(await confirmedLines(page)).toEqual([
      expect.stringContaining(`${BAG.name} Colour: Blue · Size: Large · Qty: 1 ${dollars(chosenCents)}`),
    ]);
    await screenshotWithPictures(page, 'variant-purchase-keyboard-confirmation-1280');

    const admin = await ownerPage();
    const details = await openOwnerOrder(admin, orderId);
    await details.getByText(BAG.name, { exact: true }).first().waitFor();
    await details.getByText('SKU ECO-MB-BLU-L · Colour: Blue · Size: Large', { exact: true }).waitFor();
    expect(await details.getByText(FIRST_VERSIONS[1]!).count()).toBe(0);
    expect(await details.getByText('ECO-MB-BLU-S').count()).toBe(0);
    await screenshotWithPictures(admin, 'variant-purchase-keyboard-owner-order-1280');
    expect(errors).toEqual([]);
    expect(owner?.errors).toEqual([]);
    await context.close();
  });

  it('the first version, chosen on the page (1280): through cart, checkout and the card page, named on the confirmation', async () => {
    // A cart that dropped the first version's id sent a line naming no version: checkout refused a
    // product sold in versions ("Please choose the scent and size…"), and the shopper could not pay.
    const { page, context, errors } = await openPage(browser, DESKTOP);
    await openProduct(page, CLEANER);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await valueLabel(page, 'Lemon').click();
    await shows(page, 'var_concentrated-cleaner-lemon-16-oz');
    await valueLabel(page, 'Unscented').click();
    await shows(page, 'var_concentrated-cleaner');
    const chosenCents = await shownPriceCents(page);
    await page.getByRole('button', { name: 'Add to Cart' }).first().click();
    await page.getByRole('link', { name: 'Cart, 1 item' }).first().click();
    await page.getByRole('link', { name: 'Proceed to Checkout' }).first().click();
    await page.waitForURL('**/checkout');
    await fillCheckoutForm(page, `variant-first-${RUN}@example.com`);
    const { payButton, cardPage } = await payButtonToCardPage(page);
    expect(cardPage).toBe(payButton);
    await payWithTestCard(page);
    expect(await confirmedLines(page)).toEqual([
      expect.stringContaining(`${CLEANER.name} Scent: Unscented · Size: 16 oz · Qty: 1 ${dollars(chosenCents)}`),
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
