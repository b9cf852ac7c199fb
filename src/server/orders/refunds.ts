import type { Kysely, Selectable } from 'kysely';
import type { Database, OrdersTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { isPostgres } from '../db/query-helpers.js';
import { HttpError } from '../http/errors.js';
import { parseJson } from '../lib/json.js';
import { queueEmail } from '../email/outbox.js';
import type { LockedStock } from '../inventory/stock.js';
import { orderStockOut } from '../inventory/order-stock.js';
import type { ReturnLine } from '../../shared/schemas/inventory.js';
import { emailOnTimeline, recordOrderEvent, type OrderEventActor } from './events.js';
import { recordAudit } from '../audit/audit.js';
import { PaymentProviderError, type PaymentProviders } from '../payments/provider.js';
import { formatCents } from '../../shared/money.js';
import { giveBackCouponAndPoints } from './give-back.js';
import { changeStatusLocked } from './status-change.js';
import { hasShipped, lockOrderProducts, returnUnits, withVariant } from './order-units.js';
import { openRefund, type PendingRefund } from './open-refund.js';
import { ORDER_MONEY_MESSAGES, type RefundInput } from '../../shared/schemas/admin/order-money.js';
import { ORDER_STATE_MESSAGES } from '../../shared/schemas/admin/orders.js';
import type { RefundView } from '../../shared/schemas/orders.js';

/*
 * An order's refunds: asked (open-refund.ts), settled through the provider that took the money,
 * retried, and listed. The units a refund returns go back through order-units.ts; a sold-out
 * order's refund is sold-out-refund.ts; the payment state shown is payment-status.ts (decision 0009).
 */

type OrderRow = Selectable<OrdersTable>;

/** The app's payment providers (payments/providers.ts): a refund goes through the one that took the money. */
export type RefundDeps = { payments: PaymentProviders };

function refundView(r: Selectable<Database['refunds']>): RefundView {
  return {
    id: r.id,
    amountCents: Number(r.amount_cents),
    provider: r.provider,
    providerRefundId: r.provider_refund_id,
    status: r.status,
    reason: r.reason,
    restock: r.restock === 1,
    error: r.error,
    actor: r.actor_label,
    createdAt: r.created_at,
  };
}

/** An order's refunds, oldest first (every one asked, failed ones too). */
export async function listRefunds(db: Kysely<Database>, orderId: string): Promise<RefundView[]> {
  const rows = await db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).orderBy('created_at').orderBy('id').execute();
  return rows.map(refundView);
}

/** Stripe did not answer (after the SDK's retries under the same idempotency key): it may have refunded. */
class ProviderNoAnswer extends HttpError {
  constructor() {
    super(502, ORDER_MONEY_MESSAGES.providerNoAnswer);
  }
}

/**
 * Asks the provider that took the order's money to refund (payments/provider.ts): Stripe refunds the
 * session's payment; the test card page records a test refund (tre_…); a payment the owner recorded
 * (cash, bank transfer, card on the phone) is refunded by hand, under its own ids (man_…).
 */
async function askProvider(
  deps: RefundDeps,
  order: { id: string; payment_provider: string | null; payment_session_id: string | null },
  refundId: string,
  amountCents: number,
): Promise<string> {
  try {
    const outcome = await deps.payments.of(order.payment_provider).refund({
      orderId: order.id,
      refundId,
      sessionId: order.payment_session_id,
      amountCents,
      idempotencyKey: `refund-${refundId}`,
      metadata: { refundId },
    });
    return outcome.providerRefundId;
  } catch (err) {
    if (!(err instanceof PaymentProviderError)) throw err;
    if (err.kind === 'no_answer') throw new ProviderNoAnswer();
    if (err.kind === 'not_configured') throw new HttpError(409, ORDER_MONEY_MESSAGES.stripeNotConfigured);
    if (err.kind === 'no_payment') throw new HttpError(409, ORDER_MONEY_MESSAGES.noPayment);
    throw new HttpError(502, ORDER_MONEY_MESSAGES.providerFailed(err.message));
  }
}

