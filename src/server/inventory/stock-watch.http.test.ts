import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct } from '../db/seed/factories.js';
import { checkShopChanges } from '../http/shop-changes.js';

/**
 * An open page learns of a hold or a release within a second (issue [1/8]): GET /api/stock/watch
 * answers at once when the stock is not what the page saw, else waits and answers when a checkout
 * holds or gives back units of the watched product, and not for another product's.
 */
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' };
const address = { name: 'Wes Watch', address: '4 Option Ave', city: 'Portland', state: 'OR', zip: '97201', country: 'US' };
// The watcher polls every 250 ms; the rest of the second is the answer's own way (and CI noise).
const WITHIN_MS = 1000;

let t: TestApp;
let ipCount = 0;
const nextIp = () => `10.80.${Math.floor(++ipCount / 250)}.${ipCount % 250}`;

beforeAll(async () => {
  t = await createTestApp({ env: LIMITS });
});
afterAll(async () => {
  await t?.close();
});

type Answer = { changed: boolean; stamp: string };
const watch = async (c: TestClient, products: string[], seen?: string) => {
  const res = await c.get(`/api/stock/watch?products=${products.map(encodeURIComponent).join(',')}${seen ? `&seen=${seen}` : ''}`);
  return { status: res.statusCode, body: res.json() as Answer & { error?: string }, at: Date.now() };
};
const checkout = (c: TestClient, productId: string, quantity: number) =>
  c.post('/api/create-checkout-session', { items: [{ productId, quantity }], customerEmail: 'wes@example.com', shippingAddress: address });

describe('the stock watch', () => {
  it('refuses what it cannot watch with a reason', async () => {
    const c = new TestClient(t.app, nextIp());
    expect((await c.get('/api/stock/watch')).statusCode).toBe(400);
    const tooMany = await c.get(`/api/stock/watch?products=${Array.from({ length: 21 }, (_, i) => `p${i}`).join(',')}`);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error).toContain('at most 20 products');
    expect((await c.get('/api/stock/watch?products=a&other=1')).statusCode).toBe(400);
    const unknown = await c.get('/api/stock/watch?products=no-such-product');
    expect(unknown.statusCode).toBe(404);
  });

  it('answers every page watching a product within a second of a hold and of a release, and not for another product', async () => {
    const p = await createProduct(t.db, { name: 'Watched Brush', inventory: 9 });
    const other = await createProduct(t.db, { name: 'Unwatched Brush', inventory: 9 });
    // The new products' stock is seen now, as the watcher's next look would: their creation is not what is watched.
    await checkShopChanges(t.db);
    const pages = Array.from({ length: 12 }, () => new TestClient(t.app, nextIp()));
    const first = await watch(pages[0]!, [p.id]);
    expect(first).toMatchObject({ status: 200, body: { changed: false } });
    // A stamp that is not today's stock is answered at once.
    expect((await watch(pages[0]!, [p.id], 'stale')).body).toEqual({ changed: true, stamp: first.body.stamp });

    // Many open pages wait on the product, one on another product.
    let otherAnswered = false;
    const otherStamp = (await watch(pages[0]!, [other.id])).body.stamp;
    const otherWatch = watch(pages[0]!, [other.id], otherStamp).then((a) => {
      otherAnswered = true;
      return a;
    });
    const waiting = pages.map((c) => watch(c, [p.id], first.body.stamp));
    // Another shopper's checkout holds all 9.
    const holder = new TestClient(t.app, nextIp());
    const held = await checkout(holder, p.id, 9);
    expect(held.statusCode, held.body).toBe(200);
    const heldAt = Date.now();
    const answers = await Promise.all(waiting);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body.changed).toBe(true);
      expect(a.at - heldAt).toBeLessThan(WITHIN_MS);
    }
    const stamp = answers[0]!.body.stamp;
    expect(new Set(answers.map((a) => a.body.stamp))).toEqual(new Set([stamp]));
    expect(stamp).not.toBe(first.body.stamp);
    expect(otherAnswered).toBe(false);

    // The holder leaves the payment page: the units are given back, and the pages hear it.
    const release = watch(pages[1]!, [p.id], stamp);
    const { sessionId } = held.json() as { sessionId: string };
    expect((await holder.request('POST', `/pay/${sessionId}/cancel`, new URLSearchParams())).statusCode).toBe(303);
    const releasedAt = Date.now();
    const released = await release;
    expect(released.body.changed).toBe(true);
    expect(released.at - releasedAt).toBeLessThan(WITHIN_MS);
    expect(released.body.stamp).not.toBe(stamp);
    expect(otherAnswered).toBe(false);

    // The other product's page is answered when its own stock moves.
    expect((await checkout(holder, other.id, 1)).statusCode).toBe(200);
    expect((await otherWatch).body.changed).toBe(true);
  });

  it("gives the product's page the stamp of the stock it shows, so the page's watch starts from it", async () => {
    const p = await createProduct(t.db, { name: 'Stamped Brush', inventory: 5 });
    await checkShopChanges(t.db);
    const c = new TestClient(t.app, nextIp());
    const product = async () => (await c.get(`/api/products/${p.id}`)).json() as { stockStamp: string; product: { inventory: number } };
    const pageStamp = async () => {
      const res = await t.app.inject({ method: 'GET', url: `/products/${p.id}`, headers: { accept: 'text/html' } });
      return /"stockStamp":"([^"]+)"/.exec(res.body)?.[1];
    };
    const before = await product();
    expect(before.product.inventory).toBe(5);
    expect(before.stockStamp).toBe((await watch(c, [p.id])).body.stamp);
    expect(await pageStamp()).toBe(before.stockStamp);

    // Started from the page's stamp, the watch waits (nothing moved) and answers a hold as a change.
    let answered = false;
    const waiting = watch(c, [p.id], before.stockStamp).then((a) => {
      answered = true;
      return a;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(answered).toBe(false);
    expect((await checkout(new TestClient(t.app, nextIp()), p.id, 2)).statusCode).toBe(200);
    const moved = await waiting;
    expect(moved.body.changed).toBe(true);

    // The product read again comes with the new stamp and the new figures, in the API and the page.
    const after = await product();
    expect(after.product.inventory).toBe(3);
    expect(after.stockStamp).toBe(moved.body.stamp);
    expect(after.stockStamp).not.toBe(before.stockStamp);
    expect(await new Promise<string | undefined>((r) => setTimeout(() => r(pageStamp()), 500))).toBe(after.stockStamp);
  });
});
