import { sql, type Kysely, type Selectable } from 'kysely';
import type Stripe from 'stripe';
import type { CouponsTable, Database, ShippingOptionsTable } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { nowIso, randomString } from '../lib/ids.js';
import { ADMIN_MESSAGES, type CouponStripeSync } from '../../shared/schemas/admin.js';
import { createStripeCoupon, deleteStripeCoupon, stripeFailureMessage } from '../payments/stripe.js';
import { containsText, pageOf } from '../db/query-helpers.js';

export function toAdminCoupon(c: Selectable<CouponsTable>) {
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
    ownerUserId: c.owner_user_id,
    stripeCouponId: c.stripe_coupon_id,
    createdAt: c.created_at,
  };
}
export type AdminCouponView = ReturnType<typeof toAdminCoupon>;

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
};

async function checkCoupon(db: Kysely<Database>, input: CouponFields, id: string | null): Promise<void> {
  const clash = await db.selectFrom('coupons').select('id').where('code', '=', input.code).executeTakeFirst();
  if (clash && clash.id !== id) throw new HttpError(409, ADMIN_MESSAGES.couponCodeExists);
  if (input.freeProductId) {
    const p = await db.selectFrom('products').select('id').where('id', '=', input.freeProductId).executeTakeFirst();
    if (!p) throw new HttpError(400, ADMIN_MESSAGES.productNotFound);
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
  await checkCoupon(db, input, null);
  const at = nowIso();
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

export async function updateCoupon(db: Kysely<Database>, id: string, input: CouponFields) {
  const existing = await db.selectFrom('coupons').select('valid_from').where('id', '=', id).executeTakeFirst();
  if (!existing) throw new HttpError(404, ADMIN_MESSAGES.couponNotFound);
  await checkCoupon(db, input, id);
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

export function toAdminShipping(o: Selectable<ShippingOptionsTable>) {
  return {
    id: o.id,
    name: o.name,
    description: o.description,
    priceCents: o.price_cents,
    estimatedDays: o.estimated_days,
    enabled: Boolean(o.enabled),
    minimumOrderCents: o.minimum_order_cents,
  };
}

type ShippingFields = {
  name: string;
  description: string | null;
  priceCents: number;
  estimatedDays: string;
  enabled: boolean;
  minimumOrderCents: number | null;
};

export async function listShippingOptions(db: Kysely<Database>) {
  return (await db.selectFrom('shipping_options').selectAll().orderBy('sort_order').orderBy('price_cents').execute()).map(toAdminShipping);
}

export async function createShippingOption(db: Kysely<Database>, input: ShippingFields) {
  const id = `ship-${Date.now()}-${randomString(6)}`;
  const at = nowIso();
  const max = await db
    .selectFrom('shipping_options')
    .select(sql<number>`coalesce(max(sort_order), 0)`.as('m'))
    .executeTakeFirst();
  await db
    .insertInto('shipping_options')
    .values({
      id,
      name: input.name,
      description: input.description,
      price_cents: input.priceCents,
      estimated_days: input.estimatedDays,
      enabled: input.enabled ? 1 : 0,
      minimum_order_cents: input.minimumOrderCents,
      sort_order: Number(max?.m ?? 0) + 1,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return toAdminShipping(await db.selectFrom('shipping_options').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
}

export async function updateShippingOption(db: Kysely<Database>, id: string, input: ShippingFields) {
  const r = await db
    .updateTable('shipping_options')
    .set({
      name: input.name,
      description: input.description,
      price_cents: input.priceCents,
      estimated_days: input.estimatedDays,
      enabled: input.enabled ? 1 : 0,
      minimum_order_cents: input.minimumOrderCents,
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new HttpError(404, ADMIN_MESSAGES.shippingNotFound);
  return toAdminShipping(await db.selectFrom('shipping_options').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
}

export async function setShippingOptionEnabled(db: Kysely<Database>, id: string, enabled: boolean) {
  const r = await db
    .updateTable('shipping_options')
    .set({ enabled: enabled ? 1 : 0, updated_at: nowIso() })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new HttpError(404, ADMIN_MESSAGES.shippingNotFound);
  return toAdminShipping(await db.selectFrom('shipping_options').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
}

export async function deleteShippingOption(db: Kysely<Database>, id: string): Promise<void> {
  const r = await db.deleteFrom('shipping_options').where('id', '=', id).executeTakeFirst();
  if (Number(r.numDeletedRows) !== 1) throw new HttpError(404, ADMIN_MESSAGES.shippingNotFound);
}

export async function listUsers(db: Kysely<Database>, q: { page: number; pageSize: number; search?: string }) {
  let base = db.selectFrom('users');
  if (q.search) {
    const text = q.search;
    base = base.where((eb) => eb.or([containsText('email', text), containsText('full_name', text), eb('id', '=', text)]));
  }
  return pageOf(
    base
      .select(['id', 'email', 'full_name', 'phone', 'role', 'email_verified', 'loyalty_points', 'total_points_earned', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute(),
    base.select(sql<number | string>`count(*)`.as('n')).executeTakeFirst(),
    q,
    (u) => ({
      id: u.id,
      email: u.email,
      fullName: u.full_name,
      phone: u.phone,
      role: u.role,
      emailVerified: Boolean(u.email_verified),
      loyaltyPoints: u.loyalty_points,
      totalPointsEarned: u.total_points_earned,
      createdAt: u.created_at,
    }),
  );
}

export async function patchUser(
  db: Kysely<Database>,
  actorId: string,
  id: string,
  patch: { emailVerified?: boolean; role?: 'client' | 'admin'; loyaltyPoints?: number },
) {
  if (id === actorId && patch.role === 'client') throw new HttpError(400, ADMIN_MESSAGES.ownRole);
  if (patch.role === 'client') {
    const admins = await db.selectFrom('users').select('id').where('role', '=', 'admin').limit(2).execute();
    if (admins.length === 1 && admins[0]!.id === id) throw new HttpError(400, ADMIN_MESSAGES.lastAdmin);
  }
  const r = await db
    .updateTable('users')
    .set({
      ...(patch.emailVerified !== undefined ? { email_verified: patch.emailVerified ? 1 : 0 } : {}),
      ...(patch.role ? { role: patch.role } : {}),
      // Clamped to a minimum of 0 (specification), whoever calls.
      ...(patch.loyaltyPoints !== undefined ? { loyalty_points: Math.max(0, patch.loyaltyPoints) } : {}),
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new HttpError(404, ADMIN_MESSAGES.userNotFound);
  // A demoted admin's sessions must not keep an impersonation going.
  if (patch.role === 'client') await db.updateTable('sessions').set({ acting_as_user_id: null }).where('user_id', '=', id).execute();
  return (await listUsers(db, { page: 1, pageSize: 1, search: id })).items[0]!;
}