/**
 * Refunds part or all of a paid order through its payment provider.
 *
 * 1. The order row is locked and the amount checked against what was paid less what is refunded
 *    or being refunded; the refund is written 'pending', so a second refund at the same moment
 *    sees it and can never take the total past what was paid.
 * 2. The provider is asked outside any transaction (idempotency key: the refund's id).
 * 3. In one transaction (products by id, then the order): the refund succeeds, the order's
 *    refunded sum and payment state follow, the units return to stock when asked (once), the
 *    timeline records it and the customer's e-mail is queued. A refusal marks the refund failed
 *    (kept, with the provider's message) and answers 502; no answer at all leaves it pending
 *    (its amount held back) and answers 502 saying so.
 */
export async function refundOrder(
  db: Kysely<Database>,
  deps: RefundDeps,
  orderId: string,
  input: RefundInput,
  actor: OrderEventActor,
  options: RefundOptions = {},
): Promise<{ refund: RefundView }> {
  const pending = await openRefund(db, orderId, input, actor);
  return settleRefund(db, deps, orderId, pending, actor, options);
}

export type RefundOptions = {
  /** The customer's e-mail: `order-refunded` unless given (the sold-out apology). */
  templateId?: string;
  variables?: Record<string, unknown>;
  /**
   * More of the same step, in the settling transaction after the refund is recorded, with the
   * order's products locked first: a cancel that refunds (orders/cancel-order.ts). It sends its own
   * e-mail, so the refund's is not queued.
   */
  alsoInTransaction?: (trx: Kysely<Database>, order: OrderRow, stock: Map<string, LockedStock>) => Promise<void>;
  /** false: a full refund leaves an unshipped order's status alone (the sold-out apology cancels it itself). */
  cancelUnshipped?: boolean;
};

/** How long after a refund was first asked a retry still reuses Stripe's idempotency key safely. */
const RETRY_WINDOW_MS = 23 * 60 * 60 * 1000;

/**
 * Asks the provider for a pending refund (again, for a retry: the same idempotency key, so Stripe
 * answers with the refund it made if the first request reached it, and makes it now if not), then
 * settles it. The settling transaction re-reads the refund under the order's lock: when two
 * requests settle the same refund, the second finds it settled and changes nothing.
 */
