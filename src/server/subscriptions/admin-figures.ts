import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database, SubscriptionStatus } from '../db/schema.js';
import { csvRow } from '../orders/exports.js';
import { moneyByDay } from '../orders/overview.js';
import { inPeriodSql, lastDays, shopDaySql, shopTimeZone } from '../orders/shop-calendar.js';
import { addDays, daysInPeriod, localDateOf, periodRange, type LocalDate, type PeriodRange } from '../../shared/shop-time.js';
import {
  REASONS_SHOWN,
  RETENTION_MONTHS,
  SUBSCRIPTION_FIGURES_MESSAGES,
  type FiguresBucket,
  type FiguresCsvName,
  type FiguresPeriod,
  type RetentionRow,
  type SubscriptionFigures,
} from '../../shared/schemas/admin/subscription-figures.js';

/**
 * The owner's subscription Figures (issue [5/8]): subscribers now, subscription revenue, new,
 * paused and cancelled subscriptions per day, week or month of the shop's calendar, the reasons
 * given for cancelling, and retention by month of signing up; each as CSV.
 *
 * Money has one rule (orders/money-taken.ts, counted on the day it moved by the overview's
 * `moneyByDay`, decision 0046), here applied to two sets of orders: renewals (origin `renewal`) and
 * the first orders, the paid checkouts that started a subscription (`subscriptions.first_order_id`),
 * each counted whole. So every amount is those orders' money as the Orders tab shows it, to the
 * cent; a checkout that started two subscriptions (two intervals) is counted once.
 *
 * Everything is summed by the database over the period's rows, read by index (migration 0046):
 * subscriptions by `created_at` and `cancelled_at`, pauses by `(type, created_at)` of the timeline,
 * orders by `paid_at` and refunds by `settled_at`; at most one row per day (or per pair of months
 * for retention) comes back, however many subscriptions there are.
 */

type Count = number | string;

/** Renewal orders: made by the schedule for a subscription. */
const renewalOrders = (o: string): RawBuilder<SqlBool> => sql<SqlBool>`${sql.ref(`${o}.origin`)} = 'renewal'`;
/** The checkout that started a subscription (several subscriptions may share it: it counts once). */
const firstOrders = (o: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`${sql.ref(`${o}.origin`)} = 'checkout' and exists (select 1 from subscriptions fs where fs.first_order_id = ${sql.ref(`${o}.id`)})`;

/** The statuses of a subscriber: still renewing, the card failing included. Paused ones are counted apart. */
const SUBSCRIBER_STATUSES: readonly SubscriptionStatus[] = ['active', 'payment_failing'];

/** The Monday of a day's week (weeks run Monday to Sunday). */
function mondayOf(day: LocalDate): LocalDate {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** 'YYYY-MM' `n` months after another. */
function addMonths(month: string, n: number): string {
  const d = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1 + n, 1));
  return d.toISOString().slice(0, 7);
}

/** The first day of a day's period (clipped to the span's first day, so a span starting mid-week has a short first week). */
function bucketKey(day: LocalDate, period: FiguresPeriod, from: LocalDate): LocalDate {
  const start = period === 'day' ? day : period === 'week' ? mondayOf(day) : `${day.slice(0, 7)}-01`;
  return start < from ? from : start;
}

/** The span asked for (dates, or the last `days`), else the last 12 months to today (this month included), in the shop's days. */
export function figuresSpan(
  q: { from?: string | undefined; to?: string | undefined; days?: number | undefined },
  timeZone: string,
  now: Date,
): PeriodRange {
  if (q.from && q.to) return periodRange(q.from, q.to, timeZone);
  if (q.days) return lastDays(q.days, timeZone, now);
  const today = localDateOf(now.getTime(), timeZone);
  return periodRange(`${addMonths(today.slice(0, 7), -11)}-01`, today, timeZone);
}

/** The reason as the list shows it: trimmed, case-folded, its first letter capital; none given says so. */
function reasonText(key: string | null): string {
  if (!key) return SUBSCRIPTION_FIGURES_MESSAGES.noReason;
  return key.charAt(0).toUpperCase() + key.slice(1);
}

