import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { randomString } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import { accountActor, CUSTOMER_ACTOR, sessionActor, STRIPE_ACTOR, SYSTEM_ACTOR, type OrderEventActor } from '../lib/actors.js';
import { auditOrderEvent } from '../audit/audit.js';
import type { OrderTimelineEntry } from '../../shared/schemas/orders.js';
import type { EmailOrder } from '../email/outbox.js';
import type { SentOrderEmail } from '../email/delivery.js';
import { insertRows } from '../db/compiled-once.js';

/** The kinds of event an order's timeline holds. */
export type OrderEventType =
  | 'placed'
  | 'paid'
  | 'email.queued'
  | 'email.sent'
  | 'status.changed'
  | 'edited'
  | 'label.bought'
  | 'label.voided'
  | 'cancelled'
  | 'restocked'
  | 'refunded'
  | 'note'
  | 'viewed.impersonated'
  | 'stock.short'
  /** A cancelled order reopened: its units taken out of stock again (src/server/orders/order-units.ts). */
  | 'stock.taken'
  /** Loyalty points the order earned at payment, and their taking back on a full refund or a cancel (orders/give-back.ts). */
  | 'points.earned'
  | 'points.reversed'
  /** The order's coupon use given back on a full refund or a cancel. */
  | 'coupon.released'
  /** The owner e-mailed the customer a link to the card page for an order typed in by hand. */
  | 'payment.link_sent'
  /** The owner corrected the method of a payment they recorded by hand (owner-payments.ts; audited too). */
  | 'payment.method_corrected'
  /** A payment arrived for a checkout or link the shop had ended: not the order's, refunded (payments/stray-payments.ts). */
  | 'payment.stray'
  | 'payment.stray_refunded'
  | 'payment.stray_refund_failed'
  | 'payment.stray_settled'
  /** A renewal's card charged with the customer away was declined or wanted the customer (subscriptions/renewals.ts). */
  | 'renewal.declined';

// Who did it (lib/actors.ts), named here too for the order modules' callers.
export { accountActor, CUSTOMER_ACTOR, sessionActor, STRIPE_ACTOR, SYSTEM_ACTOR, type OrderEventActor };

/** Events of one millisecond keep the order they were recorded in (ids sort by time, then by this count). */
let sequence = 0;
function eventId(at: Date): string {
  sequence = (sequence + 1) % 36 ** 4;
  return `evt_${at.getTime().toString(36).padStart(9, '0')}${sequence.toString(36).padStart(4, '0')}${randomString(6)}`;
}

/** Events the customer's receipt shows; the rest are the owner's. */
const CUSTOMER_VISIBLE = new Set<OrderEventType>(['placed', 'paid', 'label.bought', 'refunded', 'cancelled']);

export type OrderEvent = {
  id: string;
  type: OrderEventType;
  actor: string;
  actorUserId: string | null;
  data: Record<string, unknown>;
  customerVisible: boolean;
  createdAt: string;
};

/**
 * Appends one event to an order's timeline, inside the caller's transaction, so the event exists
 * exactly when what it records does.
 */
export async function recordOrderEvent(...event: Parameters<typeof orderEventInsert>): Promise<void> {
  await orderEventInsert(...event).execute();
  await auditOrderEvent(event[0], event[1], event[2], event[3], event[4] ?? {}); // a person's status, cancel, label and impersonated-read events (audit/audit.ts)
}

/** recordOrderEvent's insert, not run yet: for writeTogether (db/query-helpers.ts). */
export function orderEventInsert(
  db: Kysely<Database> | Transaction<Database>,
  orderId: string,
  type: OrderEventType,
  actor: OrderEventActor,
  data: Record<string, unknown> = {},
  at: Date = new Date(),
  { customerVisible }: { customerVisible?: boolean } = {},
) {
  return insertRows(db, 'order_events', [
    {
      id: eventId(at),
      order_id: orderId,
      type,
      actor_user_id: actor.userId,
      actor_label: actor.label,
      data: JSON.stringify(data),
      customer_visible: (customerVisible ?? CUSTOMER_VISIBLE.has(type)) ? 1 : 0,
      created_at: at.toISOString(),
    },
  ]);
}

