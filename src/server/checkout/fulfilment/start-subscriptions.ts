import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ProviderPayment } from '../../payments/provider.js';
import type { ConfirmationSubscriptions } from '../../email/order-email-variables.js';
import { accountForSubscriber } from '../../accounts/subscriber-accounts.js';
import { giveOrderToAccount } from '../../orders/customer-orders.js';
import { startSubscriptions } from '../../subscriptions/start.js';
import { parseJson } from '../../lib/json.js';
import { subscriptionLineText } from '../../../shared/subscription-words.js';
import type { LockedOrderRows } from './lock-order-rows.js';

/**
 * The subscriptions a paid checkout starts (issue [4/8]), a step of the payment's transaction:
 * only for a checkout's order with subscription lines (a renewal's order, paid on a page when the
 * bank wanted the customer, starts nothing). A guest gets an account for the order's e-mail, made
 * here without a password, and the order joins it (the subscription is the account's). Answers what
 * the confirmation e-mail says of them (the terms kept with the consent, each one's manage link),
 * and the rows with the order's new owner; null when nothing started.
 */
export async function startOrderSubscriptions(
  trx: Kysely<Database>,
  rows: LockedOrderRows,
  ctx: { payment: ProviderPayment | null; now: Date; publicUrl: string },
): Promise<{ rows: LockedOrderRows; confirmation: ConfirmationSubscriptions } | null> {
  const { order, session } = rows;
  if (order.origin !== 'checkout' || !order.email || !rows.items.some((i) => i.every_weeks !== null && !i.is_free_gift)) return null;
  let userId = order.user_id && order.user_id !== 'guest' ? order.user_id : null;
  let accountMadeFor: string | null = null;
  if (!userId) {
    const name = parseJson<{ name?: string } | null>(order.shipping_address, null)?.name ?? '';
    const account = await accountForSubscriber(trx, { email: order.email, fullName: name, now: ctx.now });
    userId = account.userId;
    if (account.created) accountMadeFor = order.email;
    await giveOrderToAccount(trx, order.id, userId);
  }
  const started = await startSubscriptions(trx, {
    orderId: order.id,
    userId,
    email: order.email,
    shippingAddress: order.shipping_address ?? '{}',
    shippingOptionId: order.shipping_option_id,
    provider: session.provider,
    payment: ctx.payment,
    now: ctx.now,
    publicUrl: ctx.publicUrl,
  });
  if (started.length === 0) return null;
  return {
    rows: { ...rows, order: { ...order, user_id: userId } },
    confirmation: {
      termsText: started[0]!.consentText,
      links: started.map((s) => ({ label: subscriptionLineText(s.everyWeeks, s.discountPercent), url: s.manageUrl })),
      accountMadeFor,
    },
  };
}
