import type { Kysely, Selectable } from 'kysely';
import type { Database, OrdersTable, PaymentSessionsTable, StrayPaymentReason, StrayPaymentsTable } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { randomString } from '../lib/ids.js';
import { SYSTEM_ACTOR, type OrderEventActor } from '../lib/actors.js';
import { formatCents } from '../../shared/money.js';
import { STRAY_PAYMENT_TEXTS, type StrayPaymentList, type StrayPaymentView } from '../../shared/schemas/payments.js';
import type { ProviderPayment } from './provider.js';
import { PaymentProviderError, type PaymentProviders } from './provider.js';

/*
 * Payments that arrive for a checkout or a payment link the shop had already ended (issue [1/8],
 * decision 0039): the order was paid another way or cancelled, the session ended or was replaced,
 * or the total changed. Such a payment is never the order's and never dropped: it is recorded here
 * in the transaction that refused it (under the order's lock), refunded in full at once, and
 * whatever the provider does not refund stays on the order and the dashboard for the owner.
 */

type StrayRow = Selectable<StrayPaymentsTable>;
type Log = { warn: (o: object, msg: string) => void; error: (o: object, msg: string) => void };

/** The events a stray payment puts on its order's timeline. */
type StrayPaymentEvent = 'payment.stray' | 'payment.stray_refunded' | 'payment.stray_refund_failed' | 'payment.stray_settled';

/**
 * Writes one of them on the order's timeline, in the caller's transaction: orders/events.ts
 * `recordOrderEvent`, passed in by the caller (only orders/ writes an order's timeline, and
 * payments lie beneath orders).
 */
export type OrderTimeline = (
  trx: Kysely<Database>,
  orderId: string,
  type: StrayPaymentEvent,
  actor: OrderEventActor,
  data: Record<string, unknown>,
  at: Date,
) => Promise<void>;

/** How long a refund may stay unanswered before the payments worker asks again (same idempotency key). */
export const STRAY_REFUND_RETRY_MS = 60_000;

/**
 * Records a payment refused for its order (call it in the transaction that locked the order and
 * found the refusal): one row per provider session, so a webhook delivered twice records it once.
 * The id of the row, new or already there.
 */
export async function recordStrayPayment(
  trx: Kysely<Database>,
  rows: { order: Selectable<OrdersTable>; session: Selectable<PaymentSessionsTable> },
  reason: StrayPaymentReason,
  paid: ProviderPayment | null,
  now: Date,
  timeline: OrderTimeline,
): Promise<string> {
  const { order, session } = rows;
  const amountCents = paid?.amountCents ?? Number(session.amount_cents);
  const id = `stray_${randomString(16)}`;
  await trx
    .insertInto('stray_payments')
    .values({
      id,
      order_id: order.id,
      session_id: session.id,
      provider: session.provider,
      amount_cents: amountCents,
      payment_reference: paid?.reference ?? null,
      reason,
      status: 'refunding',
      provider_refund_id: null,
      error: null,
      created_at: now.toISOString(),
      settled_at: null,
      settled_by: null,
    })
    .onConflict((oc) => oc.column('session_id').doNothing())
    .execute();
  const kept = await trx.selectFrom('stray_payments').select('id').where('session_id', '=', session.id).executeTakeFirstOrThrow();
  if (kept.id !== id) return kept.id;
  await timeline(
    trx,
    order.id,
    'payment.stray',
    SYSTEM_ACTOR,
    {
      amountCents,
      reason,
      sessionId: session.id,
      provider: session.provider,
      text: STRAY_PAYMENT_TEXTS.headline(formatCents(amountCents), reason),
    },
    now,
  );
  return id;
}

/**
 * Refunds a stray payment in full at its provider, then records the outcome: refunded, or failed
 * with the provider's message (for the owner). Only a row 'refunding' is asked about: the first
 * attempt (just recorded), or one whose answer was lost (the worker asks again with the same
 * idempotency key, so nothing is refunded twice). The owner's retry of a failed one first claims
 * it ('failed' → 'refunding', a new attempt with a key of its own, since Stripe replays a key's
 * refusal for a day), so a settle-by-hand or a second retry at the same moment finds it taken.
 */
