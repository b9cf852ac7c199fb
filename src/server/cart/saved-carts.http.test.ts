import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { createUser } from '../db/seed/factories.js';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { fulfilPaymentSession } from '../checkout/service.js';
import { placeCheckout } from '../test/checkout-orders.js';
import { SAVED_CART_LIMITS, SAVED_CART_MESSAGES, type SavedCartView } from '../../shared/schemas/saved-cart.js';

/**
 * The signed-in customer's cart kept on the server (issue 29, decision 0030): GET/PUT
 * /api/account/cart and POST /api/account/cart/merge, for the signed-in owner only.
 */
let t: TestApp;
let ipCount = 0;
let products: string[];
const browser = (app: FastifyInstance = t.app) => new TestClient(app, `10.88.${Math.floor(++ipCount / 250)}.${ipCount % 250}`);

async function customer(): Promise<{ client: TestClient; id: string }> {
  const u = await createUser(t.db);
  const client = browser();
  expect((await client.signIn(u.email, u.password)).statusCode).toBe(200);
  return { client, id: u.id };
}

const line = (productId: string, quantity: number, size = 'One Size', color = 'Default') => ({ productId, quantity, size, color });
const put = (c: TestClient, body: unknown) => c.request('PUT', '/api/account/cart', body);

beforeAll(async () => {
  t = await createTestApp();
  products = (await t.db.selectFrom('products').select('id').orderBy('id').limit(3).execute()).map((p) => p.id);
});
afterAll(async () => {
  await t?.close();
});

