import type { Kysely, Selectable } from 'kysely';
import type { z } from 'zod';
import type { Dialect } from '../db/database.js';
import type { Database, SubscriptionPlansTable } from '../db/schema.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { HttpError } from '../http/errors.js';
import { parseJson } from '../lib/json.js';
import { recordAudit, type AuditBy } from '../audit/audit.js';
import { markPricesForReview } from '../lib/subscription-price-reviews.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { SUBSCRIPTION_MESSAGES, type SubscriptionPlanInput } from '../../shared/subscriptions.js';
import type { AdminSubscriptionPlan, AdminSubscriptionPlans } from '../../shared/schemas/admin/subscription-plans.js';
import { variantLabel } from '../../shared/variants.js';

/*
 * The owner's Subscribe and save plans (issue [4/8] item 1): one row per product (`variant_id` '')
 * and, where a variant needs terms of its own or none, one per variant; the variant's row wins
 * (plans.ts reads them for the shop). Every change is one transaction with its audit row, so a
 * refusal stores nothing and a stored change is always in the log. The admin surface bumps the
 * shop's change signal after every successful write (http/access.ts), so product pages show the
 * new terms at once.
 */

/** What the body schema gives (intervals deduplicated and sorted, the later pair both or neither). */
type PlanTerms = z.output<typeof SubscriptionPlanInput>;

export const VARIANT_PLAN_MESSAGES = {
  variantNotFound: 'Variant not found: it may have been removed meanwhile. Reload the product and try again.',
} as const;

type PlanRow = Selectable<SubscriptionPlansTable>;

function viewOf(row: PlanRow): AdminSubscriptionPlan {
  return {
    enabled: Number(row.enabled) === 1,
    intervals: parseJson<number[]>(row.intervals, []),
    discountPercent: Number(row.discount_percent),
    laterDiscountPercent: row.later_discount_percent === null ? null : Number(row.later_discount_percent),
    laterFromDelivery: row.later_from_delivery === null ? null : Number(row.later_from_delivery),
    updatedAt: row.updated_at,
  };
}

/** The terms only (no time), in one key order: what the audit row shows and a save is compared by. */
function termsOf(plan: PlanTerms | AdminSubscriptionPlan | null): PlanTerms | null {
  if (!plan) return null;
  return {
    enabled: plan.enabled,
    intervals: [...plan.intervals],
    discountPercent: plan.discountPercent,
    laterDiscountPercent: plan.laterDiscountPercent,
    laterFromDelivery: plan.laterFromDelivery,
  };
}

async function assertProduct(db: Kysely<Database>, productId: string): Promise<void> {
  const product = await db.selectFrom('products').select('id').where('id', '=', productId).executeTakeFirst();
  if (!product) throw new HttpError(404, ADMIN_MESSAGES.productNotFound);
}

/**
 * A product's plan, each variant's own plan and the variants themselves (switched-off ones too,
 * in the owner's order), for the product dialog. 404 for an unknown product.
 */
export async function productPlansView(db: Kysely<Database>, productId: string): Promise<AdminSubscriptionPlans> {
  const [product, variants, plans] = await Promise.all([
    db.selectFrom('products').select('id').where('id', '=', productId).executeTakeFirst(),
    db
      .selectFrom('product_variants')
      .select(['id', 'option1', 'option2', 'option3', 'enabled'])
      .where('product_id', '=', productId)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db.selectFrom('subscription_plans').selectAll().where('product_id', '=', productId).execute(),
  ]);
  if (!product) throw new HttpError(404, ADMIN_MESSAGES.productNotFound);
  const byVariant = new Map(plans.map((p) => [p.variant_id, viewOf(p)]));
  return {
    productId,
    plan: byVariant.get('') ?? null,
    variants: variants.map((v) => ({
      id: v.id,
      label: variantLabel([v.option1, v.option2, v.option3]),
      enabled: Number(v.enabled) === 1,
      plan: byVariant.get(v.id) ?? null,
    })),
  };
}

async function readPlan(trx: Kysely<Database>, productId: string, variantId: string): Promise<AdminSubscriptionPlan | null> {
  const row = await trx
    .selectFrom('subscription_plans')
    .selectAll()
    .where('product_id', '=', productId)
    .where('variant_id', '=', variantId)
    .executeTakeFirst();
  return row ? viewOf(row) : null;
}

