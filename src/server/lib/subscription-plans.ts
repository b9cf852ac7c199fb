import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { SubscriptionPlanView } from '../../shared/subscriptions.js';

/*
 * The owner's subscription plans as the shop reads them (issue [4/8]). A read beneath the modules,
 * as lib/variant-pricing.ts is: the catalogue (the product page's data) and the cart (its prices)
 * need it, and both sit below subscriptions/, which re-exports it (subscriptions/plans.ts).
 */

/** A plan as stored, resolved for one variant: its own row, else its product's (`variant_id` ''). */
export type ResolvedPlan = SubscriptionPlanView & { enabled: boolean; productId: string; variantId: string };

export type PlanRow = {
  product_id: string;
  variant_id: string;
  enabled: number;
  intervals: string;
  discount_percent: number;
  later_discount_percent: number | null;
  later_from_delivery: number | null;
};

function view(row: PlanRow, variantId: string): ResolvedPlan {
  return {
    productId: row.product_id,
    variantId,
    enabled: row.enabled === 1,
    intervals: JSON.parse(row.intervals) as number[],
    discountPercent: row.discount_percent,
    laterDiscountPercent: row.later_discount_percent,
    laterFromDelivery: row.later_from_delivery,
  };
}

/** The plan rows of these products (each product's own and its variants'), one indexed read. */
export function readPlanRows(db: Kysely<Database>, productIds: readonly string[]): Promise<PlanRow[]> {
  if (productIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('subscription_plans')
    .select(['product_id', 'variant_id', 'enabled', 'intervals', 'discount_percent', 'later_discount_percent', 'later_from_delivery'])
    .where('product_id', 'in', [...new Set(productIds)])
    .execute();
}

/** Each variant's plan from rows read by readPlanRows: its own row, else its product's. */
export function resolvePlans(
  rows: readonly PlanRow[],
  lines: readonly { productId: string; variantId: string }[],
): Map<string, ResolvedPlan> {
  const found = new Map<string, ResolvedPlan>();
  for (const l of lines) {
    const own = rows.find((r) => r.product_id === l.productId && r.variant_id === l.variantId);
    const product = rows.find((r) => r.product_id === l.productId && r.variant_id === '');
    const row = own ?? product;
    if (row) found.set(l.variantId, view(row, l.variantId));
  }
  return found;
}

/**
 * The plans of these variants (product id and variant id each), one indexed read: a variant's own
 * row wins over its product's. A variant with neither, or whose plan is off, is offered no
 * subscription (absent from the map, or `enabled: false`).
 */
export async function plansForVariants(
  db: Kysely<Database>,
  lines: readonly { productId: string; variantId: string }[],
): Promise<Map<string, ResolvedPlan>> {
  if (lines.length === 0) return new Map();
  return resolvePlans(
    await readPlanRows(
      db,
      lines.map((l) => l.productId),
    ),
    lines,
  );
}

/** The plan a shopper is offered (the product page's `subscription`): an enabled plan with an interval, else null. */
export function planView(plan: ResolvedPlan | undefined): SubscriptionPlanView | null {
  if (!plan || !plan.enabled || plan.intervals.length === 0) return null;
  const { intervals, discountPercent, laterDiscountPercent, laterFromDelivery } = plan;
  return { intervals, discountPercent, laterDiscountPercent, laterFromDelivery };
}

/** Whether this plan lets a shopper subscribe at `everyWeeks` now. */
export function offers(plan: ResolvedPlan | undefined, everyWeeks: number): plan is ResolvedPlan {
  return !!plan && plan.enabled && plan.intervals.includes(everyWeeks);
}
