import { csvRow } from '../orders/exports.js';
import type { Kysely } from 'kysely';
import type { Database, SubscriptionStatus } from '../db/schema.js';
import { variantLevels } from '../inventory/stock.js';
import { reservedByVariant } from '../inventory/reservations.js';
import { lineTitle, variantLabel } from '../../shared/variants.js';

/**
 * "Upcoming" on the owner's Subscriptions tab (issue [5/8]): the units the schedule will renew of
 * each variant in the next 7, 30 and 90 days, against the stock that can be sent now, so the owner
 * orders stock in time.
 */

/** The windows, in days from now: a delivery on day d counts in a window of N days when now ≤ d < now + N days. */
export const UPCOMING_WINDOWS = [7, 30, 90] as const;

/** The statuses the schedule renews (a paused one on the day it resumes: its `next_renewal_at`). */
const RENEWING: SubscriptionStatus[] = ['active', 'payment_failing', 'paused'];

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

export type UpcomingRow = {
  variantId: string;
  productId: string;
  /** "Laundry Powder — 2 lb", as every list names a line. */
  name: string;
  sku: string | null;
  units7: number;
  units30: number;
  units90: number;
  /** On hand less what open checkouts keep now (never below 0), as the Products tab's stock says. */
  available: number;
  /** Units short in each window: units − available, or 0. */
  shortfall7: number;
  shortfall30: number;
  shortfall90: number;
};

/**
 * How many deliveries of a subscription fall in each window, as the schedule would make them
 * (renewals.ts): on `next_renewal_at`, then every `everyWeeks` weeks after it. A date already past
 * (a cycle waiting for stock or retrying a card, or a paused one whose day has come) is renewed as
 * soon as the schedule gets to it: it counts once, as due now, and the next date is the first on
 * its rhythm after now (`nextDueAfter`: missed deliveries are not made up). Closed form: the dates
 * are an arithmetic series, so no date is walked.
 */
export function deliveriesInWindows(nextRenewalAt: string, everyWeeks: number, now: Date): number[] {
  const start = now.getTime();
  const period = everyWeeks * WEEK_MS;
  let first = Date.parse(nextRenewalAt);
  let dueNow = 0;
  if (first < start) {
    dueNow = 1;
    first += (Math.floor((start - first) / period) + 1) * period;
  }
  return UPCOMING_WINDOWS.map((days) => {
    const end = start + days * DAY_MS;
    return dueNow + (first < end ? Math.ceil((end - first) / period) : 0);
  });
}

/**
 * Each variant's units due in the next 7, 30 and 90 days with the stock that can be sent now and
 * the shortfall per window; the largest 30-day shortfall first, then the 90-day one, then the most
 * units in 90 days, then by name. Bounded work: one read of the renewing subscriptions due before
 * the 90-day horizon with their items (the (status, next_renewal_at) index), then those variants'
 * levels and held units side by side through the inventory module, which owns stock.
 */
export async function upcomingUnits(db: Kysely<Database>, now = new Date()): Promise<UpcomingRow[]> {
  const horizon = new Date(now.getTime() + UPCOMING_WINDOWS[UPCOMING_WINDOWS.length - 1]! * DAY_MS).toISOString();
  const lines = await db
    .selectFrom('subscriptions as s')
    .innerJoin('subscription_items as i', 'i.subscription_id', 's.id')
    .leftJoin('product_variants as v', 'v.id', 'i.variant_id')
    .leftJoin('products as p', 'p.id', 'i.product_id')
    .select([
      's.next_renewal_at',
      's.every_weeks',
      'i.product_id',
      'i.variant_id',
      'i.quantity',
      'p.name',
      'v.sku',
      'v.option1',
      'v.option2',
      'v.option3',
    ])
    .where('s.status', 'in', RENEWING)
    .where('s.next_renewal_at', '<', horizon)
    .execute();

  type Acc = Omit<UpcomingRow, 'available' | 'shortfall7' | 'shortfall30' | 'shortfall90'>;
  const byVariant = new Map<string, Acc>();
  for (const l of lines) {
    const [n7, n30, n90] = deliveriesInWindows(l.next_renewal_at, Number(l.every_weeks), now);
    const quantity = Number(l.quantity);
    let acc = byVariant.get(l.variant_id);
    if (!acc) {
      acc = {
        variantId: l.variant_id,
        productId: l.product_id,
        name: lineTitle(l.name ?? 'A product no longer sold', variantLabel([l.option1 ?? '', l.option2 ?? '', l.option3 ?? ''])),
        sku: l.sku,
        units7: 0,
        units30: 0,
        units90: 0,
      };
      byVariant.set(l.variant_id, acc);
    }
    acc.units7 += n7! * quantity;
    acc.units30 += n30! * quantity;
    acc.units90 += n90! * quantity;
  }

  const keys = [...byVariant.values()].map((a) => ({ productId: a.productId, variantId: a.variantId }));
  const [levels, held] = await Promise.all([
    variantLevels(
      db,
      keys.map((k) => k.variantId),
    ),
    reservedByVariant(db, keys, now),
  ]);
  const rows = [...byVariant.values()].map((a): UpcomingRow => {
    const onHand = levels.get(a.variantId) ?? 0;
    // As the owner's stock view counts it (inventory/admin.ts): held units never take it below 0.
    const available = onHand - Math.min(onHand, held.get(a.variantId) ?? 0);
    const short = (units: number) => Math.max(0, units - available);
    return { ...a, available, shortfall7: short(a.units7), shortfall30: short(a.units30), shortfall90: short(a.units90) };
  });
  return rows.sort(
    (a, b) =>
      b.shortfall30 - a.shortfall30 ||
      b.shortfall90 - a.shortfall90 ||
      b.units90 - a.units90 ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
      (a.variantId < b.variantId ? -1 : 1),
  );
}

export const UPCOMING_CSV_HEADER = [
  'Product',
  'SKU',
  'Variant id',
  'Next 7 days',
  'Next 30 days',
  'Next 90 days',
  'In stock',
  'Short by (7 days)',
  'Short by (30 days)',
  'Short by (90 days)',
] as const;

/** The rows as CSV, in the same order, one line per variant (CRLF, as the other exports). */
export function upcomingCsv(rows: readonly UpcomingRow[]): string {
  return (
    csvRow([...UPCOMING_CSV_HEADER]) +
    rows
      .map((r) =>
        csvRow([r.name, r.sku, r.variantId, r.units7, r.units30, r.units90, r.available, r.shortfall7, r.shortfall30, r.shortfall90]),
      )
      .join('')
  );
}
