import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct } from '../db/seed/factories.js';
import { guestCheckoutBody } from '../test/checkout-orders.js';
import { CHECKOUT_MESSAGES, Quote } from '../../shared/schemas/checkout.js';
import { formatCents } from '../../shared/money.js';
import { taxCents } from '../../shared/pricing.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const checkoutBody = guestCheckoutBody;
const orderCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('no shipping option for the subtotal', () => {
  it('quotes no shipping charge with the spend that unlocks one, and refuses the checkout with 409', async () => {
    await createProduct(t.db, { id: 'ns-refill', priceCents: 1299, inventory: 5 });
    // Every option now needs an order of $20 or more; 'free' stays at $50.
    await t.db.updateTable('shipping_options').set({ minimum_order_cents: 2000 }).where('id', '!=', 'free').execute();
    const c = new TestClient(t.app);
    const q = Quote.parse((await c.post('/api/cart/quote', { lines: [{ productId: 'ns-refill', quantity: 1 }] })).json());
    expect(q.shippingOptions).toEqual([]);
    expect(q.selectedShippingOptionId).toBeNull();
    expect(q.shippingCents).toBe(0);
    expect(q.taxCents).toBe(taxCents(1299, 0, 0));
    expect(q.totalCents).toBe(1299 + q.taxCents);
    expect(q.nextShippingUnlock).toMatchObject({ amountCents: 2000 - 1299 });

    const before = await orderCount();
    const res = await c.post('/api/create-checkout-session', checkoutBody([{ productId: 'ns-refill', quantity: 1 }]));
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(
      `${CHECKOUT_MESSAGES.noShipping} ${CHECKOUT_MESSAGES.shippingUnlock(formatCents(701), q.nextShippingUnlock!.optionName)}`,
    );
    // Nothing was created or held.
    expect(await orderCount()).toBe(before);
    const product = await t.db.selectFrom('products').select('inventory').where('id', '=', 'ns-refill').executeTakeFirstOrThrow();
    expect(product.inventory).toBe(5);

    // With no option enabled at all, the refusal is the spec's sentence alone.
    await t.db.updateTable('shipping_options').set({ enabled: 0 }).execute();
    const none = await c.post('/api/create-checkout-session', checkoutBody([{ productId: 'ns-refill', quantity: 2 }]));
    expect(none.statusCode).toBe(409);
    expect(none.json().error).toBe(CHECKOUT_MESSAGES.noShipping);

    // Once the subtotal reaches an option, the same cart checks out.
    await t.db.updateTable('shipping_options').set({ enabled: 1 }).execute();
    const ok = await c.post('/api/create-checkout-session', checkoutBody([{ productId: 'ns-refill', quantity: 2 }]));
    expect(ok.statusCode).toBe(200);
  });
});
