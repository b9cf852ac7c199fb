import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct, createVariant } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { CARD_MESSAGES } from './test-checkout-page.js';
import { escapeHtml } from '../lib/html.js';

/**
 * Decision 0044 (issue [2/8], "For a shopper"): every place a line is shown names the product's
 * own options ("Scent: Lavender · Size: 1 L") and nothing for a product without options (never
 * "Color: Default"); the test card page lists the order's lines and sums above the form; Back to
 * the card page after paying says the order is already paid, without alarm, with a link to it.
 */
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' };
const address = { name: 'Opal Options', address: '5 Label Rd', city: 'Salem', state: 'OR', zip: '97301', country: 'US' };
const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Opal Options' };

let t: TestApp;
let ipCount = 0;
const nextIp = () => `10.81.${Math.floor(++ipCount / 250)}.${ipCount % 250}`;

beforeAll(async () => {
  t = await createTestApp({ env: LIMITS });
});
afterAll(async () => {
  await t?.close();
});

/** A cleaner with options Scent and Size, and a cloth without options. */
async function catalogue(db: Kysely<Database>) {
  const n = ++ipCount;
  const p = await createProduct(db, { name: 'Concentrated Cleaner', priceCents: 1200, inventory: 10, sku: `OPT-LAV-${n}` });
  await db
    .insertInto('product_options')
    .values([
      { product_id: p.id, position: 1, name: 'Scent', values: JSON.stringify(['Lavender', 'Lemon']) },
      { product_id: p.id, position: 2, name: 'Size', values: JSON.stringify(['500 ml', '1 L']) },
    ])
    .execute();
  await db.updateTable('product_variants').set({ option1: 'Lavender', option2: '500 ml' }).where('id', '=', `var_${p.id}`).execute();
  const lemon = await createVariant(db, p.id, { options: ['Lemon', '1 L'], priceCents: 2000, sku: `OPT-LEM-${n}`, inventory: 5 });
  const cloth = await createProduct(db, { name: 'Plain Cloth', priceCents: 500, inventory: 10 });
  return { p, lemon, cloth };
}

async function checkout(c: TestClient, items: object[]) {
  const res = await c.post('/api/create-checkout-session', { items, customerEmail: 'opal@example.com', shippingAddress: address });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { orderId: string; sessionId: string };
}

