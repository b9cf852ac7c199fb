import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { placeCheckout } from '../test/checkout-orders.js';
import { createProduct } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { fulfilPaymentSession } from '../checkout/service.js';

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
});
afterAll(async () => {
  await t?.close();
});

const mailOf = (orderId: string, templateId: string) =>
  t.db
    .selectFrom('email_outbox')
    .select(['html', 'text'])
    .where('order_id', '=', orderId)
    .where('template_id', '=', templateId)
    .executeTakeFirstOrThrow();

describe(`order e-mails through the shop on ${testDialect()}`, () => {
  it('the confirmation and the status update draw the lines, the address and the tracking, the tracking number escaped', async () => {
    const p = await createProduct(t.db, { name: 'Linen Cloth', priceCents: 1250 });
    const { orderId, sessionId } = await placeCheckout(t.db, t.dialect, {
      items: [{ productId: p.id, quantity: 3 }],
      email: 'mail.reader@example.com',
    });
    await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
    const confirmation = await mailOf(orderId, 'order-confirmation');
    expect(confirmation.html).toContain('<td>Linen Cloth &times; 3</td><td align="right">$37.50</td>');
    expect(confirmation.html).toContain('Pat Buyer<br>1 Main St<br>Springfield, CA 90210<br>US</p>');
    expect(confirmation.text).toContain('Linen Cloth x 3  $37.50');

    await t.db
      .updateTable('orders')
      .set({ shipstation_tracking_number: '<b>1Z&"</b>', shipping_carrier: 'ups' })
      .where('id', '=', orderId)
      .execute();
    const res = await admin.request('PATCH', `/api/admin/orders/${orderId}/status`, { status: 'shipped' });
    expect(res.statusCode).toBe(200);
    const update = await mailOf(orderId, 'order-status-update');
    expect(update.html).toContain('Tracking number: <strong>&lt;b&gt;1Z&amp;&quot;&lt;/b&gt;</strong>');
    expect(update.html).not.toContain('<b>1Z');
    expect(update.html.replace(/&#x3D;/g, '=')).toContain('href="https://www.ups.com/track?tracknum=%3Cb%3E1Z%26%22%3C%2Fb%3E"');
    expect(update.text).toContain('Tracking number: <b>1Z&"</b>');
  });

  it("the back office's preview draws the sample order in the new shapes", async () => {
    const preview = async (id: string) =>
      (await admin.get(`/api/admin/email-templates/${id}/preview`)).json<{ html: string; text: string }>();
    const confirmation = await preview('order-confirmation');
    expect(confirmation.html).toContain('<td>Sweep &amp; Mop Tool &times; 1</td><td align="right">$49.99</td>');
    expect(confirmation.html).toContain('Jamie Sample<br>12 Green Lane<br>Portland, OR 97201<br>US</p>');
    const status = await preview('order-status-update');
    expect(status.html).toContain('Track your package on the USPS website');
    const shipping = await preview('shipping-notification');
    expect(shipping.text).toContain('Tracking number: 9400100000000000000000');

    const listed = (await admin.get('/api/admin/email-templates')).json<{ items: { id: string; variables: string[] }[] }>().items;
    expect(listed.find((x) => x.id === 'order-confirmation')?.variables).toEqual(expect.arrayContaining(['items', 'shippingAddressLines']));
    expect(listed.find((x) => x.id === 'order-confirmation')?.variables).not.toContain('itemsList');
  });
});