/** Per shop day of `column` over the span, a count: one grouped read of the rows in the span. */
async function countByDay(
  db: Kysely<Database>,
  span: PeriodRange,
  timeZone: string,
  table: 'subscriptions' | 'subscription_events',
  column: 'created_at' | 'cancelled_at',
  eventType?: string,
): Promise<Map<string, number>> {
  const day = shopDaySql(db, span, timeZone, 't', column);
  const rows =
    table === 'subscriptions'
      ? await db
          .selectFrom('subscriptions as t')
          .select([day.as('day'), sql<Count>`count(*)`.as('n')])
          .where(inPeriodSql(span, 't', column))
          .groupBy(day)
          .execute()
      : await db
          .selectFrom('subscription_events as t')
          .select([day.as('day'), sql<Count>`count(*)`.as('n')])
          .where('t.type', '=', eventType ?? '')
          .where(inPeriodSql(span, 't', column))
          .groupBy(day)
          .execute();
  return new Map(rows.map((r) => [r.day, Number(r.n)]));
}

/**
 * Retention by month of signing up: the months the span touches, and at least the 12 up to its
 * last (a fortnight's figures still show a year of sign-ups: retention needs months to say
 * anything), each followed for RETENTION_MONTHS months. One grouped read: subscriptions signed up
 * in those months, counted by (month signed up, month cancelled or none), from the
 * (created_at, cancelled_at) index.
 */
async function retention(db: Kysely<Database>, span: PeriodRange, timeZone: string, now: Date): Promise<RetentionRow[]> {
  const lastMonth = span.to.slice(0, 7);
  const yearBefore = addMonths(lastMonth, -(RETENTION_MONTHS - 1));
  const firstMonth = span.from.slice(0, 7) < yearBefore ? span.from.slice(0, 7) : yearBefore;
  const thisMonth = localDateOf(now.getTime(), timeZone).slice(0, 7);
  const cohorts = periodRange(`${firstMonth}-01`, addDays(`${addMonths(lastMonth, 1)}-01`, -1), timeZone);
  // Cancellations come after signing up and before now: their days are read from the first month to today.
  const today = localDateOf(now.getTime(), timeZone);
  const cancels = periodRange(`${firstMonth}-01`, today > cohorts.to ? today : cohorts.to, timeZone);
  const seven = sql.lit(7);
  const one = sql.lit(1);
  const signedUp = sql<string>`substr(${shopDaySql(db, cohorts, timeZone, 's', 'created_at')}, ${one}, ${seven})`;
  const gone = sql<string | null>`substr(${shopDaySql(db, cancels, timeZone, 's', 'cancelled_at')}, ${one}, ${seven})`;
  const rows = await db
    .selectFrom('subscriptions as s')
    .select([signedUp.as('month'), gone.as('gone'), sql<Count>`count(*)`.as('n')])
    .where(inPeriodSql(cohorts, 's'))
    .groupBy([signedUp, gone])
    .execute();

  const byMonth = new Map<string, { total: number; goneBy: Map<string, number> }>();
  for (const r of rows) {
    const m = byMonth.get(r.month) ?? { total: 0, goneBy: new Map<string, number>() };
    const n = Number(r.n);
    m.total += n;
    if (r.gone) m.goneBy.set(r.gone, (m.goneBy.get(r.gone) ?? 0) + n);
    byMonth.set(r.month, m);
  }
  const out: RetentionRow[] = [];
  for (let month = firstMonth; month <= lastMonth; month = addMonths(month, 1)) {
    const m = byMonth.get(month) ?? { total: 0, goneBy: new Map<string, number>() };
    const cells: RetentionRow['cells'] = [];
    for (let k = 0; k < RETENTION_MONTHS; k++) {
      const at = addMonths(month, k);
      if (at > thisMonth) {
        cells.push(null);
        continue;
      }
      let gone = 0;
      for (const [cancelMonth, n] of m.goneBy) if (cancelMonth <= at) gone += n;
      const still = m.total - gone;
      cells.push({ still, percent: m.total ? Math.round((1000 * still) / m.total) / 10 : 0 });
    }
    out.push({ month, signedUp: m.total, cells });
  }
  return out;
}

