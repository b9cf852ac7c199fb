import { marketingConsentOf, readEmailPreferences, withdrawMarketingConsentIn } from '../marketing/consent.js';
import { forgetMarketingRecords, marketingRecordsOf } from '../marketing/close-recoveries.js';
import type { Kysely, Selectable } from 'kysely';
import type { Database, OrderItemsTable, UserRow } from '../db/schema.js';
import { isPostgres } from '../db/query-helpers.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import type { Dialect } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import { nowIso } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import { nextRewardAt } from '../../shared/pricing.js';
import { SELF_SERVICE_MESSAGES, type AccountDataExport } from '../../shared/schemas/account-self-service.js';
import { paymentStatusOf } from '../orders/payment-status.js';
import { deleteCheckoutAttempts, detachOrdersOfUser } from '../orders/customer-orders.js';
import { rewardCouponsOf } from '../coupons/service.js';
import { hashPassword, verifyPassword } from './password.js';
import { confirmCurrentPassword } from './profile.js';
import { forgetLoadedSessions, type LoadedSession } from './sessions.js';
import { recordAudit } from '../audit/audit.js';
import { forgetHolderAccount } from '../inventory/reservations.js';
import { queuePasswordChangedEmail } from './account-emails.js';

/**
 * Changing the password or deleting the account is the signed-in person's own act: an admin acting
 * as a customer may not do it for them (the admin would otherwise take the account over).
 */
function ownSessionUser(session: LoadedSession | null): { user: UserRow; tokenHash: string } {
  if (!session) throw new HttpError(401, 'Authentication required');
  if (session.impersonator) throw new HttpError(403, SELF_SERVICE_MESSAGES.notWhileImpersonating);
  return { user: session.user, tokenHash: session.tokenHash };
}

/**
 * A new password, given the current one. The current password is checked like an e-mail change's
 * (profile.ts: counted before the check, at most 5 wrong ones per person in 15 minutes); on success
 * every other session of the person ends and any reset link still out stops working. The session
 * that asked stays signed in. Answers the updated user row.
 */
export async function changePassword(
  db: Kysely<Database>,
  session: LoadedSession | null,
  input: { currentPassword: string; newPassword: string },
  ctx: { publicUrl: string },
): Promise<UserRow> {
  const { user, tokenHash } = ownSessionUser(session);
  await confirmCurrentPassword(db, user, input.currentPassword);
  if (await verifyPassword(user.password_hash, input.newPassword)) throw new HttpError(400, SELF_SERVICE_MESSAGES.samePassword);
  const passwordHash = await hashPassword(input.newPassword);
  const updated = await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: nowIso() }).where('id', '=', user.id).execute();
    await trx.deleteFrom('sessions').where('user_id', '=', user.id).where('token_hash', '!=', tokenHash).execute();
    await trx.deleteFrom('password_reset_tokens').where('user_id', '=', user.id).execute();
    const row = await trx.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    await recordAudit(trx, {
      by: { actorId: user.id },
      action: 'account.password_changed',
      targetUserId: user.id,
      details: { via: 'account' },
    });
    await queuePasswordChangedEmail(trx, row, ctx.publicUrl);
    return row;
  });
  forgetLoadedSessions();
  return updated;
}

/** Rate-limit counters that name the person (sign-in, reset and re-authentication guesses). */
async function deleteCountersOf(db: Kysely<Database>, user: Pick<UserRow, 'id' | 'email'>): Promise<void> {
  await db
    .deleteFrom('rate_limits')
    .where((eb) =>
      eb.or([
        eb('key', 'in', [
          `signin:acct:${user.email}`,
          `reset:acct:${user.email}`,
          `reauth:user:${user.id}`,
          `email-change:user:${user.id}`,
          `signin-link:acct:${user.email}`,
        ]),
        ...[`signin:acct-ip:${user.email}:`, `signin:slot:${user.email}:`].map((prefix) =>
          eb.and([eb('key', '>=', prefix), eb('key', '<', `${prefix}\uffff`)]),
        ),
      ]),
    )
    .execute();
}