export async function refundStrayPayment(
  db: Kysely<Database>,
  providers: PaymentProviders,
  strayId: string,
  timeline: OrderTimeline,
  actor: OrderEventActor = SYSTEM_ACTOR,
  /** The owner's retry: 409 for one refunded, settled or being refunded already. */
  { onlyOpen = false }: { onlyOpen?: boolean } = {},
): Promise<StrayRow> {
  let row = await db.selectFrom('stray_payments').selectAll().where('id', '=', strayId).executeTakeFirst();
  if (!row) throw new HttpError(404, STRAY_PAYMENT_TEXTS.notFound);
  if (onlyOpen) {
    const claimed = await db
      .updateTable('stray_payments')
      .set((eb) => ({ status: 'refunding', refund_attempt: eb('refund_attempt', '+', 1) }))
      .where('id', '=', strayId)
      .where('status', '=', 'failed')
      .returningAll()
      .executeTakeFirst();
    if (!claimed) throw new HttpError(409, row.status === 'refunding' ? STRAY_PAYMENT_TEXTS.underWay : STRAY_PAYMENT_TEXTS.notOpen);
    row = claimed;
  } else if (row.status !== 'refunding') {
    return row;
  }
  const attempt = Number(row.refund_attempt);
  const outcome = await askProviderToRefund(db, providers, row, attempt);
  const at = new Date();
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('stray_payments')
      .set(
        outcome.status === 'refunded'
          ? { status: 'refunded', provider_refund_id: outcome.refundId, error: null, settled_at: at.toISOString() }
          : { status: 'failed', error: outcome.error },
      )
      .where('id', '=', strayId)
      // Money that moved is recorded even over a refusal of the same attempt that arrived first
      // (the worker asking at the same moment may get Stripe's "request in progress").
      .where('status', 'in', outcome.status === 'refunded' ? ['refunding', 'failed'] : ['refunding'])
      .where('refund_attempt', '=', attempt)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 1) {
      await timeline(
        trx,
        row.order_id,
        outcome.status === 'refunded' ? 'payment.stray_refunded' : 'payment.stray_refund_failed',
        actor,
        outcome.status === 'refunded'
          ? { amountCents: Number(row.amount_cents), providerRefundId: outcome.refundId }
          : { amountCents: Number(row.amount_cents), error: outcome.error },
        at,
      );
    }
    return trx.selectFrom('stray_payments').selectAll().where('id', '=', strayId).executeTakeFirstOrThrow();
  });
}

/** One attempt at the provider (Stripe's idempotency key names the row and the attempt). */
async function askProviderToRefund(
  db: Kysely<Database>,
  providers: PaymentProviders,
  row: StrayRow,
  attempt: number,
): Promise<{ status: 'refunded'; refundId: string } | { status: 'failed'; error: string }> {
  // The built-in card page takes no money for a refused payment: nothing can be owed.
  if (row.provider !== 'stripe') return { status: 'refunded', refundId: 'none' };
  try {
    const outcome = await providers.of(row.provider).refund({
      orderId: row.order_id,
      refundId: row.id,
      sessionId: row.session_id,
      reference: row.payment_reference,
      amountCents: null,
      idempotencyKey: `stray-${row.id}-${attempt}`,
      metadata: { strayPaymentId: row.id },
    });
    // Kept, so the next attempt asks Stripe nothing but the refund.
    if (outcome.reference && !row.payment_reference)
      await db.updateTable('stray_payments').set({ payment_reference: outcome.reference }).where('id', '=', row.id).execute();
    return { status: 'refunded', refundId: outcome.providerRefundId };
  } catch (err) {
    if (err instanceof PaymentProviderError) return { status: 'failed', error: err.message };
    return { status: 'failed', error: err instanceof Error ? err.message : 'The payment provider could not be reached' };
  }
}

/** Refunds asked but unanswered for a while (the process ended, the answer was lost): asked again by the payments worker. */
export async function retryUnansweredStrayRefunds(
  db: Kysely<Database>,
  providers: PaymentProviders,
  timeline: OrderTimeline,
  now = new Date(),
  log?: Log,
): Promise<number> {
  const due = await db
    .selectFrom('stray_payments')
    .select('id')
    .where('status', '=', 'refunding')
    .where('created_at', '<=', new Date(now.getTime() - STRAY_REFUND_RETRY_MS).toISOString())
    .orderBy('created_at')
    .limit(20)
    .execute();
  for (const { id } of due) {
    await refundStrayPayment(db, providers, id, timeline).catch((err: unknown) =>
      log?.error({ err, strayId: id }, 'stray payment refund failed'),
    );
  }
  return due.length;
}

