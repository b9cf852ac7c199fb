/**
 * Payment sessions as the payment routes read them: the provider's webhook and the built-in test
 * card page (./routes.ts), and the buyer's return from the payment page (checkout/routes.ts). The
 * sessions are written by checkout (checkout/service.ts) and fulfilled by checkout/fulfilment/.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, OrdersTable, PaymentSessionsTable } from '../db/schema.js';
import { CARD_MESSAGES } from './test-checkout-page.js';
import { compiledOnce } from '../db/compiled-once.js';
import { planOnce } from '../db/pg-connection.js';

type PaymentSessionRow = Selectable<PaymentSessionsTable>;

/**
 * Ends an order's open payment sessions (or the one named): the card page refuses them from now,
 * and one whose page the provider hosts is marked for closing there (closeDueProviderSessions), so
 * that whatever ends a checkout or a link also stops Stripe's page from taking money. Call it with
 * the order locked. The number of sessions ended.
 */
export async function endPaymentSessions(trx: Kysely<Database>, orderId: string, sessionId?: string, now = new Date()): Promise<number> {
  // Stripe closes its own page a minute after ours (checkout/service.ts PROVIDER_SESSION_TTL_MS): one past that needs no call.
  const stripeMayBeOpen = new Date(now.getTime() - 2 * 60_000).toISOString();
  let q = trx
    .updateTable('payment_sessions')
    .set({
      status: 'expired',
      close_due: sql<number>`case when provider = 'stripe' and expires_at > ${stripeMayBeOpen} then 1 else 0 end`,
    })
    .where('order_id', '=', orderId)
    .where('status', '=', 'open');
  if (sessionId) q = q.where('id', '=', sessionId);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export function findPaymentSession(db: Kysely<Database>, id: string): Promise<PaymentSessionRow | undefined> {
  return db.selectFrom('payment_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The session, which must exist (read again after the caller found it). */
export function getPaymentSession(db: Kysely<Database>, id: string): Promise<PaymentSessionRow> {
  return db.selectFrom('payment_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Whether the shop made a payment session of this id (a webhook may name one it never made). */
export async function isKnownPaymentSession(db: Kysely<Database>, id: string): Promise<boolean> {
  return Boolean(await db.selectFrom('payment_sessions').select('id').where('id', '=', id).executeTakeFirst());
}

export type PayableTestSession = {
  session: PaymentSessionRow;
  order: Pick<Selectable<OrdersTable>, 'id' | 'email' | 'payment_status' | 'payment_provider' | 'order_number' | 'origin'>;
  /** Why the card page takes no payment (paid already, or ended), or null while it does. */
  closed: string | null;
  /** The order has subscription lines (order_items.every_weeks): its payment keeps the card for the renewals. */
  keepsMethod: boolean;
};

/** The session and its order's payment state, one read (built once: compiled-once.ts). */
const payableTestSession = compiledOnce((db, v: { id: string }) =>
  db
    .selectFrom('payment_sessions as s')
    .innerJoin('orders as o', 'o.id', 's.order_id')
    .selectAll('s')
    .select([
      'o.email as order_email',
      'o.payment_status as order_payment_status',
      'o.payment_provider as order_payment_provider',
      'o.order_number as order_number',
      'o.total_cents as order_total_cents',
      'o.origin as order_origin',
    ])
    // Whether the payment keeps the card (a subscription line), in this statement rather than a read of its own.
    .select((eb) =>
      eb
        .exists(eb.selectFrom('order_items as i').select('i.id').whereRef('i.order_id', '=', 'o.id').where('i.every_weeks', 'is not', null))
        .as('order_keeps_method'),
    )
    .where('s.id', '=', v.id)
    .where('s.provider', '=', 'test'),
);

/** A session of the built-in test checkout with its order, or null for no such session. */
export async function findPayableTestSession(db: Kysely<Database>, id: string, now = new Date()): Promise<PayableTestSession | null> {
  // Planned once: a look-up by key whose plan for a join of orders' many indexes cost more than its run.
  const [row] = (await db.executeQuery(planOnce(payableTestSession(db, { id })))).rows;
  if (!row) return null;
  const {
    order_email,
    order_payment_status,
    order_payment_provider,
    order_number,
    order_total_cents,
    order_origin,
    order_keeps_method,
    ...session
  } = row;
  const order = {
    id: session.order_id,
    email: order_email,
    payment_status: order_payment_status,
    payment_provider: order_payment_provider,
    order_number,
    origin: order_origin,
  };
  let closed: string | null = null;
  if (order.payment_status === 'paid' || order.payment_status === 'refunded') closed = CARD_MESSAGES.paid;
  else if (session.status !== 'open' || session.expires_at <= now.toISOString()) closed = CARD_MESSAGES.expired;
  // A link for an amount the order no longer has (its total was edited) pays nothing.
  else if (Number(order_total_cents) !== Number(session.amount_cents)) closed = CARD_MESSAGES.expired;
  // PostgreSQL answers EXISTS as a boolean, SQLite as 0 or 1.
  return { session, order, closed, keepsMethod: Boolean(order_keeps_method) };
}

/**
 * A payment link's session as its payer may see it on coming back from the card page: the order's
 * number, the amount and whether the shop has recorded the payment yet. Null for an unknown
 * session or one that is not a link the shop sent (a checkout's own session shows its order page).
 */
export async function paymentLinkOutcome(
  db: Kysely<Database>,
  id: string,
): Promise<{ orderNumber: string; amountCents: number; email: string | null; paid: boolean; strayCents: number | null } | null> {
  const row = await db
    .selectFrom('payment_sessions as s')
    .innerJoin('orders as o', 'o.id', 's.order_id')
    .select(['s.amount_cents', 's.status', 'o.order_number', 'o.email', 'o.payment_status', 'o.id as order_id'])
    .where('s.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const sent = await db
    .selectFrom('order_events')
    .select('id')
    .where('order_id', '=', row.order_id)
    .where('type', '=', 'payment.link_sent')
    .limit(1)
    .executeTakeFirst();
  if (!sent) return null;
  // Its payment came after the order no longer needed it (paid another way, cancelled, re-priced): refunded, not the order's.
  const stray = await db.selectFrom('stray_payments').select('amount_cents').where('session_id', '=', id).executeTakeFirst();
  return {
    strayCents: stray ? Number(stray.amount_cents) : null,
    orderNumber: row.order_number,
    amountCents: Number(row.amount_cents),
    email: row.email,
    paid: row.status === 'complete',
  };
}
