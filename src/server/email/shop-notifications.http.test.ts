import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import {
  FAKE_STRIPE_SECRET_KEY as SECRET_KEY,
  FAKE_STRIPE_WEBHOOK_SECRET as WEBHOOK_SECRET,
  fakeStripe,
  signedStripeEvent,
  deliverStripeEvent,
} from '../test/fake-stripe.js';
import { createProduct } from '../db/seed/factories.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { fulfilPaymentSession } from '../checkout/service.js';

const fake = fakeStripe();
let t: TestApp;
let admin: TestClient;
const SHOP = 'owner@shop.example';

beforeAll(async () => {
  const base = await fake.listen();
  t = await createTestApp({ env: { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: base } });
  admin = new TestClient(t.app);
  await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const general = await admin.request('PUT', '/api/admin/settings/general', { contact_email: SHOP, contact_phone: '', contact_hours: '' });
  expect(general.statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});

const address = { name: 'Robin <Buyer>', address: '2 Side St', city: 'Austin', state: 'TX', zip: '73301', country: 'US' };
const deliver = (e: { payload: string; signature: string }) => deliverStripeEvent(t.app, e);
const shopMails = (template: string) =>
  t.db.selectFrom('email_outbox').selectAll().where('to_address', '=', SHOP).where('template_id', '=', template).execute();

async function stripeCheckout(): Promise<{ sessionId: string; orderId: string }> {
  const p = await createProduct(t.db, { name: 'Glass Cloth', priceCents: 1250, inventory: 10 });
  const res = await new TestClient(t.app).post('/api/create-checkout-session', {
    items: [{ productId: p.id, quantity: 2 }],
    customerEmail: 'robin@example.com',
    shippingAddress: address,
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}
const paidEvent = (sessionId: string, orderId: string) =>
  signedStripeEvent('checkout.session.completed', {
    id: sessionId,
    object: 'checkout.session',
    payment_status: 'paid',
    metadata: { orderId },
  });

const contact = (c: TestClient, subject: string) =>
  c.post('/api/contact', { name: 'Ada <Asker>', email: 'ada@example.com', subject, message: 'Line one\nLine two', elapsedMs: 5000 });

describe(`the shop's own e-mails on ${testDialect()}`, () => {
  it('e-mails the contact address once for a paid order, however often and at once the webhook comes', async () => {
    const { sessionId, orderId } = await stripeCheckout();
    const event = paidEvent(sessionId, orderId);
    // Five deliveries of the webhook and two direct fulfilments (as from two processes), all at once.
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => deliver(event)),
      fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' }),
      fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' }),
    ]);
    expect(results.slice(0, 5).map((r) => (r as { statusCode: number }).statusCode)).toEqual([200, 200, 200, 200, 200]);
    const order = await t.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    expect(order.payment_status).toBe('paid');
    const mails = (await shopMails('shop-new-order')).filter((m) => m.subject.includes(order.order_number));
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe(`New order #${order.order_number}: $${(order.total_cents / 100).toFixed(2)}`);
    expect(mail.html).toContain('Robin &lt;Buyer&gt;');
    expect(mail.html).toContain('robin@example.com');
    expect(mail.text).toContain(`Open the order: http://shop.test/admin?tab=orders&view=details&order=${orderId}`);
    expect(mail.text).toContain('Glass Cloth x 2  $25.00');
    // The customer's confirmation is still one.
    const confirmations = await t.db
      .selectFrom('email_outbox')
      .select('id')
      .where('order_id', '=', orderId)
      .where('template_id', '=', 'order-confirmation')
      .execute();
    expect(confirmations).toHaveLength(1);
  });

  it('e-mails the contact address for each contact message, escaped, with the sender to reply to', async () => {
    const before = (await shopMails('shop-contact-message')).length;
    const res = await contact(new TestClient(t.app, '10.9.0.1'), 'Mop refills?');
    expect(res.statusCode).toBe(200);
    const mails = await shopMails('shop-contact-message');
    expect(mails).toHaveLength(before + 1);
    const mail = mails.find((m) => m.subject === 'Contact form: Mop refills?')!;
    expect(mail.html).toContain('Ada &lt;Asker&gt;');
    expect(mail.html).toContain('mailto:ada@example.com');
    expect(mail.text).toContain('Line one\nLine two');
    // A bot's submit (too fast) stores nothing and e-mails nobody.
    await new TestClient(t.app, '10.9.0.2').post('/api/contact', {
      name: 'Bot',
      email: 'bot@example.com',
      subject: 'Spam',
      message: 'x',
      elapsedMs: 10,
    });
    expect((await shopMails('shop-contact-message')).filter((m) => m.subject === 'Contact form: Spam')).toHaveLength(0);
  });

  it('sends neither when its switch is off in Settings, and both templates are editable like the others', async () => {
    const bad = await admin.request('PUT', '/api/admin/settings/notifications', {
      shop_email_new_order: 'no',
      shop_email_contact_message: false,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('shop_email_new_order must be true or false');
    const off = await admin.request('PUT', '/api/admin/settings/notifications', {
      shop_email_new_order: false,
      shop_email_contact_message: false,
    });
    expect(off.statusCode).toBe(200);
    expect(off.json().settings).toMatchObject({ shop_email_new_order: 'false', shop_email_contact_message: 'false' });
    const [orders, messages] = [(await shopMails('shop-new-order')).length, (await shopMails('shop-contact-message')).length];

    const { sessionId, orderId } = await stripeCheckout();
    expect((await deliver(paidEvent(sessionId, orderId))).statusCode).toBe(200);
    await contact(new TestClient(t.app, '10.9.0.3'), 'While off');
    expect(
      (await t.db.selectFrom('orders').select('payment_status').where('id', '=', orderId).executeTakeFirstOrThrow()).payment_status,
    ).toBe('paid');
    expect(await shopMails('shop-new-order')).toHaveLength(orders);
    expect(await shopMails('shop-contact-message')).toHaveLength(messages);
    expect(await t.db.selectFrom('contact_messages').select('id').where('subject', '=', 'While off').execute()).toHaveLength(1);

    const { items } = (await admin.get('/api/admin/email-templates')).json() as {
      items: { id: string; variables: string[]; builtIn: boolean }[];
    };
    expect(items.find((x) => x.id === 'shop-new-order')).toMatchObject({
      builtIn: true,
      variables: expect.arrayContaining(['orderNumber', 'orderAdminUrl']),
    });
    expect(items.find((x) => x.id === 'shop-contact-message')).toMatchObject({
      builtIn: true,
      variables: expect.arrayContaining(['senderEmail', 'message']),
    });
    for (const id of ['shop-new-order', 'shop-contact-message']) {
      const preview = await admin.get(`/api/admin/email-templates/${id}/preview`);
      expect(preview.statusCode).toBe(200);
      expect(preview.body).not.toContain('{{');
    }
  });
});

describe(`the shop's notices have their own address on ${testDialect()}`, () => {
  const NOTICES = 'orders@shop.example';
  const mailsTo = (to: string, template: string) =>
    t.db.selectFrom('email_outbox').selectAll().where('to_address', '=', to).where('template_id', '=', template).execute();
  const notifications = (body: Record<string, unknown>) =>
    admin.request('PUT', '/api/admin/settings/notifications', { shop_email_new_order: true, shop_email_contact_message: true, ...body });
  const stock = (id: string, quantity: number) => admin.post(`/api/admin/products/${id}/stock`, { reason: 'counted', quantity });

  it('refuses an address that is not one, with a sentence', async () => {
    const res = await notifications({ shop_notices_email: 'orders at shop' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('Please enter a valid email address for the notices');
  });

  it('sends new orders, contact messages and stock e-mails to the notices address, the contact address untouched', async () => {
    expect((await notifications({ shop_notices_email: NOTICES, shop_email_stock: true })).json().settings).toMatchObject({
      shop_notices_email: NOTICES,
      shop_email_stock: 'true',
    });
    const [ordersBefore, contactBefore] = [(await shopMails('shop-new-order')).length, (await shopMails('shop-contact-message')).length];
    const { sessionId, orderId } = await stripeCheckout();
    expect((await deliver(paidEvent(sessionId, orderId))).statusCode).toBe(200);
    await contact(new TestClient(t.app, '10.9.0.4'), 'To the notices address');
    expect(await mailsTo(NOTICES, 'shop-new-order')).toHaveLength(1);
    expect(await mailsTo(NOTICES, 'shop-contact-message')).toHaveLength(1);
    expect(await shopMails('shop-new-order')).toHaveLength(ordersBefore);
    expect(await shopMails('shop-contact-message')).toHaveLength(contactBefore);

    const p = await createProduct(t.db, { name: 'Notice Sponge', inventory: 20 });
    expect((await stock(p.id, 2)).statusCode).toBe(200);
    expect((await mailsTo(NOTICES, 'stock-low')).filter((m) => m.subject.includes('Notice Sponge'))).toHaveLength(1);
    expect((await shopMails('stock-low')).filter((m) => m.subject.includes('Notice Sponge'))).toHaveLength(0);
  });

  it('switches stock e-mails off on their own, and an empty notices address falls back to the contact address', async () => {
    expect((await notifications({ shop_notices_email: '', shop_email_stock: false })).statusCode).toBe(200);
    const p = await createProduct(t.db, { name: 'Quiet Sponge', inventory: 20 });
    expect((await stock(p.id, 1)).statusCode).toBe(200);
    expect((await stock(p.id, 0)).statusCode).toBe(200);
    const stockMails = await t.db
      .selectFrom('email_outbox')
      .select('subject')
      .where('template_id', 'in', ['stock-low', 'stock-sold-out'])
      .where('subject', 'like', '%Quiet Sponge%')
      .execute();
    expect(stockMails).toEqual([]);
    // The other notices still come, to the contact address again.
    await contact(new TestClient(t.app, '10.9.0.5'), 'Back to the contact address');
    expect((await shopMails('shop-contact-message')).some((m) => m.subject.includes('Back to the contact address'))).toBe(true);
    expect((await notifications({ shop_email_stock: true })).statusCode).toBe(200);
    expect((await stock(p.id, 5)).statusCode).toBe(200);
    expect((await stock(p.id, 0)).statusCode).toBe(200);
    expect((await shopMails('stock-sold-out')).filter((m) => m.subject.includes('Quiet Sponge'))).toHaveLength(1);
  });
});
