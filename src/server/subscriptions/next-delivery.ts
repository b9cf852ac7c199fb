import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { transactionWithRetry } from '../db/locks.js';
import { HttpError } from '../http/errors.js';
import { variantsForCheckout } from '../inventory/stock.js';
import { lineTitle, variantLabel } from '../../shared/variants.js';
import { SUBSCRIPTION_MESSAGES, type AddExtraInput, type SkipItemInput } from '../../shared/subscriptions.js';
import { afterAction, lockRenewing, nextDeliveryAt, openCycle, type Ctx } from './changes.js';
import { queueEmail } from '../email/outbox.js';
import { formatCents } from '../../shared/money.js';
import { parseJson } from '../lib/json.js';
import { renewalDateText, subscriptionLineText } from '../../shared/subscriptions.js';
import { newManageLink } from './manage-links.js';
import { priceRenewal } from './renewal-order.js';
import { readSubscriptionSettings } from './settings.js';
import { recordSubscriptionEvent } from './events.js';

/*
 * What the customer changes for the next delivery only (issue [5/8]): one item left out of it, or
 * a one-time item added to it. Both hold until that delivery is paid (renewals.ts,
 * closeNextDeliveryChoices) and are priced with it (renewal-order.ts, priceRenewal). Once the next
 * delivery's order is made (being charged, or waiting for payment after a decline), its lines are
 * fixed: these answer 409 rather than change what the customer pays for behind their back.
 */

/** The subscription locked (the schedule's lock order: the subscription first), and its next delivery still open to change. */
async function lockOpenDelivery(trx: Kysely<Database>, dialect: Dialect, id: string) {
  const sub = await lockRenewing(trx, dialect, id);
  const cycle = await openCycle(trx, sub.id);
  if (cycle && (cycle.order_id || cycle.status === 'charging')) throw new HttpError(409, SUBSCRIPTION_MESSAGES.deliveryFixed);
  return { sub, deliveryAt: nextDeliveryAt(sub, cycle) };
}

type Locked = Awaited<ReturnType<typeof lockOpenDelivery>>;

/** One change to the next delivery: in its own transaction, the subscription locked and the delivery still open to change. */
function onOpenDelivery(
  db: Kysely<Database>,
  dialect: Dialect,
  subscriptionId: string,
  change: (trx: Kysely<Database>, locked: Locked) => Promise<void>,
): Promise<void> {
  return transactionWithRetry(db, async (trx) => change(trx, await lockOpenDelivery(trx, dialect, subscriptionId)));
}

/** The e-mail confirming a change to the next delivery only: what it now brings and its total at today's prices. */
async function queueNextDeliveryEmail(trx: Kysely<Database>, { sub, deliveryAt }: Locked, change: string, ctx: Ctx) {
  await afterAction(trx, sub, ctx);
  const { now, publicUrl } = ctx;
  if (ctx.notify === false) return;
  const priced = await priceRenewal(trx, sub, await readSubscriptionSettings(trx));
  await queueEmail(trx, {
    to: sub.email,
    templateId: 'subscription-next-delivery',
    variables: {
      customerName: parseJson<{ name?: string } | null>(sub.shipping_address, null)?.name?.trim() || 'there',
      deliveryDate: renewalDateText(deliveryAt),
      change,
      items: priced.lines.map((l) => ({
        name: lineTitle(l.productName, l.variantLabel),
        quantity: l.quantity,
        terms: l.everyWeeks ? subscriptionLineText(sub.every_weeks, l.planDiscountPercent ?? 0) : 'Once',
        lineTotal: formatCents(l.priceCents * l.quantity),
      })),
      total: formatCents(priced.money.totalCents),
      manageUrl: await newManageLink(trx, sub.id, now, publicUrl),
    },
  });
}

/** Leaves one item out of the next delivery only (`skip`), or brings it back. Never the last item left: that is skipping the delivery. */
export async function skipItemNextDelivery(
  db: Kysely<Database>,
  dialect: Dialect,
  subscriptionId: string,
  { variantId, skip }: SkipItemInput,
  ctx: Ctx,
): Promise<void> {
  const { now, actor } = ctx;
  await onOpenDelivery(db, dialect, subscriptionId, async (trx, locked) => {
    const { sub } = locked;
    const items = await trx
      .selectFrom('subscription_items')
      .select(['variant_id', 'skip_next'])
      .where('subscription_id', '=', sub.id)
      .execute();
    const item = items.find((i) => i.variant_id === variantId);
    if (!item) throw new HttpError(400, SUBSCRIPTION_MESSAGES.itemUnknown);
    if ((item.skip_next === 1) === skip) return; // Already so: a second click or another tab.
    if (skip && items.filter((i) => i.skip_next === 0).length === 1) throw new HttpError(409, SUBSCRIPTION_MESSAGES.lastItem);
    await trx
      .updateTable('subscription_items')
      .set({ skip_next: skip ? 1 : 0 })
      .where('subscription_id', '=', sub.id)
      .where('variant_id', '=', variantId)
      .execute();
    const name = await itemName(trx, variantId);
    await recordSubscriptionEvent(trx, sub.id, skip ? 'item.skipped' : 'item.unskipped', actor, { variantId, name }, now);
    await queueNextDeliveryEmail(
      trx,
      locked,
      skip ? `${name ?? 'One item'} is left out of your next delivery only.` : `${name ?? 'The item'} is back in your next delivery.`,
      ctx,
    );
  });
}