describe(`the saved cart on ${testDialect()}`, () => {
  it('loses the lines a payment bought, on the server, even when no browser comes back from the card page', async () => {
    const a = await customer();
    await put(a.client, { lines: [line(products[0]!, 3), line(products[1]!, 1)], couponCode: null });
    const { sessionId } = await placeCheckout(t.db, t.dialect, { items: [{ productId: products[0]!, quantity: 2 }], userId: a.id });
    // Before the payment, the cart is as saved; a webhook's payment (no browser) takes the bought units out.
    expect((await a.client.get('/api/account/cart')).json().lines).toEqual([line(products[0]!, 3), line(products[1]!, 1)]);
    await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
    expect((await a.client.get('/api/account/cart')).json().lines).toEqual([line(products[0]!, 1), line(products[1]!, 1)]);
    // A replay of the payment takes nothing more.
    await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
    expect((await a.client.get('/api/account/cart')).json().lines).toEqual([line(products[0]!, 1), line(products[1]!, 1)]);
  });

  it('is empty at first, keeps what the owner saves (unknown products dropped), and is theirs alone', async () => {
    const a = await customer();
    expect((await a.client.get('/api/account/cart')).json()).toEqual({ lines: [], couponCode: null, updatedAt: null, readOnly: false });
    const res = await put(a.client, {
      lines: [line(products[0]!, 2), line('no-such-product', 1), line(products[1]!, 1, 'Large')],
      couponCode: ' welcome10 ',
    });
    expect(res.statusCode).toBe(200);
    const saved = res.json<SavedCartView>();
    expect(saved).toMatchObject({
      lines: [line(products[0]!, 2), line(products[1]!, 1, 'Large')],
      couponCode: 'WELCOME10',
      readOnly: false,
    });
    const row = await t.db.selectFrom('saved_carts').selectAll().where('user_id', '=', a.id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.lines)).toEqual([
      [products[0], 2, 'One Size', 'Default'],
      [products[1], 1, 'Large', 'Default'],
    ]);
    // On another device (a new sign-in), the same cart.
    const again = browser();
    const u = await t.db.selectFrom('users').select('email').where('id', '=', a.id).executeTakeFirstOrThrow();
    expect((await again.signIn(u.email, 'Test-Password-1')).statusCode).toBe(200);
    expect((await again.get('/api/account/cart')).json()).toMatchObject({ lines: saved.lines, couponCode: 'WELCOME10' });

    // Another customer reads and writes only their own.
    const b = await customer();
    expect((await b.client.get('/api/account/cart')).json()).toMatchObject({ lines: [], couponCode: null });
    expect((await put(b.client, { lines: [line(products[2]!, 1)], couponCode: null })).statusCode).toBe(200);
    expect((await a.client.get('/api/account/cart')).json()).toMatchObject({ lines: saved.lines });
  });

  it('answers 401 to a visitor who is not signed in, and refuses writes from other sites', async () => {
    const anon = browser();
    expect((await anon.get('/api/account/cart')).statusCode).toBe(401);
    expect((await put(anon, { lines: [], couponCode: null })).statusCode).toBe(401);
    expect((await anon.post('/api/account/cart/merge', { lines: [], couponCode: null })).statusCode).toBe(401);
    const a = await customer();
    const res = await a.client.request('PUT', '/api/account/cart', { lines: [], couponCode: null }, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
  });

  it('says what is wrong with a bad cart, and keeps the bounds', async () => {
    const a = await customer();
    const error = async (body: unknown) => {
      const res = await put(a.client, body);
      expect(res.statusCode).toBe(400);
      return res.json<{ error: string }>().error;
    };
    expect(await error({ lines: [line(products[0]!, 0)], couponCode: null })).toContain(SAVED_CART_MESSAGES.quantity);
    expect(await error({ lines: [line(products[0]!, 1.5)], couponCode: null })).toContain(SAVED_CART_MESSAGES.quantity);
    expect(await error({ lines: [line(products[0]!, SAVED_CART_LIMITS.maxLineQuantity + 1)], couponCode: null })).toContain(
      SAVED_CART_MESSAGES.quantity,
    );
    const tooMany = Array.from({ length: SAVED_CART_LIMITS.maxLines + 1 }, (_, i) => line(products[0]!, 1, `S${i}`));
    expect(await error({ lines: tooMany, couponCode: null })).toContain(SAVED_CART_MESSAGES.tooManyLines);
    expect(await error({ lines: [{ ...line(products[0]!, 1), priceCents: 1 }], couponCode: null })).toBeTruthy();
    expect(await error({ lines: [], couponCode: 'X'.repeat(51) })).toContain(SAVED_CART_MESSAGES.couponCode);
    expect(await error({ lines: [line('', 1)], couponCode: null })).toContain(SAVED_CART_MESSAGES.productId);
    // Exactly at the bounds is fine.
    const atBounds = Array.from({ length: SAVED_CART_LIMITS.maxLines }, (_, i) =>
      line(products[0]!, i === 0 ? SAVED_CART_LIMITS.maxLineQuantity : 1, `S${i}`),
    );
    expect((await put(a.client, { lines: atBounds, couponCode: null })).statusCode).toBe(200);
  });

  it('merges a guest cart on sign-in: quantities add, the guest coupon wins, else the account one stays', async () => {
    const a = await customer();
    await put(a.client, { lines: [line(products[0]!, 2), line(products[1]!, 1)], couponCode: 'SAVE5' });
    const merged = await a.client.post('/api/account/cart/merge', {
      lines: [line(products[0]!, 3), line(products[2]!, 1)],
      couponCode: 'welcome10',
    });
    expect(merged.statusCode).toBe(200);
    expect(merged.json()).toMatchObject({
      lines: [line(products[0]!, 5), line(products[1]!, 1), line(products[2]!, 1)],
      couponCode: 'WELCOME10',
    });
    const noGuestCoupon = await a.client.post('/api/account/cart/merge', { lines: [line(products[1]!, 1)], couponCode: null });
    expect(noGuestCoupon.json()).toMatchObject({
      couponCode: 'WELCOME10',
      lines: [line(products[0]!, 5), line(products[1]!, 2), line(products[2]!, 1)],
    });
    // Nothing in either cart: no coupon is kept.
    const b = await customer();
    expect((await b.client.post('/api/account/cart/merge', { lines: [], couponCode: 'SAVE5' })).json()).toMatchObject({
      lines: [],
      couponCode: null,
    });
  });

  it('two tabs saving at once: both answer 200 and the cart is one of them, whole', async () => {
    const a = await customer();
    const one = { lines: [line(products[0]!, 1)], couponCode: null };
    const two = { lines: [line(products[1]!, 4), line(products[2]!, 2)], couponCode: 'SAVE5' };
    const answers = await Promise.all([put(a.client, one), put(a.client, two), put(a.client, one), put(a.client, two)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const now = (await a.client.get('/api/account/cart')).json<SavedCartView>();
    expect([one.lines, two.lines].map((l) => JSON.stringify(l))).toContain(JSON.stringify(now.lines));
  });

  it("while an admin acts as the customer, the customer's saved cart is read-only", async () => {
    const a = await customer();
    await put(a.client, { lines: [line(products[0]!, 2)], couponCode: null });
    const admin = browser();
    expect((await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
    expect((await admin.post('/api/impersonation', { userId: a.id })).statusCode).toBe(200);
    expect((await admin.get('/api/account/cart')).json()).toMatchObject({ lines: [line(products[0]!, 2)], readOnly: true });
    for (const res of [
      await put(admin, { lines: [], couponCode: null }),
      await admin.post('/api/account/cart/merge', { lines: [line(products[1]!, 1)], couponCode: null }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: SAVED_CART_MESSAGES.impersonating });
    }
    expect((await a.client.get('/api/account/cart')).json()).toMatchObject({ lines: [line(products[0]!, 2)] });
  });
});
