import type { Kysely, Selectable } from 'kysely';
import type { Database, SubscriptionPriceNoticesTable, SubscriptionsTable } from '../db/schema.js';
import { discountedCents, discountForDelivery, type PlanDiscounts } from '../../shared/subscriptions.js';

/*
 * What a subscriber was told an item costs (issue [5/8], decision 0058 "Price changes"): the
 * shop's price per unit and the discount terms, as agreed (the item's `agreed_price_cents` with the
 * subscription's terms) or as a later notice told them for deliveries from its date. A renewal
 * charges each plan item at most that, and less when the shop's price is lower now.
 */

/** A price as told: the shop's price per unit and the discount terms over the deliveries. */
export type ToldState = { priceCents: number; terms: PlanDiscounts };

type Notice = Selectable<SubscriptionPriceNoticesTable>;

export function termsOf(row: {
  discount_percent: number;
  later_discount_percent: number | null;
  later_from_delivery: number | null;
}): PlanDiscounts {
  return {
    discountPercent: Number(row.discount_percent),
    laterDiscountPercent: row.later_discount_percent === null ? null : Number(row.later_discount_percent),
    laterFromDelivery: row.later_from_delivery === null ? null : Number(row.later_from_delivery),
  };
}

export function noticeState(
  n: Pick<Notice, 'price_cents' | 'discount_percent' | 'later_discount_percent' | 'later_from_delivery'>,
): ToldState {
  return { priceCents: Number(n.price_cents), terms: termsOf(n) };
}

/** The unit price of the `delivery`th delivery under a told state. */
export function toldUnitCents(state: ToldState, delivery: number): number {
  return discountedCents(state.priceCents, discountForDelivery(state.terms, delivery));
}

/**
 * What one plan item is charged per unit on the `delivery`th delivery: the told state's price, or
 * the shop's price today when that is lower (a fall is charged at once), less the told discount
 * for that delivery. Nothing told (`null`: an item from before agreed prices were kept) is
 * charged at today's price less the subscription's own discount, as before.
 */
export function chargedUnit(
  told: ToldState | null,
  todayPriceCents: number,
  subscriptionTerms: PlanDiscounts,
  delivery: number,
): { unitCents: number; discountPercent: number } {
  const discountPercent = discountForDelivery(told?.terms ?? subscriptionTerms, delivery);
  const price = told ? Math.min(told.priceCents, todayPriceCents) : todayPriceCents;
  return { unitCents: discountedCents(price, discountPercent), discountPercent };
}

/**
 * Each item's told state for a delivery due at `dueAt`: the newest notice still pending whose date
 * has come by then, else what was agreed (with the subscription's terms); null when nothing is known.
 * One indexed read of the subscription's pending notices.
 */
export async function toldStatesAt(
  db: Kysely<Database>,
  sub: Pick<Selectable<SubscriptionsTable>, 'id' | 'discount_percent' | 'later_discount_percent' | 'later_from_delivery'>,
  items: readonly { variant_id: string; agreed_price_cents: number | null }[],
  dueAt: string,
): Promise<Map<string, ToldState | null>> {
  const notices = await db
    .selectFrom('subscription_price_notices')
    .select(['variant_id', 'price_cents', 'discount_percent', 'later_discount_percent', 'later_from_delivery'])
    .where('subscription_id', '=', sub.id)
    .where('status', '=', 'pending')
    .where('effective_from', '<=', dueAt)
    .orderBy('told_at')
    .orderBy('id')
    .execute();
  const newest = new Map(notices.map((n) => [n.variant_id, noticeState(n)]));
  const terms = termsOf(sub);
  return new Map(
    items.map((i) => [
      i.variant_id,
      newest.get(i.variant_id) ?? (i.agreed_price_cents === null ? null : { priceCents: Number(i.agreed_price_cents), terms }),
    ]),
  );
}
