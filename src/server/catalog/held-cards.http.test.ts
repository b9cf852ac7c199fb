import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct } from '../db/seed/factories.js';

/**
 * A card whose units are all in other shoppers' unpaid checkouts says so, as the product page does
 * (issue [1/8]): the shop list's cards carry the units held
 * beside what can be bought, so the card does not call them "Out of stock".
 */
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' };
const address = { name: 'Cara Card', address: '4 Option Ave', city: 'Portland', state: 'OR', zip: '97201', country: 'US' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: LIMITS });
});
afterAll(async () => {
  await t?.close();
});

type Card = { id: string; inventory: number; held?: number };

describe('cards of a product held in other checkouts', () => {
  it('carry the held units beside what can be bought, and lose them when the hold ends', async () => {
    const p = await createProduct(t.db, { name: 'Heldcard Squeegee', inventory: 2 });
    const free = await createProduct(t.db, { name: 'Heldcard Bucket', inventory: 4 });
    const holder = new TestClient(t.app, '10.81.0.1');
    const held = await holder.post('/api/create-checkout-session', {
      items: [{ productId: p.id, quantity: 2 }],
      customerEmail: 'cara@example.com',
      shippingAddress: address,
    });
    expect(held.statusCode, held.body).toBe(200);

    const shopper = new TestClient(t.app, '10.81.0.2');
    const listed = async () => {
      const res = await shopper.get('/api/products?search=Heldcard');
      expect(res.statusCode).toBe(200);
      return (res.json() as { items: Card[] }).items;
    };
    await expect
      .poll(async () => (await listed()).find((c) => c.id === p.id), { timeout: 5000, interval: 100 })
      .toMatchObject({
        inventory: 0,
        held: 2,
      });
    // A product nobody holds says nothing more.
    expect((await listed()).find((c) => c.id === free.id)).toEqual(expect.not.objectContaining({ held: expect.anything() }));

    // The holder leaves the card page: the units are on sale again, and the cards say so.
    const { sessionId } = held.json() as { sessionId: string };
    expect((await holder.request('POST', `/pay/${sessionId}/cancel`, new URLSearchParams())).statusCode).toBe(303);
    await expect
      .poll(async () => (await listed()).find((c) => c.id === p.id), { timeout: 5000, interval: 100 })
      .toEqual(expect.objectContaining({ inventory: 2 }));
    expect((await listed()).find((c) => c.id === p.id)?.held).toBeUndefined();
  });
});