/**
 * Ties an e-mail to the order it is about (email/outbox.ts, `order`): the outbox row names the
 * order, and the timeline notes the e-mail, queued with it. Who caused it: the shop by default.
 */
export function emailOnTimeline(orderId: string, actor: OrderEventActor = SYSTEM_ACTOR): EmailOrder {
  return {
    id: orderId,
    note: (db, email) =>
      orderEventInsert(db, orderId, 'email.queued', actor, {
        emailId: email.id,
        templateId: email.templateId,
        to: email.to,
        subject: email.subject,
      }),
  };
}

/**
 * An order's e-mail was sent (email/delivery.ts, `onOrderEmailSent`, in the transaction that marks
 * it sent): the timeline says so. The order may have been deleted since (an unpaid one): then there
 * is no timeline to add to.
 */
export async function noteOrderEmailSent(trx: Kysely<Database>, email: SentOrderEmail): Promise<void> {
  const order = await trx.selectFrom('orders').select('id').where('id', '=', email.orderId).executeTakeFirst();
  if (!order) return;
  await recordOrderEvent(trx, email.orderId, 'email.sent', SYSTEM_ACTOR, {
    emailId: email.id,
    templateId: email.templateId,
    to: email.to,
    subject: email.subject,
  });
}

/** An order's timeline, newest first; `customerOnly` keeps what the customer's receipt shows. */
export async function listOrderEvents(
  db: Kysely<Database>,
  orderId: string,
  { customerOnly = false }: { customerOnly?: boolean } = {},
): Promise<OrderEvent[]> {
  let q = db.selectFrom('order_events').selectAll().where('order_id', '=', orderId);
  if (customerOnly) q = q.where('customer_visible', '=', 1);
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(500).execute();
  return rows.map((r) => ({
    id: r.id,
    type: r.type as OrderEventType,
    actor: r.actor_label,
    actorUserId: r.actor_user_id,
    data: parseJson<Record<string, unknown>>(r.data, {}),
    customerVisible: r.customer_visible === 1,
    createdAt: r.created_at,
  }));
}

/**
 * What the customer's receipt shows of an order's history, oldest first: placed, paid, shipped
 * (with its tracking number), refunded, cancelled. Nothing of who did it, nor the owner's notes.
 */
export async function customerTimeline(db: Kysely<Database>, orderId: string): Promise<OrderTimelineEntry[]> {
  return (await customerTimelines(db, [orderId])).get(orderId) ?? [];
}

/** The customer's timelines of several orders (a page of their order list), in one query. */
export async function customerTimelines(db: Kysely<Database>, orderIds: string[]): Promise<Map<string, OrderTimelineEntry[]>> {
  const out = new Map<string, OrderTimelineEntry[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return out;
  const rows = await db
    .selectFrom('order_events')
    .select(['order_id', 'type', 'data', 'created_at'])
    .where('order_id', 'in', orderIds)
    .where('customer_visible', '=', 1)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const entry = toTimelineEntry(r.type, parseJson<Record<string, unknown>>(r.data, {}), r.created_at);
    if (entry) out.get(r.order_id)?.push(entry);
  }
  return out;
}

function toTimelineEntry(type: string, data: Record<string, unknown>, at: string): OrderTimelineEntry | null {
  const amount = typeof data.amountCents === 'number' ? data.amountCents : null;
  const tracking = typeof data.trackingNumber === 'string' ? data.trackingNumber : null;
  const carrier = typeof data.carrierCode === 'string' ? data.carrierCode : null;
  if (type === 'placed') return { type: 'placed', at };
  if (type === 'paid') return { type: 'paid', at, amountCents: amount };
  if (type === 'label.bought' || (type === 'status.changed' && data.to === 'shipped'))
    return { type: 'shipped', at, trackingNumber: tracking, carrier };
  if (type === 'refunded') return { type: 'refunded', at, amountCents: amount };
  if (type === 'cancelled') return { type: 'cancelled', at };
  return null;
}
