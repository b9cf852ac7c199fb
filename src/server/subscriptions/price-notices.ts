import type { Kysely, Selectable } from 'kysely';
import type { Database, SubscriptionPriceNoticesTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { queueEmail } from '../email/outbox.js';
import { SYSTEM_ACTOR } from '../lib/actors.js';
import { randomString } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import { formatCents } from '../../shared/money.js';
import { addWeeks, discountedCents, renewalDateText, type PlanDiscounts } from '../../shared/subscriptions.js';
import { lineTitle, variantLabel } from '../../shared/variants.js';
import { recordSubscriptionEvent } from './events.js';
import { newManageLink } from './manage-links.js';
import { plansForVariants, type ResolvedPlan } from './plans.js';
import { noticeState, termsOf, toldUnitCents, type ToldState } from './told-prices.js';

/*
 * Price changes told before they are charged (issue [5/8], decision 0058 "Price changes"). The
 * owner's save marks the product (lib/subscription-price-reviews.ts) in its own transaction; this
 * pass, run by every process's schedule (worker.ts), works the marks a batch at a time:
 * - each subscriber of a marked product is compared, under its subscription's lock, with what it
 *   was last told (a pending notice, else the agreed price and the subscription's terms). A change
 *   gets one notice per item and one e-mail: a rise from the first delivery due at least 7 days
 *   after it is told, a fall at once (the agreed price moves down now);
 * - a pending notice whose date has come, and whose deliveries before it are done, becomes the
 *   agreed price (and terms) of its item.
 * A renewal reads the same rows (told-prices.ts): it charges at most what was told for its date.
 */

/** A rise is charged from the first delivery due at least this many days after the customer is told. */
export const PRICE_NOTICE_DAYS = 7;
/** Subscriptions reviewed per turn (the worker comes back sooner while a product's subscribers are being told). */
export const PRICE_REVIEW_BATCH = 100;
/** A process working a product holds it this long; past it (the process died) another takes it up where the cursor stands. */
export const PRICE_REVIEW_LEASE_MS = 2 * 60_000;

const DAY_MS = 86_400_000;
const iso = (d: Date) => d.toISOString();

type Notice = Selectable<SubscriptionPriceNoticesTable>;
export type PriceNoticeDeps = { db: Kysely<Database>; dialect: Dialect; publicUrl: string };

/** The first delivery on the rhythm from `firstDueAt` due at or after `at`, and how many come before it. */
export function firstDeliveryFrom(firstDueAt: string, everyWeeks: number, at: string): { dueAt: string; after: number } {
  let dueAt = firstDueAt;
  let after = 0;
  while (dueAt < at) {
    dueAt = addWeeks(dueAt, everyWeeks);
    after++;
  }
  return { dueAt, after };
}

const sameTerms = (a: PlanDiscounts, b: PlanDiscounts) =>
  a.discountPercent === b.discountPercent &&
  a.laterDiscountPercent === b.laterDiscountPercent &&
  a.laterFromDelivery === b.laterFromDelivery;
const sameState = (a: ToldState, b: ToldState) => a.priceCents === b.priceCents && sameTerms(a.terms, b.terms);

/** Whether `after` costs no more than `before` on any delivery from the `from`th on (a discount changes only at its later-from delivery). */
function notDearer(after: ToldState, before: ToldState, from: number): boolean {
  const deliveries = [from, after.terms.laterFromDelivery ?? 0, before.terms.laterFromDelivery ?? 0].filter((n) => n >= from);
  return deliveries.every((n) => toldUnitCents(after, n) <= toldUnitCents(before, n));
}

/** The terms its items' plans give a subscription now: when every item's plan is on and they agree; else null (it keeps what it was told). */
function termsOfPlans(variantIds: readonly string[], plans: Map<string, ResolvedPlan>): PlanDiscounts | null {
  const each = variantIds.map((id) => plans.get(id));
  const first = each[0];
  if (!first || each.some((p) => !p?.enabled)) return null;
  const terms = {
    discountPercent: first.discountPercent,
    laterDiscountPercent: first.laterDiscountPercent,
    laterFromDelivery: first.laterFromDelivery,
  };
  return each.every((p) => p && sameTerms(p, terms)) ? terms : null;
}

function newNoticeId(at: Date): string {
  return `spn_${at.getTime().toString(36)}${randomString(10)}`;
}

type Change = {
  variantId: string;
  productId: string;
  name: string;
  quantity: number;
  /** In effect now (agreed), last told (a pending notice, else agreed), and the shop's now. */
  agreed: ToldState;
  told: ToldState;
  next: ToldState;
};

/**
 * Compares one subscription with what its customer was told, under its lock (the schedule's lock
 * order: the subscription first), and tells them what changed: one notice per item, one e-mail, one
 * timeline event per item. Running it again finds nothing new: what it told is now the last told.
 * Answers the number of items told.
 */
export async function reviewSubscriptionPrices(
  trx: Kysely<Database>,
  deps: PriceNoticeDeps,
  subscriptionId: string,
  now: Date,
): Promise<number> {
  const sub = await forUpdate(
    trx.selectFrom('subscriptions').selectAll().where('id', '=', subscriptionId),
    deps.dialect,
  ).executeTakeFirst();
  if (!sub || sub.status === 'cancelled') return 0;
  const items = await trx
    .selectFrom('subscription_items')
    .select(['product_id', 'variant_id', 'quantity', 'agreed_price_cents'])
    .where('subscription_id', '=', sub.id)
    .orderBy('variant_id')
    .execute();
  // Items from before agreed prices were kept are charged at today's price: nothing to compare with.
  const known = items.filter((i) => i.agreed_price_cents !== null);
  if (known.length === 0) return 0;
  const variants = new Map(
    (
      await trx
        .selectFrom('product_variants as v')
        .innerJoin('products as p', 'p.id', 'v.product_id')
        .select(['v.id', 'v.price_cents', 'p.name', 'v.option1', 'v.option2', 'v.option3'])
        .where(
          'v.id',
          'in',
          known.map((i) => i.variant_id),
        )
        .execute()
    ).map((v) => [v.id, v]),
  );
  const plans = await plansForVariants(
    trx,
    items.map((i) => ({ productId: i.product_id, variantId: i.variant_id })),
  );
  const pending = await trx
    .selectFrom('subscription_price_notices')
    .selectAll()
    .where('subscription_id', '=', sub.id)
    .where('status', '=', 'pending')
    .orderBy('told_at')
    .orderBy('id')
    .execute();
  const lastTold = new Map<string, Notice>(pending.map((n) => [n.variant_id, n]));

  const subTerms = termsOf(sub);
  const planTerms = termsOfPlans(
    items.map((i) => i.variant_id),
    plans,
  );
  const changes: Change[] = [];
  for (const i of known) {
    const v = variants.get(i.variant_id);
    if (!v) continue; // Deleted: nothing renews of it.
    const agreed = { priceCents: Number(i.agreed_price_cents), terms: subTerms };
    const notice = lastTold.get(i.variant_id);
    const told = notice ? noticeState(notice) : agreed;
    const next = { priceCents: Number(v.price_cents), terms: planTerms ?? told.terms };
    if (sameState(told, next)) continue;
    changes.push({
      variantId: i.variant_id,
      productId: i.product_id,
      name: lineTitle(v.name, variantLabel([v.option1, v.option2, v.option3])),
      quantity: i.quantity,
      agreed,
      told,
      next,
    });
  }
  if (changes.length === 0) return 0;

  // A fall is told and charged at once: nothing, on any delivery ahead, may cost more than now.
  const first = sub.deliveries + 1;
  const termsAfter = changes.every((c) => sameTerms(c.next.terms, changes[0]!.next.terms)) ? changes[0]!.next.terms : null;
  const changed = new Set(changes.map((c) => c.variantId));
  const fall =
    termsAfter !== null &&
    changes.every((c) => notDearer(c.next, c.agreed, first)) &&
    known
      .filter((i) => !changed.has(i.variant_id))
      .every((i) =>
        notDearer(
          { priceCents: Number(i.agreed_price_cents), terms: termsAfter },
          { priceCents: Number(i.agreed_price_cents), terms: subTerms },
          first,
        ),
      );
  // The next delivery not ordered yet (one being charged or waiting for payment keeps its order's price).
  const open = await trx
    .selectFrom('subscription_cycles')
    .select('order_id')
    .where('subscription_id', '=', sub.id)
    .where('status', 'in', ['scheduled', 'retrying', 'needs_customer', 'waiting_stock', 'charging'])
    .where('order_id', 'is not', null)
    .executeTakeFirst();
  const nextOpen = open ? addWeeks(sub.next_renewal_at, sub.every_weeks) : sub.next_renewal_at;
  const effective = fall
    ? { dueAt: nextOpen, after: 0 }
    : firstDeliveryFrom(nextOpen, sub.every_weeks, iso(new Date(now.getTime() + PRICE_NOTICE_DAYS * DAY_MS)));
  const delivery = first + (open ? 1 : 0) + effective.after;
  const at = iso(now);

  // What was told before and is told now replaces any pending notice of these items.
  await trx
    .updateTable('subscription_price_notices')
    .set({ status: 'superseded', settled_at: at })
    .where('subscription_id', '=', sub.id)
    .where('status', '=', 'pending')
    .where('variant_id', 'in', [...changed])
    .execute();
  if (fall) {
    for (const c of changes)
      await trx
        .updateTable('subscription_items')
        .set({ agreed_price_cents: c.next.priceCents })
        .where('subscription_id', '=', sub.id)
        .where('variant_id', '=', c.variantId)
        .execute();
    if (termsAfter && !sameTerms(termsAfter, subTerms))
      await trx
        .updateTable('subscriptions')
        .set({
          discount_percent: termsAfter.discountPercent,
          later_discount_percent: termsAfter.laterDiscountPercent,
          later_from_delivery: termsAfter.laterFromDelivery,
          updated_at: at,
        })
        .where('id', '=', sub.id)
        .execute();
  }

  const told = changes.map((c) => ({ ...c, fromCents: toldUnitCents(c.told, delivery), toCents: toldUnitCents(c.next, delivery) }));
  const email = await queueEmail(trx, {
    to: sub.email,
    templateId: 'subscription-price-change',
    variables: {
      customerName: parseJson<{ name?: string } | null>(sub.shipping_address, null)?.name?.trim() || 'there',
      noticeDate: renewalDateText(at),
      effectiveDate: renewalDateText(effective.dueAt),
      priceChanges: told.map((c) => ({
        name: c.name,
        quantity: c.quantity,
        oldPrice: formatCents(c.fromCents * c.quantity),
        newPrice: formatCents(c.toCents * c.quantity),
      })),
      priceNote: fall
        ? 'The new price applies from your next delivery: there is nothing you need to do.'
        : 'Until then, every delivery is charged at the price you pay now.',
      manageUrl: await newManageLink(trx, sub.id, now, deps.publicUrl),
    },
  });
  await trx
    .insertInto('subscription_price_notices')
    .values(
      told.map((c, k) => ({
        id: newNoticeId(new Date(now.getTime() + k)),
        subscription_id: sub.id,
        product_id: c.productId,
        variant_id: c.variantId,
        from_cents: c.fromCents,
        to_cents: c.toCents,
        price_cents: c.next.priceCents,
        discount_percent: c.next.terms.discountPercent,
        later_discount_percent: c.next.terms.laterDiscountPercent,
        later_from_delivery: c.next.terms.laterFromDelivery,
        told_at: at,
        effective_from: effective.dueAt,
        status: fall ? ('applied' as const) : ('pending' as const),
        email_id: email.id,
        settled_at: fall ? at : null,
      })),
    )
    .execute();
  for (const c of told)
    await recordSubscriptionEvent(
      trx,
      sub.id,
      'price.notice',
      SYSTEM_ACTOR,
      { variantId: c.variantId, name: c.name, fromCents: c.fromCents, toCents: c.toCents, effectiveFrom: effective.dueAt },
      now,
    );
  return told.length;
}

/**
 * Makes the pending notices whose date has come the agreed prices (and terms) of their items, for
 * subscriptions whose deliveries before that date are done (a delivery still due before it, waiting
 * for stock or a card, keeps the price told for it). The renewal reads pending notices by date
 * either way; this keeps what is agreed current. At most `limit` subscriptions, each under its lock.
 */
export async function applyDueNotices(deps: PriceNoticeDeps, now: Date, limit: number): Promise<number> {
  const at = iso(now);
  const due = await deps.db
    .selectFrom('subscription_price_notices as n')
    .innerJoin('subscriptions as s', 's.id', 'n.subscription_id')
    .select('n.subscription_id')
    .distinct()
    .where('n.status', '=', 'pending')
    .where('n.effective_from', '<=', at)
    .whereRef('n.effective_from', '<=', 's.next_renewal_at')
    .where('s.status', '!=', 'cancelled')
    .orderBy('n.subscription_id')
    .limit(limit)
    .execute();
  let applied = 0;
  for (const { subscription_id: id } of due) {
    applied += await transactionWithRetry(deps.db, async (trx) => {
      const sub = await forUpdate(trx.selectFrom('subscriptions').selectAll().where('id', '=', id), deps.dialect).executeTakeFirst();
      if (!sub || sub.status === 'cancelled') return 0;
      const until = sub.next_renewal_at < at ? sub.next_renewal_at : at;
      const notices = await trx
        .selectFrom('subscription_price_notices')
        .selectAll()
        .where('subscription_id', '=', id)
        .where('status', '=', 'pending')
        .where('effective_from', '<=', until)
        .orderBy('told_at')
        .orderBy('id')
        .execute();
      if (notices.length === 0) return 0;
      const newest = new Map(notices.map((n) => [n.variant_id, n]));
      for (const n of newest.values())
        await trx
          .updateTable('subscription_items')
          .set({ agreed_price_cents: Number(n.price_cents) })
          .where('subscription_id', '=', id)
          .where('variant_id', '=', n.variant_id)
          .execute();
      const terms = termsOf(notices[notices.length - 1]!);
      if (!sameTerms(terms, termsOf(sub)))
        await trx
          .updateTable('subscriptions')
          .set({
            discount_percent: terms.discountPercent,
            later_discount_percent: terms.laterDiscountPercent,
            later_from_delivery: terms.laterFromDelivery,
            updated_at: at,
          })
          .where('id', '=', id)
          .execute();
      await trx
        .updateTable('subscription_price_notices')
        .set({ status: 'applied', settled_at: at })
        .where(
          'id',
          'in',
          notices.map((n) => n.id),
        )
        .execute();
      return notices.length;
    });
  }
  return applied;
}

/**
 * Works the marked products, at most `batch` subscriptions in all: each product is claimed with a
 * conditional update (its lease, so a second process moves on), its subscribers reviewed from its
 * cursor in id order, then the cursor kept or, when all are done, the mark deleted (unless the
 * owner marked it again meanwhile: then it starts over). `more`: work is left for the next turn.
 */
export async function reviewMarkedProducts(
  deps: PriceNoticeDeps,
  now: Date,
  batch: number,
): Promise<{ reviewed: number; told: number; more: boolean }> {
  const at = iso(now);
  const marks = await deps.db
    .selectFrom('subscription_price_reviews')
    .selectAll()
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', at)]))
    .orderBy('marked_at')
    .limit(10)
    .execute();
  let reviewed = 0;
  let told = 0;
  let more = false;
  for (const m of marks) {
    if (reviewed >= batch) {
      more = true;
      break;
    }
    const claimed = await deps.db
      .updateTable('subscription_price_reviews')
      .set({ lease_until: iso(new Date(now.getTime() + PRICE_REVIEW_LEASE_MS)) })
      .where('product_id', '=', m.product_id)
      .where('marked_at', '=', m.marked_at)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', at)]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    const room = batch - reviewed;
    const subs = await deps.db
      .selectFrom('subscription_items as i')
      .innerJoin('subscriptions as s', 's.id', 'i.subscription_id')
      .select('i.subscription_id')
      .distinct()
      .where('i.product_id', '=', m.product_id)
      .where('s.status', '!=', 'cancelled')
      .where('i.subscription_id', '>', m.cursor)
      .orderBy('i.subscription_id')
      .limit(room + 1)
      .execute();
    const take = subs.slice(0, room);
    for (const { subscription_id: id } of take) {
      told += await transactionWithRetry(deps.db, (trx) => reviewSubscriptionPrices(trx, deps, id, now));
      reviewed++;
    }
    if (subs.length > take.length) {
      more = true;
      await deps.db
        .updateTable('subscription_price_reviews')
        .set({ cursor: take[take.length - 1]!.subscription_id, lease_until: null })
        .where('product_id', '=', m.product_id)
        .where('marked_at', '=', m.marked_at)
        .execute();
    } else {
      await deps.db
        .deleteFrom('subscription_price_reviews')
        .where('product_id', '=', m.product_id)
        .where('marked_at', '=', m.marked_at)
        .execute();
    }
    // Marked again meanwhile: the mark stays (from its first subscriber) for the next turn.
    await deps.db.updateTable('subscription_price_reviews').set({ lease_until: null }).where('product_id', '=', m.product_id).execute();
  }
  return { reviewed, told, more };
}

/** One turn of the price notices: due notices made the agreed prices, then marked products' subscribers told. */
export async function runPriceNotices(
  deps: PriceNoticeDeps,
  now: Date,
  { batch = PRICE_REVIEW_BATCH }: { batch?: number } = {},
): Promise<{ applied: number; reviewed: number; told: number; more: boolean }> {
  const applied = await applyDueNotices(deps, now, batch);
  const { reviewed, told, more } = await reviewMarkedProducts(deps, now, batch);
  return { applied, reviewed, told, more: more || applied >= batch };
}

/**
 * The price the customer sees as agreed for items they chose now (a version swapped in, a
 * reactivation): today's shop price, which the change e-mail states; pending notices of those
 * items are superseded. Run in the caller's transaction, under the subscription's lock.
 */
export async function agreeToTodaysPrices(
  trx: Kysely<Database>,
  subscriptionId: string,
  variantIds: readonly string[] | 'all',
  now: Date,
): Promise<void> {
  let items = trx.selectFrom('subscription_items').select('variant_id').where('subscription_id', '=', subscriptionId);
  if (variantIds !== 'all') {
    if (variantIds.length === 0) return;
    items = items.where('variant_id', 'in', [...variantIds]);
  }
  const ids = (await items.execute()).map((i) => i.variant_id);
  if (ids.length === 0) return;
  const prices = await trx.selectFrom('product_variants').select(['id', 'price_cents']).where('id', 'in', ids).execute();
  for (const v of prices)
    await trx
      .updateTable('subscription_items')
      .set({ agreed_price_cents: Number(v.price_cents) })
      .where('subscription_id', '=', subscriptionId)
      .where('variant_id', '=', v.id)
      .execute();
  await trx
    .updateTable('subscription_price_notices')
    .set({ status: 'superseded', settled_at: now.toISOString() })
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'pending')
    .where('variant_id', 'in', ids)
    .execute();
}

