import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { makeSubscription, renewalDeps } from '../test/subscriptions.js';
import { runRenewals, renewCycle, renewalChargeKey, type RenewalDeps } from './renewals.js';
import { cancelSubscription } from './cancel.js';
import { saveSubscriptionSettings } from './settings.js';
import { addWeeks } from '../../shared/subscriptions.js';
import { PaymentProviderError, type PaymentProvider } from '../payments/provider.js';

/**
 * Renewals on the shop's own schedule (issue [4/8] item 5, decision 0058), with the clock moved
 * instead of waited for: the reminder, the renewal order, declines and retries, the bank wanting
 * the customer, stock out and back, a shop away for a month, a charge whose process died, and
 * cancels fired at the very moment of renewals. Every renewal exactly once.
 */
let t: TestApp;
let deps: RenewalDeps;
const DAY = 86_400_000;
const T0 = Date.parse('2027-03-01T09:00:00.000Z');
const at = (days: number) => new Date(T0 + days * DAY);

beforeAll(async () => {
  t = await createTestApp();
  deps = renewalDeps(t);
});
afterAll(async () => {
  await t?.close();
});

const cycles = (id: string) =>
  t.db.selectFrom('subscription_cycles').selectAll().where('subscription_id', '=', id).orderBy('cycle').execute();
const sub = (id: string) => t.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const renewalOrders = (userId: string) =>
  t.db.selectFrom('orders').selectAll().where('user_id', '=', userId).where('origin', '=', 'renewal').orderBy('created_at').execute();
const mails = (to: string, templateId: string) =>
  t.db.selectFrom('email_outbox').selectAll().where('to_address', '=', to).where('template_id', '=', templateId).execute();
type Charge = NonNullable<PaymentProvider['chargeOffSession']>;
/** The schedule's dependencies with the test card page's charge wrapped (an answer lost, a cancel midway). */
function withTestCharge(wrap: (charge: Charge, c: Parameters<Charge>[0]) => ReturnType<Charge>): RenewalDeps {
  const card = deps.payments.of('test');
  const charge: Charge = (c) => card.chargeOffSession!(c);
  return {
    ...deps,
    payments: {
      ...deps.payments,
      of: (name) => (name === 'test' ? { ...card, chargeOffSession: (c) => wrap(charge, c) } : deps.payments.of(name)),
    },
  };
}
const onHand = async (variantId: string) =>
  Number((await t.db.selectFrom('stock_items').select('on_hand').where('variant_id', '=', variantId).executeTakeFirstOrThrow()).on_hand);