/** Cancellations in the span by reason (trimmed, case-folded), most given first; a reason left out is "No reason given". */
async function reasons(db: Kysely<Database>, span: PeriodRange): Promise<{ reason: string; count: number }[]> {
  const key = sql<string | null>`lower(trim(s.cancel_reason))`;
  const rows = await db
    .selectFrom('subscriptions as s')
    .select([key.as('reason'), sql<Count>`count(*)`.as('n')])
    .where(inPeriodSql(span, 's', 'cancelled_at'))
    .groupBy(key)
    .execute();
  // SQLite folds only ASCII letters: fold the rest here, so "ÉTÉ" and "été" are one reason on both databases.
  const merged = new Map<string, number>();
  for (const r of rows) {
    const text = reasonText(r.reason?.toLowerCase() || null);
    merged.set(text, (merged.get(text) ?? 0) + Number(r.n));
  }
  return [...merged]
    .map(([reason, count]) => ({ reason, count }))
    .sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0));
}

/** Every reason (the CSV's), and the figures' answer that lists only the first REASONS_SHOWN. */
type FiguresWithAllReasons = SubscriptionFigures & { allReasons: { reason: string; count: number }[] };

/** The figures of a span (or the last 12 months), cut by day, week or month; `only` one of them (a CSV's), the others left empty. */
export async function subscriptionFigures(
  db: Kysely<Database>,
  q: { from?: string | undefined; to?: string | undefined; days?: number | undefined; period: FiguresPeriod },
  now: Date = new Date(),
  only?: FiguresCsvName,
): Promise<FiguresWithAllReasons> {
  const timeZone = await shopTimeZone(db);
  const span = figuresSpan(q, timeZone, now);

  // A CSV reads only its own figure; the panel's answer reads them all.
  const wants = (part: FiguresCsvName) => only === undefined || only === part;
  const noMoney = { revenueByDay: new Map<string, number>(), totals: { takenCents: 0, refundedCents: 0 } };
  const none = async () => new Map<string, number>();
  const [statusRows, renewals, firsts, started, cancelled, paused, before, allReasons, cohorts] = await Promise.all([
    db
      .selectFrom('subscriptions')
      .select(['status', sql<Count>`count(*)`.as('n')])
      .groupBy('status')
      .execute(),
    wants('revenue') ? moneyByDay(db, span, timeZone, renewalOrders) : noMoney,
    wants('revenue') ? moneyByDay(db, span, timeZone, firstOrders) : noMoney,
    wants('movements') ? countByDay(db, span, timeZone, 'subscriptions', 'created_at') : none(),
    wants('movements') ? countByDay(db, span, timeZone, 'subscriptions', 'cancelled_at') : none(),
    wants('movements') ? countByDay(db, span, timeZone, 'subscription_events', 'created_at', 'paused') : none(),
    // Subscribed when the span begins: signed up before it and not cancelled before it.
    wants('movements')
      ? db
          .selectFrom('subscriptions')
          .select(sql<Count>`count(*)`.as('n'))
          .where('created_at', '<', span.start)
          .where((eb) => eb.or([eb('cancelled_at', 'is', null), eb('cancelled_at', '>=', span.start)]))
          .executeTakeFirstOrThrow()
      : { n: 0 },
    wants('reasons') ? reasons(db, span) : [],
    wants('retention') ? retention(db, span, timeZone, now) : [],
  ]);

  const byStatus = new Map(statusRows.map((r) => [r.status, Number(r.n)]));
  const status = (s: SubscriptionStatus) => byStatus.get(s) ?? 0;

  const buckets: FiguresBucket[] = [];
  let subscribed = Number(before.n);
  for (let i = 0, n = daysInPeriod(span.from, span.to); i < n; i++) {
    const day = addDays(span.from, i);
    const key = bucketKey(day, q.period, span.from);
    let b = buckets.at(-1);
    if (!b || b.start !== key) {
      b = {
        start: key,
        end: day,
        renewalCents: 0,
        firstOrderCents: 0,
        revenueCents: 0,
        started: 0,
        paused: 0,
        cancelled: 0,
        subscribedAtEnd: 0,
      };
      buckets.push(b);
    }
    const renewal = renewals.revenueByDay.get(day) ?? 0;
    const first = firsts.revenueByDay.get(day) ?? 0;
    const startedToday = started.get(day) ?? 0;
    const cancelledToday = cancelled.get(day) ?? 0;
    subscribed += startedToday - cancelledToday;
    b.end = day;
    b.renewalCents += renewal;
    b.firstOrderCents += first;
    b.revenueCents += renewal + first;
    b.started += startedToday;
    b.paused += paused.get(day) ?? 0;
    b.cancelled += cancelledToday;
    b.subscribedAtEnd = subscribed;
  }
  const sum = (f: (b: FiguresBucket) => number) => buckets.reduce((n, b) => n + f(b), 0);

  const shown = allReasons.slice(0, REASONS_SHOWN);
  const rest = allReasons.slice(REASONS_SHOWN);
  return {
    from: span.from,
    to: span.to,
    period: q.period,
    timeZone,
    anySubscriptions: [...byStatus.values()].some((n) => n > 0),
    now: {
      activeSubscribers: SUBSCRIBER_STATUSES.reduce((n, s) => n + status(s), 0),
      active: status('active'),
      paymentFailing: status('payment_failing'),
      paused: status('paused'),
      cancelled: status('cancelled'),
    },
    buckets,
    totals: {
      renewalCents: sum((b) => b.renewalCents),
      firstOrderCents: sum((b) => b.firstOrderCents),
      revenueCents: sum((b) => b.revenueCents),
      takenCents: renewals.totals.takenCents + firsts.totals.takenCents,
      refundedCents: renewals.totals.refundedCents + firsts.totals.refundedCents,
      started: sum((b) => b.started),
      paused: sum((b) => b.paused),
      cancelled: sum((b) => b.cancelled),
    },
    reasons: shown,
    otherReasons: rest.length ? { kinds: rest.length, count: rest.reduce((n, r) => n + r.count, 0) } : null,
    retention: cohorts,
    allReasons,
  };
}

