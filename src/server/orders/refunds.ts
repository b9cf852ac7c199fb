import { sql, type Kysely, type Selectable } from 'kysely';
import type Stripe from 'stripe';
import { isStripeError } from '../payments/stripe-sdk.js';
import type { Database, OrdersTable } from '../db/schema.js';
import type { Dialect } from '../db/database.js';
import { forUpdate, transactionWithRetry } from '../db/locks.js';
import { isPostgres } from '../db/query-helpers.js';
import { HttpError } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import { queueEmail } from '../email/outbox.js';
import { heldUnits } from '../cart/service.js';
import { recordOrderEvent, type OrderEventActor } from './events.js';
import { recordAudit } from '../accounts/audit.js';
import { stripeFailureMessage } from '../payments/stripe.js';
import { formatCents } from '../../shared/money.js';
import { ORDER_MONEY_MESSAGES, type RefundInput } from '../../shared/schemas/admin.js';
import type { OrderPaymentStatus, RefundView } from '../../shared/schemas/orders.js';

/*
 * An order's money and stock after checkout: refunds (and their retry), the payment state shown
 * for a partly refunded order, units returned to or taken from stock on cancel, reopen and refund,
 * and deleting only orders that were never paid (decision 0009).
 */

type Trx = Kysely<Database>;
type OrderRow = Selectable<OrdersTable>;

/**
 * What the owner and the customer see as the payment state. A partly refunded order keeps
 * `payment_status = 'paid'` in the table (it is still paid: shippable, not to be fulfilled again),
 * and shows as 'partially_refunded' from its `refunded_cents`.
 */
export function paymentStatusOf(order: { payment_status: OrdersTable['payment_status']; refunded_cents: number }): OrderPaymentStatus {
  if (order.payment_status === 'paid' && Number(order.refunded_cents) > 0) return 'partially_refunded';
  return order.payment_status;
}

/** A payment was taken for the order (so its units left stock at payment and money may be refunded). */
export function wasPaid(order: { payment_status: OrdersTable['payment_status'] }): boolean {
  return order.payment_status === 'paid' || order.payment_status === 'refunded';
}

/** The order's units per product (products by id, the lock order). */
async function unitsOf(trx: Trx, orderId: string): Promise<{ productId: string; name: string; quantity: number }[]> {
  const rows = await trx
    .selectFrom('order_items')
    .select(['product_id', sql<string>`min(product_name)`.as('name'), sql<number | string>`sum(quantity)`.as('quantity')])
    .where('order_id', '=', orderId)
    .groupBy('product_id')
    .orderBy('product_id')
    .execute();
  return rows.map((r) => ({ productId: r.product_id, name: r.name, quantity: Number(r.quantity) }));
}

/**
 * Locks the products of the order's lines, by id: the first locks of the shop's one lock order
 * (docs/decisions/0005), taken before the order row by anything that may move the order's stock.
 * An order's lines never change after checkout, so reading them unlocked first is safe.
 */
