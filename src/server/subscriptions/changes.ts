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
  isChoosableDay,
  onDay,
  renewalDateText,
  SUBSCRIPTION_MESSAGES,
  subscriptionLineText,
  type ChangeSubscriptionInput,
  type DeliveryOutcome,
} from '../../shared/subscriptions.js';
import { parseJson } from '../lib/json.js';
import { endUnpaidRenewalOrder } from './cancel.js';
import { OPEN_CYCLE, renewCycle, skipCycle, type RenewalDeps } from './renewals.js';
import { newManageLink } from './manage-links.js';
import { plansForVariants } from './plans.js';
import { priceRenewal } from './renewal-order.js';
import { readSubscriptionSettings } from './settings.js';
import { recordSubscriptionEvent } from './events.js';
import { agreeToTodaysPrices } from './price-notices.js';
import { SYSTEM_ACTOR, type OrderEventActor } from '../lib/actors.js';

/*
 * What a customer changes on their subscription themselves (issue [4/8] item 5: the reminder's
 * links to skip, change or cancel), from the account or an e-mail's link. Each runs with the
 * subscription locked first, the schedule's lock order (subscription, then its cycle, then an
 * order), so a renewal either claimed its cycle before (and this sees it) or finds the change made.
 */

type Subscription = Selectable<SubscriptionsTable>;
/**
 * When, the links' base, and who acts (the customer, a link, the owner): written on the timeline.
 * The owner acting from the back office may keep the customer's e-mail back (`notify: false`) and
 * has each action audited by `during`, run inside the action's own transaction once the
 * subscription is locked and the action allowed.
 */
export type Ctx = {
  now: Date;
  publicUrl: string;
  actor?: OrderEventActor;
  notify?: boolean;
  during?: (trx: Kysely<Database>, sub: { id: string; user_id: string }) => Promise<void>;
};

/** An action's last steps in its transaction: the owner's audit row (when the back office acts). */
export async function afterAction(trx: Kysely<Database>, sub: { id: string; user_id: string }, ctx: Ctx): Promise<void> {
  await ctx.during?.(trx, sub);
}

export async function lockRenewing(trx: Kysely<Database>, dialect: Dialect, id: string): Promise<Subscription> {
  const sub = await forUpdate(trx.selectFrom('subscriptions').selectAll().where('id', '=', id), dialect).executeTakeFirst();
  if (!sub) throw new HttpError(404, SUBSCRIPTION_MESSAGES.notFound);
  if (sub.status === 'cancelled') throw new HttpError(409, SUBSCRIPTION_MESSAGES.notRenewing);
  return sub;
}

export function openCycle(trx: Kysely<Database>, subscriptionId: string) {
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
  ctx: Ctx,
): Promise<void> {
  const { now, publicUrl, actor } = ctx;
  await transactionWithRetry(db, async (trx) => {
    const sub = await lockRenewing(trx, dialect, subscriptionId);
    if (sub.status === 'paused') throw new HttpError(409, SUBSCRIPTION_MESSAGES.pausedNoSkip);
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
    await skipCycle(
      trx,
      { publicUrl },
      sub,
      cycle,
      SUBSCRIPTION_MESSAGES.skippedByCustomer,
      now,
      actor ?? SYSTEM_ACTOR,
      ctx.notify !== false,
    );
    await afterAction(trx, sub, ctx);
  });
}

/**
 * Lets go of the open cycle before the next delivery moves (a new day, a pause): one not yet
 * charged ends with `status` (its row stays on record), an unpaid order of a failed charge is
 * cancelled with its session; one being charged now, or paid, stays, and the caller is refused.
 */
async function releaseOpenCycle(
  trx: Kysely<Database>,
  dialect: Dialect,
  sub: Subscription,
  end: { status: 'cancelled' | 'skipped'; message: string },
  now: Date,
): Promise<void> {
  const cycle = await openCycle(trx, sub.id);
  if (!cycle) return;
  if (cycle.status === 'charging') throw new HttpError(409, SUBSCRIPTION_MESSAGES.chargingNow);
  if (cycle.order_id && (await endUnpaidRenewalOrder(trx, dialect, cycle.order_id)).paid)
    throw new HttpError(409, SUBSCRIPTION_MESSAGES.alreadyPaid);
  await trx
    .updateTable('subscription_cycles')
    .set({ status: end.status, lease_until: null, message: end.message, updated_at: now.toISOString() })
    .where('subscription_id', '=', sub.id)
    .where('cycle', '=', cycle.cycle)
    .execute();
}

