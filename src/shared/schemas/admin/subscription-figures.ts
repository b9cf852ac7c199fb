import { z } from 'zod';
import { daysInPeriod } from '../../shop-time.js';
import { PeriodFields, REPORT_MESSAGES } from '../reports.js';

// The owner's subscription Figures (issue [5/8]; src/server/subscriptions/admin-figures.ts): the
// query the Figures panel sends and the server reads, the answer both parse, and the texts.

/** How the period is cut: the shop's days, weeks (Monday to Sunday) or calendar months. */
export const FIGURES_PERIODS = ['day', 'week', 'month'] as const;
export type FiguresPeriod = (typeof FIGURES_PERIODS)[number];

/** The longest span the figures cover: two years, a leap day included. */
export const FIGURES_MAX_DAYS = 731;
/** Retention follows each month of signing up for this many months: the month itself (0) to 11 months on. */
export const RETENTION_MONTHS = 12;
/** The reasons listed on screen, most given first; the CSV has every one. */
export const REASONS_SHOWN = 50;

/** The figures' CSV files: GET /api/admin/subscriptions/figures/<name>.csv. */
export const FIGURES_CSV_NAMES = ['revenue', 'movements', 'reasons', 'retention'] as const;
export type FiguresCsvName = (typeof FIGURES_CSV_NAMES)[number];

export const SUBSCRIPTION_FIGURES_MESSAGES = {
  badPeriod: 'period must be day, week or month',
  tooLong: `Figures cover at most ${FIGURES_MAX_DAYS} days (two years): choose a later start date or an earlier end date`,
  empty: 'No subscriptions yet',
  emptyHint: 'The figures fill in once a customer subscribes at checkout.',
  noReason: 'No reason given',
  noCancellations: 'No cancellations in this period.',
  noSignups: 'Nobody signed up in these months.',
  revenueHint:
    'Money from subscriptions, counted as every figure of the shop counts money: a payment on the day it was taken, a refund on the day it was made (so a refund next month lowers next month, and a month already reported never changes). Renewals are the orders the schedule made. A first order is the checkout that started a subscription, counted whole: one-time items bought in the same checkout included, because that is the money the order brought in. Each amount is exactly those orders’ money on the Orders tab, to the cent.',
  movementsHint:
    'New: subscriptions started (each interval of a checkout is one subscription). Paused: pauses asked for. Cancelled: by the customer or by you. Subscribed at the end: not cancelled by the period’s last day (active, paused or with a failing card).',
  retentionHint:
    'Of the subscriptions started in each month (the last 12 months of the period, or all of a longer one), the share not cancelled by the end of each month after: month 0 is the month they started. The current month counts up to today; months still to come are blank.',
} as const;

/** The rules between the two dates: both or neither, in order, and at most two years apart. */
function checkFiguresPeriod(v: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx): void {
  if (!v.from && !v.to) return;
  if (!v.from || !v.to) {
    ctx.addIssue({ code: 'custom', message: REPORT_MESSAGES.bothDates, path: [v.from ? 'to' : 'from'] });
    return;
  }
  if (v.from > v.to) ctx.addIssue({ code: 'custom', message: REPORT_MESSAGES.fromAfterTo, path: ['to'] });
  else if (daysInPeriod(v.from, v.to) > FIGURES_MAX_DAYS)
    ctx.addIssue({ code: 'custom', message: SUBSCRIPTION_FIGURES_MESSAGES.tooLong, path: ['from'] });
}

/** The Figures panel's custom dates (the same rules as the server's query). */
export const FiguresPeriodInput = z.object(PeriodFields).strict().superRefine(checkFiguresPeriod);
export type FiguresPeriodInput = z.input<typeof FiguresPeriodInput>;

/**
 * GET /api/admin/subscriptions/figures (and each CSV): a period of the shop's days (both dates), or
 * the last `days` of them (today included), or neither for the last 12 months to today; at most two
 * years, cut by day, week or month (month when left out).
 */
export const SubscriptionFiguresQuery = z
  .object({
    ...PeriodFields,
    days: z.coerce
      .number({ message: 'days must be a number' })
      .int('days must be a whole number')
      .min(1, 'days must be at least 1')
      .max(FIGURES_MAX_DAYS, `days cannot exceed ${FIGURES_MAX_DAYS}`)
      .optional(),
    period: z
      .union([z.literal(''), z.enum(FIGURES_PERIODS)], { message: SUBSCRIPTION_FIGURES_MESSAGES.badPeriod })
      .optional()
      .transform((v): FiguresPeriod => v || 'month'),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.days !== undefined && (v.from || v.to)) ctx.addIssue({ code: 'custom', message: REPORT_MESSAGES.daysAndDates, path: ['days'] });
    else checkFiguresPeriod(v, ctx);
  });
export type SubscriptionFiguresQuery = z.input<typeof SubscriptionFiguresQuery>;

const count = z.number().int();
const cents = z.number().int();

/** One period's row: its first and last of the shop's days (clipped to the span asked for) and its figures. */
export const FiguresBucket = z.object({
  start: z.string(),
  end: z.string(),
  renewalCents: cents,
  firstOrderCents: cents,
  revenueCents: cents,
  started: count,
  paused: count,
  cancelled: count,
  /** Not cancelled by the end of the period's last day. */
  subscribedAtEnd: count,
});
export type FiguresBucket = z.infer<typeof FiguresBucket>;

/** One month of signing up: how many started, and per month since (0–11) how many were still not cancelled at its end. */
export const RetentionRow = z.object({
  /** 'YYYY-MM' in the shop's time zone. */
  month: z.string(),
  signedUp: count,
  /** null: that month has not begun yet. */
  cells: z.array(z.object({ still: count, percent: z.number() }).nullable()),
});
export type RetentionRow = z.infer<typeof RetentionRow>;

export const SubscriptionFigures = z.object({
  from: z.string(),
  to: z.string(),
  period: z.enum(FIGURES_PERIODS),
  timeZone: z.string(),
  /** Any subscription ever (the panel's empty state when none). */
  anySubscriptions: z.boolean(),
  /** Now, by status: active subscribers are active and payment_failing. */
  now: z.object({ activeSubscribers: count, active: count, paymentFailing: count, paused: count, cancelled: count }),
  buckets: z.array(FiguresBucket),
  totals: z.object({
    renewalCents: cents,
    firstOrderCents: cents,
    revenueCents: cents,
    /** Payments taken and refunds made in the span (revenue is the one less the other). */
    takenCents: cents,
    refundedCents: cents,
    started: count,
    paused: count,
    cancelled: count,
  }),
  reasons: z.array(z.object({ reason: z.string(), count })),
  /** Reasons past the first REASONS_SHOWN: how many different ones, and their cancellations. */
  otherReasons: z.object({ kinds: count, count }).nullable(),
  retention: z.array(RetentionRow),
});
export type SubscriptionFigures = z.infer<typeof SubscriptionFigures>;