async function auditPlanChange(
  trx: Kysely<Database>,
  by: AuditBy,
  productId: string,
  variantId: string,
  before: AdminSubscriptionPlan | null,
  after: PlanTerms | null,
): Promise<void> {
  const [was, is] = [termsOf(before), termsOf(after)];
  if (JSON.stringify(was) === JSON.stringify(is)) return;
  // Existing subscribers get a new discount as a price change, told before it is charged (decision 0058).
  const discounts = (t: PlanTerms | null) => (t ? [t.discountPercent, t.laterDiscountPercent, t.laterFromDelivery] : null);
  if (JSON.stringify(discounts(was)) !== JSON.stringify(discounts(is)))
    await markPricesForReview(trx, [productId], new Date().toISOString());
  await recordAudit(trx, {
    by,
    action: 'subscription.plan_changed',
    targetUserId: null,
    details: { productId, variantId: variantId || null, before: was, after: is },
  });
}

async function upsertPlan(trx: Kysely<Database>, productId: string, variantId: string, terms: PlanTerms, at: string): Promise<void> {
  const values = {
    enabled: terms.enabled ? 1 : 0,
    intervals: JSON.stringify(terms.intervals),
    discount_percent: terms.discountPercent,
    later_discount_percent: terms.laterDiscountPercent,
    later_from_delivery: terms.laterFromDelivery,
    updated_at: at,
  };
  await trx
    .insertInto('subscription_plans')
    .values({ product_id: productId, variant_id: variantId, created_at: at, ...values })
    .onConflict((oc) => oc.columns(['product_id', 'variant_id']).doUpdateSet(values))
    .execute();
}

/** Sets the product's own plan (`variant_id` ''): the terms of every variant without one of its own. */
export async function saveProductPlan(
  db: Kysely<Database>,
  dialect: Dialect,
  productId: string,
  terms: PlanTerms,
  by: AuditBy,
): Promise<AdminSubscriptionPlans> {
  await transactionWithRetry(db, async (trx) => {
    const product = await forUpdate(trx.selectFrom('products').select('id').where('id', '=', productId), dialect).executeTakeFirst();
    if (!product) throw new HttpError(404, ADMIN_MESSAGES.productNotFound);
    const before = await readPlan(trx, productId, '');
    await upsertPlan(trx, productId, '', terms, new Date().toISOString());
    await auditPlanChange(trx, by, productId, '', before, terms);
  });
  return productPlansView(db, productId);
}

/** The variant, locked so it cannot be switched off between the check and the write (PostgreSQL). */
async function lockVariant(trx: Kysely<Database>, dialect: Dialect, productId: string, variantId: string): Promise<{ enabled: boolean }> {
  await assertProduct(trx, productId);
  const variant = await forUpdate(
    trx.selectFrom('product_variants').select(['id', 'enabled']).where('product_id', '=', productId).where('id', '=', variantId),
    dialect,
  ).executeTakeFirst();
  if (!variant) throw new HttpError(404, VARIANT_PLAN_MESSAGES.variantNotFound);
  return { enabled: Number(variant.enabled) === 1 };
}

/**
 * Gives a variant terms of its own, or (enabled false) none: "not offered" while its product's
 * plan offers the others. A switched-off variant cannot be offered (409): the shop does not sell it.
 */
export async function saveVariantPlan(
  db: Kysely<Database>,
  dialect: Dialect,
  productId: string,
  variantId: string,
  terms: PlanTerms,
  by: AuditBy,
): Promise<AdminSubscriptionPlans> {
  await transactionWithRetry(db, async (trx) => {
    const variant = await lockVariant(trx, dialect, productId, variantId);
    if (terms.enabled && !variant.enabled) throw new HttpError(409, SUBSCRIPTION_MESSAGES.variantOff);
    const before = await readPlan(trx, productId, variantId);
    await upsertPlan(trx, productId, variantId, terms, new Date().toISOString());
    await auditPlanChange(trx, by, productId, variantId, before, terms);
  });
  return productPlansView(db, productId);
}

/** Removes a variant's own plan: it follows its product's again. Removing none is no change. */
export async function removeVariantPlan(
  db: Kysely<Database>,
  dialect: Dialect,
  productId: string,
  variantId: string,
  by: AuditBy,
): Promise<AdminSubscriptionPlans> {
  await transactionWithRetry(db, async (trx) => {
    await lockVariant(trx, dialect, productId, variantId);
    const before = await readPlan(trx, productId, variantId);
    if (!before) return;
    await trx.deleteFrom('subscription_plans').where('product_id', '=', productId).where('variant_id', '=', variantId).execute();
    await auditPlanChange(trx, by, productId, variantId, before, null);
  });
  return productPlansView(db, productId);
}
