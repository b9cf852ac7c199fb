import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct, createVariant } from '../db/seed/factories.js';
import { INVENTORY_MESSAGES } from '../../shared/schemas/inventory.js';

/**
 * Units kept in another shopper's unpaid checkout are not "out of stock" (issue [1/8]): the quote
 * of a cart short only for them says how many are held and when enough come back (the hold's end),
 * the checkout still refuses it, and once the hold ends the same cart is payable as it is.
 */
const LIMITS = { CHECKOUT_LIMIT_PER_IP: '10000', CHECKOUT_LIMIT_PER_DEVICE: '10000' };
const address = { name: 'Hal Held', address: '4 Option Ave', city: 'Portland', state: 'OR', zip: '97201', country: 'US' };

let t: TestApp;
let ipCount = 0;
const nextIp = () => `10.79.${Math.floor(++ipCount / 250)}.${ipCount % 250}`;

beforeAll(async () => {
  t = await createTestApp({ env: LIMITS });
});
afterAll(async () => {
  await t?.close();
});

type Line = { productId: string; variantId?: string; quantity: number };
const checkout = (c: TestClient, items: Line[]) =>
  c.post('/api/create-checkout-session', { items, customerEmail: 'hal@example.com', shippingAddress: address });
const quoteLine = async (c: TestClient, line: Line) => {
  const res = await c.post('/api/cart/quote', { lines: [{ ...line, size: 'One Size', color: 'Default' }], couponCode: null });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { lines: Record<string, unknown>[] }).lines[0]!;
};
const firmUntilOf = async (orderId: string) =>
  (await t.db.selectFrom('stock_reservations').select('firm_until').where('order_id', '=', orderId).executeTakeFirstOrThrow()).firm_until;

describe('a cart line short only for units held in other checkouts', () => {
  it('is quoted as held until the hold ends, refused at checkout meanwhile, and payable once the hold ends', async () => {
    const p = await createProduct(t.db, { name: 'Held Sponge', inventory: 3 });
    const holder = new TestClient(t.app, nextIp());
    const held = await checkout(holder, [{ productId: p.id, quantity: 2 }]);
    expect(held.statusCode, held.body).toBe(200);
    const { orderId, sessionId } = held.json() as { orderId: string; sessionId: string };
    const until = await firmUntilOf(orderId);

    const shopper = new TestClient(t.app, nextIp());
    // Two wanted, one free: short only for the two held, which come back when the hold ends.
    expect(await quoteLine(shopper, { productId: p.id, quantity: 2 })).toMatchObject({
      inventory: 1,
      insufficientStock: true,
      held: 2,
      heldUntil: until,
    });
    // More than the shelf holds even with every hold back: held, but no time brings it all back.
    expect(await quoteLine(shopper, { productId: p.id, quantity: 4 })).toMatchObject({
      inventory: 1,
      insufficientStock: true,
      held: 2,
      heldUntil: null,
    });
    // Within what is free: nothing to say.
    expect(await quoteLine(shopper, { productId: p.id, quantity: 1 })).toMatchObject({ insufficientStock: false, heldUntil: null });
    // The holder's own checkout is theirs, not another shopper's.
    expect(await quoteLine(holder, { productId: p.id, quantity: 2 })).toMatchObject({ insufficientStock: false, heldUntil: null });

    // The server never sells held units: the checkout of the short cart is refused with the truth.
    const refused = await checkout(shopper, [{ productId: p.id, quantity: 2 }]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(INVENTORY_MESSAGES.reservedElsewhere(p.name, 1, 2));

    // The holder leaves the payment page: the same cart is payable as it is, nothing re-added.
    expect((await holder.request('POST', `/pay/${sessionId}/cancel`, new URLSearchParams())).statusCode).toBe(303);
    await expect
      .poll(async () => (await quoteLine(shopper, { productId: p.id, quantity: 2 })).insufficientStock, { timeout: 5000, interval: 100 })
      .toBe(false);
    expect(await quoteLine(shopper, { productId: p.id, quantity: 2 })).toMatchObject({ inventory: 3, held: 0, heldUntil: null });
    const bought = await checkout(shopper, [{ productId: p.id, quantity: 2 }]);
    expect(bought.statusCode, bought.body).toBe(200);
  });

  it('names the time enough come back when several checkouts hold a variant, and leaves its sibling alone', async () => {
    const p = await createProduct(t.db, { name: 'Held Mop', inventory: 1 });
    const large = await createVariant(t.db, p.id, { options: ['Large'], priceCents: 1500, inventory: 4 });
    const first = new TestClient(t.app, nextIp());
    const second = new TestClient(t.app, nextIp());
    const a = await checkout(first, [{ productId: p.id, variantId: large, quantity: 1 }]);
    expect(a.statusCode, a.body).toBe(200);
    // A second holder a minute later (its own firm ten minutes count from now).
    const b = await checkout(second, [{ productId: p.id, variantId: large, quantity: 2 }]);
    expect(b.statusCode, b.body).toBe(200);
    const aId = (a.json() as { orderId: string }).orderId;
    const bId = (b.json() as { orderId: string }).orderId;
    const later = new Date(Date.parse(await firmUntilOf(aId)) + 60_000).toISOString();
    await t.db.updateTable('stock_reservations').set({ firm_until: later }).where('order_id', '=', bId).execute();
    const aUntil = await firmUntilOf(aId);

    const shopper = new TestClient(t.app, nextIp());
    // One free: two wanted come back when the first hold ends; four only when both have.
    expect(await quoteLine(shopper, { productId: p.id, variantId: large, quantity: 2 })).toMatchObject({
      inventory: 1,
      held: 3,
      heldUntil: aUntil,
    });
    expect(await quoteLine(shopper, { productId: p.id, variantId: large, quantity: 4 })).toMatchObject({
      inventory: 1,
      held: 3,
      heldUntil: later,
    });
    // The first variant holds nothing held: it is simply what it is.
    expect(await quoteLine(shopper, { productId: p.id, quantity: 1 })).toMatchObject({ insufficientStock: false, held: 0 });
  });
});