/** The owner settled a failed one by hand: it leaves the dashboard, and the order's timeline says how. */
export async function settleStrayPayment(
  db: Kysely<Database>,
  strayId: string,
  note: string,
  actor: OrderEventActor,
  timeline: OrderTimeline,
): Promise<StrayRow> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('stray_payments').selectAll().where('id', '=', strayId).executeTakeFirst();
    if (!row) throw new HttpError(404, STRAY_PAYMENT_TEXTS.notFound);
    const at = new Date();
    const r = await trx
      .updateTable('stray_payments')
      .set({ status: 'settled', settled_at: at.toISOString(), settled_by: actor.label })
      .where('id', '=', strayId)
      .where('status', '=', 'failed')
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new HttpError(409, STRAY_PAYMENT_TEXTS.notOpen);
    await timeline(trx, row.order_id, 'payment.stray_settled', actor, { amountCents: Number(row.amount_cents), note }, at);
    return trx.selectFrom('stray_payments').selectAll().where('id', '=', strayId).executeTakeFirstOrThrow();
  });
}

function viewOf(r: StrayRow & { order_number: string }): StrayPaymentView {
  return {
    id: r.id,
    orderId: r.order_id,
    orderNumber: r.order_number,
    sessionId: r.session_id,
    provider: r.provider,
    amountCents: Number(r.amount_cents),
    reason: r.reason,
    status: r.status,
    providerRefundId: r.provider_refund_id,
    error: r.error,
    createdAt: r.created_at,
    settledAt: r.settled_at,
    settledBy: r.settled_by,
  };
}

const OPEN: StrayRow['status'][] = ['refunding', 'failed'];

/**
 * An order's stray payments (its detail), or the shop's open ones, newest first (the dashboard; at
 * most 50). Null for an order that does not exist.
 */
export async function listStrayPayments(
  db: Kysely<Database>,
  filter: { orderId: string } | { open: true },
): Promise<StrayPaymentList | null> {
  if ('orderId' in filter && !(await db.selectFrom('orders').select('id').where('id', '=', filter.orderId).executeTakeFirst())) return null;
  let q = db.selectFrom('stray_payments as p').innerJoin('orders as o', 'o.id', 'p.order_id').selectAll('p').select('o.order_number');
  q = 'orderId' in filter ? q.where('p.order_id', '=', filter.orderId) : q.where('p.status', 'in', OPEN);
  const [rows, open] = await Promise.all([
    q.orderBy('p.created_at', 'desc').limit(50).execute(),
    db
      .selectFrom('stray_payments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'in', OPEN)
      .$if('orderId' in filter, (w) => w.where('order_id', '=', (filter as { orderId: string }).orderId))
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(viewOf), openCount: Number(open.n) };
}

/** The stray payment a provider session took, for its payer's page (null when the payment was the order's). */
export async function strayPaymentOfSession(
  db: Kysely<Database>,
  sessionId: string,
): Promise<Pick<StrayRow, 'amount_cents' | 'status'> | null> {
  return (
    (await db.selectFrom('stray_payments').select(['amount_cents', 'status']).where('session_id', '=', sessionId).executeTakeFirst()) ??
    null
  );
}

/**
 * Sessions ended here whose provider's page may still take money (close_due): closed at Stripe
 * (`expire`), then unmarked. Any process may run it; a session Stripe no longer has open (paid,
 * expired, unknown) needs nothing more: a payment it took arrives by webhook and is refused and
 * refunded under the order's lock. Unreachable Stripe leaves the mark for the next turn.
 */
export async function closeDueProviderSessions(
  db: Kysely<Database>,
  providers: PaymentProviders,
  log?: Log,
  only?: string[],
): Promise<number> {
  let q = db.selectFrom('payment_sessions').select(['id', 'provider']).where('close_due', '=', 1);
  if (only) {
    if (only.length === 0) return 0;
    q = q.where('id', 'in', only);
  }
  const due = await q.limit(50).execute();
  let closed = 0;
  for (const s of due) {
    if ((await providers.of(s.provider).closePayment(s.id)) === 'retry') {
      log?.warn({ sessionId: s.id, provider: s.provider }, 'could not close an ended provider session; will try again');
      continue;
    }
    await db.updateTable('payment_sessions').set({ close_due: 0 }).where('id', '=', s.id).execute();
    closed++;
  }
  return closed;
}
