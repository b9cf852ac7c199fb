import type { Kysely, Selectable } from 'kysely';
import type { Database, SubscriptionsTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { HttpError } from '../http/errors.js';
import { queueEmail } from '../email/outbox.js';
import { formatCents } from '../../shared/money.js';
import { lineTitle } from '../../shared/variants.js';
import {
  addWeeks,
  renewalDateText,
  SUBSCRIPTION_MESSAGES,
  subscriptionLineText,
  type ChangeSubscriptionInput,
} from '../../shared/subscriptions.js';
import { parseJson } from '../lib/json.js';
import { endUnpaidRenewalOrder } from './cancel.js';
import { OPEN_CYCLE, skipCycle } from './renewals.js';
import { newManageLink } from './manage-links.js';
import { plansForVariants } from './plans.js';
import { priceRenewal } from './renewal-order.js';
import { readSubscriptionSettings } from './settings.js';

/*
 * What a customer changes on their subscription themselves (issue [4/8] item 5: the reminder's
 * links to skip, change or cancel), from the account or an e-mail's link. Each runs with the
 * subscription locked first, the schedule's lock order (subscription, then its cycle, then an
 * order), so a renewal either claimed its cycle before (and this sees it) or finds the change made.
 */

type Subscription = Selectable<SubscriptionsTable>;
type Ctx = { now: Date; publicUrl: string };

async function lockRenewing(trx: Kysely<Database>, dialect: Dialect, id: string): Promise<Subscription> {
  const sub = await forUpdate(trx.selectFrom('subscriptions').selectAll().where('id', '=', id), dialect).executeTakeFirst();
  if (!sub) throw new HttpError(404, SUBSCRIPTION_MESSAGES.notFound);
  if (sub.status === 'cancelled') throw new HttpError(409, SUBSCRIPTION_MESSAGES.notRenewing);
  return sub;
}

function openCycle(trx: Kysely<Database>, subscriptionId: string) {
  return trx
    .selectFrom('subscription_cycles')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .where('status', 'in', OPEN_CYCLE)
    .orderBy('cycle', 'desc')
    .executeTakeFirst();
}

/** The date the customer's next delivery is due: its open cycle's (written three days ahead), else the subscription's next date. */
export function nextDeliveryAt(sub: Pick<Subscription, 'next_renewal_at'>, open: { due_at: string } | undefined): string {
  return open?.due_at ?? sub.next_renewal_at;
}

/**
 * Skips the next delivery: the one dated `renewalAt` (the date the page showed; a second click,
 * another tab or a stale page finds another date and skips nothing: 409). Its cycle is given up
 * (one not yet written is written as skipped, so the skip is on record), a renewal order not paid
 * is cancelled, and the subscription goes on at its next date; the customer gets the skipped
 * e-mail. A delivery being charged at this moment, or paid, cannot be skipped (409).
 */
export async function skipNextDelivery(
  db: Kysely<Database>,
  dialect: Dialect,
  subscriptionId: string,
  renewalAt: string,
  { now, publicUrl }: Ctx,
): Promise<void> {
  await transactionWithRetry(db, async (trx) => {
    const sub = await lockRenewing(trx, dialect, subscriptionId);
    let cycle = await openCycle(trx, sub.id);
    if (Date.parse(nextDeliveryAt(sub, cycle)) !== Date.parse(renewalAt)) throw new HttpError(409, SUBSCRIPTION_MESSAGES.staleDelivery);
    if (cycle?.status === 'charging') throw new HttpError(409, SUBSCRIPTION_MESSAGES.chargingNow);
    if (cycle?.order_id && (await endUnpaidRenewalOrder(trx, dialect, cycle.order_id)).paid)
      throw new HttpError(409, SUBSCRIPTION_MESSAGES.alreadyPaid);
    if (!cycle) {
      // Not written yet (more than three days ahead): written now, as the schedule would, then skipped.
      const at = now.toISOString();
      const values = {
        subscription_id: sub.id,
        cycle: sub.cycles_started + 1,
        due_at: sub.next_renewal_at,
        status: 'scheduled' as const,
        order_id: null,
        amount_cents: null,
        next_attempt_at: sub.next_renewal_at,
        lease_until: null,
        waiting_since: null,
        reminded_at: null,
        message: null,
        created_at: at,
        updated_at: at,
      };
      await trx.insertInto('subscription_cycles').values(values).execute();
      await trx.updateTable('subscriptions').set({ cycles_started: values.cycle, updated_at: at }).where('id', '=', sub.id).execute();
      cycle = await openCycle(trx, sub.id);
    }
    if (!cycle) throw new Error(`the cycle written for ${sub.id} was not found`);
    await skipCycle(trx, { publicUrl }, sub, cycle, SUBSCRIPTION_MESSAGES.skippedByCustomer, now);
  });
}

/**
 * Changes the interval (to one every item's plan offers now) and the quantities of the items. The
 * next delivery keeps its date; the new interval counts from it. A renewal already charging, or
 * waiting for payment, keeps the order it has: the change applies from the delivery after it. The
 * customer gets an e-mail with the new terms and the price of the next delivery at today's prices.
 */
export async function changeSubscription(
  db: Kysely<Database>,
  dialect: Dialect,
  subscriptionId: string,
  change: ChangeSubscriptionInput,
  { now, publicUrl }: Ctx,
): Promise<void> {
  await transactionWithRetry(db, async (trx) => {
    const sub = await lockRenewing(trx, dialect, subscriptionId);
    const items = await trx
      .selectFrom('subscription_items')
      .select(['product_id', 'variant_id', 'quantity'])
      .where('subscription_id', '=', sub.id)
      .execute();
    for (const c of change.items ?? [])
      if (!items.some((i) => i.variant_id === c.variantId)) throw new HttpError(400, SUBSCRIPTION_MESSAGES.itemUnknown);
    const everyWeeks = change.everyWeeks ?? sub.every_weeks;
    if (everyWeeks !== sub.every_weeks) {
      const plans = await plansForVariants(
        trx,
        items.map((i) => ({ productId: i.product_id, variantId: i.variant_id })),
      );
      const all = items.map((i) => plans.get(i.variant_id));
      if (all.some((p) => !p?.enabled)) throw new HttpError(409, SUBSCRIPTION_MESSAGES.planOff);
      if (all.some((p) => !p?.intervals.includes(everyWeeks))) throw new HttpError(400, SUBSCRIPTION_MESSAGES.intervalNotOffered);
    }
    const at = now.toISOString();
    if (everyWeeks !== sub.every_weeks)
      await trx.updateTable('subscriptions').set({ every_weeks: everyWeeks, updated_at: at }).where('id', '=', sub.id).execute();
    for (const c of change.items ?? [])
      await trx
        .updateTable('subscription_items')
        .set({ quantity: c.quantity })
        .where('subscription_id', '=', sub.id)
        .where('variant_id', '=', c.variantId)
        .execute();
    const changed = { ...sub, every_weeks: everyWeeks };
    const cycle = await openCycle(trx, sub.id);
    // The delivery the change first applies to: the next one, unless its order is already made.
    const from = cycle?.order_id ? addWeeks(cycle.due_at, everyWeeks) : nextDeliveryAt(sub, cycle);
    const priced = await priceRenewal(trx, changed, await readSubscriptionSettings(trx));
    await queueEmail(trx, {
      to: sub.email,
      templateId: 'subscription-changed',
      variables: {
        customerName: parseJson<{ name?: string } | null>(sub.shipping_address, null)?.name?.trim() || 'there',
        terms: subscriptionLineText(everyWeeks, sub.discount_percent),
        appliesFrom: renewalDateText(from),
        items: priced.lines.map((l) => ({
          name: lineTitle(l.productName, l.variantLabel),
          quantity: l.quantity,
          terms: subscriptionLineText(everyWeeks, sub.discount_percent),
          lineTotal: formatCents(l.priceCents * l.quantity),
        })),
        total: formatCents(priced.money.totalCents),
        manageUrl: await newManageLink(trx, sub.id, now, publicUrl),
      },
    });
  });
}