export function chosenDay(day: string, now: Date): string {
  if (!isChoosableDay(day, now)) throw new HttpError(400, SUBSCRIPTION_MESSAGES.dateRange);
  return day;
}

const customerName = (sub: Subscription) => parseJson<{ name?: string } | null>(sub.shipping_address, null)?.name?.trim() || 'there';

/** The "changed" e-mail: the terms from the delivery of `from`, its items and total at today's prices. */
export async function queueChangedEmail(
  trx: Kysely<Database>,
  sub: Subscription,
  from: string,
  { now, publicUrl, notify }: Ctx,
): Promise<void> {
  if (notify === false) return;
  const priced = await priceRenewal(trx, sub, await readSubscriptionSettings(trx));
  const terms = subscriptionLineText(sub.every_weeks, sub.discount_percent);
  await queueEmail(trx, {
    to: sub.email,
    templateId: 'subscription-changed',
    variables: {
      customerName: customerName(sub),
      terms,
      appliesFrom: renewalDateText(from),
      items: priced.lines.map((l) => ({
        name: lineTitle(l.productName, l.variantLabel),
        quantity: l.quantity,
        terms,
        lineTotal: formatCents(l.priceCents * l.quantity),
      })),
      total: formatCents(priced.money.totalCents),
      manageUrl: await newManageLink(trx, sub.id, now, publicUrl),
    },
  });
}

/**
 * Changes the interval (to one every item's plan offers now), the quantities of the items, an
 * item's version (another switched-on variant of the same product whose plan offers the interval:
 * the scent or the size), and the day of the next delivery. Without a new day the next delivery keeps its date; the interval counts
 * from it. A new day lets go of a cycle already written (its reminder named the old date) and the
 * schedule writes the new one three days before it. A renewal already charging, or waiting for
 * payment, keeps the order it has: a change of interval or quantity applies from the delivery after
 * it. The customer gets an e-mail with the new terms and the next delivery's total at today's prices.
 */