/**
 * Deletes the signed-in person's account after checking their password (docs/decisions/0016).
 *
 * - Orders that took money, and orders the owner entered, are the shop's books: they stay whole
 *   (lines, totals, statuses, refunds, the name, e-mail and addresses given at checkout) but are
 *   detached from the account and filed for the owner's search by what the order itself says.
 * - Checkout attempts that never took money are deleted with everything they held.
 * - The user row goes, and with it (foreign keys) sessions, reset tokens and personal reward coupons;
 *   loyalty points and saved addresses were columns of that row. E-mails to the person that concern
 *   no kept order, and rate-limit counters naming them, go too.
 *
 * Refused with 409 for the last admin, and while a payment of theirs is still open (paying it later
 * would need the order they are deleting).
 */
export async function deleteAccount(db: Kysely<Database>, session: LoadedSession | null, password: string): Promise<void> {
  const { user } = ownSessionUser(session);
  await confirmCurrentPassword(db, user, password);
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  await transactionWithRetry(db, async (trx) => {
    // The person's row is locked first: a checkout of theirs (inserting an order that points at
    // it) waits, then fails cleanly instead of leaving an order for an account that no longer exists.
    const me = await forUpdate(
      trx.selectFrom('users').select(['id', 'email', 'role']).where('id', '=', user.id),
      dialect,
    ).executeTakeFirst();
    if (!me) throw new HttpError(404, 'User not found');
    if (me.role === 'admin') {
      // Every admin row is locked (in id order), so two admins deleting themselves at once cannot
      // both see the other one still there.
      const admins = await forUpdate(trx.selectFrom('users').select('id').where('role', '=', 'admin').orderBy('id'), dialect).execute();
      if (!admins.some((a) => a.id !== me.id)) throw new HttpError(409, SELF_SERVICE_MESSAGES.lastAdmin);
    }
    const open = await trx
      .selectFrom('payment_sessions as ps')
      .innerJoin('orders as o', 'o.id', 'ps.order_id')
      .select('ps.id')
      .where('o.user_id', '=', me.id)
      .where('ps.status', '=', 'open')
      .limit(1)
      .executeTakeFirst();
    if (open) throw new HttpError(409, SELF_SERVICE_MESSAGES.paymentInProgress);

    const attempts = await trx
      .selectFrom('orders as o')
      .select('o.id')
      .where('o.user_id', '=', me.id)
      .where('o.origin', '=', 'checkout')
      .where('o.payment_status', 'in', ['unpaid', 'failed', 'expired'])
      .where('o.paid_at', 'is', null)
      .where('o.refunded_cents', '=', 0)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('refunds as r').select('r.id').whereRef('r.order_id', '=', 'o.id'))))
      .execute();
    const attemptIds = attempts.map((a) => a.id);
    if (attemptIds.length) {
      await trx.deleteFrom('email_outbox').where('order_id', 'in', attemptIds).execute();
      await deleteCheckoutAttempts(trx, attemptIds);
    }
    await detachOrdersOfUser(trx, me.id);
    await forgetHolderAccount(trx, me.id);
    await trx.updateTable('coupon_holds').set({ user_id: null }).where('user_id', '=', me.id).execute();
    await trx.deleteFrom('email_outbox').where('to_address', '=', me.email).where('order_id', 'is', null).execute();
    // No more offers to an address whose account is gone; the consent's record stays, without the account.
    await withdrawMarketingConsentIn(trx, { email: me.email, via: 'account', now: new Date(), forgetAccount: true });
    // Its checkout recoveries and reorder reminders: the shop's figures keep them, without the person.
    await forgetMarketingRecords(trx, { email: me.email, userId: me.id, deletedOrderIds: attemptIds });
    await deleteCountersOf(trx, me);
    await trx.deleteFrom('users').where('id', '=', me.id).execute();
    // Ids only: who deleted which account, when (the person themselves).
    await recordAudit(trx, { by: { actorId: me.id }, action: 'account.deleted', targetUserId: me.id, details: { role: me.role } });
  });
  forgetLoadedSessions();
}

