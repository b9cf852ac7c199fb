import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { createProduct } from '../db/seed/factories.js';
import { DEMO_ADMIN, DEMO_CUSTOMER } from '../db/seed/demo-accounts.js';
import { fulfilPaymentSession } from '../checkout/service.js';
import { OrderView } from '../../shared/schemas/orders.js';
import { AccountSummary } from '../../shared/schemas/account.js';
import { BEING_PREPARED_LABEL, orderNumberOf } from '../../shared/order-words.js';
import { LOYALTY_REWARD_EVERY, nextRewardAt, rewardsEarned } from '../../shared/pricing.js';

/**
 * Issue 29, "Truth and clarity": a just-paid order says paid and being prepared (never "Completed"),
 * the customer's counts add up, the confirmation and its e-mail say the shipping method and estimate
 * as chosen at checkout (and nothing for orders without it), one spelling of the order number in the
 * e-mails, and the demo customer's loyalty fixture agrees with the rules.
 */
let t: TestApp;
let customer: TestClient;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  customer = new TestClient(t.app, '10.0.2.1');
  admin = new TestClient(t.app, '10.0.2.2');
  expect((await customer.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password)).statusCode).toBe(200);
  expect((await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password)).statusCode).toBe(200);
  await createProduct(t.db, { id: 'truth29-cloth', name: 'Truth Cloth', priceCents: 2000, inventory: 100 });
});
afterAll(async () => {
  await t?.close();
});

const ADDRESS = { name: 'Test Customer', address: '9 Oak St', city: 'Salem', state: 'OR', zip: '97301', country: 'US' };

async function paidOrder(shippingOptionId?: string): Promise<string> {
  const res = await customer.post('/api/create-checkout-session', {
    items: [{ productId: 'truth29-cloth', quantity: 1 }],
    customerEmail: DEMO_CUSTOMER.email,
    shippingAddress: ADDRESS,
    ...(shippingOptionId ? { shippingOptionId } : {}),
  });
  expect(res.statusCode).toBe(200);
  const { sessionId, orderId } = res.json<{ sessionId: string; orderId: string }>();
  await fulfilPaymentSession(t.db, t.dialect, sessionId, { publicUrl: 'http://shop.test' });
  return orderId;
}

const summary = async () => AccountSummary.parse((await customer.get('/api/account/summary')).json());
const orderOf = async (id: string) => OrderView.parse((await customer.get(`/api/orders/${id}`)).json<{ order: unknown }>().order);
const confirmationMail = (orderId: string) =>
  t.db
    .selectFrom('email_outbox')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('template_id', '=', 'order-confirmation')
    .executeTakeFirstOrThrow();

describe(`shopper truth on ${testDialect()}`, () => {
  it("the demo customer's points, lifetime points and reward coupons agree with the loyalty rules", async () => {
    const s = await summary();
    expect(s.loyalty.points).toBe(DEMO_CUSTOMER.loyaltyPoints);
    expect(s.loyalty.totalEarned).toBe(DEMO_CUSTOMER.totalPointsEarned);
    // 850 earned crossed 300 and 600: two coupons, 250 left, 50 to the next.
    expect(s.loyalty.rewards).toHaveLength(rewardsEarned(0, DEMO_CUSTOMER.totalPointsEarned));
    expect(s.loyalty.rewards.map((r) => r.code).sort()).toEqual([...DEMO_CUSTOMER.rewardCouponCodes]);
    expect(s.loyalty.rewards.every((r) => !r.used && r.discountPercent === 15 && r.expiresAt !== null)).toBe(true);
    expect(DEMO_CUSTOMER.totalPointsEarned - s.loyalty.rewards.length * LOYALTY_REWARD_EVERY).toBe(s.loyalty.points);
    expect(s.loyalty.nextRewardAt).toBe(nextRewardAt(DEMO_CUSTOMER.totalPointsEarned));
  });

  it('a just-paid order keeps the shipping method and estimate chosen at checkout, on the order and in its e-mail', async () => {
    const options = (await t.db.selectFrom('shipping_options').selectAll().where('enabled', '=', 1).execute()).filter(
      (o) => o.minimum_order_cents === null,
    );
    const expedited = options.find((o) => o.name === 'Expedited Shipping')!;
    const id = await paidOrder(expedited.id);
    // The owner re-times the option afterwards: the order still says what was chosen.
    await t.db.updateTable('shipping_options').set({ estimated_days: '9-12' }).where('id', '=', expedited.id).execute();

    const order = await orderOf(id);
    expect(order.delivery).toEqual({ method: 'Expedited Shipping', estimatedDays: '2-3 business days' });
    expect(order.status).toBe('completed');
    expect(order.paymentStatus).toBe('paid');
    const listed = (await customer.get('/api/orders?page=1&pageSize=10')).json<{ items: OrderView[] }>();
    expect(listed.items.find((o) => o.id === id)?.delivery).toEqual(order.delivery);

    const mail = await confirmationMail(id);
    expect(mail.html).toContain('Shipping method: <strong>Expedited Shipping</strong> (estimated delivery: 2-3 business days)');
    expect(mail.text).toContain('Shipping method: Expedited Shipping (estimated delivery: 2-3 business days)');
    // One spelling of the order number: as on the receipt, never the id's lower-case tail.
    const number = orderNumberOf(id);
    expect(mail.subject).toBe(`Order Confirmation - #${number}`);
    for (const body of [mail.subject, mail.html, mail.text ?? '']) {
      expect(body).not.toContain(`#${id.slice(-8).toLowerCase()}`);
    }
  });

  it('an order from before the choice was kept says nothing about delivery', async () => {
    const id = await paidOrder();
    await t.db
      .updateTable('order_events')
      .set({ data: JSON.stringify({ totalCents: 1, provider: 'test' }) })
      .where('order_id', '=', id)
      .where('type', '=', 'placed')
      .execute();
    expect((await orderOf(id)).delivery).toBeNull();
  });

  it('the status e-mail calls a paid order not yet shipped "Paid, being prepared", never "Completed"', async () => {
    const id = await paidOrder();
    const res = await admin.request('PATCH', `/api/admin/orders/${id}/status`, { status: 'processing', notify: true });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await t.db
      .selectFrom('email_outbox')
      .selectAll()
      .where('order_id', '=', id)
      .where('template_id', '=', 'order-status-update')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe(`Order #${orderNumberOf(id)} is now ${BEING_PREPARED_LABEL}`);
  });

  it("the dashboard's counts put every order in one bucket, and they add up to the orders", async () => {
    const s = await summary();
    const counts = s.stats.orderCounts;
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(s.stats.totalOrders);
    // Three paid orders above, none shipped: all three are being prepared (one set to processing).
    expect(counts.preparing).toBe(3);
    expect(s.stats.totalOrders).toBe(3);
    // The owner ships one; it moves buckets, the sum holds.
    const [first] = (await customer.get('/api/orders?page=1&pageSize=10')).json<{ items: OrderView[] }>().items;
    await t.db.updateTable('orders').set({ status: 'shipped' }).where('id', '=', first!.id).execute();
    const after = (await summary()).stats;
    expect(after.orderCounts).toMatchObject({ preparing: 2, shipped: 1 });
    expect(Object.values(after.orderCounts).reduce((a, b) => a + b, 0)).toBe(after.totalOrders);
  });
});