export async function changeSubscription(
  db: Kysely<Database>,
  dialect: Dialect,
  subscriptionId: string,
  change: ChangeSubscriptionInput,
  ctx: Ctx,
): Promise<void> {
  const { now } = ctx;
  await transactionWithRetry(db, async (trx) => {
    const sub = await lockRenewing(trx, dialect, subscriptionId);
    const items = await trx
      .selectFrom('subscription_items')
      .select(['product_id', 'variant_id', 'quantity'])
      .where('subscription_id', '=', sub.id)
      .execute();
    for (const c of change.items ?? [])
      if (!items.some((i) => i.variant_id === c.variantId)) throw new HttpError(400, SUBSCRIPTION_MESSAGES.itemUnknown);
    const swaps = (change.items ?? []).filter((c) => c.swapTo && c.swapTo !== c.variantId);
    const day = change.nextDeliveryOn === undefined ? null : chosenDay(change.nextDeliveryOn, now);
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
    if (swaps.length) {
      // Another version of the same product, switched on, whose plan offers this interval; never one already in it.
      const targets = await trx
        .selectFrom('product_variants')
        .select(['id', 'product_id', 'enabled'])
        .where(
          'id',
          'in',
          swaps.map((c) => c.swapTo!),
        )
        .execute();
      const plans = await plansForVariants(
        trx,
        targets.map((v) => ({ productId: v.product_id, variantId: v.id })),
      );
      const after = items.map((i) => swaps.find((c) => c.variantId === i.variant_id)?.swapTo ?? i.variant_id);
      for (const c of swaps) {
        const from = items.find((i) => i.variant_id === c.variantId)!;
        const to = targets.find((v) => v.id === c.swapTo);
        if (!to || to.product_id !== from.product_id || to.enabled !== 1) throw new HttpError(400, SUBSCRIPTION_MESSAGES.swapUnknown);
        if (after.filter((v) => v === c.swapTo).length > 1) throw new HttpError(400, SUBSCRIPTION_MESSAGES.swapDuplicate);
        const plan = plans.get(to.id);
        if (!plan?.enabled) throw new HttpError(409, SUBSCRIPTION_MESSAGES.planOff);
        if (!plan.intervals.includes(everyWeeks)) throw new HttpError(400, SUBSCRIPTION_MESSAGES.intervalNotOffered);
      }
    }
    const at = now.toISOString();
    const nextAt = day ? onDay(day, sub.next_renewal_at) : sub.next_renewal_at;
    if (day && nextAt !== nextDeliveryAt(sub, await openCycle(trx, sub.id)))
      await releaseOpenCycle(
        trx,
        dialect,
        sub,
        { status: 'cancelled', message: `Moved to ${renewalDateText(nextAt)} by the customer` },
        now,
      );
    await trx
      .updateTable('subscriptions')
      .set({ every_weeks: everyWeeks, next_renewal_at: nextAt, updated_at: at })
      .where('id', '=', sub.id)
      .execute();
    // Quantities first, then swaps to a temporary name and on (two items trading versions never collide).
    for (const c of change.items ?? [])
      await trx
        .updateTable('subscription_items')
        .set({ quantity: c.quantity })
        .where('subscription_id', '=', sub.id)
        .where('variant_id', '=', c.variantId)
        .execute();
    for (const c of swaps)
      await trx
        .updateTable('subscription_items')
        .set({ variant_id: `swap:${c.swapTo}` })
        .where('subscription_id', '=', sub.id)
        .where('variant_id', '=', c.variantId)
        .execute();
    for (const c of swaps)
      await trx
        .updateTable('subscription_items')
        .set({ variant_id: c.swapTo! })
        .where('subscription_id', '=', sub.id)
        .where('variant_id', '=', `swap:${c.swapTo}`)
        .execute();
    // A version swapped in renews at today's price, which the "changed" e-mail below states (decision 0058, "Price changes").
    await agreeToTodaysPrices(
      trx,
      sub.id,
      swaps.map((c) => c.swapTo!),
      now,
    );
    const changed = { ...sub, every_weeks: everyWeeks, next_renewal_at: nextAt };
    await recordSubscriptionEvent(
      trx,
      sub.id,
      'changed',
      ctx.actor,
      {
        ...(everyWeeks !== sub.every_weeks ? { everyWeeks: { from: sub.every_weeks, to: everyWeeks } } : {}),
        ...(nextAt !== sub.next_renewal_at ? { nextDelivery: { from: sub.next_renewal_at, to: nextAt } } : {}),
        items: (change.items ?? []).flatMap((c) => {
          const before = items.find((i) => i.variant_id === c.variantId)!;
          const swapped = c.swapTo && c.swapTo !== c.variantId ? { swapTo: c.swapTo } : {};
          return before.quantity !== c.quantity || 'swapTo' in swapped
            ? [{ variantId: c.variantId, quantity: { from: before.quantity, to: c.quantity }, ...swapped }]
            : [];
        }),
      },
      now,
    );
    const cycle = await openCycle(trx, sub.id);
    // The delivery the change first applies to: the next one, unless its order is already made.
    const from = cycle?.order_id ? addWeeks(cycle.due_at, everyWeeks) : nextDeliveryAt(changed, cycle);
    await queueChangedEmail(trx, changed, from, ctx);
    await afterAction(trx, sub, ctx);
  });
}

/**
 * Pauses deliveries until a day (from tomorrow to a year on): the next delivery not yet charged is
 * let go (an unpaid order of a failed charge is cancelled), and the subscription's next date becomes
 * that day, when the schedule wakes it (reminder three days before, as ever). The customer gets the
 * paused e-mail. 409 when already paused, cancelled, or its delivery is being charged now.
 */
