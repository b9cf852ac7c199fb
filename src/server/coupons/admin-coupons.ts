import { sql, type Kysely, type Selectable } from 'kysely';
import type Stripe from 'stripe';
import type { CouponsTable, Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { nowIso, randomString } from '../lib/ids.js';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { type CouponStripeSync } from '../../shared/schemas/admin/coupons.js';
import { createStripeCoupon, deleteStripeCoupon, stripeFailureMessage } from '../payments/stripe.js';
import { containsText, pageOf } from '../db/query-helpers.js';

// The back office's coupon queries: list, create, edit, switch on/off, delete (with their Stripe copies).
// How a coupon is checked, held and counted for a shopper is in ./service.ts.

function toAdminCoupon(c: Selectable<CouponsTable>) {
  return {
    id: c.id,
    code: c.code,
    description: c.description,
    discountType: c.discount_type,
    discountValue: c.discount_value,
    minOrderCents: c.min_order_cents,
    maxUses: c.max_uses,
    currentUses: c.current_uses,
    validFrom: c.valid_from,
    validUntil: c.valid_until,
    isActive: Boolean(c.is_active),
    freeProductId: c.free_product_id,
    /** Which of the free product's variants is given (null: its first enabled one with a unit to give). */
    freeVariantId: c.free_variant_id,
    ownerUserId: c.owner_user_id,
    stripeCouponId: c.stripe_coupon_id,
    createdAt: c.created_at,
  };
}
type AdminCouponView = ReturnType<typeof toAdminCoupon>;

/** A Stripe client when Stripe is configured (null in local mode), and whether the caller asked for Stripe. */
type StripeOptions = { stripe?: Stripe | null; syncStripe?: boolean };
const STRIPE_DISABLED: CouponStripeSync = { status: 'disabled', message: ADMIN_MESSAGES.stripeCouponsDisabled };

type CouponFields = {
  code: string;
  description: string | null;
  discountType: 'percentage' | 'fixed';
  discountValue: number;
  minOrderCents: number | null;
  maxUses: number | null;
  validFrom?: string;
  validUntil: string | null;
  isActive: boolean;
  freeProductId: string | null;
  /** Absent on an edit: the coupon keeps its variant while its free product stays the same. */
  freeVariantId?: string | null;
};

/** The code is free, the free product exists, and the coupon ends after it starts (`validFrom`: the start it will have). */
async function checkCoupon(db: Kysely<Database>, input: CouponFields, id: string | null, validFrom: string): Promise<void> {
  if (input.validUntil && Date.parse(input.validUntil) <= Date.parse(validFrom))
    throw new HttpError(400, ADMIN_MESSAGES.couponUntilBeforeFrom);
  const clash = await db.selectFrom('coupons').select('id').where('code', '=', input.code).executeTakeFirst();
  if (clash && clash.id !== id) throw new HttpError(409, ADMIN_MESSAGES.couponCodeExists);
  if (input.freeProductId) {
    const p = await db.selectFrom('products').select('id').where('id', '=', input.freeProductId).executeTakeFirst();
    if (!p) throw new HttpError(400, ADMIN_MESSAGES.productNotFound);
  }
  if (input.freeVariantId) {
    if (!input.freeProductId) throw new HttpError(400, ADMIN_MESSAGES.freeVariantWithoutProduct);
    const v = await db
      .selectFrom('product_variants')
      .select('id')
      .where('id', '=', input.freeVariantId)
      .where('product_id', '=', input.freeProductId)
      .executeTakeFirst();
    if (!v) throw new HttpError(400, ADMIN_MESSAGES.freeVariantNotOfProduct);
  }
}

export async function listCoupons(db: Kysely<Database>, q: { page: number; pageSize: number; search?: string }) {
  let base = db.selectFrom('coupons');
  if (q.search) base = base.where(containsText('code', q.search));
  return pageOf(
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute(),
    base.select(sql<number | string>`count(*)`.as('n')).executeTakeFirst(),
    q,
    toAdminCoupon,
  );
}

/**
 * Saves the coupon, then (when asked) creates its Stripe copy and records its id. The local coupon
 * stands whatever Stripe says: no key answers stripe 'disabled', a refusal answers 'failed' with
 * Stripe's message. No transaction is held open across the call to Stripe.
 */
export async function createCoupon(
  db: Kysely<Database>,
  input: CouponFields,
  { stripe = null, syncStripe = false }: StripeOptions = {},
): Promise<{ coupon: AdminCouponView; stripe?: CouponStripeSync }> {
  const at = nowIso();
  await checkCoupon(db, input, null, input.validFrom ?? at);
  const id = `coupon-${Date.now()}-${randomString(6)}`;
  await db
    .insertInto('coupons')
    .values({
      id,
      code: input.code,
      description: input.description,
      discount_type: input.discountType,
      discount_value: input.discountValue,
      min_order_cents: input.minOrderCents,
      max_uses: input.maxUses,
      current_uses: 0,
      valid_from: input.validFrom ?? at,
      valid_until: input.validUntil,
      is_active: input.isActive ? 1 : 0,
      free_product_id: input.freeProductId,
      free_variant_id: input.freeVariantId ?? null,
      stripe_coupon_id: null,
      owner_user_id: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  const read = async () => toAdminCoupon(await db.selectFrom('coupons').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
  if (!syncStripe) return { coupon: await read() };
  if (!stripe) return { coupon: await read(), stripe: STRIPE_DISABLED };
  let stripeCouponId: string;
  try {
    stripeCouponId = await createStripeCoupon(stripe, {
      id,
      code: input.code,
      discountType: input.discountType,
      discountValue: input.discountValue,
    });
  } catch (err) {
    return { coupon: await read(), stripe: { status: 'failed', message: stripeFailureMessage(err) } };
  }
  const r = await db
    .updateTable('coupons')
    .set({ stripe_coupon_id: stripeCouponId, updated_at: nowIso() })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) {
    // Deleted while Stripe was answering: do not leave the Stripe copy behind.
    await deleteStripeCoupon(stripe, stripeCouponId).catch(() => undefined);
    throw new HttpError(404, ADMIN_MESSAGES.couponNotFound);
  }
  return { coupon: await read(), stripe: { status: 'synced' } };
}

export async function updateCoupon(db: Kysely<Database>, id: string, fields: CouponFields) {
  const existing = await db
    .selectFrom('coupons')
    .select(['valid_from', 'free_product_id', 'free_variant_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!existing) throw new HttpError(404, ADMIN_MESSAGES.couponNotFound);
  // A form that does not know variants yet keeps the coupon's variant while the product stays.
  const input: CouponFields = {
    ...fields,
    freeVariantId:
      fields.freeVariantId !== undefined
        ? fields.freeVariantId
        : fields.freeProductId === existing.free_product_id
          ? existing.free_variant_id
          : null,
  };
  await checkCoupon(db, input, id, input.validFrom ?? existing.valid_from);
  await db
    .updateTable('coupons')
    .set({
      code: input.code,
      description: input.description,
      discount_type: input.discountType,
      discount_value: input.discountValue,
      min_order_cents: input.minOrderCents,
      max_uses: input.maxUses,
      valid_from: input.validFrom ?? existing.valid_from,
      valid_until: input.validUntil,
      is_active: input.isActive ? 1 : 0,
      free_product_id: input.freeProductId,
      free_variant_id: input.freeVariantId ?? null,
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .execute();
  return toAdminCoupon(await db.selectFrom('coupons').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
}

export async function setCouponActive(db: Kysely<Database>, id: string, isActive: boolean) {
  const r = await db
    .updateTable('coupons')
    .set({ is_active: isActive ? 1 : 0, updated_at: nowIso() })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new HttpError(404, ADMIN_MESSAGES.couponNotFound);
  return toAdminCoupon(await db.selectFrom('coupons').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
}

/**
 * Deletes the coupon here, then its Stripe copy when it has one (or when the caller asks). The local
 * delete stands whatever Stripe says; stripe is absent from the answer when Stripe had no part.
 */
export async function deleteCoupon(
  db: Kysely<Database>,
  id: string,
  { stripe = null, syncStripe = false }: StripeOptions = {},
): Promise<{ stripe?: CouponStripeSync }> {
  // RETURNING reads the Stripe id in the same statement, so a sync finishing meanwhile is not missed.
  const deleted = await db.deleteFrom('coupons').where('id', '=', id).returning('stripe_coupon_id').executeTakeFirst();
  if (!deleted) throw new HttpError(404, ADMIN_MESSAGES.couponNotFound);
  const stripeCouponId = deleted.stripe_coupon_id;
  if (!stripeCouponId && !syncStripe) return {};
  if (!stripe) return { stripe: STRIPE_DISABLED };
  if (!stripeCouponId) return {};
  try {
    await deleteStripeCoupon(stripe, stripeCouponId);
    return { stripe: { status: 'synced' } };
  } catch (err) {
    return { stripe: { status: 'failed', message: stripeFailureMessage(err) } };
  }
}