/** Everything the shop holds about the person, for the "Download My Data" file. */
export async function exportAccountData(db: Kysely<Database>, userId: string, now = new Date()): Promise<AccountDataExport> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user) throw new HttpError(404, 'User not found');
  const [rewards, consent, preferences, orders, reminders] = await Promise.all([
    rewardCouponsOf(db, userId, { all: true }),
    marketingConsentOf(db, user.email),
    readEmailPreferences(db, user),
    db.selectFrom('orders').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute(),
    marketingRecordsOf(db, { email: user.email, userId }),
  ]);
  const items = orders.length
    ? await db
        .selectFrom('order_items')
        .selectAll()
        .where(
          'order_id',
          'in',
          orders.map((o) => o.id),
        )
        .orderBy('id')
        .execute()
    : [];
  const byOrder = new Map<string, Selectable<OrderItemsTable>[]>();
  for (const i of items) byOrder.set(i.order_id, [...(byOrder.get(i.order_id) ?? []), i]);
  return {
    exportedAt: now.toISOString(),
    profile: {
      id: user.id,
      email: user.email,
      fullName: user.full_name,
      phone: user.phone,
      role: user.role,
      emailVerified: Boolean(user.email_verified),
      createdAt: user.created_at,
      updatedAt: user.updated_at,
    },
    addresses: {
      shipping: parseJson<Record<string, unknown> | null>(user.shipping_address, null),
      billing: parseJson<Record<string, unknown> | null>(user.billing_address, null),
    },
    loyalty: {
      points: user.loyalty_points,
      totalEarned: user.total_points_earned,
      nextRewardAt: nextRewardAt(user.loyalty_points),
      rewards: rewards.map((r) => ({
        code: r.code,
        discountPercent: r.discount_value,
        expiresAt: r.valid_until,
        used: r.max_uses != null && r.current_uses >= r.max_uses,
      })),
    },
    orders: orders.map((o) => ({
      id: o.id,
      orderNumber: o.order_number,
      createdAt: o.created_at,
      paidAt: o.paid_at,
      status: o.status,
      paymentStatus: paymentStatusOf({ payment_status: o.payment_status, refunded_cents: Number(o.refunded_cents) }),
      paymentProvider: o.payment_provider,
      email: o.email,
      shippingAddress: parseJson<unknown>(o.shipping_address, null),
      billingAddress: parseJson<unknown>(o.billing_address, null),
      items: (byOrder.get(o.id) ?? []).map((i) => ({
        productId: i.product_id,
        variantId: i.variant_id,
        variantLabel: i.variant_label,
        name: i.product_name,
        sku: i.sku,
        size: i.size,
        color: i.color,
        quantity: i.quantity,
        priceCents: i.price_cents,
        lineTotalCents: i.price_cents * i.quantity,
        isFreeGift: Boolean(i.is_free_gift),
      })),
      subtotalCents: o.subtotal_cents,
      discountCents: o.discount_cents,
      shippingCents: o.shipping_cents,
      taxCents: o.tax_cents,
      totalCents: o.total_cents,
      refundedCents: Number(o.refunded_cents),
      couponCode: o.coupon_code,
      carrier: o.shipping_carrier,
      trackingNumber: o.shipstation_tracking_number,
      shippedAt: o.shipped_at,
    })),
    emailPreferences: {
      marketing: consent
        ? {
            status: consent.status,
            source: consent.source,
            grantedAt: consent.granted_at,
            withdrawnAt: consent.withdrawn_at,
            withdrawnVia: consent.withdrawn_via,
          }
        : null,
      unsubscribed: preferences.unsubscribed,
      reviewRequests: preferences.reviewRequests,
      ...reminders,
    },
  };
}
