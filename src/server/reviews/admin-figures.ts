import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { inPeriodSql, lastDays, periodOf, shopTimeZone } from '../orders/shop-calendar.js';
import { addDays, daysInPeriod, startOfLocalDay, type LocalDate } from '../../shared/shop-time.js';
import { averageOf, type ReviewFigures } from '../../shared/reviews.js';

/**
 * The owner's review Figures (issue [6/8] item 6): reviews written per day of the shop's calendar
 * (every status: what arrived), each product's average as the shop shows it now (its published
 * reviews, `product_ratings`), and the share of the request e-mails sent in the period that led to
 * a review. Days are the shop's (its time zone, as every other figure: orders/shop-calendar.ts).
 *
 * Read by index, the rows never brought back: the period's days are a list of [start, end) instants
 * worked out here (a daylight-saving day is 23 or 25 hours), joined to `reviews_created_idx`
 * (created_at, status, rating, product_id), so the database counts each day's range from the index
 * alone with no date arithmetic per review (a year of 50,000 reviews: about 30 ms on either database,
 * where a day computed per row took 50 ms on SQLite and 120 ms on PostgreSQL; admin-queue.scale.test.ts).
 * The averages are the ratings rows every review write keeps (one row per product); the requests
 * are `review_requests_created_idx` (created_at, status, first_review_at).
 */

type Count = number | string;

/** The period shown when none is asked for: the last 30 of the shop's days, today last. */
export const DEFAULT_FIGURES_DAYS = 30;
/** Products listed with their average, most reviewed first. */
export const FIGURES_PRODUCTS = 20;

/** How many days apart the zone's offset is read (it changes at most twice a year, never twice in a week). */
const OFFSET_SAMPLE_DAYS = 7;

/**
 * The instant each of these consecutive days begins where the shop is. A day begins at its UTC
 * midnight less the zone's offset: the offset is read exactly (startOfLocalDay, a few Intl calls)
 * once a week, and only the days of a week whose two readings differ are each worked out exactly.
 * A year costs some 60 exact readings instead of 366 (the Intl calls, not the database, were most
 * of a year's figures).
 */
function dayStarts(days: readonly LocalDate[], timeZone: string): number[] {
  const utcMidnight = (d: LocalDate) => Date.parse(`${d}T00:00:00.000Z`);
  const out: number[] = [startOfLocalDay(days[0]!, timeZone)];
  for (let from = 0; from < days.length - 1;) {
    const to = Math.min(from + OFFSET_SAMPLE_DAYS, days.length - 1);
    out[to] = startOfLocalDay(days[to]!, timeZone);
    const offset = utcMidnight(days[from]!) - out[from]!;
    const same = utcMidnight(days[to]!) - out[to]! === offset;
    for (let i = from + 1; i < to; i++) out[i] = same ? utcMidnight(days[i]!) - offset : startOfLocalDay(days[i]!, timeZone);
    from = to;
  }
  return out;
}

export async function reviewFigures(
  db: Kysely<Database>,
  q: { from?: string | undefined; to?: string | undefined },
  now: Date = new Date(),
): Promise<ReviewFigures> {
  const timeZone = await shopTimeZone(db);
  const span = periodOf(q, timeZone) ?? lastDays(DEFAULT_FIGURES_DAYS, timeZone, now);
  const days = Array.from({ length: daysInPeriod(span.from, span.to) }, (_, i) => addDays(span.from, i));
  const starts = dayStarts([...days, addDays(span.to, 1)], timeZone);
  // Each day as literals (valid dates and ISO instants made here): one statement whatever the engine.
  const dayRows = days.map(
    (d, i) => sql`(${sql.lit(d)}, ${sql.lit(new Date(starts[i]!).toISOString())}, ${sql.lit(new Date(starts[i + 1]!).toISOString())})`,
  );

  const [perDay, perProduct, requests] = await Promise.all([
    sql<{ day: string; n: Count; stars: Count | null }>`with d(day, day_start, day_end) as (values ${sql.join(dayRows)})
      select d.day as day, count(r.rating) as n, sum(r.rating) as stars
      from d join reviews r on r.created_at >= d.day_start and r.created_at < d.day_end
      group by d.day`.execute(db),
    db
      .selectFrom('product_ratings as pr')
      .innerJoin('products as p', 'p.id', 'pr.product_id')
      .select(['pr.product_id', 'p.name', 'pr.review_count', 'pr.rating_sum'])
      .where('pr.review_count', '>', 0)
      // Most reviewed first, then the higher sum (so the higher average among equals), then by name.
      .orderBy('pr.review_count', 'desc')
      .orderBy('pr.rating_sum', 'desc')
      .orderBy('p.name')
      .limit(FIGURES_PRODUCTS)
      .execute(),
    db
      .selectFrom('review_requests as q')
      .select([sql<Count>`count(*)`.as('sent'), sql<Count>`count(q.first_review_at)`.as('reviewed')])
      .where(inPeriodSql(span, 'q'))
      .where('q.status', '=', 'sent')
      .executeTakeFirstOrThrow(),
  ]);

  const counted = new Map(perDay.rows.map((r) => [r.day, { count: Number(r.n), stars: Number(r.stars ?? 0) }]));
  const byDay = days.map((day) => {
    const c = counted.get(day) ?? { count: 0, stars: 0 };
    return { day, count: c.count, averageRating: averageOf(c.stars, c.count) };
  });
  const sent = Number(requests.sent);
  const reviewed = Number(requests.reviewed);
  return {
    from: span.from,
    to: span.to,
    byDay,
    total: byDay.reduce((s, d) => s + d.count, 0),
    // The period's own average, from its stars summed (not the days' rounded averages).
    averageRating: averageOf(
      [...counted.values()].reduce((s, c) => s + c.stars, 0),
      [...counted.values()].reduce((s, c) => s + c.count, 0),
    ),
    byProduct: perProduct.map((r) => ({
      productId: r.product_id,
      name: r.name,
      count: r.review_count,
      average: averageOf(r.rating_sum, r.review_count),
    })),
    // A fraction from 0 to 1 (three decimals): 0 when none were sent.
    requests: { sent, reviewed, share: sent ? Math.round((reviewed / sent) * 1000) / 1000 : 0 },
  };
}