export async function lockOrderProducts(trx: Trx, dialect: Dialect, orderId: string): Promise<void> {
  if (dialect !== 'postgres') return;
  const ids = (await unitsOf(trx, orderId)).map((u) => u.productId);
  if (ids.length) await trx.selectFrom('products').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/** Returns the order's units to stock, once (while `restocked_at` is null); true when it did. */
async function restock(trx: Trx, order: OrderRow, actor: OrderEventActor, cause: string): Promise<boolean> {
  if (order.restocked_at || !wasPaid(order)) return false;
  const units = await unitsOf(trx, order.id);
  if (units.length === 0) return false;
  const at = new Date().toISOString();
  for (const u of units) {
    await trx
      .updateTable('products')
      .set({ inventory: sql`inventory + ${u.quantity}`, updated_at: at })
      .where('id', '=', u.productId)
      .execute();
  }
  await trx.updateTable('orders').set({ restocked_at: at, updated_at: at }).where('id', '=', order.id).execute();
  order.restocked_at = at;
  await recordOrderEvent(trx, order.id, 'restocked', actor, {
    cause,
    units: units.map((u) => ({ productId: u.productId, name: u.name, quantity: u.quantity })),
  });
  return true;
}

/** Takes the order's units out of stock again (the order was reopened); 409 when what is left is too little. */
async function takeAgain(trx: Trx, order: OrderRow, actor: OrderEventActor, status: string): Promise<void> {
  if (!order.restocked_at) return;
  const units = await unitsOf(trx, order.id);
  const at = new Date();
  const held = await heldUnits(
    trx,
    units.map((u) => u.productId),
    at,
    order.id,
  );
  const stock = new Map(
    units.length
      ? (
          await trx
            .selectFrom('products')
            .select(['id', 'inventory'])
            .where(
              'id',
              'in',
              units.map((u) => u.productId),
            )
            .execute()
        ).map((p) => [p.id, p.inventory])
      : [],
  );
  for (const u of units) {
    const inventory = stock.get(u.productId);
    if (inventory === undefined) continue; // no longer in the catalogue: nothing to take
    const free = inventory - (held.get(u.productId) ?? 0);
    if (free < u.quantity) throw new HttpError(409, ORDER_MONEY_MESSAGES.notEnoughToReopen(u.name, u.quantity, Math.max(0, free), status));
  }
  for (const u of units) {
    await trx
      .updateTable('products')
      .set({ inventory: sql`inventory - ${u.quantity}`, updated_at: at.toISOString() })
      .where('id', '=', u.productId)
      .execute();
  }
  await trx.updateTable('orders').set({ restocked_at: null, updated_at: at.toISOString() }).where('id', '=', order.id).execute();
  order.restocked_at = null;
  await recordOrderEvent(trx, order.id, 'stock.taken', actor, {
    to: status,
    units: units.map((u) => ({ productId: u.productId, name: u.name, quantity: u.quantity })),
  });
}

/**
 * The stock side of a status change, inside the caller's transaction, after lockOrderProducts and
 * the order's own lock: cancelling a paid order returns its units (once, recorded as 'cancelled'
 * and 'restocked'); moving a restocked order out of cancelled takes them again, or refuses (409).
 */
export async function applyStatusStock(trx: Trx, order: OrderRow, status: OrdersTable['status'], actor: OrderEventActor): Promise<void> {
  if (order.status === status) return;
  if (status === 'cancelled') {
    await recordOrderEvent(trx, order.id, 'cancelled', actor, { from: order.status });
    await restock(trx, order, actor, 'cancelled');
  } else if (order.status === 'cancelled' && wasPaid(order)) {
    await takeAgain(trx, order, actor, status);
  }
}

type RefundDeps = { stripe: Stripe | null };

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

/** Asks the order's payment provider to refund; the built-in test provider records it without a remote call. */
async function askProvider(
  deps: RefundDeps,
  order: { id: string; payment_provider: string | null; payment_session_id: string | null },
  refundId: string,
  amountCents: number,
): Promise<string> {
  if (order.payment_provider === 'stripe') {
    if (!deps.stripe) throw new HttpError(409, ORDER_MONEY_MESSAGES.stripeNotConfigured);
    if (!order.payment_session_id) throw new HttpError(409, ORDER_MONEY_MESSAGES.noPayment);
    let paymentIntent: string | null;
    try {
      const session = await deps.stripe.checkout.sessions.retrieve(order.payment_session_id);
      paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
    } catch (err) {
      throw new HttpError(502, ORDER_MONEY_MESSAGES.providerFailed(stripeFailureMessage(err)));
    }
    if (!paymentIntent) throw new HttpError(409, ORDER_MONEY_MESSAGES.noPayment);
    try {
      const refund = await deps.stripe.refunds.create(
        { payment_intent: paymentIntent, amount: amountCents, metadata: { orderId: order.id, refundId } },
        { idempotencyKey: `refund-${refundId}` },
      );
      return refund.id;
    } catch (err) {
      if (isStripeError(err, 'StripeConnectionError')) throw new ProviderNoAnswer();
      throw new HttpError(502, ORDER_MONEY_MESSAGES.providerFailed(stripeFailureMessage(err)));
    }
  }
  return `tre_${refundId.replace(/^refund_/, '')}`;
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
): Promise<{ refund: RefundView }> {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  const pending = await transactionWithRetry(db, async (trx) => {
    const order = await forUpdate(trx.selectFrom('orders').selectAll().where('id', '=', orderId), dialect).executeTakeFirst();
    if (!order) throw new HttpError(404, ORDER_MONEY_MESSAGES.orderNotFound);
    if (!order.payment_provider || !wasPaid(order)) throw new HttpError(409, ORDER_MONEY_MESSAGES.notPaid);
    const inFlight = await trx
      .selectFrom('refunds')
      .select(sql<number | string | null>`sum(amount_cents)`.as('n'))
      .where('order_id', '=', orderId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    const left = Number(order.total_cents) - Number(order.refunded_cents) - Number(inFlight?.n ?? 0);
    if (left <= 0) throw new HttpError(400, ORDER_MONEY_MESSAGES.nothingLeft);
    if (input.amountCents > left)
      throw new HttpError(400, ORDER_MONEY_MESSAGES.tooMuch(input.amountCents, left, Number(order.total_cents)));
    const id = newId('refund');
    await trx
      .insertInto('refunds')
      .values({
        id,
        order_id: orderId,
        amount_cents: input.amountCents,
        provider: order.payment_provider,
        provider_refund_id: null,
        status: 'pending',
        reason: input.reason ?? null,
        restock: input.restock ? 1 : 0,
        error: null,
        actor_user_id: actor.userId,
        actor_label: actor.label,
        created_at: new Date().toISOString(),
        settled_at: null,
      })
      .execute();
    return { id, provider: order.payment_provider, payment_session_id: order.payment_session_id };
  });

  return settleRefund(
    db,
    deps,
    orderId,
    { ...pending, amountCents: input.amountCents, restock: Boolean(input.restock), reason: input.reason ?? null },
    actor,
  );
}

/** How long after a refund was first asked a retry still reuses Stripe's idempotency key safely. */
const RETRY_WINDOW_MS = 23 * 60 * 60 * 1000;

type PendingRefund = {
  id: string;
  provider: string;
  payment_session_id: string | null;
  amountCents: number;
  restock: boolean;
  reason: string | null;
};

/**
 * Asks the provider for a pending refund (again, for a retry: the same idempotency key, so Stripe
 * answers with the refund it made if the first request reached it, and makes it now if not), then
 * settles it. The settling transaction re-reads the refund under the order's lock: when two
 * requests settle the same refund, the second finds it settled and changes nothing.
 */
async function settleRefund(
  db: Kysely<Database>,
  deps: RefundDeps,
  orderId: string,
  pending: PendingRefund,
  actor: OrderEventActor,
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
    if (pending.restock) await lockOrderProducts(trx, dialect, orderId);
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
    if (pending.restock) await restock(trx, order, actor, 'refunded');
    await recordAudit(trx, {
      by: { actorId: actor.userId, actingAsId: actor.actingAsUserId ?? null },
      action: 'order.refunded',
      targetUserId: order.user_id,
      details: { orderId, orderNumber: order.order_number, refundId: pending.id, amountCents: pending.amountCents, full },
    });
    const user = order.user_id
      ? await trx.selectFrom('users').select(['email', 'full_name']).where('id', '=', order.user_id).executeTakeFirst()
      : undefined;
    const to = order.email ?? user?.email;
    if (to) {
      const address = parseJson<{ name?: string } | string | null>(order.shipping_address, null);
      await queueEmail(trx, {
        to,
        orderId,
        actor,
        templateId: 'order-refunded',
        variables: {
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
    .select(['r.id', 'r.status', 'r.provider', 'r.amount_cents', 'r.restock', 'r.reason', 'r.created_at', 'o.payment_session_id'])
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
      restock: Boolean(row.restock),
      reason: row.reason,
    },
    actor,
  );
}

/**
 * Paid orders stay on the books: only unpaid checkouts and orders the owner entered (no payment
 * provider, never paid) may be deleted. Their refunds and timeline go with them (a deletable
 * order has no refunds).
 */
export async function deleteOrderIfUnpaid(db: Kysely<Database>, orderId: string, actor: OrderEventActor): Promise<void> {
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  await transactionWithRetry(db, async (trx) => {
    const order = await forUpdate(
      trx.selectFrom('orders').select(['id', 'order_number', 'user_id', 'payment_status', 'refunded_cents']).where('id', '=', orderId),
      dialect,
    ).executeTakeFirst();
    if (!order) throw new HttpError(404, ORDER_MONEY_MESSAGES.orderNotFound);
    if (wasPaid(order) || Number(order.refunded_cents) > 0) throw new HttpError(409, ORDER_MONEY_MESSAGES.paidNotDeletable);
    const refunds = await trx.selectFrom('refunds').select('id').where('order_id', '=', orderId).limit(1).execute();
    if (refunds.length) throw new HttpError(409, ORDER_MONEY_MESSAGES.paidNotDeletable);
    await trx.deleteFrom('orders').where('id', '=', orderId).execute();
    // The order's timeline goes with it: who deleted it stays in the audit log.
    await recordAudit(trx, {
      by: { actorId: actor.userId, actingAsId: actor.actingAsUserId ?? null },
      action: 'order.deleted',
      targetUserId: order.user_id,
      details: { orderId, orderNumber: order.order_number },
    });
  });
}
