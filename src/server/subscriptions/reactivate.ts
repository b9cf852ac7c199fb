import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { HttpError } from '../http/errors.js';
import { queueEmail } from '../email/outbox.js';
import { formatCents } from '../../shared/money.js';
import { parseJson } from '../lib/json.js';
import {
  onDay,
  reactivationTermsText,
  renewalDateText,
  subscriptionLineText,
  SUBSCRIPTION_MESSAGES,
  type ReactivateSubscriptionInput,
} from '../../shared/subscriptions.js';
import { afterAction, chosenDay, type Ctx } from './changes.js';
import { subscriptionViews } from './customer-subscriptions.js';
import { recordSubscriptionEvent } from './events.js';
import { newManageLink } from './manage-links.js';
import { plansForVariants } from './plans.js';

/**
 * Reactivates a cancelled subscription (issue [5/8]): the customer agrees to its terms again (the
 * text is drawn here from the subscription as it now stands, the same sentences the page showed
 * next to the box, and kept on its timeline beside the first consent, which stays on the row), and
 * it renews again from the day chosen, with its items, interval, discount, address and card. 409
 * when it still renews, when a plan no longer offers its interval, or when no card is on file.
 * The cancellation stays on record (its date and reason, and the timeline's event).
 */
export async function reactivateSubscription(
  db: Kysely<Database>,
  dialect: Dialect,
  subscriptionId: string,
  input: ReactivateSubscriptionInput,
  ctx: Ctx,
): Promise<void> {
  const { now, publicUrl, actor } = ctx;
  await transactionWithRetry(db, async (trx) => {
    const sub = await forUpdate(trx.selectFrom('subscriptions').selectAll().where('id', '=', subscriptionId), dialect).executeTakeFirst();
    if (!sub) throw new HttpError(404, SUBSCRIPTION_MESSAGES.notFound);
    if (sub.status !== 'cancelled') throw new HttpError(409, SUBSCRIPTION_MESSAGES.notCancelled);
    if (!sub.payment_method_ref) throw new HttpError(409, SUBSCRIPTION_MESSAGES.reactivateNoCard);
    const items = await trx
      .selectFrom('subscription_items')
      .select(['product_id', 'variant_id'])
      .where('subscription_id', '=', sub.id)
      .execute();
    const plans = await plansForVariants(
      trx,
      items.map((i) => ({ productId: i.product_id, variantId: i.variant_id })),
    );
    if (items.length === 0 || items.some((i) => !plans.get(i.variant_id)?.enabled)) throw new HttpError(409, SUBSCRIPTION_MESSAGES.planOff);
    if (items.some((i) => !plans.get(i.variant_id)?.intervals.includes(sub.every_weeks)))
      throw new HttpError(409, SUBSCRIPTION_MESSAGES.intervalNotOffered);
    const nextAt = onDay(chosenDay(input.nextDeliveryOn, now), sub.next_renewal_at);
    const at = now.toISOString();
    await trx
      .updateTable('subscriptions')
      .set({ status: 'active', next_renewal_at: nextAt, failing_since: null, updated_at: at })
      .where('id', '=', sub.id)
      .execute();
    const [view] = await subscriptionViews(trx, { id: sub.id });
    if (!view) throw new Error(`subscription ${sub.id} vanished in its own transaction`);
    const planned = view.items.filter((i) => !i.skipNext);
    const consentText = reactivationTermsText({
      items: planned,
      discountPercent: sub.discount_percent,
      everyWeeks: sub.every_weeks,
      firstDeliveryAt: nextAt,
      card: view.card,
    });
    await recordSubscriptionEvent(trx, sub.id, 'reactivated', actor, { nextDelivery: nextAt, consentText, consentAt: at }, now);
    await afterAction(trx, sub, ctx);
    if (ctx.notify === false) return;
    const terms = subscriptionLineText(sub.every_weeks, sub.discount_percent);
    await queueEmail(trx, {
      to: sub.email,
      templateId: 'subscription-reactivated',
      variables: {
        customerName: parseJson<{ name?: string } | null>(sub.shipping_address, null)?.name?.trim() || 'there',
        terms,
        deliveryDate: renewalDateText(nextAt),
        items: planned.map((i) => ({
          name: i.name,
          quantity: i.quantity,
          terms,
          lineTotal: i.unitPriceCents === null ? '' : formatCents(i.unitPriceCents * i.quantity),
        })),
        total: view.nextDeliveryTotalCents === null ? '' : formatCents(view.nextDeliveryTotalCents),
        consentText,
        manageUrl: await newManageLink(trx, sub.id, now, publicUrl),
      },
    });
  });
}
