import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.js';
import { lastDays, periodOf, shopTimeZone } from '../orders/shop-calendar.js';
import { netReceivedCents, TOOK_MONEY_STATUSES } from '../orders/money-taken.js';
import {
  REORDER_LIMITS,
  REORDER_SKIP_REASONS,
  type AdminReorderReminderRow,
  type AdminReorderReminders,
  type AdminReorderRemindersQuery,
  type ReorderSkipReason,
} from '../../shared/schemas/reorder-reminders.js';

/** The period shown when none is asked for: the last 30 of the shop's days. */
export const DEFAULT_REORDER_DAYS = 30;

type Count = number | string;
const isReason = (r: string | null): r is ReorderSkipReason => r !== null && (REORDER_SKIP_REASONS as readonly string[]).includes(r);

/**
 * The owner's reorder reminders (issue [7/8] item 4) for a period of the shop's days, by the day
 * each line was decided: reminders sent (and the e-mails they went in, and those whose link was
 * used), lines skipped by reason, the orders that followed and their money, and the last
 * REORDER_LIMITS.lastRows decisions.
 *
 * An order followed a reminder when it took money, is the same address's, was placed after the
 * reminder and within REORDER_LIMITS.linkDays of it (`follow_until`), and holds the reminded product.
 * It is found when asked, not written at payment: a range of `orders_email_lower_idx` per reminder
 * of the period (`reorder_reminders_created_idx`), each order counted once however many reminders it
 * followed, its money received net of refunds as it stands now.
 */
export async function reorderReminderFigures(
  db: Kysely<Database>,
  q: AdminReorderRemindersQuery,
  now: Date = new Date(),
): Promise<AdminReorderReminders> {
  const timeZone = await shopTimeZone(db);
  const period = periodOf(q, timeZone) ?? lastDays(DEFAULT_REORDER_DAYS, timeZone, now);
  const inPeriod = db.selectFrom('reorder_reminders as r').where('r.created_at', '>=', period.start).where('r.created_at', '<', period.end);
  const [counts, skipped, followed, last] = await Promise.all([
    inPeriod
      .where('r.state', '=', 'sent')
      .select([
        sql<Count>`count(*)`.as('sent'),
        sql<Count>`count(distinct r.batch_id)`.as('emails'),
        sql<Count>`count(distinct case when r.clicked_at is not null then r.batch_id end)`.as('clicked'),
      ])
      .executeTakeFirst(),
    inPeriod
      .where('r.state', '=', 'skipped')
      .select(['r.reason', sql<Count>`count(*)`.as('n')])
      .groupBy('r.reason')
      .execute(),
    // CROSS JOIN: the period's reminders first, then each address's orders in its follow-up days (orders_email_lower_idx).
    inPeriod
      .crossJoin('orders as o')
      // lower() on both sides: a plain column would give the comparison TEXT affinity and keep SQLite off the expression index.
      .where(sql<SqlBool>`lower(o.email) = lower(r.email)`)
      .whereRef('o.created_at', '>', 'r.created_at')
      .whereRef('o.created_at', '<=', 'r.follow_until')
      .where('r.state', '=', 'sent')
      .where('o.payment_status', 'in', [...TOOK_MONEY_STATUSES])
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('order_items as i')
            .select('i.id')
            .whereRef('i.order_id', '=', 'o.id')
            .whereRef('i.product_id', '=', 'r.product_id'),
        ),
      )
      .select(['o.id', 'o.payment_status', 'o.total_cents', 'o.refunded_cents'])
      .distinct()
      .execute(),
    lastDecisions(db, period),
  ]);
  return {
    from: period.from,
    to: period.to,
    sent: Number(counts?.sent ?? 0),
    emails: Number(counts?.emails ?? 0),
    clicked: Number(counts?.clicked ?? 0),
    skipped: skipped
      .flatMap((s) => (isReason(s.reason) ? [{ reason: s.reason, count: Number(s.n) }] : []))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
    followedOrders: followed.length,
    followedRevenueCents: followed.reduce((n, o) => n + netReceivedCents(o), 0),
    last,
  };
}

/** The period's last decisions, newest first, each sent one with the first order that followed it. */
async function lastDecisions(db: Kysely<Database>, period: { start: string; end: string }): Promise<AdminReorderReminderRow[]> {
  const rows = await db
    .selectFrom('reorder_reminders as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .leftJoin('products as p', 'p.id', 'r.product_id')
    .select([
      'r.id',
      'r.order_id',
      'o.order_number',
      'r.product_id',
      'p.name',
      'r.email',
      'r.state',
      'r.reason',
      'r.created_at',
      'r.clicked_at',
    ])
    .select((eb) =>
      eb
        .selectFrom('orders as fo')
        .select('fo.id')
        .where(sql<SqlBool>`lower(fo.email) = lower(r.email)`)
        .whereRef('fo.created_at', '>', 'r.created_at')
        .whereRef('fo.created_at', '<=', 'r.follow_until')
        .where('fo.payment_status', 'in', [...TOOK_MONEY_STATUSES])
        .where('r.state', '=', 'sent')
        .where((e) =>
          e.exists(
            e
              .selectFrom('order_items as fi')
              .select('fi.id')
              .whereRef('fi.order_id', '=', 'fo.id')
              .whereRef('fi.product_id', '=', 'r.product_id'),
          ),
        )
        .orderBy('fo.created_at')
        .limit(1)
        .as('followed_id'),
    )
    .where('r.created_at', '>=', period.start)
    .where('r.created_at', '<', period.end)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(REORDER_LIMITS.lastRows)
    .execute();
  const followedIds = [...new Set(rows.flatMap((r) => (r.followed_id ? [r.followed_id] : [])))];
  const followed = new Map(
    followedIds.length
      ? (
          await db
            .selectFrom('orders')
            .select(['id', 'order_number', 'payment_status', 'total_cents', 'refunded_cents'])
            .where('id', 'in', followedIds)
            .execute()
        ).map((o) => [o.id, o])
      : [],
  );
  return rows.map((r) => {
    const f = r.followed_id ? followed.get(r.followed_id) : undefined;
    return {
      id: r.id,
      orderId: r.order_id,
      orderNumber: r.order_number,
      productId: r.product_id,
      productName: r.name ?? r.product_id,
      email: r.email,
      state: r.state,
      reason: isReason(r.reason) ? r.reason : null,
      createdAt: r.created_at,
      clickedAt: r.clicked_at,
      followedOrderId: f?.id ?? null,
      followedOrderNumber: f?.order_number ?? null,
      followedCents: f ? netReceivedCents(f) : null,
    };
  });
}