export async function settleRefund(
  db: Kysely<Database>,
  deps: RefundDeps,
  orderId: string,
  pending: PendingRefund,
  actor: OrderEventActor,
  options: RefundOptions = {},
): Promise<{ refund: RefundView }> {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  let providerRefundId: string;
  try {
    providerRefundId = await askProvider(
      deps,
      { id: orderId, payment_provider: pending.provider, payment_session_id: pending.payment_session_id },
      pending.id,
      pending.amountCents,
    );
  } catch (err) {
    if (err instanceof ProviderNoAnswer) {
      // Not known to have failed: the refund stays pending and its amount held back (so nothing
      // can be refunded twice) until a retry (same idempotency key) settles it.
      await db.updateTable('refunds').set({ error: err.message }).where('id', '=', pending.id).where('status', '=', 'pending').execute();
      throw err;
    }
    await db
      .updateTable('refunds')
      .set({
        status: 'failed',
        error: err instanceof HttpError ? err.message : 'The payment provider could not be reached',
        settled_at: new Date().toISOString(),
      })
      .where('id', '=', pending.id)
      .where('status', '=', 'pending')
      .execute();
    throw err;
  }

  await transactionWithRetry(db, async (trx) => {
    const stock =
      pending.returnLines.length || options.alsoInTransaction
        ? await lockOrderProducts(trx, dialect, orderId)
        : new Map<string, LockedStock>();
    const order = await forUpdate(trx.selectFrom('orders').selectAll().where('id', '=', orderId), dialect).executeTakeFirstOrThrow();
    const still = await trx.selectFrom('refunds').select('status').where('id', '=', pending.id).executeTakeFirst();
    if (still?.status !== 'pending') return;
    const at = new Date().toISOString();
    await trx
      .updateTable('refunds')
      .set({ status: 'succeeded', provider_refund_id: providerRefundId, settled_at: at, error: null })
      .where('id', '=', pending.id)
      .execute();
    const refunded = Number(order.refunded_cents) + pending.amountCents;
    const full = refunded >= Number(order.total_cents);
    await trx
      .updateTable('orders')
      .set({ refunded_cents: refunded, payment_status: full ? 'refunded' : 'paid', updated_at: at })
      .where('id', '=', orderId)
      .execute();
    order.refunded_cents = refunded;
    order.payment_status = full ? 'refunded' : 'paid';
    await recordOrderEvent(trx, orderId, 'refunded', actor, {
      refundId: pending.id,
      amountCents: pending.amountCents,
      refundedCents: refunded,
      full,
      provider: pending.provider,
      providerRefundId,
      ...(pending.reason ? { reason: pending.reason } : {}),
    });
    if (pending.returnLines.length) {
      // Checked when asked; a line another return emptied meanwhile gives back what is still out.
      const out = await orderStockOut(trx, orderId);
      const lines = pending.returnLines.map(withVariant).map((l) => ({
        ...l,
        quantity: Math.min(l.quantity, out.get(l.variantId)?.out ?? 0),
      }));
      await returnUnits(trx, order, stock, lines, actor, 'refunded');
    }
    // Refunded in full: the sale is undone, so its coupon use comes back and its points go (once).
    if (full) await giveBackCouponAndPoints(trx, order, actor, 'refunded');
    await recordAudit(trx, {
      by: { actorId: actor.userId, actingAsId: actor.actingAsUserId ?? null },
      action: 'order.refunded',
      targetUserId: order.user_id,
      details: { orderId, orderNumber: order.order_number, refundId: pending.id, amountCents: pending.amountCents, full },
    });
    if (options.alsoInTransaction) return options.alsoInTransaction(trx, order, stock);
    // Refunded in full before it shipped: nothing is left to send, so the order is cancelled (what
    // the owner chose to return stays as chosen; the refund's e-mail below is the customer's news).
    if (full && options.cancelUnshipped !== false && order.status !== 'cancelled' && !hasShipped(order) && order.label_state === null)
      await changeStatusLocked(trx, dialect, order, 'cancelled', stock, {
        actor,
        returnLines: [],
        notify: false,
        cause: ORDER_STATE_MESSAGES.cancelledByFullRefund,
      });
    const user = order.user_id
      ? await trx.selectFrom('users').select(['email', 'full_name']).where('id', '=', order.user_id).executeTakeFirst()
      : undefined;
    const to = order.email ?? user?.email;
    if (to) {
      const address = parseJson<{ name?: string } | string | null>(order.shipping_address, null);
      await queueEmail(trx, {
        to,
        order: emailOnTimeline(orderId, actor),
        templateId: options.templateId ?? 'order-refunded',
        variables: {
          ...options.variables,
          orderNumber: order.order_number,
          customerName: user?.full_name ?? (typeof address === 'object' && address?.name) ?? 'Customer',
          refundAmount: formatCents(pending.amountCents),
          refundedTotal: formatCents(refunded),
          total: formatCents(Number(order.total_cents)),
          refundKind: full ? 'in full' : 'in part',
        },
      });
    }
  });
  const row = await db.selectFrom('refunds').selectAll().where('id', '=', pending.id).executeTakeFirstOrThrow();
  return { refund: refundView(row) };
}

/**
 * Asks again for a refund the provider never answered (it stays pending, its amount held back):
 * under the same idempotency key, so it is made at most once whatever happened to the first request.
 */
export async function retryRefund(
  db: Kysely<Database>,
  deps: RefundDeps,
  orderId: string,
  refundId: string,
  actor: OrderEventActor,
): Promise<{ refund: RefundView }> {
  const row = await db
    .selectFrom('refunds as r')
    .innerJoin('orders as o', 'o.id', 'r.order_id')
    .select(['r.id', 'r.status', 'r.provider', 'r.amount_cents', 'r.return_lines', 'r.reason', 'r.created_at', 'o.payment_session_id'])
    .where('r.id', '=', refundId)
    .where('r.order_id', '=', orderId)
    .executeTakeFirst();
  if (!row) throw new HttpError(404, ORDER_MONEY_MESSAGES.refundNotFound);
  if (row.status !== 'pending') throw new HttpError(409, ORDER_MONEY_MESSAGES.refundSettled);
  // Stripe keeps an idempotency key for 24 hours: past that a retry could refund a second time.
  if (row.provider === 'stripe' && Date.now() - Date.parse(row.created_at) > RETRY_WINDOW_MS)
    throw new HttpError(409, ORDER_MONEY_MESSAGES.retryTooLate);
  return settleRefund(
    db,
    deps,
    orderId,
    {
      id: row.id,
      provider: row.provider,
      payment_session_id: row.payment_session_id,
      amountCents: Number(row.amount_cents),
      returnLines: parseJson<ReturnLine[]>(row.return_lines, []),
      reason: row.reason,
    },
    actor,
  );
}
