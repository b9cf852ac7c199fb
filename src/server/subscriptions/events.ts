import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { randomString } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import { SYSTEM_ACTOR, type OrderEventActor } from '../lib/actors.js';

/**
 * A subscription's timeline (issue [5/8]): each action of the customer, the owner or the schedule,
 * written in the transaction that makes it, so an event exists exactly when what it records does.
 * Rows are never updated or deleted. The customer sees the events in CUSTOMER_VISIBLE; the owner
 * sees all of them.
 */
export type SubscriptionEventType =
  | 'started'
  | 'reminded'
  | 'renewed'
  | 'renewal.failed'
  | 'renewal.waiting_stock'
  | 'skipped'
  | 'item.skipped'
  | 'item.unskipped'
  | 'extra.added'
  | 'extra.removed'
  | 'changed'
  | 'paused'
  | 'resumed'
  | 'delivered_now'
  | 'address.changed'
  | 'card.updated'
  | 'price.notice'
  | 'cancelled'
  | 'reactivated';

/** Who may see what: the owner sees everything; the customer these. */
export const CUSTOMER_VISIBLE_EVENTS: ReadonlySet<SubscriptionEventType> = new Set([
  'started',
  'renewed',
  'renewal.failed',
  'skipped',
  'item.skipped',
  'item.unskipped',
  'extra.added',
  'extra.removed',
  'changed',
  'paused',
  'resumed',
  'delivered_now',
  'address.changed',
  'card.updated',
  'price.notice',
  'cancelled',
  'reactivated',
]);

/** Who acted from an e-mail's link: the customer, not signed in. */
export const LINK_ACTOR: OrderEventActor = { userId: null, label: 'customer (e-mail link)' };

let sequence = 0;
function eventId(at: Date): string {
  sequence = (sequence + 1) % 36 ** 4;
  return `sev_${at.getTime().toString(36).padStart(9, '0')}${sequence.toString(36).padStart(4, '0')}${randomString(6)}`;
}

/** Appends one event to a subscription's timeline, inside the caller's transaction. */
export async function recordSubscriptionEvent(
  db: Kysely<Database> | Transaction<Database>,
  subscriptionId: string,
  type: SubscriptionEventType,
  actor: OrderEventActor = SYSTEM_ACTOR,
  data: Record<string, unknown> = {},
  at: Date = new Date(),
): Promise<void> {
  await db
    .insertInto('subscription_events')
    .values({
      id: eventId(at),
      subscription_id: subscriptionId,
      type,
      actor_user_id: actor.userId,
      actor_label: actor.label,
      data: JSON.stringify(data),
      created_at: at.toISOString(),
    })
    .execute();
}

export type SubscriptionEvent = {
  id: string;
  type: SubscriptionEventType;
  actor: string;
  data: Record<string, unknown>;
  createdAt: string;
};

/** Who did it, as the customer reads it: themselves, or the shop (its schedule or a person there). */
function customerActor(row: { actor_user_id: string | null; actor_label: string }, ownerUserId: string): string {
  return row.actor_user_id === ownerUserId || row.actor_label === LINK_ACTOR.label ? 'You' : 'The shop';
}

/**
 * The newest `limit` events of one subscription, newest first. For the customer (`forCustomer`, the
 * subscription's account) only the events they see, and people named as "You" or "The shop".
 */
export async function listSubscriptionEvents(
  db: Kysely<Database>,
  subscriptionId: string,
  { forCustomer, limit = 50 }: { forCustomer?: { userId: string }; limit?: number } = {},
): Promise<SubscriptionEvent[]> {
  let q = db.selectFrom('subscription_events').selectAll().where('subscription_id', '=', subscriptionId);
  if (forCustomer) q = q.where('type', 'in', [...CUSTOMER_VISIBLE_EVENTS]);
  const rows = await q.orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    type: r.type as SubscriptionEventType,
    actor: forCustomer ? customerActor(r, forCustomer.userId) : r.actor_label,
    data: parseJson<Record<string, unknown>>(r.data, {}),
    createdAt: r.created_at,
  }));
}

/** The timeline its customer sees: their account's own actions as "You" (404 for an unknown subscription). */
export async function customerTimeline(db: Kysely<Database>, subscriptionId: string): Promise<SubscriptionEvent[]> {
  const owner = await db.selectFrom('subscriptions').select('user_id').where('id', '=', subscriptionId).executeTakeFirst();
  if (!owner) return [];
  return listSubscriptionEvents(db, subscriptionId, { forCustomer: { userId: owner.user_id } });
}
