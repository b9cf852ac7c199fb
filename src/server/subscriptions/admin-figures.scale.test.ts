import { sql, type Insertable } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness.js';
import { useAdminTestApp, type TestClient } from '../test/http-client.js';
import { bulkSubscriptions } from '../test/subscriptions.js';
import { createProduct } from '../db/seed/factories.js';
import { keepTestPaymentMethod } from '../payments/test-payment-methods.js';
import { clearAllCaches } from '../http/micro-cache.js';
import type { OrdersTable, SubscriptionStatus } from '../db/schema.js';
import { SubscriptionFigures } from '../../shared/schemas/admin/subscription-figures.js';

/**
 * The subscription Figures with 10,000 subscriptions signed up over 14 months (one an hour), each
 * with its first order and a renewal every four weeks since (about 70,000 orders, one in fifty
 * partly refunded a day later), a thousand cancelled with reasons and a thousand paused: the
 * figures of the last 30 days by day and the CSVs that read subscriptions only, each in under
 * 100 ms; 90 days by week (the panel's first view) in under 200 ms; a year by month and two years by
 * week in under 400 ms. The money of a period reads every renewal order in it, so those grow with
 * the period's orders, as the Orders overview does. A timing, so it runs in the `scale` project:
 * alone, once per database (TEST_DB).
 */
let t: TestApp;
let admin: TestClient;
useAdminTestApp((app) => ({ t, admin } = app));

const COUNT = 10_000;
const DAY = 86_400_000;
const EVERY = 28 * DAY;
const FIRST_CENTS = 2_376;
const RENEWAL_CENTS = 2_138;
const REFUND_CENTS = 500;
const REASONS = ['Too expensive', 'too expensive ', 'Moving abroad', 'Have too much', null] as const;

/** Mostly active; one in ten paused, failing and cancelled each (as the other scale tests). */
const statusOf = (i: number): SubscriptionStatus => (['paused', 'payment_failing', 'cancelled'] as const)[i % 10] ?? 'active';

function orderRow(id: string, origin: 'checkout' | 'renewal', at: string, cents: number, refunded: number) {
  return {
    id,
    order_number: id.slice(-8).toUpperCase(),
    user_id: null,
    email: 'scale@example.com',
    status: 'completed' as const,
    payment_status: 'paid' as const,
    payment_provider: 'test',
    origin,
    payment_session_id: null,
    shipping_address: null,
    billing_address: null,
    subtotal_cents: cents,
    discount_cents: 0,
    shipping_cents: 0,
    tax_cents: 0,
    total_cents: cents,
    refunded_cents: refunded,
    coupon_code: null,
    shipping_option_id: null,
    shipstation_data: null,
    shipstation_tracking_number: null,
    guest_token_hash: null,
    created_at: at,
    updated_at: at,
    paid_at: at,
  } satisfies Insertable<OrdersTable>;
}

