import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { lastDays, periodOf, shopTimeZone } from '../orders/shop-calendar.js';
import { moneyByDay } from '../orders/overview.js';
import {
  RECOVERY_PAGE_SIZE,
  type AdminRecoveryFigures,
  type AdminRecoveryList,
  type AdminRecoveryQuery,
  type AdminRecoveryRow,
  type RecoveryReason,
} from '../../shared/schemas/recovery.js';

/** The period shown when none is asked for: the last 30 of the shop's days. */
export const DEFAULT_RECOVERY_DAYS = 30;

type Count = number | string;

/**
 * The owner's abandoned checkouts (issue [7/8] item 5): the period's checkouts that were left (by
 * the day they were made, the shop's days), newest first, a page at a time, with their state and
 * value, and the figures: how many were left and e-mailed, how many came back, and the money those
 * recovered orders brought in the period, counted by the one revenue rule (orders/overview.ts
 * moneyByDay: received net of refunds, each amount on the day it moved). Read by index:
 * `checkout_recoveries_checkout_idx` for the period, the orders by their keys.
 */
export async function listRecoveries(db: Kysely<Database>, q: AdminRecoveryQuery, now: Date = new Date()): Promise<AdminRecoveryList> {
  const timeZone = await shopTimeZone(db);
  const period = periodOf(q, timeZone) ?? lastDays(DEFAULT_RECOVERY_DAYS, timeZone, now);
  let base = db
    .selectFrom('checkout_recoveries as r')
    .where('r.checkout_at', '>=', period.start)
    .where('r.checkout_at', '<', period.end)
    // A checkout followed by a newer one is that one's, not a second abandoned cart.
    .where((eb) => eb.or([eb('r.reason', 'is', null), eb('r.reason', '!=', 'newer-checkout')]));
  if (q.state) base = base.where('r.state', '=', q.state);
  const [counted, rows, figures] = await Promise.all([
    base.select(sql<Count>`count(*)`.as('n')).executeTakeFirst(),
    base
      .innerJoin('orders as o', 'o.id', 'r.order_id')
      .leftJoin('orders as ro', 'ro.id', 'r.recovered_order_id')
      .select([
        'r.id',
        'r.order_id',
        'o.order_number',
        'r.email',
        'r.state',
        'r.reason',
        'r.value_cents',
        'r.checkout_at',
        'r.emails_sent',
        'r.last_email_at',
        'r.coupon_code',
        'r.restored_at',
        'r.recovered_order_id',
        'ro.order_number as recovered_order_number',
        'r.recovered_cents',
      ])
      .select((eb) =>
        eb
          .selectFrom('order_items as i')
          .select(sql<Count>`coalesce(sum(i.quantity), 0)`.as('units'))
          .whereRef('i.order_id', '=', 'r.order_id')
          .where('i.is_free_gift', '=', 0)
          .as('units'),
      )
      .orderBy('r.checkout_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(RECOVERY_PAGE_SIZE)
      .offset((q.page - 1) * RECOVERY_PAGE_SIZE)
      .execute(),
    recoveryFigures(db, period, timeZone),
  ]);
  const total = Number(counted?.n ?? 0);
  return {
    rows: rows.map((r): AdminRecoveryRow => ({
      id: r.id,
      orderId: r.order_id,
      orderNumber: r.order_number,
      email: r.email,
      state: r.state,
      reason: r.reason as RecoveryReason | null,
      valueCents: Number(r.value_cents),
      itemCount: Number(r.units ?? 0),
      checkoutAt: r.checkout_at,
      emailsSent: Number(r.emails_sent),
      lastEmailAt: r.last_email_at,
      couponCode: r.coupon_code,
      restoredAt: r.restored_at,
      recoveredOrderId: r.recovered_order_id,
      recoveredOrderNumber: r.recovered_order_number ?? null,
      recoveredCents: r.recovered_cents === null ? null : Number(r.recovered_cents),
    })),
    page: q.page,
    pages: Math.max(1, Math.ceil(total / RECOVERY_PAGE_SIZE)),
    total,
    figures,
  };
}

async function recoveryFigures(
  db: Kysely<Database>,
  period: { from: string; to: string; start: string; end: string },
  timeZone: string,
): Promise<AdminRecoveryFigures> {
  const [counts, money] = await Promise.all([
    db
      .selectFrom('checkout_recoveries')
      .select([
        sql<Count>`count(*)`.as('abandoned'),
        sql<Count>`coalesce(sum(value_cents), 0)`.as('cents'),
        sql<Count>`sum(case when emails_sent > 0 then 1 else 0 end)`.as('emailed'),
        sql<Count>`sum(case when state = 'recovered' then 1 else 0 end)`.as('recovered'),
        sql<Count>`coalesce(sum(emails_sent), 0)`.as('sent'),
      ])
      .where('checkout_at', '>=', period.start)
      .where('checkout_at', '<', period.end)
      .where((eb) => eb.or([eb('reason', 'is', null), eb('reason', '!=', 'newer-checkout')]))
      .executeTakeFirst(),
    // The money of recovered orders, by the day it moved in the period (whenever their checkout was left).
    moneyByDay(
      db,
      period as never,
      timeZone,
      (o) =>
        sql`exists (select 1 from checkout_recoveries cr where cr.recovered_order_id = ${sql.ref(`${o}.id`)} and cr.state = 'recovered')`,
    ),
  ]);
  let revenue = 0;
  for (const cents of money.revenueByDay.values()) revenue += cents;
  return {
    from: period.from,
    to: period.to,
    abandoned: Number(counts?.abandoned ?? 0),
    abandonedCents: Number(counts?.cents ?? 0),
    emailed: Number(counts?.emailed ?? 0),
    recovered: Number(counts?.recovered ?? 0),
    recoveredRevenueCents: revenue,
    emailsSent: Number(counts?.sent ?? 0),
  };
}