export async function pauseSubscription(
  db: Kysely<Database>,
  dialect: Dialect,
  subscriptionId: string,
  until: string,
  ctx: Ctx,
): Promise<void> {
  const { now, publicUrl } = ctx;
  await transactionWithRetry(db, async (trx) => {
    const sub = await lockRenewing(trx, dialect, subscriptionId);
    if (sub.status === 'paused') throw new HttpError(409, SUBSCRIPTION_MESSAGES.alreadyPaused);
    const resumeAt = onDay(chosenDay(until, now), sub.next_renewal_at);
    await releaseOpenCycle(trx, dialect, sub, { status: 'skipped', message: 'Paused by the customer' }, now);
    await trx
      .updateTable('subscriptions')
      .set({ status: 'paused', next_renewal_at: resumeAt, updated_at: now.toISOString() })
      .where('id', '=', sub.id)
      .execute();
    await recordSubscriptionEvent(trx, sub.id, 'paused', ctx.actor, { until: resumeAt }, now);
    await afterAction(trx, sub, ctx);
    if (ctx.notify === false) return;
    await queueEmail(trx, {
      to: sub.email,
      templateId: 'subscription-paused',
      variables: {
        customerName: customerName(sub),
        terms: subscriptionLineText(sub.every_weeks, sub.discount_percent),
        resumeDate: renewalDateText(resumeAt),
        manageUrl: await newManageLink(trx, sub.id, now, publicUrl),
      },
    });
  });
}

/** Resumes a paused subscription at once: its next delivery on the day chosen; the customer gets the changed e-mail. 409 when not paused. */
export async function resumeSubscription(
  db: Kysely<Database>,
  dialect: Dialect,
  subscriptionId: string,
  nextDeliveryOn: string,
  ctx: Ctx,
): Promise<void> {
  await transactionWithRetry(db, async (trx) => {
    const sub = await lockRenewing(trx, dialect, subscriptionId);
    if (sub.status !== 'paused') throw new HttpError(409, SUBSCRIPTION_MESSAGES.notPaused);
    const nextAt = onDay(chosenDay(nextDeliveryOn, ctx.now), sub.next_renewal_at);
    await trx
      .updateTable('subscriptions')
      .set({ status: 'active', next_renewal_at: nextAt, updated_at: ctx.now.toISOString() })
      .where('id', '=', sub.id)
      .execute();
    await recordSubscriptionEvent(trx, sub.id, 'resumed', ctx.actor, { nextDelivery: nextAt }, ctx.now);
    await queueChangedEmail(trx, { ...sub, status: 'active', next_renewal_at: nextAt }, nextAt, ctx);
    await afterAction(trx, sub, ctx);
  });
}

/**
 * "Deliver now" ("I'm running low"): the next delivery is brought forward to this moment, under the
 * subscription's lock (a cycle already written but not ordered is moved, else one is written), and
 * then renewed by the schedule's own path (`renewCycle`: today's price less the discount, stock,
 * the charge with its key, the order's e-mails); the rhythm counts from today. A delivery already
 * ordered or due now is not doubled, nor is one asked for twice (`renewalAt`, the next date the
 * page showed, as for skip): 409. Answers the cycle as it ended (paid, waiting for stock,
 * waiting for the card) with its order.
 */