const MAX_EXTRAS = 10;

async function itemName(trx: Kysely<Database>, variantId: string): Promise<string | null> {
  const [v] = await variantsForCheckout(trx, [variantId]);
  return v ? lineTitle(v.name, variantLabel(v.values)) : null;
}

/**
 * Adds a one-time item to the next delivery (or sets its quantity when it is there already): any
 * version on sale, at the shop's price, with enough stock now. It is checked again when the
 * delivery is priced: one that ran out meanwhile waits for the delivery after (the delivery is never held up for it).
 */
export async function addExtra(
  db: Kysely<Database>,
  dialect: Dialect,
  subscriptionId: string,
  { variantId, quantity }: AddExtraInput,
  ctx: Ctx,
): Promise<void> {
  const { now, actor } = ctx;
  await onOpenDelivery(db, dialect, subscriptionId, async (trx, locked) => {
    const { sub } = locked;
    const [v] = await variantsForCheckout(trx, [variantId]);
    const product = v ? await trx.selectFrom('products').select('status').where('id', '=', v.productId).executeTakeFirst() : undefined;
    if (!v || !v.enabled || !v.itemId || product?.status !== 'active') throw new HttpError(400, SUBSCRIPTION_MESSAGES.extraUnknown);
    const planned = await trx
      .selectFrom('subscription_items')
      .select('quantity')
      .where('subscription_id', '=', sub.id)
      .where('variant_id', '=', variantId)
      .where('skip_next', '=', 0)
      .executeTakeFirst();
    if (v.onHand - v.reserved < quantity + (planned?.quantity ?? 0)) throw new HttpError(409, SUBSCRIPTION_MESSAGES.extraShort);
    const existing = await trx.selectFrom('subscription_extras').select(['variant_id']).where('subscription_id', '=', sub.id).execute();
    const at = now.toISOString();
    if (existing.some((e) => e.variant_id === variantId)) {
      await trx
        .updateTable('subscription_extras')
        .set({ quantity })
        .where('subscription_id', '=', sub.id)
        .where('variant_id', '=', variantId)
        .execute();
    } else {
      if (existing.length >= MAX_EXTRAS) throw new HttpError(409, SUBSCRIPTION_MESSAGES.extraTooMany);
      await trx
        .insertInto('subscription_extras')
        .values({ subscription_id: sub.id, product_id: v.productId, variant_id: variantId, quantity, created_at: at })
        .execute();
    }
    await recordSubscriptionEvent(
      trx,
      sub.id,
      'extra.added',
      actor,
      { variantId, name: lineTitle(v.name, variantLabel(v.values)), quantity, unitPriceCents: v.priceCents },
      now,
    );
    await queueNextDeliveryEmail(trx, locked, `${lineTitle(v.name, variantLabel(v.values))} × ${quantity} rides along once.`, ctx);
  });
}

/** Takes a one-time item off the next delivery. */
export async function removeExtra(
  db: Kysely<Database>,
  dialect: Dialect,
  subscriptionId: string,
  variantId: string,
  ctx: Ctx,
): Promise<void> {
  const { now, actor } = ctx;
  await onOpenDelivery(db, dialect, subscriptionId, async (trx, locked) => {
    const { sub } = locked;
    const gone = await trx
      .deleteFrom('subscription_extras')
      .where('subscription_id', '=', sub.id)
      .where('variant_id', '=', variantId)
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0) throw new HttpError(404, SUBSCRIPTION_MESSAGES.extraNotFound);
    const name = await itemName(trx, variantId);
    await recordSubscriptionEvent(trx, sub.id, 'extra.removed', actor, { variantId, name }, now);
    await queueNextDeliveryEmail(trx, locked, `${name ?? 'The one-time item'} is taken off your next delivery.`, ctx);
  });
}