describe('subscription figures at 10,000 subscriptions', () => {
  it(
    'answers 30 days and the subscriptions-only CSVs in under 100 ms, 90 days in under 200 ms, a year or two of money in under 400 ms',
    { timeout: 300_000 },
    async () => {
      const product = await createProduct(t.db, { name: 'Figures Scale Refill', sku: 'FIG-SCL', priceCents: 2200, inventory: 100 });
      const method = await keepTestPaymentMethod(t.db, { behaviour: 'succeed', brand: 'visa', last4: '4242' });
      const now = Date.now();
      await bulkSubscriptions(t.db, {
        prefix: 'fig',
        count: COUNT,
        methodId: method,
        now,
        status: statusOf,
        nextRenewalAt: () => new Date(now + 20 * DAY).toISOString(),
        everyWeeks: () => 4,
        items: () => [{ productId: product.id, quantity: 1 }],
      });
      const createdAt = (i: number) => now - (COUNT - i) * 3_600_000;

      // Orders: the first of each, then a renewal every four weeks until now (none after a cancellation, made the day it started).
      let orders: Insertable<OrdersTable>[] = [];
      const refunds: { orderId: string; at: string }[] = [];
      let renewalsMade = 0;
      const flush = async () => {
        for (let i = 0; i < orders.length; i += 400)
          await t.db
            .insertInto('orders')
            .values(orders.slice(i, i + 400))
            .execute();
        orders = [];
      };
      for (let i = 0; i < COUNT; i++) {
        const start = createdAt(i);
        orders.push(orderRow(`order_first_sub_fig_${i}`, 'checkout', new Date(start).toISOString(), FIRST_CENTS, 0));
        if (statusOf(i) !== 'cancelled') {
          for (let at = start + EVERY, n = 1; at < now; at += EVERY, n++) {
            const id = `order_fig_${i}_${n}`;
            const refunded = ++renewalsMade % 50 === 0;
            orders.push(orderRow(id, 'renewal', new Date(at).toISOString(), RENEWAL_CENTS, refunded ? REFUND_CENTS : 0));
            if (refunded) refunds.push({ orderId: id, at: new Date(Math.min(at + DAY, now - 1000)).toISOString() });
          }
        }
        if (orders.length >= 4000) await flush();
      }
      await flush();
      for (let i = 0; i < refunds.length; i += 500)
        await t.db
          .insertInto('refunds')
          .values(
            refunds.slice(i, i + 500).map((r, k) => ({
              id: `ref_fig_${i + k}`,
              order_id: r.orderId,
              amount_cents: REFUND_CENTS,
              provider: 'test',
              provider_refund_id: `tre_fig_${i + k}`,
              status: 'succeeded' as const,
              reason: 'Damaged',
              restock: 0,
              error: null,
              actor_user_id: null,
              actor_label: 'owner@example.com',
              created_at: r.at,
              settled_at: r.at,
              return_lines: null,
            })),
          )
          .execute();

      // Reasons for the cancelled ones, and a pause on the timeline for the paused ones.
      const ids = (status: SubscriptionStatus) =>
        Array.from({ length: COUNT }, (_, i) => i)
          .filter((i) => statusOf(i) === status)
          .map((i) => `sub_fig_${i}`);
      const cancelled = ids('cancelled');
      for (const [r, reason] of REASONS.entries()) {
        const mine = cancelled.filter((_, k) => k % REASONS.length === r);
        await t.db.updateTable('subscriptions').set({ cancel_reason: reason }).where('id', 'in', mine).execute();
      }
      const paused = ids('paused');
      for (let i = 0; i < paused.length; i += 500)
        await t.db
          .insertInto('subscription_events')
          .values(
            paused.slice(i, i + 500).map((id, k) => ({
              id: `sev_fig_${i + k}`,
              subscription_id: id,
              type: 'paused',
              actor_user_id: null,
              actor_label: 'customer',
              data: '{}',
              created_at: new Date(now - (i + k) * 9 * 3_600_000).toISOString(),
            })),
          )
          .execute();
      if (t.dialect === 'postgres') await sql`vacuum (analyze) subscriptions, subscription_events, orders, refunds`.execute(t.db);
      else await sql`analyze`.execute(t.db);

      const median = async (url: string, runs = 13) => {
        const times: number[] = [];
        for (let i = 0; i < runs; i++) {
          clearAllCaches();
          const started = performance.now();
          const res = await admin.get(url);
          const ms = performance.now() - started;
          expect(res.statusCode, res.body).toBe(200);
          if (i >= 2) times.push(ms);
        }
        times.sort((a, b) => a - b);
        return times[Math.floor(times.length / 2)]!;
      };

      // What the answer holds, before its time: every order's money, once, over two years.
      const today = new Date(now).toISOString().slice(0, 10);
      const twoYearsAgo = new Date(now - 729 * DAY).toISOString().slice(0, 10);
      const whole = SubscriptionFigures.parse(
        (await admin.get(`/api/admin/subscriptions/figures?from=${twoYearsAgo}&to=${today}&period=week`)).json(),
      );
      expect(whole.now).toEqual({ activeSubscribers: 8_000, active: 7_000, paymentFailing: 1_000, paused: 1_000, cancelled: 1_000 });
      expect(whole.totals.started).toBe(COUNT);
      expect(whole.totals.firstOrderCents).toBe(COUNT * FIRST_CENTS);
      expect(whole.totals.renewalCents).toBe(renewalsMade * RENEWAL_CENTS - refunds.length * REFUND_CENTS);
      expect(whole.totals.cancelled).toBe(1_000);
      expect(whole.totals.paused).toBe(1_000);
      expect(whole.reasons).toEqual([
        { reason: 'Too expensive', count: 400 },
        { reason: 'Have too much', count: 200 },
        { reason: 'Moving abroad', count: 200 },
        { reason: 'No reason given', count: 200 },
      ]);
      expect(renewalsMade).toBeGreaterThan(50_000);

      const figures = {
        thirtyDaysByDay: await median('/api/admin/subscriptions/figures?days=30&period=day'),
        yearRetentionCsv: await median('/api/admin/subscriptions/figures/retention.csv'),
        yearMovementsCsv: await median('/api/admin/subscriptions/figures/movements.csv'),
      };
      // A year or two of money sums every renewal of the period through the one rule (about 62,000
      // and 72,000 orders here), as the Orders overview sums its period's orders: it grows with the
      // orders, not the subscriptions. Measured on a quiet 2-core machine: a year 145 ms (SQLite) and
      // 190 ms (PostgreSQL), two years 185 and 310 ms.
      // The panel's first view, 90 days by week, sums about 25,000 renewals: 50 ms on SQLite and 85 ms
      // on PostgreSQL, measured on the same quiet machine (migration 0049, shopDayGrouping).
      const ninetyDaysByWeek = await median('/api/admin/subscriptions/figures?days=90&period=week');
      const longer = {
        yearByMonth: await median('/api/admin/subscriptions/figures', 7),
        twoYearsByWeek: await median(`/api/admin/subscriptions/figures?from=${twoYearsAgo}&to=${today}&period=week`, 7),
      };
      console.log(`subscription figures, 10,000 subscriptions and ${renewalsMade + COUNT} orders on ${t.dialect} (median ms):`, {
        ...figures,
        ninetyDaysByWeek,
        ...longer,
      });
      for (const [what, ms] of Object.entries(figures)) expect(ms, what).toBeLessThan(100);
      expect(ninetyDaysByWeek, 'ninetyDaysByWeek').toBeLessThan(200);
      for (const [what, ms] of Object.entries(longer)) expect(ms, what).toBeLessThan(400);
    },
  );
});