/** A CSV's file name: `subscription-<figure>-<from>-to-<to>.csv`. */
export function figuresCsvName(name: FiguresCsvName, f: Pick<SubscriptionFigures, 'from' | 'to'>): string {
  return `subscription-${name}-${f.from}-to-${f.to}.csv`;
}

const money = (cents: number) => ({ cents });

/** One figure as CSV (CRLF, money as dollars with two decimals, as the back office's other exports). */
export function figuresCsv(name: FiguresCsvName, f: FiguresWithAllReasons): string {
  switch (name) {
    case 'revenue':
      return (
        csvRow(['Period start', 'Period end', 'Renewals', 'First orders', 'Subscription revenue']) +
        f.buckets.map((b) => csvRow([b.start, b.end, money(b.renewalCents), money(b.firstOrderCents), money(b.revenueCents)])).join('')
      );
    case 'movements':
      return (
        csvRow(['Period start', 'Period end', 'New', 'Paused', 'Cancelled', 'Subscribed at the end']) +
        f.buckets.map((b) => csvRow([b.start, b.end, b.started, b.paused, b.cancelled, b.subscribedAtEnd])).join('')
      );
    case 'reasons': {
      const total = f.allReasons.reduce((n, r) => n + r.count, 0);
      return (
        csvRow(['Reason', 'Cancellations', 'Share (%)']) +
        f.allReasons.map((r) => csvRow([r.reason, r.count, Math.round((1000 * r.count) / total) / 10])).join('')
      );
    }
    case 'retention': {
      const months = Array.from({ length: RETENTION_MONTHS }, (_, k) => k);
      return (
        csvRow(['Signed up (month)', 'Subscribers', ...months.flatMap((k) => [`Month ${k}`, `Month ${k} (%)`])]) +
        f.retention
          .map((r) => csvRow([r.month, r.signedUp, ...r.cells.flatMap((c): (number | string)[] => (c ? [c.still, c.percent] : ['', '']))]))
          .join('')
      );
    }
  }
}
