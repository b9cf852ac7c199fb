import type { Kysely, Selectable } from 'kysely';
import type { Database, SubscriptionCycleStatus, SubscriptionCyclesTable, SubscriptionsTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { isPostgres } from '../db/query-helpers.js';
import { queueEmail } from '../email/outbox.js';
import { adminOrderUrl, shopAddressFor } from '../email/shop-notifications.js';
import { endOpenSession } from '../orders/end-open-session.js';
import { expireUnpaidOrder, pointOrderAtSession } from '../orders/checkout-state.js';
import { emailOnTimeline, recordOrderEvent, SYSTEM_ACTOR, type OrderEventActor } from '../orders/events.js';
import { recordSubscriptionEvent } from './events.js';
import { sendPaymentLink } from '../orders/owner-payments.js';
import { openPaymentSessionWrite } from '../payments/sessions.js';
import { PAYMENT_SESSION_TTL_MS } from '../payments/session-times.js';
import {
  canChargeOffSession,
  PaymentProviderError,
  type OffSessionOutcome,
  type PaymentOutcomes,
  type PaymentProviders,
} from '../payments/provider.js';
import { formatCents } from '../../shared/money.js';
import { lineTitle } from '../../shared/variants.js';
import { addWeeks, RENEWAL_RETRY_DAYS, renewalDateText, SUBSCRIPTION_LIMITS, subscriptionLineText } from '../../shared/subscriptions.js';
import { parseJson } from '../lib/json.js';
import { createRenewalOrder, newRenewalSessionId, priceRenewal } from './renewal-order.js';
import { newManageLink } from './manage-links.js';
import { readSubscriptionSettings } from './settings.js';

type Subscription = Selectable<SubscriptionsTable>;
type Cycle = Selectable<SubscriptionCyclesTable>;
type Log = { warn: (o: object, msg: string) => void; error: (o: object, msg: string) => void; info?: (o: object, msg: string) => void };

/** What the schedule needs of the app: its database, providers, the fulfilment of a payment, its address. */
export type RenewalDeps = {
  db: Kysely<Database>;
  dialect: Dialect;
  payments: PaymentProviders;
  outcomes: PaymentOutcomes;
  publicUrl: string;
  log: Log;
};

const DAY_MS = 86_400_000;
/** A process charging a cycle holds it this long; past it (the process died mid-charge) another takes it up with the same key. */
export const RENEWAL_LEASE_MS = 2 * 60_000;
/** A renewal waiting for stock looks again this often (and at once when its variant is restocked: the next turn). */
export const STOCK_RECHECK_MS = 15 * 60_000;

/** Cycles a process may act on when their time has come (at most one per subscription). */
export const OPEN_CYCLE: SubscriptionCycleStatus[] = ['scheduled', 'retrying', 'needs_customer', 'waiting_stock', 'charging'];

const iso = (d: Date) => d.toISOString();

/** The idempotency key of one charge: the same subscription, cycle and attempt never charge twice. */
export function renewalChargeKey(subscriptionId: string, cycle: number, attempt: number): string {
  return `renewal_${subscriptionId}_c${cycle}_a${attempt}`;
}

/** The first due date after `now` on the subscription's own rhythm (dates never drift; deliveries missed while the shop was down are not made up). */
export function nextDueAfter(dueAt: string, everyWeeks: number, now: Date): string {
  let next = addWeeks(dueAt, everyWeeks);
  while (next <= iso(now)) next = addWeeks(next, everyWeeks);
  return next;
}

/** Locks the subscription (PostgreSQL: skips it when another process holds it: that one is at work on it; `wait`, for a customer's Deliver now, waits instead). */
async function lockSubscription(trx: Kysely<Database>, id: string, wait = false): Promise<Subscription | undefined> {
  const q = trx.selectFrom('subscriptions').selectAll().where('id', '=', id);
  if (!isPostgres(trx)) return q.executeTakeFirst();
  return wait ? q.forUpdate().executeTakeFirst() : q.forUpdate().skipLocked().executeTakeFirst();
}

async function readCycle(trx: Kysely<Database>, subscriptionId: string, cycle: number): Promise<Cycle | undefined> {
  return trx
    .selectFrom('subscription_cycles')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .where('cycle', '=', cycle)
    .executeTakeFirst();
}

async function setCycle(trx: Kysely<Database>, c: Pick<Cycle, 'subscription_id' | 'cycle'>, set: Partial<Cycle>, now: Date): Promise<void> {
  await trx
    .updateTable('subscription_cycles')
    .set({ ...set, updated_at: iso(now) })
    .where('subscription_id', '=', c.subscription_id)
    .where('cycle', '=', c.cycle)
    .execute();
}

/** The customer's name for an e-mail: the address's, else "there". */
function customerName(sub: Subscription): string {
  const a = parseJson<{ name?: string } | null>(sub.shipping_address, null);
  return a?.name?.trim() || 'there';
}

async function itemsForEmail(
  trx: Kysely<Database>,
  sub: Subscription,
  priced?: { lines: { productName: string; variantLabel: string; quantity: number; priceCents: number }[] },
) {
  const lines =
    priced?.lines ??
    (
      await trx
        .selectFrom('subscription_items as i')
        .innerJoin('products as p', 'p.id', 'i.product_id')
        .select(['p.name', 'i.quantity'])
        .where('i.subscription_id', '=', sub.id)
        .execute()
    ).map((r) => ({ productName: r.name, variantLabel: '', quantity: r.quantity, priceCents: 0 }));
  return lines.map((l) => ({
    name: lineTitle(l.productName, l.variantLabel),
    quantity: l.quantity,
    terms: subscriptionLineText(sub.every_weeks, sub.discount_percent),
    lineTotal: l.priceCents ? formatCents(l.priceCents * l.quantity) : '',
  }));
}

async function alertShop(
  trx: Kysely<Database>,
  deps: RenewalDeps,
  sub: Subscription,
  headline: string,
  detail: string,
  orderId?: string | null,
) {
  const to = await shopAddressFor(trx, 'newOrder');
  if (!to) return;
  await queueEmail(trx, {
    to,
    templateId: 'shop-subscription-alert',
    variables: {
      customerEmail: sub.email,
      headline,
      detail,
      adminUrl: orderId ? adminOrderUrl(deps.publicUrl, orderId) : `${deps.publicUrl}/admin?tab=orders`,
    },
  });
}

// ---------------------------------------------------------------------------------------------
// 1. The schedule: each subscription's next cycle gets its row (once: the primary key) three days
//    before it is due, with the reminder e-mail in the same transaction.
// ---------------------------------------------------------------------------------------------

/**
 * Writes the next cycle of every subscription due within the reminder window that has no open
 * cycle, oldest first, at most `limit`: its row (subscription, cycle) exists once whatever the
 * number of processes, and its reminder is queued with it when the due date is still ahead.
 */
export async function scheduleDueCycles(deps: RenewalDeps, now: Date, limit = 200): Promise<number> {
  const horizon = iso(new Date(now.getTime() + SUBSCRIPTION_LIMITS.reminderDays * DAY_MS));
  const due = await deps.db
    .selectFrom('subscriptions as s')
    .select(['s.id'])
    // A paused subscription's next date is the day its deliveries start again: it wakes here.
    .where('s.status', 'in', ['active', 'payment_failing', 'paused'])
    .where('s.next_renewal_at', '<=', horizon)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('subscription_cycles as c')
            .select('c.cycle')
            .whereRef('c.subscription_id', '=', 's.id')
            .where('c.status', 'in', OPEN_CYCLE),
        ),
      ),
    )
    .orderBy('s.next_renewal_at')
    .limit(limit)
    .execute();
  let scheduled = 0;
  for (const { id } of due) {
    const made = await transactionWithRetry(deps.db, async (trx) => {
      const sub = await lockSubscription(trx, id);
      if (!sub || sub.status === 'cancelled' || sub.next_renewal_at > horizon) return false;
      const open = await trx
        .selectFrom('subscription_cycles')
        .select('cycle')
        .where('subscription_id', '=', id)
        .where('status', 'in', OPEN_CYCLE)
        .executeTakeFirst();
      if (open) return false;
      const cycle = sub.cycles_started + 1;
      const inserted = await trx
        .insertInto('subscription_cycles')
        .values({
          subscription_id: id,
          cycle,
          due_at: sub.next_renewal_at,
          status: 'scheduled',
          order_id: null,
          amount_cents: null,
          next_attempt_at: sub.next_renewal_at,
          lease_until: null,
          waiting_since: null,
          // A reminder only while the date is ahead (a shop back from days away renews what is due at once).
          reminded_at: sub.next_renewal_at > iso(now) ? iso(now) : null,
          message: null,
          created_at: iso(now),
          updated_at: iso(now),
        })
        .onConflict((oc) => oc.columns(['subscription_id', 'cycle']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      await trx
        .updateTable('subscriptions')
        .set({ cycles_started: cycle, updated_at: iso(now), ...(sub.status === 'paused' ? { status: 'active' as const } : {}) })
        .where('id', '=', id)
        .execute();
      if (sub.status === 'paused')
        await recordSubscriptionEvent(trx, id, 'resumed', SYSTEM_ACTOR, { nextDelivery: sub.next_renewal_at, pauseEnded: true }, now);
      if (sub.next_renewal_at > iso(now)) await queueReminder(trx, deps, sub);
      return true;
    });
    if (made) scheduled++;
  }
  return scheduled;
}

async function queueReminder(trx: Kysely<Database>, deps: RenewalDeps, sub: Subscription): Promise<void> {
  const settings = await readSubscriptionSettings(trx);
  const priced = await priceRenewal(trx, sub, settings);
  await recordSubscriptionEvent(trx, sub.id, 'reminded', SYSTEM_ACTOR, { delivery: sub.next_renewal_at, total: priced.money.totalCents });
  await queueEmail(trx, {
    to: sub.email,
    templateId: 'subscription-renewal-reminder',
    variables: {
      customerName: customerName(sub),
      renewalDate: renewalDateText(sub.next_renewal_at),
      items: await itemsForEmail(trx, sub, priced),
      total: formatCents(priced.money.totalCents),
      manageUrl: await newManageLink(trx, sub.id, new Date(), deps.publicUrl),
    },
  });
}

// ---------------------------------------------------------------------------------------------
// 2. The work: cycles whose time has come, oldest first, each renewed by one process.
// ---------------------------------------------------------------------------------------------

/** Cycles due for work now (their time has come, or a charge's holder died): oldest due first. */
export async function dueCycles(db: Kysely<Database>, now: Date, limit: number): Promise<{ subscription_id: string; cycle: number }[]> {
  const at = iso(now);
  return db
    .selectFrom('subscription_cycles')
    .select(['subscription_id', 'cycle'])
    .where((eb) =>
      eb.or([
        eb.and([eb('status', 'in', ['scheduled', 'retrying', 'needs_customer', 'waiting_stock']), eb('next_attempt_at', '<=', at)]),
        eb.and([eb('status', '=', 'charging'), eb('lease_until', '<=', at)]),
      ]),
    )
    .orderBy('due_at')
    .orderBy('subscription_id')
    .limit(limit)
    .execute();
}

type Claimed =
  | { kind: 'charge'; sub: Subscription; cycle: Cycle; orderId: string; sessionId: string; amountCents: number; attempt: number }
  | { kind: 'done' };

/**
 * Renews one cycle, if its time has come and no other process is at it: a short transaction
 * claims it (the subscription locked, the cycle re-read: cancelled, paid or leased meanwhile, it
 * stops) and writes the order; the card is charged outside any transaction with the cycle's key;
 * a second transaction records what happened. A crash between leaves the cycle leased: after the
 * lease, a process charges again with the same key, and the provider answers as the first time.
 */
export async function renewCycle(
  deps: RenewalDeps,
  subscriptionId: string,
  cycleNo: number,
  now: Date,
  { waitForLock = false }: { waitForLock?: boolean } = {},
): Promise<void> {
  let claimed: Claimed;
  try {
    claimed = await transactionWithRetry(deps.db, (trx) => claim(trx, deps, subscriptionId, cycleNo, now, waitForLock));
  } catch (err) {
    if (!(err instanceof ShortAtRenewal)) throw err;
    await transactionWithRetry(deps.db, async (trx) => {
      const sub = await lockSubscription(trx, subscriptionId);
      const cycle = await readCycle(trx, subscriptionId, cycleNo);
      if (!sub || !cycle || cycle.order_id || !['scheduled', 'waiting_stock'].includes(cycle.status)) return;
      await waitForStock(trx, deps, sub, cycle, err.missing, await readSubscriptionSettings(trx), now);
    });
    return;
  }
  if (claimed.kind !== 'charge') return;
  const { sub, cycle, orderId, sessionId, amountCents, attempt } = claimed;
  const provider = deps.payments.of(sub.provider);
  let outcome: OffSessionOutcome;
  if (!canChargeOffSession(provider)) {
    outcome = { status: 'needs_customer', message: 'This card cannot be charged without you: please pay by the link.' };
  } else {
    try {
      outcome = await provider.chargeOffSession({
        orderId,
        amountCents,
        customerRef: sub.customer_ref,
        paymentMethodRef: sub.payment_method_ref,
        paymentRef: sub.payment_ref,
        idempotencyKey: renewalChargeKey(sub.id, cycle.cycle, attempt),
      });
    } catch (err) {
      // No answer (it may have happened): the lease runs out and the same key asks again.
      deps.log.warn({ err, subscriptionId, cycle: cycle.cycle, attempt }, 'renewal charge got no answer; asked again after the lease');
      if (!(err instanceof PaymentProviderError)) throw err;
      return;
    }
  }
  if (outcome.status === 'paid') {
    const result = await deps.outcomes.paid(sessionId, { paid: outcome.payment, log: deps.log, now });
    await transactionWithRetry(deps.db, (trx) => settlePaid(trx, deps, sub.id, cycle.cycle, orderId, result, outcome, now));
    return;
  }
  const failed = await transactionWithRetry(deps.db, (trx) =>
    settleFailed(trx, deps, sub.id, cycle.cycle, orderId, sessionId, outcome, now),
  );
  if (failed.sendLink) {
    // The payment links of today (orders/owner-payments.ts): a card page for exactly this order's total, once.
    const { retryAt, message } = failed;
    await sendPaymentLink(deps.db, orderId, SYSTEM_ACTOR, {
      publicUrl: deps.publicUrl,
      payments: deps.payments,
      now,
      email: (trx, link) => queueFailedEmail(trx, deps, { subscriptionId, orderId, retryAt, message, payUrl: link.url }, now),
    }).catch((err: unknown) => deps.log.error({ err, orderId }, 'could not send the payment link of a failed renewal'));
  }
}

async function claim(
  trx: Kysely<Database>,
  deps: RenewalDeps,
  subscriptionId: string,
  cycleNo: number,
  now: Date,
  waitForLock: boolean,
): Promise<Claimed> {
  const at = iso(now);
  const sub = await lockSubscription(trx, subscriptionId, waitForLock);
  if (!sub) return { kind: 'done' };
  const cycle = await readCycle(trx, subscriptionId, cycleNo);
  if (!cycle) return { kind: 'done' };
  const due =
    (cycle.status === 'charging' && (cycle.lease_until ?? '') <= at) ||
    (['scheduled', 'retrying', 'needs_customer', 'waiting_stock'].includes(cycle.status) && cycle.next_attempt_at <= at);
  if (!due) return { kind: 'done' };
  if (sub.status === 'cancelled') {
    await setCycle(trx, cycle, { status: 'cancelled', lease_until: null, message: 'Subscription cancelled' }, now);
    return { kind: 'done' };
  }
  if (sub.status === 'paused') return { kind: 'done' };

  // A charge whose process died: the same attempt, the same key.
  if (cycle.status === 'charging' && cycle.order_id) {
    const session = await currentSession(trx, cycle.order_id);
    if (!session) return { kind: 'done' };
    await setCycle(trx, cycle, { lease_until: iso(new Date(now.getTime() + RENEWAL_LEASE_MS)) }, now);
    return {
      kind: 'charge',
      sub,
      cycle,
      orderId: cycle.order_id,
      sessionId: session,
      amountCents: Number(cycle.amount_cents),
      attempt: cycle.attempts,
    };
  }

  if (cycle.order_id) {
    // A retry: the order stands (paid meanwhile by the link? then the cycle is paid).
    const order = await trx
      .selectFrom('orders')
      .select(['id', 'payment_status', 'status', 'total_cents', 'payment_session_id'])
      .where('id', '=', cycle.order_id)
      .executeTakeFirst();
    if (!order || order.status === 'cancelled') {
      await setCycle(trx, cycle, { status: 'cancelled', lease_until: null }, now);
      return { kind: 'done' };
    }
    if (order.payment_status === 'paid') {
      await closePaidCycle(trx, sub, cycle, now, null);
      return { kind: 'done' };
    }
    let sessionId = await currentSession(trx, order.id);
    if (!sessionId) {
      sessionId = newRenewalSessionId();
      await openPaymentSessionWrite(trx, {
        id: sessionId,
        orderId: order.id,
        provider: sub.provider,
        amountCents: Number(order.total_cents),
        url: '',
        now,
        expiresAt: new Date(now.getTime() + PAYMENT_SESSION_TTL_MS),
      }).execute();
      await pointOrderAtSession(trx, order.id, sessionId);
    }
    const attempt = cycle.attempts + 1;
    await setCycle(
      trx,
      cycle,
      { status: 'charging', attempts: attempt, lease_until: iso(new Date(now.getTime() + RENEWAL_LEASE_MS)) },
      now,
    );
    return { kind: 'charge', sub, cycle, orderId: order.id, sessionId, amountCents: Number(order.total_cents), attempt };
  }

  // The cycle's first try: price it, and charge only what can be sent now.
  const settings = await readSubscriptionSettings(trx);
  const priced = await priceRenewal(trx, sub, settings);
  if (priced.missing.length) {
    await waitForStock(trx, deps, sub, cycle, priced.missing, settings, now);
    return { kind: 'done' };
  }
  const made = await createRenewalOrder(trx, sub, priced, { cycle: cycle.cycle, now });
  // A unit went between the read and the reservation: everything written rolls back, and the cycle waits.
  if (!made) throw new ShortAtRenewal(priced.lines.map((l) => l.productName));
  await setCycle(
    trx,
    cycle,
    {
      status: 'charging',
      order_id: made.orderId,
      amount_cents: priced.money.totalCents,
      attempts: 1,
      lease_until: iso(new Date(now.getTime() + RENEWAL_LEASE_MS)),
      message: null,
    },
    now,
  );
  return { kind: 'charge', sub, cycle, orderId: made.orderId, sessionId: made.sessionId, amountCents: priced.money.totalCents, attempt: 1 };
}

/** Thrown to roll back a claim whose reservation came up short. */
class ShortAtRenewal extends Error {
  constructor(readonly missing: string[]) {
    super('short at renewal');
  }
}

/** The order's open session, if any (the one a charge is taken on). */
async function currentSession(trx: Kysely<Database>, orderId: string): Promise<string | null> {
  const row = await trx
    .selectFrom('orders as o')
    .innerJoin('payment_sessions as s', 's.id', 'o.payment_session_id')
    .select('s.id')
    .where('o.id', '=', orderId)
    .where('s.status', '=', 'open')
    .executeTakeFirst();
  return row?.id ?? null;
}

async function waitForStock(
  trx: Kysely<Database>,
  deps: RenewalDeps,
  sub: Subscription,
  cycle: Cycle,
  missing: string[],
  settings: { skipOutOfStockAfterDays: number },
  now: Date,
): Promise<void> {
  const since = cycle.waiting_since ?? iso(now);
  const skipAt = new Date(Date.parse(since) + settings.skipOutOfStockAfterDays * DAY_MS);
  const what = missing.join(', ');
  if (now >= skipAt) {
    await skipCycle(
      trx,
      deps,
      sub,
      cycle,
      `${what} was out of stock until the delivery had waited ${settings.skipOutOfStockAfterDays} days.`,
      now,
    );
    return;
  }
  await setCycle(
    trx,
    cycle,
    {
      status: 'waiting_stock',
      waiting_since: since,
      next_attempt_at: iso(new Date(Math.min(now.getTime() + STOCK_RECHECK_MS, skipAt.getTime()))),
      message: `Waiting for stock: ${what}`,
    },
    now,
  );
  if (cycle.waiting_since) return;
  await recordSubscriptionEvent(trx, sub.id, 'renewal.waiting_stock', SYSTEM_ACTOR, { cycle: cycle.cycle, missing: what }, now);
  // Told once, when it starts waiting: the customer (nothing charged) and the shop.
  await queueEmail(trx, {
    to: sub.email,
    templateId: 'subscription-out-of-stock',
    variables: {
      customerName: customerName(sub),
      renewalDate: renewalDateText(cycle.due_at),
      missing: what,
      skipDate: renewalDateText(iso(skipAt)),
      manageUrl: await newManageLink(trx, sub.id, now, deps.publicUrl),
    },
  });
  await alertShop(
    trx,
    deps,
    sub,
    'renewal waiting for stock',
    `${what} is out of stock; the renewal due ${renewalDateText(cycle.due_at)} waits (nothing charged) and is skipped on ${renewalDateText(iso(skipAt))} if still short.`,
  );
}

/**
 * What the customer chose for the next delivery only ends with it: items left out come back, and
 * the one-time extras the paid order carried (its lines off the plan) are done. Extras it could not
 * carry (out of stock), and all of them when the delivery was skipped, wait for the next.
 */
async function closeNextDeliveryChoices(trx: Kysely<Database>, subscriptionId: string, paidOrderId: string | null): Promise<void> {
  await trx
    .updateTable('subscription_items')
    .set({ skip_next: 0 })
    .where('subscription_id', '=', subscriptionId)
    .where('skip_next', '=', 1)
    .execute();
  if (!paidOrderId) return;
  const carried = trx.selectFrom('order_items').select('variant_id').where('order_id', '=', paidOrderId).where('every_weeks', 'is', null);
  await trx.deleteFrom('subscription_extras').where('subscription_id', '=', subscriptionId).where('variant_id', 'in', carried).execute();
}

/** The cycle is given up (nothing kept charged), the subscription goes on to its next date; the customer is told why. */
export async function skipCycle(
  trx: Kysely<Database>,
  deps: Pick<RenewalDeps, 'publicUrl'>,
  sub: Subscription,
  cycle: Cycle,
  reason: string,
  now: Date,
  actor: OrderEventActor = SYSTEM_ACTOR,
  notify = true,
): Promise<void> {
  await setCycle(trx, cycle, { status: 'skipped', lease_until: null, message: reason }, now);
  const next = nextDueAfter(cycle.due_at, sub.every_weeks, now);
  await recordSubscriptionEvent(trx, sub.id, 'skipped', actor, { cycle: cycle.cycle, delivery: cycle.due_at, reason, next }, now);
  // An item left out of "the next delivery" was left out of this one: it comes with the next again.
  await closeNextDeliveryChoices(trx, sub.id, null);
  await trx
    .updateTable('subscriptions')
    .set({ next_renewal_at: next, updated_at: iso(now) })
    .where('id', '=', sub.id)
    .execute();
  if (!notify) return;
  await queueEmail(trx, {
    to: sub.email,
    templateId: 'subscription-skipped',
    variables: {
      customerName: customerName(sub),
      renewalDate: renewalDateText(cycle.due_at),
      reason,
      nextRenewal: renewalDateText(next),
      manageUrl: await newManageLink(trx, sub.id, now, deps.publicUrl),
    },
  });
}

/** The cycle is paid: one more delivery, the next date on the subscription's rhythm, any failing flag cleared. */
async function closePaidCycle(
  trx: Kysely<Database>,
  sub: Subscription,
  cycle: Cycle,
  now: Date,
  paymentMethodRef: string | null,
  card: { brand: string; last4: string } | null = null,
): Promise<void> {
  await setCycle(trx, cycle, { status: 'paid', lease_until: null, message: null }, now);
  await closeNextDeliveryChoices(trx, sub.id, cycle.order_id);
  await recordSubscriptionEvent(
    trx,
    sub.id,
    'renewed',
    SYSTEM_ACTOR,
    { cycle: cycle.cycle, orderId: cycle.order_id, delivery: cycle.due_at },
    now,
  );
  await trx
    .updateTable('subscriptions')
    .set({
      deliveries: sub.deliveries + 1,
      next_renewal_at: nextDueAfter(cycle.due_at, sub.every_weeks, now),
      ...(sub.status === 'payment_failing' ? { status: 'active' as const, failing_since: null } : {}),
      ...(paymentMethodRef && !sub.payment_method_ref ? { payment_method_ref: paymentMethodRef } : {}),
      // The card the method learnt now is (Stripe's first renewal reads it from the first payment): shown to the customer.
      ...(paymentMethodRef && !sub.payment_method_ref && card ? { card_brand: card.brand, card_last4: card.last4 } : {}),
      updated_at: iso(now),
    })
    .where('id', '=', sub.id)
    .execute();
}

async function settlePaid(
  trx: Kysely<Database>,
  deps: RenewalDeps,
  subscriptionId: string,
  cycleNo: number,
  orderId: string,
  result: { fulfilled: boolean; refused?: string },
  outcome: Extract<OffSessionOutcome, { status: 'paid' }>,
  now: Date,
): Promise<void> {
  const dialect: Dialect = isPostgres(trx) ? 'postgres' : 'sqlite';
  const locked = await forUpdate(trx.selectFrom('subscriptions').selectAll().where('id', '=', subscriptionId), dialect).executeTakeFirst();
  const cycle = await readCycle(trx, subscriptionId, cycleNo);
  if (!locked || !cycle || cycle.status === 'paid') return;
  const order = await trx.selectFrom('orders').select(['payment_status']).where('id', '=', orderId).executeTakeFirst();
  if (order?.payment_status === 'paid' || order?.payment_status === 'refunded') {
    await closePaidCycle(trx, locked, cycle, now, outcome.paymentMethodRef, outcome.card ?? null);
    return;
  }
  // The payment came to an order that could not take it (the subscription was cancelled while the
  // card was charged): fulfilment recorded it as stray and gives it back. The cycle ends with it.
  await setCycle(
    trx,
    cycle,
    { status: 'cancelled', lease_until: null, message: `Payment refused: ${result.refused ?? 'not taken'}; given back` },
    now,
  );
}

async function settleFailed(
  trx: Kysely<Database>,
  deps: RenewalDeps,
  subscriptionId: string,
  cycleNo: number,
  orderId: string,
  sessionId: string,
  outcome: Exclude<OffSessionOutcome, { status: 'paid' }>,
  now: Date,
): Promise<{ sendLink: false } | { sendLink: true; retryAt: string; message: string }> {
  const dialect: Dialect = isPostgres(trx) ? 'postgres' : 'sqlite';
  const sub = await forUpdate(trx.selectFrom('subscriptions').selectAll().where('id', '=', subscriptionId), dialect).executeTakeFirst();
  const cycle = await readCycle(trx, subscriptionId, cycleNo);
  if (!sub || !cycle || cycle.status !== 'charging') return { sendLink: false };
  await recordOrderEvent(
    trx,
    orderId,
    'renewal.declined',
    SYSTEM_ACTOR,
    { attempt: cycle.attempts, message: outcome.message, renewal: true },
    now,
  );
  await recordSubscriptionEvent(
    trx,
    sub.id,
    'renewal.failed',
    SYSTEM_ACTOR,
    { cycle: cycle.cycle, attempt: cycle.attempts, message: outcome.message, orderId },
    now,
  );
  // The session ends with its holds; the order stays unpaid for the next try or the link.
  await endOpenSession(trx, dialect, orderId, sessionId, 'expired');
  const tries = cycle.attempts;
  if (tries > RENEWAL_RETRY_DAYS.length || sub.status === 'cancelled') {
    await expireUnpaidOrder(trx, orderId, 'cancelled');
    await skipCycle(trx, deps, sub, cycle, `the card could not be charged after ${tries} tries (${outcome.message})`, now);
    await trx
      .updateTable('subscriptions')
      .set({
        status: sub.status === 'cancelled' ? 'cancelled' : 'payment_failing',
        failing_since: sub.failing_since ?? iso(now),
        updated_at: iso(now),
      })
      .where('id', '=', sub.id)
      .execute();
    await alertShop(
      trx,
      deps,
      sub,
      'payment failing',
      `the renewal due ${renewalDateText(cycle.due_at)} could not be charged after ${tries} tries and was skipped: ${outcome.message}`,
      orderId,
    );
    return { sendLink: false };
  }
  const nextTry = new Date(Date.parse(cycle.due_at) + RENEWAL_RETRY_DAYS[tries - 1]! * DAY_MS);
  const retryAt = nextTry > now ? nextTry : new Date(now.getTime() + DAY_MS);
  await setCycle(
    trx,
    cycle,
    {
      status: outcome.status === 'needs_customer' ? 'needs_customer' : 'retrying',
      lease_until: null,
      next_attempt_at: iso(retryAt),
      message: outcome.message,
    },
    now,
  );
  // Told at the first failure, and at once whenever the bank wants the customer: with a link to pay (made after the commit).
  const tell = tries === 1 || outcome.status === 'needs_customer';
  return { sendLink: tell, retryAt: iso(retryAt), message: outcome.message };
}

/** The failed renewal's e-mail, with the card page of a payment link for exactly its order's total. */
async function queueFailedEmail(
  trx: Kysely<Database>,
  deps: RenewalDeps,
  o: { subscriptionId: string; orderId: string; retryAt: string; message: string; payUrl: string },
  now: Date,
): Promise<void> {
  const sub = await trx.selectFrom('subscriptions').selectAll().where('id', '=', o.subscriptionId).executeTakeFirstOrThrow();
  const order = await trx
    .selectFrom('orders')
    .select(['order_number', 'total_cents'])
    .where('id', '=', o.orderId)
    .executeTakeFirstOrThrow();
  await queueEmail(trx, {
    to: sub.email,
    order: emailOnTimeline(o.orderId),
    templateId: 'subscription-payment-failed',
    variables: {
      customerName: customerName(sub),
      orderNumber: order.order_number,
      total: formatCents(Number(order.total_cents)),
      reason: o.message,
      payUrl: o.payUrl,
      manageUrl: await newManageLink(trx, sub.id, now, deps.publicUrl),
      nextTry: renewalDateText(o.retryAt),
    },
  });
}

/** One turn of the schedule: the next cycles written (with reminders), then what is due renewed, oldest first, at most `limit`. */
export async function runRenewals(deps: RenewalDeps, now: Date, limit = 50): Promise<{ scheduled: number; worked: number }> {
  const scheduled = await scheduleDueCycles(deps, now, limit * 4);
  const due = await dueCycles(deps.db, now, limit);
  for (const c of due) await renewCycle(deps, c.subscription_id, c.cycle, now);
  return { scheduled, worked: due.length };
}