describe('line options and the card page', () => {
  it("the quote, the order (customer and owner) and the e-mail name the product's own options; a product without options says none", async () => {
    const { p, lemon, cloth } = await catalogue(t.db);
    const c = new TestClient(t.app, nextIp());
    const items = [
      { productId: p.id, variantId: lemon, quantity: 1 },
      { productId: cloth.id, quantity: 2 },
    ];
    const quote = (await c.post('/api/cart/quote', { lines: items, couponCode: null })).json();
    expect(quote.lines.map((l: { productName: string; options: unknown }) => [l.productName, l.options])).toEqual([
      [
        'Concentrated Cleaner',
        [
          { name: 'Scent', value: 'Lemon' },
          { name: 'Size', value: '1 L' },
        ],
      ],
      ['Plain Cloth', []],
    ]);

    const { orderId, sessionId } = await checkout(c, items);
    expect((await c.request('POST', `/pay/${sessionId}`, new URLSearchParams(card))).statusCode).toBe(303);
    const mine = (await c.get(`/api/orders/${orderId}`)).json().order;
    const named = (order: { items: { productName: string; options: unknown }[] }) =>
      order.items.map((i) => [i.productName, i.options]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    const expected = [
      [
        'Concentrated Cleaner',
        [
          { name: 'Scent', value: 'Lemon' },
          { name: 'Size', value: '1 L' },
        ],
      ],
      ['Plain Cloth', []],
    ];
    expect(named(mine)).toEqual(expected);
    const admin = new TestClient(t.app, nextIp());
    await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
    const owner = (await admin.get(`/api/admin/orders/${orderId}`)).json();
    expect(named(owner.order ?? owner)).toEqual(expected);

    const mail = await t.db
      .selectFrom('email_outbox')
      .select(['text', 'html'])
      .where('order_id', '=', orderId)
      .where('template_id', '=', 'order-confirmation')
      .executeTakeFirstOrThrow();
    expect(mail.text).toContain('Concentrated Cleaner — Scent: Lemon · Size: 1 L x 1');
    expect(mail.text).toContain('Plain Cloth x 2');
    expect(`${mail.text}${mail.html}`).not.toMatch(/Color|Default|One Size/);
  });

  it('an order line keeps what it sold when the owner renames the value since: the label alone, unnamed', async () => {
    const { p, lemon } = await catalogue(t.db);
    const c = new TestClient(t.app, nextIp());
    const { orderId, sessionId } = await checkout(c, [{ productId: p.id, variantId: lemon, quantity: 1 }]);
    expect((await c.request('POST', `/pay/${sessionId}`, new URLSearchParams(card))).statusCode).toBe(303);
    await t.db.updateTable('product_variants').set({ option1: 'Lemon Zest' }).where('id', '=', lemon).execute();
    const order = (await c.get(`/api/orders/${orderId}`)).json().order;
    expect(order.items[0].options).toEqual([{ name: '', value: 'Lemon, 1 L' }]);
  });

  it("the card page lists the order's lines with their options, quantities and prices, and the sums of its total", async () => {
    const { p, lemon, cloth } = await catalogue(t.db);
    const c = new TestClient(t.app, nextIp());
    const { sessionId } = await checkout(c, [
      { productId: p.id, variantId: lemon, quantity: 1 },
      { productId: cloth.id, quantity: 2 },
    ]);
    const res = await c.get(`/pay/${sessionId}`);
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain(CARD_MESSAGES.linesTitle);
    expect(html).toContain(
      '<span class="name">Concentrated Cleaner</span><span class="opts">Scent: Lemon · Size: 1 L</span><span class="opts">Qty: 1</span>',
    );
    expect(html).toContain('<span class="price">$20.00</span>');
    expect(html).toContain('<span class="name">Plain Cloth</span><span class="opts">Qty: 2</span>');
    expect(html).toContain('<span class="price">$10.00</span>');
    expect(html).toContain('<dt class="">Subtotal</dt><dd class="">$30.00</dd>');
    expect(html).toMatch(/<dt class="total">Total<\/dt><dd class="total">\$\d+\.\d\d<\/dd>/);
    // The lines come before the form.
    expect(html.indexOf('class="lines"')).toBeLessThan(html.indexOf('<form method="post"'));
    // A typing slip shows the page again with its lines.
    const slip = await c.request('POST', `/pay/${sessionId}`, new URLSearchParams({ ...card, cvc: '' }));
    expect(slip.statusCode).toBe(402);
    expect(slip.body).toContain('<span class="name">Plain Cloth</span>');
  });

  it('Back to the card page after paying: "already paid", not an error, with a link to the order', async () => {
    const { cloth } = await catalogue(t.db);
    const c = new TestClient(t.app, nextIp());
    const { orderId, sessionId } = await checkout(c, [{ productId: cloth.id, quantity: 1 }]);
    expect((await c.request('POST', `/pay/${sessionId}`, new URLSearchParams(card))).statusCode).toBe(303);

    const back = await c.get(`/pay/${sessionId}`);
    expect(back.statusCode).toBe(200);
    expect(back.body).toContain(`<p class="done" role="status">${escapeHtml(CARD_MESSAGES.paid)}</p>`);
    expect(back.body).toContain(
      `<a class="view" href="/order-confirmation?orderId=${encodeURIComponent(orderId)}">${CARD_MESSAGES.viewOrder}</a>`,
    );
    expect(back.body).not.toContain('class="error"');
    expect(back.body).not.toContain('<form method="post"');
    // The confirmation it links to opens for this browser.
    expect((await c.get(`/api/orders/${orderId}`)).statusCode).toBe(200);

    // The form sent again (a second tab): refused, saying the same, with the same link.
    const again = await c.request('POST', `/pay/${sessionId}`, new URLSearchParams(card));
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain(escapeHtml(CARD_MESSAGES.paid));
    expect(again.body).toContain('class="view"');
    expect(again.body).not.toContain('class="error"');
  });
});