describe(`renewals on ${testDialect()}`, () => {
  it('reminds three days before, once; renews on the day at today’s price less the discount, once', async () => {
    const s = await makeSubscription(t.db, {
      nextRenewalAt: at(10).toISOString(),
      priceCents: 2000,
      discountPercent: 10,
      inventory: 5,
      quantity: 2,
    });
    // Four days before: nothing yet.
    await runRenewals(deps, at(6));
    expect(await cycles(s.id)).toHaveLength(0);
    // Three days before: the cycle's row and the reminder, with the date and the total.
    await runRenewals(deps, at(7.1));
    await runRenewals(deps, at(7.2));
    expect(await cycles(s.id)).toMatchObject([{ cycle: 2, status: 'scheduled', due_at: at(10).toISOString() }]);
    const reminders = await mails(s.email, 'subscription-renewal-reminder');
    expect(reminders).toHaveLength(1);
    // 2 × $18.00 = $36.00, shipping by the cheapest option, tax 8% on both.
    expect(reminders[0]!.text).toContain('March 11, 2027');
    expect(reminders[0]!.text).toMatch(/\/subscriptions\/manage\/[A-Za-z0-9_-]{43}/);
    // Its links: skip this delivery, change the subscription, cancel it (each opens its dialog on the link's page).
    for (const [words, hash] of [
      ['Skip this delivery', 'skip'],
      ['Change your subscription', 'change'],
      ['Cancel your subscription', 'cancel'],
    ] as const) {
      expect(reminders[0]!.text).toMatch(new RegExp(`${words}[^\\n]*: http://[^\\s]+/subscriptions/manage/[A-Za-z0-9_-]{43}#${hash}\\n`));
      expect(reminders[0]!.html).toMatch(
        new RegExp(`href="http://[^"]+/subscriptions/manage/[A-Za-z0-9_-]{43}#${hash}"[^>]*>${words}</a>`),
      );
    }
    expect(await renewalOrders(s.userId)).toHaveLength(0);

    // The price rises after the reminder: the customer was told $20.00 less 10%, and that is what is charged
    // (a rise waits for its notice, 7 days ahead: price-notices.http.test.ts).
    await t.db.updateTable('product_variants').set({ price_cents: 2200 }).where('id', '=', s.variantId).execute();
    await Promise.all([runRenewals(deps, at(10.01)), runRenewals(deps, at(10.01)), runRenewals(deps, at(10.02))]);
    const orders = await renewalOrders(s.userId);
    expect(orders).toHaveLength(1);
    const order = orders[0]!;
    expect(order).toMatchObject({ origin: 'renewal', payment_status: 'paid', status: 'completed', subtotal_cents: 2 * 1800 });
    expect(Number(order.total_cents)).toBe(Number(order.subtotal_cents) + Number(order.shipping_cents) + Number(order.tax_cents));
    const items = await t.db.selectFrom('order_items').selectAll().where('order_id', '=', order.id).execute();
    expect(items).toMatchObject([{ variant_id: s.variantId, quantity: 2, price_cents: 1800, every_weeks: 4, plan_discount_percent: 10 }]);
    expect(await onHand(s.variantId)).toBe(3);
    expect(await cycles(s.id)).toMatchObject([{ cycle: 2, status: 'paid', order_id: order.id, attempts: 1 }]);
    expect(await sub(s.id)).toMatchObject({
      deliveries: 2,
      cycles_started: 2,
      next_renewal_at: addWeeks(at(10).toISOString(), 4),
      status: 'active',
    });
    // An ordinary paid order: the confirmation e-mail and the loyalty points.
    expect(await mails(s.email, 'order-confirmation')).toHaveLength(1);
    const user = await t.db.selectFrom('users').select('loyalty_points').where('id', '=', s.userId).executeTakeFirstOrThrow();
    expect(user.loyalty_points).toBeGreaterThan(0);
    // Nothing more happens until the next reminder window.
    await runRenewals(deps, at(20));
    expect(await renewalOrders(s.userId)).toHaveLength(1);
  });

  it('a declined card: tried again after 1, 3 and 7 days, a payment link at the first failure, then skipped and flagged', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: at(10).toISOString(), behaviour: 'decline' });
    await runRenewals(deps, at(10.01));
    let [c] = await cycles(s.id);
    expect(c).toMatchObject({ status: 'retrying', attempts: 1, next_attempt_at: at(11).toISOString() });
    const [order] = await renewalOrders(s.userId);
    expect(order).toMatchObject({ payment_status: 'unpaid', status: 'pending' });
    const failed = await mails(s.email, 'subscription-payment-failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.text).toMatch(/http:\/\/shop\.test\/pay\/cs_test_\w+/);
    // The link is a session of its own for exactly the order's total.
    const link = await t.db
      .selectFrom('payment_sessions')
      .selectAll()
      .where('order_id', '=', order!.id)
      .where('status', '=', 'open')
      .execute();
    expect(link).toHaveLength(1);
    expect(Number(link[0]!.amount_cents)).toBe(Number(order!.total_cents));

    for (const [day, attempts] of [
      [11.01, 2],
      [13.01, 3],
      [17.01, 4],
    ] as const) {
      await runRenewals(deps, at(day - 0.02)); // not yet
      expect((await cycles(s.id))[0]!.attempts).toBe(attempts - 1);
      await runRenewals(deps, at(day));
      expect((await cycles(s.id))[0]!.attempts).toBe(attempts);
    }
    [c] = await cycles(s.id);
    expect(c).toMatchObject({ status: 'skipped', attempts: 4 });
    expect(await sub(s.id)).toMatchObject({ status: 'payment_failing', next_renewal_at: addWeeks(at(10).toISOString(), 4) });
    expect((await renewalOrders(s.userId))[0]).toMatchObject({ status: 'cancelled', payment_status: 'expired' });
    // One e-mail about the failure (the first), one about the skip; never charged.
    expect(await mails(s.email, 'subscription-payment-failed')).toHaveLength(1);
    expect(await mails(s.email, 'subscription-skipped')).toHaveLength(1);
    const charges = await t.db
      .selectFrom('test_off_session_charges')
      .select('outcome')
      .where('idempotency_key', 'like', `renewal_${s.id}_%`)
      .execute();
    expect(charges).toHaveLength(4);
    expect(charges.every((x) => JSON.parse(x.outcome).status === 'declined')).toBe(true);
  });

  it('"authentication required" sends the link at once; paying by it settles the cycle', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: at(10).toISOString(), behaviour: 'authenticate' });
    await runRenewals(deps, at(10.01));
    expect((await cycles(s.id))[0]).toMatchObject({ status: 'needs_customer', attempts: 1 });
    const [mail] = await mails(s.email, 'subscription-payment-failed');
    const payUrl = /http:\/\/shop\.test(\/pay\/cs_test_\w+)/.exec(mail!.text ?? '')![1]!;
    // The customer pays on the card page of the link.
    const page = await t.app.inject({
      method: 'POST',
      url: payUrl,
      headers: { origin: 'http://shop.test', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'cardNumber=4242424242424242&expiry=12%2F34&cvc=123&name=Sam+Sub',
    });
    expect(page.statusCode, page.body).toBeLessThan(400);
    expect((await renewalOrders(s.userId))[0]).toMatchObject({ payment_status: 'paid' });
    await runRenewals(deps, at(11.01));
    expect((await cycles(s.id))[0]).toMatchObject({ status: 'paid' });
    expect(await sub(s.id)).toMatchObject({ deliveries: 2, status: 'active' });
  });

  it('out of stock: nothing charged, both told once, renewed when stock is back; skipped after the owner’s days', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: at(10).toISOString(), inventory: 0 });
    await runRenewals(deps, at(10.01));
    await runRenewals(deps, at(10.2));
    expect((await cycles(s.id))[0]).toMatchObject({ status: 'waiting_stock', order_id: null });
    expect(await renewalOrders(s.userId)).toHaveLength(0);
    expect(await mails(s.email, 'subscription-out-of-stock')).toHaveLength(1);
    // Back in stock: the next look renews it.
    await t.db.updateTable('stock_items').set({ on_hand: 3 }).where('variant_id', '=', s.variantId).execute();
    await runRenewals(deps, at(10.5));
    expect((await cycles(s.id))[0]).toMatchObject({ status: 'paid' });

    const gone = await makeSubscription(t.db, { nextRenewalAt: at(10).toISOString(), inventory: 0 });
    await runRenewals(deps, at(10.01));
    await runRenewals(deps, at(10.01 + 14));
    expect((await cycles(gone.id))[0]).toMatchObject({ status: 'skipped' });
    expect(await renewalOrders(gone.userId)).toHaveLength(0);
    expect((await sub(gone.id)).next_renewal_at).toBe(addWeeks(at(10).toISOString(), 4));
  });

  it('a shop away for 30 days renews what is due once, and goes on from the next date on its rhythm', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: at(1).toISOString(), everyWeeks: 2 });
    await runRenewals(deps, at(31));
    await runRenewals(deps, at(31.01));
    expect(await renewalOrders(s.userId)).toHaveLength(1);
    // Day 1 + 2 weeks × 3 = day 43: the first date on the rhythm after the catch-up.
    expect((await sub(s.id)).next_renewal_at).toBe(at(43).toISOString());
  });

  it('a charge whose process died is taken up after the lease with the same key: charged once', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: at(10).toISOString() });
    await runRenewals(deps, at(7.5)); // the cycle's row
    // The provider charges, but the answer is lost on the way back.
    const lost = withTestCharge(async (charge, c) => {
      await charge(c);
      throw new PaymentProviderError('no_answer', 'connection reset');
    });
    await renewCycle(lost, s.id, 2, at(10.01));
    expect((await cycles(s.id))[0]).toMatchObject({ status: 'charging', attempts: 1 });
    // Within the lease nobody touches it; after it, the same key asks again.
    await runRenewals(deps, at(10.01 + 60_000 / DAY));
    expect((await cycles(s.id))[0]).toMatchObject({ status: 'charging' });
    await runRenewals(deps, at(10.01 + (3 * 60_000) / DAY));
    expect((await cycles(s.id))[0]).toMatchObject({ status: 'paid', attempts: 1 });
    const charges = await t.db
      .selectFrom('test_off_session_charges')
      .selectAll()
      .where('idempotency_key', '=', renewalChargeKey(s.id, 2, 1))
      .execute();
    expect(charges).toHaveLength(1);
    expect(await renewalOrders(s.userId)).toMatchObject([{ payment_status: 'paid' }]);
  });

  it('cancels and renewals fired at the same moment: never a renewal kept after its cancellation', async () => {
    const subs = await Promise.all(Array.from({ length: 12 }, () => makeSubscription(t.db, { nextRenewalAt: at(10).toISOString() })));
    await runRenewals(deps, at(7.5));
    const now = at(10.01);
    await Promise.all([
      ...subs.map((s) => cancelSubscription(t.db, t.dialect, s.id, { reason: 'race', now })),
      runRenewals(deps, now),
      runRenewals(deps, now),
    ]);
    const seen = { paidBefore: 0, cancelledFirst: 0 };
    for (const s of subs) {
      const row = await sub(s.id);
      expect(row.status).toBe('cancelled');
      const orders = await renewalOrders(s.userId);
      const [c] = await cycles(s.id);
      const paid = orders.filter((o) => o.payment_status === 'paid');
      expect(paid.length).toBeLessThanOrEqual(1);
      if (paid.length) {
        // Paid before the cancellation committed (the cancel waited on the subscription's lock).
        expect(c!.status).toBe('paid');
        seen.paidBefore++;
      } else {
        // Cancelled first: the cycle ended, any order it had is cancelled and kept nothing.
        expect(c!.status).toBe('cancelled');
        for (const o of orders) expect(o).toMatchObject({ status: 'cancelled' });
        seen.cancelledFirst++;
      }
    }
    expect(seen.paidBefore + seen.cancelledFirst).toBe(subs.length);
    // Nothing renews after the cancellations, whatever the clock.
    await runRenewals(deps, at(60));
    for (const s of subs) expect((await renewalOrders(s.userId)).filter((o) => o.payment_status === 'paid').length).toBeLessThanOrEqual(1);
  });

  it('a cancellation while the card is being charged: the payment is refused at fulfilment, the order stays cancelled', async () => {
    const s = await makeSubscription(t.db, { nextRenewalAt: at(10).toISOString() });
    await runRenewals(deps, at(7.5));
    const midway = withTestCharge(async (charge, c) => {
      // The customer cancels while the bank is answering.
      await cancelSubscription(t.db, t.dialect, s.id, { reason: 'changed my mind', now: at(10.01) });
      return charge(c);
    });
    await renewCycle(midway, s.id, 2, at(10.01));
    expect(await sub(s.id)).toMatchObject({ status: 'cancelled', cancel_reason: 'changed my mind' });
    expect((await cycles(s.id))[0]).toMatchObject({ status: 'cancelled' });
    expect(await renewalOrders(s.userId)).toMatchObject([{ status: 'cancelled', payment_status: 'expired' }]);
    expect(await mails(s.email, 'subscription-cancelled')).toHaveLength(1);
  });

  it('the owner’s settings: free shipping on renewals, and the days a renewal waits for stock before it is skipped', async () => {
    await saveSubscriptionSettings(t.db, { freeShipping: true, skipOutOfStockAfterDays: 3 }, { actorId: null });
    try {
      const s = await makeSubscription(t.db, { nextRenewalAt: at(10).toISOString(), priceCents: 1000 });
      await runRenewals(deps, at(10.01));
      const [order] = await renewalOrders(s.userId);
      expect(order).toMatchObject({ payment_status: 'paid', subtotal_cents: 900, shipping_cents: 0, tax_cents: 72, total_cents: 972 });

      const gone = await makeSubscription(t.db, { nextRenewalAt: at(10).toISOString(), inventory: 0 });
      await runRenewals(deps, at(10.01));
      await runRenewals(deps, at(12.9));
      expect((await cycles(gone.id))[0]).toMatchObject({ status: 'waiting_stock' });
      await runRenewals(deps, at(13.02));
      expect((await cycles(gone.id))[0]).toMatchObject({ status: 'skipped' });
    } finally {
      await saveSubscriptionSettings(t.db, { freeShipping: false, skipOutOfStockAfterDays: 14 }, { actorId: null });
    }
  });
});