export async function deliverNow(deps: RenewalDeps, subscriptionId: string, renewalAt: string, ctx: Ctx): Promise<DeliveryOutcome> {
  const { now } = ctx;
  const at = now.toISOString();
  const cycleNo = await transactionWithRetry(deps.db, async (trx) => {
    const sub = await lockRenewing(trx, deps.dialect, subscriptionId);
    if (sub.status === 'paused') throw new HttpError(409, SUBSCRIPTION_MESSAGES.pausedNoDeliver);
    const open = await openCycle(trx, sub.id);
    if (Date.parse(nextDeliveryAt(sub, open)) !== Date.parse(renewalAt)) throw new HttpError(409, SUBSCRIPTION_MESSAGES.staleDeliverNow);
    if (open && (open.order_id || open.status === 'charging' || open.due_at <= at))
      throw new HttpError(409, SUBSCRIPTION_MESSAGES.deliveryUnderWay);
    let cycle = open?.cycle;
    if (cycle !== undefined) {
      await trx
        .updateTable('subscription_cycles')
        .set({ due_at: at, next_attempt_at: at, updated_at: at })
        .where('subscription_id', '=', sub.id)
        .where('cycle', '=', cycle)
        .execute();
    } else {
      cycle = sub.cycles_started + 1;
      await trx
        .insertInto('subscription_cycles')
        .values({
          subscription_id: sub.id,
          cycle,
          due_at: at,
          status: 'scheduled',
          order_id: null,
          amount_cents: null,
          next_attempt_at: at,
          lease_until: null,
          waiting_since: null,
          reminded_at: null,
          message: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    await trx
      .updateTable('subscriptions')
      .set({ cycles_started: Math.max(sub.cycles_started, cycle), next_renewal_at: at, updated_at: at })
      .where('id', '=', sub.id)
      .execute();
    await recordSubscriptionEvent(trx, sub.id, 'delivered_now', ctx.actor, { cycle, wasDue: nextDeliveryAt(sub, open) }, now);
    await afterAction(trx, sub, ctx);
    return cycle;
  });
  // The customer waits for it: the subscription's lock is waited for (a schedule skips a locked one).
  await renewCycle(deps, subscriptionId, cycleNo, now, { waitForLock: true });
  const ended = await deps.db
    .selectFrom('subscription_cycles as c')
    .leftJoin('orders as o', 'o.id', 'c.order_id')
    .select(['c.status', 'c.order_id', 'c.message', 'o.order_number'])
    .where('c.subscription_id', '=', subscriptionId)
    .where('c.cycle', '=', cycleNo)
    .executeTakeFirstOrThrow();
  return { status: ended.status, orderId: ended.order_id, orderNumber: ended.order_number ?? null, message: ended.message };
}

/** The address e-mail: where each subscription it changed now ships, from its next delivery not yet ordered. */
async function queueAddressEmail(
  trx: Kysely<Database>,
  id: string,
  address: Record<string, string>,
  { now, publicUrl }: Ctx,
): Promise<void> {
  const sub = await trx.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const cycle = await openCycle(trx, id);
  const from = cycle?.order_id ? addWeeks(cycle.due_at, sub.every_weeks) : nextDeliveryAt(sub, cycle);
  await queueEmail(trx, {
    to: sub.email,
    templateId: 'subscription-address-changed',
    variables: {
      customerName: customerName(sub),
      terms: subscriptionLineText(sub.every_weeks, sub.discount_percent),
      address: [address.name, address.address, address.city, `${address.state ?? ''} ${address.zip ?? ''}`.trim()]
        .filter(Boolean)
        .join(', '),
      city: address.city ?? '',
      appliesFrom: renewalDateText(from),
      manageUrl: await newManageLink(trx, id, now, publicUrl),
    },
  });
}

/**
 * "Ships to": a new address from the next delivery not yet ordered on (an order already made keeps
 * its own). `everywhere`: every subscription of this customer that still renews, and the account's
 * saved shipping address, in the same transaction (subscriptions locked in id order, the one lock
 * order). The checkout's record keeps its other fields (the e-mail).
 */
export async function changeAddress(
  db: Kysely<Database>,
  dialect: Dialect,
  subscriptionId: string,
  { address, everywhere }: { address: Record<string, string>; everywhere: boolean },
  ctx: Ctx,
): Promise<void> {
  const { now, actor } = ctx;
  await transactionWithRetry(db, async (trx) => {
    const sub = await lockRenewing(trx, dialect, subscriptionId);
    await afterAction(trx, sub, ctx);
    const ids = everywhere
      ? (
          await forUpdate(
            trx
              .selectFrom('subscriptions')
              .select(['id', 'shipping_address'])
              .where('user_id', '=', sub.user_id)
              .where('status', '!=', 'cancelled')
              .orderBy('id'),
            dialect,
          ).execute()
        ).map((r) => r.id)
      : [sub.id];
    const at = now.toISOString();
    for (const id of ids) {
      const row = await trx.selectFrom('subscriptions').select('shipping_address').where('id', '=', id).executeTakeFirstOrThrow();
      const kept = parseJson<Record<string, unknown> | null>(row.shipping_address, null) ?? {};
      await trx
        .updateTable('subscriptions')
        .set({ shipping_address: JSON.stringify({ ...kept, ...address }), updated_at: at })
        .where('id', '=', id)
        .execute();
      await recordSubscriptionEvent(trx, id, 'address.changed', actor, { everywhere, city: address.city ?? null }, now);
      if (ctx.notify !== false) await queueAddressEmail(trx, id, address, ctx);
    }
    if (everywhere)
      await trx
        .updateTable('users')
        .set({ shipping_address: JSON.stringify(address), updated_at: at })
        .where('id', '=', sub.user_id)
        .execute();
  });
}
