import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, TestClient } from '../test/http-client.js';
import { createProduct, createUser } from '../db/seed/factories.js';
import { formerOrderReferenceOf, orderReferenceOf } from '../../shared/schemas/orders.js';

/**
 * The admin order search goes through the word index (orders/search-terms.ts): what it finds,
 * and that it follows edits (its speed at 100,000 orders: order-list.scale.test.ts).
 */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

// The order searched is an unpaid checkout: the list shows those only when asked (payment=all, unpaid or abandoned).
const total = async (search: string) =>
  (await admin.get(`/api/admin/orders?payment=all&search=${encodeURIComponent(search)}`)).json().total as number;

describe('admin order search', () => {
  it('finds orders by number, id, tracking code, e-mail and name words, and follows edits', async () => {
    await createProduct(t.db, { id: 'search-p', name: 'Heron Scrub Pad', sku: 'HRN-42', priceCents: 500, inventory: 100 });
    const customer = await createUser(t.db, { email: 'marigold.finch@example.org', fullName: 'Marigold Finch' });
    const shopper = new TestClient(t.app, '10.0.0.7');
    await shopper.signIn(customer.email, customer.password);
    const { orderId } = (
      await shopper.post('/api/create-checkout-session', {
        items: [{ productId: 'search-p', quantity: 1 }],
        customerEmail: 'marigold.finch@example.org',
        shippingAddress: { name: 'Goldie Finch', address: '9 Wren Rd', city: 'Reno', state: 'NV', zip: '89501', country: 'US' },
      })
    ).json();
    const number = orderId.slice(-8).toUpperCase();

    expect(await total(number.toLowerCase())).toBe(1);
    expect(await total(`#${number}`)).toBe(1);
    expect(await total(orderId)).toBe(1);
    expect(await total(orderReferenceOf(orderId))).toBe(1);
    // The reference as e-mails sent before decision 0044 printed it.
    expect(await total(formerOrderReferenceOf(orderId))).toBe(1);
    expect(await total('MARIGOLD.FINCH@EXAMPLE.ORG')).toBe(1);
    expect(await total('marigold.fi')).toBe(1);
    expect(await total('example.org')).toBeGreaterThanOrEqual(1);
    // The account's name and the name on the parcel, in any order, by the start of each word.
    expect(await total('Finch Mari')).toBe(1);
    expect(await total('goldie')).toBe(1);
    expect(await total('goldie zebra')).toBe(0);
    expect(await total('%')).toBe(0);
    expect(await total("' or 1=1 --")).toBe(0);

    // The lines: by the product's words and its SKU, as the checkout read them with the prices.
    expect(await total('HRN-42')).toBe(1);
    expect(await total('heron')).toBe(1);

    // A word matching several terms of one order still counts that order once.
    expect(await total('fin')).toBe(1);

    // The customer renames themselves: the back office finds the order by the new name.
    const renamed = await shopper.request('PUT', '/api/account/contact', {
      fullName: 'Marigold Sparrow',
      email: 'marigold.finch@example.org',
      phone: '',
    });
    expect(renamed.statusCode).toBe(200);
    expect(await total('sparrow')).toBe(1);

    // The owner edits the parcel's name: found by the new one, not the old.
    const edited = await admin.request('PUT', `/api/admin/orders/${orderId}`, {
      user_id: customer.id,
      shipping_address: 'Penny Lane\n1 Abbey Rd',
      status: 'pending',
      elapsedMs: 3000,
    });
    expect(edited.statusCode).toBe(200);
    expect(await total('goldie')).toBe(0);

    // Deleting the order takes its search words with it.
    expect((await admin.request('DELETE', `/api/admin/orders/${orderId}`)).statusCode).toBe(200);
    expect(await total('marigold')).toBe(0);
    const left = await t.db.selectFrom('order_search_terms').select('term').where('order_id', '=', orderId).execute();
    expect(left).toEqual([]);
  });
});
