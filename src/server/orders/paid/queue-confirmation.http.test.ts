import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../../test/harness.js';
import { placeCheckout } from '../../test/checkout-orders.js';
import { createProduct } from '../../db/seed/factories.js';
import { lockOrderRows } from '../../checkout/fulfilment/lock-order-rows.js';
import { queueConfirmation } from './queue-confirmation.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function queue(sessionId: string): Promise<void> {
  await t.db.transaction().execute(async (trx) => {
    const locked = await lockOrderRows(trx, t.dialect, sessionId);
    if (locked.alreadyPaid) throw new Error('paid already');
    await queueConfirmation(trx, locked.rows, 'http://shop.test');
  });
}

describe(`queueConfirmation on ${testDialect()}`, () => {
  it("queues the order confirmation with the lines, totals and address, escaped, on the order's timeline", async () => {
    const cloth = await createProduct(t.db, { name: 'Cloth <Deluxe> & Co', priceCents: 1250 });
    const mop = await createProduct(t.db, { name: 'Mop', priceCents: 3000 });
    const { orderId, sessionId } = await placeCheckout(t.db, t.dialect, {
      items: [
        { productId: cloth.id, quantity: 2 },
        { productId: mop.id, quantity: 1 },
      ],
      email: 'conf@example.com',
    });
    await t.db
      .updateTable('order_items')
      .set({ is_free_gift: 1, price_cents: 0 })
      .where('order_id', '=', orderId)
      .where('product_id', '=', mop.id)
      .execute();
    const order = await t.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    await queue(sessionId);

    const mails = await t.db.selectFrom('email_outbox').selectAll().where('order_id', '=', orderId).execute();
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail).toMatchObject({
      to_address: 'conf@example.com',
      template_id: 'order-confirmation',
      subject: `Order Confirmation - #${order.order_number}`,
      status: 'queued',
    });
    expect(mail.html).toContain('Cloth &lt;Deluxe&gt; &amp; Co');
    expect(mail.html).not.toContain('<Deluxe>');
    expect(mail.html).toMatch(/Cloth &lt;Deluxe&gt; &amp; Co &times; 2<\/td><td align="right">\$25\.00<\/td>/);
    expect(mail.html).toMatch(/Mop \(Free Gift\) &times; 1<\/td><td align="right">\$0\.00<\/td>/);
    expect(mail.html).toContain('Hi Pat Buyer,');
    expect(mail.text).toContain('Cloth <Deluxe> & Co x 2  $25.00\nMop x 1  $0.00');
    expect(mail.text).toContain('Shipping to:\nPat Buyer\n1 Main St\nSpringfield, CA 90210\nUS\n\n');
    expect(mail.text).toContain(`Total: $`);
    const queued = await t.db
      .selectFrom('order_events')
      .select('data')
      .where('order_id', '=', orderId)
      .where('type', '=', 'email.queued')
      .execute();
    expect(queued.map((e) => JSON.parse(e.data).templateId)).toEqual(['order-confirmation']);
  });

  it('queues nothing for an order without an e-mail address', async () => {
    const p = await createProduct(t.db);
    const { orderId, sessionId } = await placeCheckout(t.db, t.dialect, { items: [{ productId: p.id, quantity: 1 }] });
    await t.db.updateTable('orders').set({ email: null }).where('id', '=', orderId).execute();
    await queue(sessionId);
    expect(await t.db.selectFrom('email_outbox').select('id').where('order_id', '=', orderId).execute()).toEqual([]);
  });
});
