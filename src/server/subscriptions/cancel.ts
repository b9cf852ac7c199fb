import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { HttpError } from '../http/errors.js';
import { queueEmail } from '../email/outbox.js';
import { endOpenSession } from '../orders/end-open-session.js';
import { expireUnpaidOrder } from '../orders/checkout-state.js';
import { lineTitle } from '../../shared/variants.js';
import { renewalDateText, SUBSCRIPTION_MESSAGES, subscriptionLineText } from '../../shared/subscriptions.js';
import { parseJson } from '../lib/json.js';
import { recordSubscriptionEvent } from './events.js';
import { SYSTEM_ACTOR, type OrderEventActor } from '../lib/actors.js';
import { recordAudit, type AuditBy } from '../audit/audit.js';

/** The longest cancellation reason kept. */
export const CANCEL_REASON_MAX = 500;

/**
 * Ends a renewal's order that is not paid (cancelled, its card session ended, so a charge already
 * on its way is refused at fulfilment and given back); says whether it was paid, and so stands.
 * Called with the subscription locked (cancel, skip).
 */
export async function endUnpaidRenewalOrder(trx: Kysely<Database>, dialect: Dialect, orderId: string): Promise<{ paid: boolean }> {
  const order = await forUpdate(
    trx.selectFrom('orders').select(['id', 'payment_status', 'payment_session_id']).where('id', '=', orderId),
    dialect,
  ).executeTakeFirst();
  if (!order) return { paid: false };
  if (order.payment_status === 'paid' || order.payment_status === 'refunded') return { paid: true };
  if (order.payment_status !== 'unpaid') return { paid: false };
  if (order.payment_session_id) await endOpenSession(trx, dialect, order.id, order.payment_session_id, 'cancelled');
  await expireUnpaidOrder(trx, order.id, 'cancelled');
  return { paid: false };
}

/**
 * Cancels a subscription at once (issue [4/8] item 6): the subscription locked first (the
 * schedule's lock order), so a renewal either claimed its cycle before (and this waits for that
 * transaction) or finds it cancelled. Every open cycle ends; an unpaid renewal order is cancelled
 * and its session ended, so a charge already on its way is refused at fulfilment and given back
 * (checkout's stray payments): nothing is charged after the cancellation, even a renewal due in
 * the same minute. The customer gets the cancellation e-mail unless `email` is false (the owner
 * cancelling for a customer who asked not to be written to). 409 when already cancelled.
 */
export async function cancelSubscription(
  db: Kysely<Database>,
  dialect: Dialect,
  subscriptionId: string,
  {
    reason,
    now,
    email = true,
    audit,
    actor = SYSTEM_ACTOR,
  }: {
    reason: string | null;
    now: Date;
    email?: boolean;
    audit?: { by: AuditBy; details: Record<string, unknown> };
    actor?: OrderEventActor;
  },
): Promise<{ cancelledAt: string }> {
  return transactionWithRetry(db, async (trx) => {
    const sub = await forUpdate(trx.selectFrom('subscriptions').selectAll().where('id', '=', subscriptionId), dialect).executeTakeFirst();
    if (!sub) throw new HttpError(404, SUBSCRIPTION_MESSAGES.notFound);
    if (sub.status === 'cancelled') throw new HttpError(409, SUBSCRIPTION_MESSAGES.alreadyCancelled);
    const at = now.toISOString();
    await trx
      .updateTable('subscriptions')
      .set({ status: 'cancelled', cancelled_at: at, cancel_reason: reason?.trim() || null, updated_at: at })
      .where('id', '=', sub.id)
      .execute();
    const open = await trx
      .selectFrom('subscription_cycles')
      .select(['cycle', 'order_id'])
      .where('subscription_id', '=', sub.id)
      .where('status', 'in', ['scheduled', 'charging', 'retrying', 'needs_customer', 'waiting_stock'])
      .execute();
    for (const c of open) {
      if (c.order_id) await endUnpaidRenewalOrder(trx, dialect, c.order_id);
      await trx
        .updateTable('subscription_cycles')
        .set({ status: 'cancelled', lease_until: null, message: 'Subscription cancelled', updated_at: at })
        .where('subscription_id', '=', sub.id)
        .where('cycle', '=', c.cycle)
        .execute();
    }
    await recordSubscriptionEvent(trx, sub.id, 'cancelled', actor, { reason: reason?.trim() || null, emailed: email }, now);
    // The owner's cancel is audited with it (a customer's own is on the subscription itself).
    if (audit)
      await recordAudit(trx, {
        by: audit.by,
        action: 'subscription.cancelled',
        targetUserId: sub.user_id,
        details: audit.details,
        at: now,
      });
    if (!email) return { cancelledAt: at };
    const items = await trx
      .selectFrom('subscription_items as i')
      .leftJoin('product_variants as v', 'v.id', 'i.variant_id')
      .leftJoin('products as p', 'p.id', 'i.product_id')
      .select(['p.name', 'i.quantity', 'v.option1', 'v.option2', 'v.option3'])
      .where('i.subscription_id', '=', sub.id)
      .execute();
    const name = parseJson<{ name?: string } | null>(sub.shipping_address, null)?.name?.trim() || 'there';
    await queueEmail(trx, {
      to: sub.email,
      templateId: 'subscription-cancelled',
      variables: {
        customerName: name,
        cancelledAt: renewalDateText(at),
        items: items.map((i) => ({
          name: lineTitle(i.name ?? 'A product no longer sold', [i.option1, i.option2, i.option3].filter(Boolean).join(', ')),
          quantity: i.quantity,
          terms: subscriptionLineText(sub.every_weeks, sub.discount_percent),
          lineTotal: '',
        })),
      },
    });
    return { cancelledAt: at };
  });
}
