import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { CART_COOKIE, encodeCartCookie, type CartCookie } from '../../shared/cart-cookie.js';
import { Quote } from '../../shared/schemas/checkout.js';
import { cartFromQuote, type CartContents } from '../../shared/stored-cart.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Entry = { key: unknown[]; data: unknown };

async function page(url: string, cookie?: string) {
  const res = await t.app.inject({
    method: 'GET',
    url,
    headers: { accept: 'text/html', ...(cookie !== undefined ? { cookie: `${CART_COOKIE}=${cookie}` } : {}) },
  });
  const entries = JSON.parse(/<script id="__INITIAL_DATA__" type="application\/json">(.*?)<\/script>/s.exec(res.body)![1]!) as Entry[];
  const contents = entries.find((e) => e.key[0] === 'cart')?.data as CartContents | undefined;
  const quote = entries.find((e) => e.key[0] === 'cart-quote');
  // The cart the page is drawn with, derived as the browser's code derives it (on the server too).
  const cart = contents && cartFromQuote(contents, quote && Quote.parse(quote.data));
  return { res, contents, cart, quote, entries };
}

const cookieOf = (cart: CartCookie) => encodeCartCookie(cart)!;

describe('cart and checkout pages drawn from the cart cookie', () => {
  it("embed the cart's contents and the same quote POST /api/cart/quote answers, under the keys the browser asks for", async () => {
    const lines: CartCookie['lines'] = [
      ['cloth-5-pack', 2, 'One Size', 'Default'],
      ['sweep-and-mop', 1, 'One Size', 'Default'],
    ];
    for (const url of ['/cart', '/checkout']) {
      const { res, contents, cart, quote } = await page(url, cookieOf({ lines, couponCode: 'SAVE5' }));
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      // No client-shaped cart: the cookie's lines and coupon, nothing the database says.
      expect(contents).toEqual({
        lines: lines.map(([productId, quantity, size, color]) => ({ productId, quantity, size, color })),
        couponCode: 'SAVE5',
      });
      expect(cart!.items.map((l) => [l.product.id, l.quantity])).toEqual([
        ['cloth-5-pack', 2],
        ['sweep-and-mop', 1],
      ]);
      expect(cart!.appliedCouponCode).toBe('SAVE5');
      expect(cart!.appliedCouponDiscountCents).toBe(500);

      const api = await t.app.inject({
        method: 'POST',
        url: '/api/cart/quote',
        payload: { lines: lines.map(([productId, quantity, size, color]) => ({ productId, quantity, size, color })), couponCode: 'SAVE5' },
      });
      expect(api.statusCode).toBe(200);
      expect(quote!.key).toEqual([
        'cart-quote',
        lines.map(([productId, quantity, size, color]) => ({ productId, quantity, size, color })),
        'SAVE5',
        null,
      ]);
      expect(Quote.parse(quote!.data)).toEqual(api.json());
      // Names and prices come from the database, never from the cookie.
      const product = await t.db
        .selectFrom('products')
        .select(['name', 'price_cents'])
        .where('id', '=', 'cloth-5-pack')
        .executeTakeFirstOrThrow();
      expect(cart!.items[0]!.product).toMatchObject({ name: product.name, priceCents: product.price_cents });
    }
  });

  it('prices a product that is gone as missing and a coupon that does not apply as no discount', async () => {
    const { cart, quote } = await page(
      '/cart',
      cookieOf({
        lines: [
          ['no-such-product', 1, 'One Size', 'Default'],
          ['cloth-5-pack', 1, 'One Size', 'Default'],
        ],
        couponCode: 'EXPIRED20',
      }),
    );
    expect(cart!.items[0]!.product).toEqual({ id: 'no-such-product', name: 'Unknown Product', priceCents: 0, images: [] });
    const q = Quote.parse(quote!.data);
    expect(q.lines[0]!.missing).toBe(true);
    expect(q.coupon).toBeNull();
    expect(q.couponError).toBeTruthy();
    expect(cart!.appliedCouponDiscountCents).toBe(0);
  });

  it('an empty cart is drawn empty and an empty checkout sent to it; a cookie the shop did not write draws the outline, never an error', async () => {
    const empty = await page('/cart', cookieOf({ lines: [], couponCode: null }));
    expect(empty.cart?.items).toEqual([]);
    expect(empty.quote).toBeUndefined();
    // No cookie: nothing in the cart. The cart is drawn empty; the checkout is a redirect to it.
    expect((await page('/cart', undefined)).cart?.items).toEqual([]);
    for (const cookie of [undefined, cookieOf({ lines: [], couponCode: null })]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/checkout',
        headers: { accept: 'text/html', ...(cookie !== undefined ? { cookie: `${CART_COOKIE}=${cookie}` } : {}) },
      });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/cart');
    }
    const bad = [
      '',
      'not-json',
      encodeURIComponent('{"l":[["cloth-5-pack",0,"One Size","Default"]],"c":null}'),
      encodeURIComponent('{"l":[["cloth-5-pack",1.5,"One Size","Default"]],"c":null}'),
      encodeURIComponent(`{"l":[["${'x'.repeat(200)}",1,"One Size","Default"]],"c":null}`),
      encodeURIComponent('{"l":"cloth","c":null}'),
      encodeURIComponent('{"l":[["\' OR 1=1 --",1,"One Size","Default"]],"c":"\'; DROP TABLE products; --"}'),
      '%E0%A4%A',
      'x'.repeat(9000),
    ];
    for (const cookie of bad) {
      const { res, contents, cart, quote } = await page('/checkout', cookie);
      expect(res.statusCode, String(cookie)).toBe(200);
      if (cookie?.includes('OR%201%3D1')) {
        // Well-formed: priced as an unknown product and an unknown coupon; the tables are untouched.
        expect(cart!.items[0]!.product.name).toBe('Unknown Product');
        expect(Quote.parse(quote!.data).couponError).toBeTruthy();
      } else {
        expect(contents, String(cookie)).toBeUndefined();
        expect(quote).toBeUndefined();
      }
    }
    const count = await t.db.selectFrom('products').select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBeGreaterThan(0);
  });

  it('other pages neither read the cookie nor embed a cart', async () => {
    const { entries } = await page('/products', cookieOf({ lines: [['cloth-5-pack', 1, 'One Size', 'Default']], couponCode: null }));
    expect(entries.map((e) => e.key[0])).not.toContain('cart');
  });

  it('a cart too large for a cookie is not mirrored', () => {
    const lines = Array.from({ length: 100 }, (_, i): CartCookie['lines'][number] => [
      `product-${i}-with-a-long-name`,
      1,
      'One Size',
      'Default',
    ]);
    expect(encodeCartCookie({ lines, couponCode: null })).toBeNull();
  });
});