/**
 * The largest shop price at most `todayCents` that the first order's line price (`lineCents`, less
 * `discountPercent`) stands for: the checkout's price, even when the owner raised it between the
 * checkout and its payment.
 */
export function priceBehindLine(lineCents: number, discountPercent: number, todayCents: number): number {
  if (discountedCents(todayCents, discountPercent) <= lineCents) return todayCents;
  let low = 0;
  let high = todayCents;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (discountedCents(mid, discountPercent) <= lineCents) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * The agreed prices of a subscription a checkout just started (start.ts, in the payment's
 * transaction): what its first order's lines were priced at, as shop prices before the discount.
 */
export async function agreeToFirstOrderPrices(trx: Kysely<Database>, subscriptionId: string, orderId: string): Promise<void> {
  const items = await trx.selectFrom('subscription_items').select('variant_id').where('subscription_id', '=', subscriptionId).execute();
  const ids = items.map((i) => i.variant_id);
  if (ids.length === 0) return;
  const [lines, variants] = [
    await trx
      .selectFrom('order_items')
      .select(['variant_id', 'price_cents', 'plan_discount_percent'])
      .where('order_id', '=', orderId)
      .where('every_weeks', 'is not', null)
      .where('variant_id', 'in', ids)
      .execute(),
    await trx.selectFrom('product_variants').select(['id', 'price_cents']).where('id', 'in', ids).execute(),
  ];
  for (const v of variants) {
    const told = lines
      .filter((l) => l.variant_id === v.id)
      .map((l) => priceBehindLine(Number(l.price_cents), Number(l.plan_discount_percent ?? 0), Number(v.price_cents)));
    await trx
      .updateTable('subscription_items')
      .set({ agreed_price_cents: told.length ? Math.min(...told) : Number(v.price_cents) })
      .where('subscription_id', '=', subscriptionId)
      .where('variant_id', '=', v.id)
      .execute();
  }
}

/** The pending notices of these subscriptions, for the customer's page: what changes, and from when. */
export async function pendingPriceNotices(
  db: Kysely<Database>,
  subscriptionIds: readonly string[],
): Promise<Map<string, { variantId: string; fromCents: number; toCents: number; effectiveFrom: string }[]>> {
  const found = new Map<string, { variantId: string; fromCents: number; toCents: number; effectiveFrom: string }[]>();
  if (subscriptionIds.length === 0) return found;
  const rows = await db
    .selectFrom('subscription_price_notices')
    .select(['subscription_id', 'variant_id', 'from_cents', 'to_cents', 'effective_from'])
    .where('subscription_id', 'in', [...subscriptionIds])
    .where('status', '=', 'pending')
    .orderBy('effective_from')
    .orderBy('variant_id')
    .execute();
  for (const r of rows) {
    const list = found.get(r.subscription_id) ?? [];
    list.push({ variantId: r.variant_id, fromCents: Number(r.from_cents), toCents: Number(r.to_cents), effectiveFrom: r.effective_from });
    found.set(r.subscription_id, list);
  }
  return found;
}
