import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CART_COOKIE, encodeCartCookie } from '../../shared/cart-cookie.js';
import { DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';

/** The `Set-Cookie` lines of an answer that name `name`. */
function setCookiesNamed(headers: Record<string, unknown>, name: string): string[] {
  const raw = headers['set-cookie'];
  const all = Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
  return all.filter((c) => c.startsWith(`${name}=`));
}

describe('the cart cookie across sign-in and sign-out', () => {
  let t: TestApp;
  let cart: string;
  beforeAll(async () => {
    t = await createTestApp();
    const product = await t.db.selectFrom('products').select('id').limit(1).executeTakeFirstOrThrow();
    cart = encodeCartCookie({ lines: [[product.id, 2, 'One Size', 'Default']], couponCode: null })!;
  });
  afterAll(async () => {
    await t.close();
  });

  it("keeps a guest's cart when they sign in", async () => {
    const browser = new TestClient(t.app, '10.9.0.1');
    browser.cookies.set(CART_COOKIE, cart);
    const res = await browser.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    expect(res.statusCode).toBe(200);
    expect(setCookiesNamed(res.headers, CART_COOKIE)).toEqual([]);
    expect(browser.cookies.get(CART_COOKIE)).toBe(cart);
    expect((await browser.get('/api/session')).json()).toMatchObject({ user: { email: DEMO_CUSTOMER.email } });
  });

  it('clears the cart cookie (and the session) when the shopper signs out', async () => {
    const browser = new TestClient(t.app, '10.9.0.2');
    browser.cookies.set(CART_COOKIE, cart);
    await browser.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    const res = await browser.post('/api/auth/sign-out');
    expect(res.statusCode).toBe(200);
    const [cleared] = setCookiesNamed(res.headers, CART_COOKIE);
    expect(cleared).toMatch(/^cart=;/);
    expect(cleared).toMatch(/Path=\//);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    expect(browser.cookies.has(CART_COOKIE)).toBe(false);
    expect((await browser.get('/api/session')).json()).toEqual({ user: null, impersonatorEmail: null });
  });

  it('clears it for a guest pressing sign-out in a stale tab too', async () => {
    const browser = new TestClient(t.app, '10.9.0.3');
    browser.cookies.set(CART_COOKIE, cart);
    const res = await browser.post('/api/auth/sign-out');
    expect(res.statusCode).toBe(200);
    expect(browser.cookies.has(CART_COOKIE)).toBe(false);
  });
});
